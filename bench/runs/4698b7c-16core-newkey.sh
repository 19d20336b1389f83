#!/bin/bash
# Third device run of the eighth 16-core session: new keys under
# RunParallel at GOMAXPROCS 8 and 16 through bench/'s harness, its new-key
# counter now taken in blocks of 64 keys, sluice beside its mutex twin and
# x/time/rate in turns (a process each), then the root's
# BenchmarkAllowNewKey at 16 with the default stripe count and four times
# it (ABBA). Run from the repository root with out/dev/bench.test and
# out/dev/root.test (CGO_ENABLED=0 go test -c).
set -u
B=out/dev/bench.test; R=out/dev/root.test
T0=$SECONDS; ROUNDS=${ROUNDS:-6}
for r in $(seq 1 $ROUNDS); do
  echo "# round $r" >> $OUT/newkey.txt
  for im in sluice sluice-mutex x-time-rate; do
    $B -test.run '^$' -test.bench "Limiters/scenario=new-key/impl=$im\$/mode=parallel\$" \
      -test.cpu 8,16 -test.benchtime 200ms >> $OUT/newkey.txt 2>&1
  done
  echo "[$((SECONDS-T0))s] newkey round $r" >> $OUT/progress.txt
done
one() {
  $R -test.run '^$' -test.bench "AllowNewKey/impl=sluice/clock=default/stripes=$1/mode=parallel\$" \
    -test.cpu 16 -test.benchtime 200ms >> $OUT/stripes.txt 2>&1
}
for r in $(seq 1 $ROUNDS); do
  echo "# round $r" >> $OUT/stripes.txt
  if [ $((r % 2)) = 1 ]; then one 4p; one 16p; else one 16p; one 4p; fi
  echo "[$((SECONDS-T0))s] stripes round $r" >> $OUT/progress.txt
done
echo done >> $OUT/progress.txt
