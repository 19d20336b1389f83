#!/bin/bash
# Device run: the suite's two-core figures on two pinned cores of a 16-core
# machine, the sharing benchmark, and the parallel half's GOMAXPROCS sweep.
# "run.sh sweep 2 3" runs only the sweep, as rounds 2 and 3 (the second
# device run; it took new-key before keys-1M and zipf-1M).
set -u
B=out/dev/bench.test; R=out/dev/root.test
T0=$SECONDS; BUDGET=${BUDGET:-420}; BT=${BT:-200ms}
left() { echo $(( BUDGET - (SECONDS - T0) )); }
log() { echo "[$((SECONDS-T0))s] $*" | tee -a $OUT/progress.txt; }
# sweep ROUND MINLEFT: the parallel half at GOMAXPROCS 1-16, unpinned, one
# process per scenario and implementation so a 1M fill serves every count
sweep() {
  echo "# round $1" >> $OUT/scaling.txt
  for sc in keys-1k hot-allow hot-deny keys-1M zipf-1M new-key; do
    for im in sluice sluice-coarse sluice-mutex floor x-time-rate go-limiter; do
      [ $(left) -lt $2 ] && { log "skip round $1 $sc $im"; continue; }
      $B -test.run '^$' -test.bench "Limiters/scenario=$sc/impl=$im\$/mode=parallel\$" \
        -test.cpu 1,2,4,8,16 -test.benchtime $BT >> $OUT/scaling.txt 2>&1
    done
    log "round $1 sweep $sc"
  done
}
if [ "${1:-}" = sweep ]; then shift; for r in "$@"; do sweep $r 20; done; log done; exit 0; fi
{
  date -u; uname -a; nproc; lscpu
  echo clocksource: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
  for c in $(seq 0 $(( $(nproc) - 1 ))); do
    d=/sys/devices/system/cpu/cpu$c/topology
    echo cpu$c pkg=$(cat $d/physical_package_id) core=$(cat $d/core_id) sib=$(cat $d/thread_siblings_list)
  done
  free -g; cat /sys/fs/cgroup/cpu.max 2>/dev/null; taskset -p $$
} > $OUT/machine.txt 2>&1
# two cores that are not SMT siblings, and cpu0's sibling if it has one
A=0; SIB=""; OTHER=""
sibs=$(cat /sys/devices/system/cpu/cpu0/topology/thread_siblings_list)
pkg0=$(cat /sys/devices/system/cpu/cpu0/topology/physical_package_id)
for c in $(seq 1 $(( $(nproc) - 1 ))); do
  d=/sys/devices/system/cpu/cpu$c/topology
  if grep -qE "(^|[,-])$c($|[,-])" <<<"$sibs" || [ "$(cat $d/core_id)" = "$(cat /sys/devices/system/cpu/cpu0/topology/core_id)" ]; then
    [ -z "$SIB" ] && SIB=$c
  elif [ -z "$OTHER" ] && [ "$(cat $d/physical_package_id)" = "$pkg0" ]; then OTHER=$c; fi
done
log "pair=$A,$OTHER sibling=${SIB:-none}"
echo "pair=$A,$OTHER sibling=${SIB:-none}" >> $OUT/machine.txt
K1='Limiters/scenario=keys-1k/impl=(sluice|sluice-coarse|floor|x-time-rate)$/mode='
TGT='Limiters/scenario=(hot-allow|keys-1M)/impl=(sluice|sluice-coarse|floor|x-time-rate|go-limiter)$/mode='
one() { # $1 cpus, $2 file, $3 bench regex, $4 GOMAXPROCS list
  taskset -c $1 $B -test.run '^$' -test.bench "$3" -test.cpu $4 -test.benchtime $BT >> $OUT/$2 2>&1
}
# 1. 1k keys on two pinned distinct cores, 5 rounds
for r in 1 2 3 4 5; do
  echo "# round $r" >> $OUT/pair-1k.txt
  one $A,$OTHER pair-1k.txt "${K1}serial$" 1
  one $A,$OTHER pair-1k.txt "${K1}parallel$" 2
  one $A,$OTHER pair-1k.txt "Machine/" 1,2
  log "pair-1k round $r"
done
# 2. sharing within one limiter, pinned pair, 3 rounds
for r in 1 2 3; do
  taskset -c $A,$OTHER $R -test.run '^$' -test.bench 'AllowKeysSharing' -test.cpu 2 -test.benchtime ${BT2:-300ms} >> $OUT/pair-sharing.txt 2>&1
  log "pair-sharing round $r"
done
# 3. SMT siblings, 3 rounds (if any)
if [ -n "$SIB" ]; then for r in 1 2 3; do
  echo "# round $r" >> $OUT/sib-1k.txt
  one $A,$SIB sib-1k.txt "${K1}serial$" 1
  one $A,$SIB sib-1k.txt "${K1}parallel$" 2
  one $A,$SIB sib-1k.txt "Machine/" 1,2
  log "sib-1k round $r"
done; fi
# 4. the other targets' scenarios on the pinned pair, 1 round
one $A,$OTHER pair-targets.txt "${TGT}serial$" 1
one $A,$OTHER pair-targets.txt "${TGT}parallel$" 2
log "pair-targets"
# 5. the sweep, round 1
sweep 1 40
# 6. more pinned 1k rounds while time is left
r=6; while [ $(left) -gt 25 ]; do
  echo "# round $r" >> $OUT/pair-1k.txt
  one $A,$OTHER pair-1k.txt "${K1}serial$" 1
  one $A,$OTHER pair-1k.txt "${K1}parallel$" 2
  log "pair-1k round $r"; r=$((r+1))
done
log done
