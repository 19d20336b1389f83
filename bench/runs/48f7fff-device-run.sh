#!/bin/bash
# Device run at 48f7fff (engine of bdd361b): the two-core target on pinned
# pairs of a 16-core machine, a pair that shares cpu0's last-level cache
# and, where the machine has more than one, a pair that does not; the
# sharing benchmark; the other targets' scenarios on the pinned pair; one
# round of the parallel half's GOMAXPROCS sweep; then more pinned rounds.
# Run from the repository root with the two binaries in out/dev/.
set -u
B=out/dev/bench.test; R=out/dev/root.test
T0=$SECONDS; BUDGET=${BUDGET:-420}; BT=${BT:-200ms}
left() { echo $(( BUDGET - (SECONDS - T0) )); }
log() { echo "[$((SECONDS-T0))s] $*" | tee -a $OUT/progress.txt; }
top=/sys/devices/system/cpu
{
  date -u; uname -a; nproc; lscpu
  echo clocksource: $(cat $top/clocksource/clocksource0/current_clocksource)
  for c in $(seq 0 $(( $(nproc) - 1 ))); do
    d=$top/cpu$c/topology
    echo cpu$c pkg=$(cat $d/physical_package_id) core=$(cat $d/core_id) sib=$(cat $d/thread_siblings_list) \
      llc=$(cat $top/cpu$c/cache/index3/shared_cpu_list 2>/dev/null)
  done
  free -g; cat /sys/fs/cgroup/cpu.max 2>/dev/null; taskset -p $$
} > $OUT/machine.txt 2>&1
# in a cpu list such as 0-7,16-23, is $2 there?
inlist() { local IFS=,; for r in $1; do
  lo=${r%-*}; hi=${r#*-}; [ $2 -ge $lo ] && [ $2 -le $hi ] && return 0; done; return 1; }
sibs=$(cat $top/cpu0/topology/thread_siblings_list)
llc0=$(cat $top/cpu0/cache/index3/shared_cpu_list 2>/dev/null || echo 0-$(( $(nproc) - 1 )))
NEAR=""; FAR=""
for c in $(seq 1 $(( $(nproc) - 1 ))); do
  inlist "$sibs" $c && continue
  if inlist "$llc0" $c; then [ -z "$NEAR" ] && NEAR=$c; else [ -z "$FAR" ] && FAR=$c; fi
done
log "near=0,$NEAR far=${FAR:+0,$FAR} llc0=$llc0 sibs=$sibs"
echo "near=0,$NEAR far=${FAR:+0,$FAR}" >> $OUT/machine.txt
# sweep ROUND: the parallel half at GOMAXPROCS 1-16, unpinned, a process per
# scenario and implementation (a 1M fill serves every count)
sweep() {
  echo "# round $1" >> $OUT/sweep.txt
  cpus=1; c=1; while [ $((c*2)) -le $(nproc) ]; do c=$((c*2)); cpus=$cpus,$c; done
  for sc in keys-1k hot-allow hot-deny new-key keys-1M zipf-1M; do
    for im in sluice sluice-coarse sluice-mutex floor x-time-rate go-limiter; do
      [ $(left) -lt 45 ] && { log "skip sweep $1 $sc $im"; continue; }
      $B -test.run '^$' -test.bench "Limiters/scenario=$sc/impl=$im\$/mode=parallel\$" \
        -test.cpu $cpus -test.benchtime $BT >> $OUT/sweep.txt 2>&1
    done
    log "sweep $1 $sc"
  done
}
K1='Limiters/scenario=keys-1k/impl=(sluice|sluice-coarse|floor|x-time-rate)$/mode='
TGT='Limiters/scenario=(hot-allow|keys-1M)/impl=(sluice|sluice-coarse|floor|x-time-rate|go-limiter)$/mode='
one() { # $1 cpus, $2 file, $3 bench regex, $4 GOMAXPROCS list
  taskset -c $1 $B -test.run '^$' -test.bench "$3" -test.cpu $4 -test.benchtime $BT >> $OUT/$2 2>&1
}
pair() { # $1 cpus, $2 file, $3 round, $4 machine too
  echo "# round $3" >> $OUT/$2
  one $1 $2 "${K1}serial$" 1
  one $1 $2 "${K1}parallel$" 2
  [ -n "$4" ] && one $1 $2 "Machine/" 1,2
  log "$2 round $3"
}
# "run.sh more R1 R2 ...": the sweep's rounds R1, R2, ... then pinned 1k
# rounds with BenchmarkMachine in each (the second device run)
if [ "${1:-}" = more ]; then shift
  for r in "$@"; do sweep $r; done
  r=101; while [ $(left) -gt 30 ]; do pair 0,$NEAR pair-1k.txt $r m; r=$((r+1)); done
  log done; exit 0
fi
# 1. 1k keys on the pinned pairs, 4 rounds each, alternating
for r in 1 2 3 4; do
  pair 0,$NEAR pair-1k.txt $r m
  [ -n "$FAR" ] && pair 0,$FAR far-1k.txt $r m
done
# 2. sharing within one limiter, the near pair, 2 rounds
for r in 1 2; do
  taskset -c 0,$NEAR $R -test.run '^$' -test.bench 'AllowKeysSharing' -test.cpu 2 -test.benchtime 300ms >> $OUT/pair-sharing.txt 2>&1
  log "pair-sharing round $r"
done
# 3. the other targets' scenarios on the near pair, 1 round
one 0,$NEAR pair-targets.txt "${TGT}serial$" 1
one 0,$NEAR pair-targets.txt "${TGT}parallel$" 2
log "pair-targets"
# 4. the sweep, one round
sweep 1
# 5. more pinned 1k rounds while time is left
r=5; while [ $(left) -gt 30 ]; do
  pair 0,$NEAR pair-1k.txt $r ""
  [ -n "$FAR" ] && [ $(left) -gt 20 ] && pair 0,$FAR far-1k.txt $r ""
  r=$((r+1))
done
log done
