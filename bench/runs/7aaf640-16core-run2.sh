#!/bin/bash
# Device run 2: more rounds of the 16-core sweep (one process per scenario
# and implementation, as in bench/runs/7aaf640-16core-run.sh, step 5).
set -u
B=out/dev/bench.test
T0=$SECONDS; BUDGET=${BUDGET:-300}; BT=${BT:-200ms}
left() { echo $(( BUDGET - (SECONDS - T0) )); }
log() { echo "[$((SECONDS-T0))s] $*" | tee -a $OUT/progress.txt; }
for r in 2 3; do
  echo "# round $r" >> $OUT/scaling.txt
  for sc in keys-1k hot-allow hot-deny new-key keys-1M zipf-1M; do
    for im in sluice sluice-coarse sluice-mutex floor x-time-rate go-limiter; do
      [ $(left) -lt 20 ] && { log "skip round $r $sc $im"; continue; }
      $B -test.run '^$' -test.bench "Limiters/scenario=$sc/impl=$im\$/mode=parallel\$" \
        -test.cpu 1,2,4,8,16 -test.benchtime $BT >> $OUT/scaling.txt 2>&1
    done
    log "round $r sweep $sc"
  done
done
log done
