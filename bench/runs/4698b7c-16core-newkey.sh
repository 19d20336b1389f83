#!/bin/bash
# Third device run of the eighth 16-core session: new keys under
# RunParallel at GOMAXPROCS 8 and 16 through bench/'s harness, its new-key
# counter now taken in blocks of 64 keys, sluice beside its mutex twin and
# x/time/rate in turns (a process each), then the root's
# BenchmarkAllowNewKey at 16 with the default stripe count and four times
# it (ABBA), through ddcea20-16core-stripes.sh (whose progress times
# count from its own start; the run kept ran its own copy of that loop).
# Run from the repository root with out/dev/bench.test and
# out/dev/root.test (CGO_ENABLED=0 go test -c).
set -u
B=out/dev/bench.test
T0=$SECONDS; ROUNDS=${ROUNDS:-6}
for r in $(seq 1 $ROUNDS); do
  echo "# round $r" >> $OUT/newkey.txt
  for im in sluice sluice-mutex x-time-rate; do
    $B -test.run '^$' -test.bench "Limiters/scenario=new-key/impl=$im\$/mode=parallel\$" \
      -test.cpu 8,16 -test.benchtime 200ms >> $OUT/newkey.txt 2>&1
  done
  echo "[$((SECONDS-T0))s] newkey round $r" >> $OUT/progress.txt
done
ROUNDS=$ROUNDS CPUS=16 bash bench/runs/ddcea20-16core-stripes.sh
