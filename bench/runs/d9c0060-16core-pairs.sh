#!/bin/bash
# Second device run at d9c0060 (engine of bdd361b): does the pair of cores
# matter? 1,000 keys, serial at GOMAXPROCS 1 and parallel at 2, on the pinned
# pairs 0,1 / 0,8 / 0,15 in turn, rounds until 230 s are spent. Run from the
# repository root with out/dev/bench.test (CGO_ENABLED=0 go test -c ./bench).
B=out/dev/bench.test
K1='Limiters/scenario=keys-1k/impl=(sluice|sluice-coarse|floor|x-time-rate)$/mode='
T0=$SECONDS; r=1
while [ $((SECONDS-T0)) -lt 230 ]; do
  for p in 1 8 15; do
    echo "# round $r" >> $OUT/pair-0-$p.txt
    taskset -c 0,$p $B -test.run '^$' -test.bench "${K1}serial$" -test.cpu 1 -test.benchtime 200ms >> $OUT/pair-0-$p.txt 2>&1
    taskset -c 0,$p $B -test.run '^$' -test.bench "${K1}parallel$" -test.cpu 2 -test.benchtime 200ms >> $OUT/pair-0-$p.txt 2>&1
  done
  r=$((r+1))
done
echo rounds $r
