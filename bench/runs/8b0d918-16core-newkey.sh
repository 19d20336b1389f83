#!/bin/bash
# Fourth device run of the eighth 16-core session: new keys under
# RunParallel at GOMAXPROCS 4, 8 and 16 through bench/'s harness, sluice
# at the default stripe count and at 16·GOMAXPROCS (sluice-stripes) beside
# x/time/rate and the mutex twin, a process each, in turns (the order
# rotated each round). Run from the repository root with
# out/dev/bench.test (CGO_ENABLED=0 go test -c ./bench).
set -u
B=out/dev/bench.test
T0=$SECONDS; ROUNDS=${ROUNDS:-6}
impls=(sluice sluice-stripes x-time-rate sluice-mutex)
for r in $(seq 1 $ROUNDS); do
  echo "# round $r" >> $OUT/newkey.txt
  for k in 0 1 2 3; do
    im=${impls[$(( (k + r - 1) % 4 ))]}
    $B -test.run '^$' -test.bench "Limiters/scenario=new-key/impl=$im\$/mode=parallel\$" \
      -test.cpu 4,8,16 -test.benchtime 200ms >> $OUT/newkey.txt 2>&1
  done
  echo "[$((SECONDS-T0))s] newkey round $r" >> $OUT/progress.txt
done
echo done >> $OUT/progress.txt
