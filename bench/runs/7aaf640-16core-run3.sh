#!/bin/bash
# Device run 3: new keys at 16 cores, sluice beside its mutex twin: 4
# alternating rounds without profiling, then one profiled run of each.
set -u
B=out/dev/bench.test
for r in 1 2 3 4; do
  for im in sluice sluice-mutex x-time-rate; do
    $B -test.run '^$' -test.bench "Limiters/scenario=new-key/impl=$im\$/mode=parallel\$" -test.cpu 16 -test.benchtime 200ms >> $OUT/newkey16.txt 2>&1
  done
done
for im in sluice sluice-mutex; do
  $B -test.run '^$' -test.bench "Limiters/scenario=new-key/impl=$im\$/mode=parallel\$" -test.cpu 16 -test.benchtime 1s \
    -test.cpuprofile $OUT/$im.cpu.pprof -test.blockprofile $OUT/$im.block.pprof -test.mutexprofile $OUT/$im.mutex.pprof >> $OUT/profiled.txt 2>&1
done
echo done
