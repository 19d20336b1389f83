#!/bin/bash
# Second device run of the eighth 16-core session: new keys under
# RunParallel at GOMAXPROCS 4, 8 and 16, with the default stripe count
# (4·GOMAXPROCS) and four times it, a process each, in turns (ABBA), to
# measure the 16-core sessions' untried remedy for the stripe locks' wait.
# Run from the repository root with out/dev/root.test (CGO_ENABLED=0 go
# test -c . at the commit that adds BenchmarkAllowNewKey's parallel mode).
# CPUS sets the GOMAXPROCS list (4698b7c-16core-newkey.sh runs it at 16).
set -u
R=out/dev/root.test
T0=$SECONDS; ROUNDS=${ROUNDS:-8}; CPUS=${CPUS:-4,8,16}
one() {
  $R -test.run '^$' -test.bench "AllowNewKey/impl=sluice/clock=default/stripes=$1/mode=parallel\$" \
    -test.cpu $CPUS -test.benchtime 200ms >> $OUT/stripes.txt 2>&1
}
for r in $(seq 1 $ROUNDS); do
  echo "# round $r" >> $OUT/stripes.txt
  if [ $((r % 2)) = 1 ]; then one 4p; one 16p; else one 16p; one 4p; fi
  echo "[$((SECONDS-T0))s] stripes round $r" >> $OUT/progress.txt
done
echo done >> $OUT/progress.txt
