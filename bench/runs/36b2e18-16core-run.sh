#!/bin/bash
# Device run at 36b2e18 (engine of fe6ad05: AllowN finds the key through
# locate and decides on the caller's clock reading): first Allow and AllowN
# on one hot key under RunParallel at GOMAXPROCS 1-16, three rounds taking
# turns (AllowN changed since the fifth 16-core session), then the third
# session's script as it is with the time left. Run from the repository root
# with out/dev/bench.test and out/dev/root.test (CGO_ENABLED=0 go test -c).
set -u
T0=$SECONDS; TOTAL=${TOTAL:-400}
R=out/dev/root.test
cpus=1; c=1; while [ $((c*2)) -le $(nproc) ]; do c=$((c*2)); cpus=$cpus,$c; done
for r in 1 2 3; do
  echo "# round $r" >> $OUT/allown.txt
  $R -test.run '^$' -test.bench 'Allow$/impl=sluice/clock=(default|coarse)/keylen=13/mode=parallel$' \
    -test.cpu $cpus -test.benchtime 200ms >> $OUT/allown.txt 2>&1
  $R -test.run '^$' -test.bench 'AllowN$/impl=sluice/clock=(default|coarse)/mode=parallel$' \
    -test.cpu $cpus -test.benchtime 200ms >> $OUT/allown.txt 2>&1
  echo "[$((SECONDS-T0))s] allown round $r" >> $OUT/progress.txt
done
BUDGET=$(( TOTAL - (SECONDS - T0) )) bash bench/runs/48f7fff-device-run.sh
