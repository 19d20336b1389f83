#!/bin/bash
# Device run at 6cb53cd (engine of 2a9ce1d's decision path; the stripes'
# table reviews changed since, cc418b5 and 39c5438): one round of the
# parallel half's GOMAXPROCS sweep and pinned 1k rounds through the third
# session's script ("more 1"), then new keys at 16 cores in alternation,
# sluice beside its mutex twin and x/time/rate, as 7aaf640-16core-run3.sh
# did without its profiles. Run from the repository root with
# out/dev/bench.test and out/dev/root.test (CGO_ENABLED=0 go test -c).
set -u
B=out/dev/bench.test
BUDGET=${BUDGET:-200} bash bench/runs/48f7fff-device-run.sh more 1
for r in 1 2 3 4 5 6; do
  echo "# round $r" >> $OUT/newkey16.txt
  for im in sluice sluice-mutex x-time-rate; do
    $B -test.run '^$' -test.bench "Limiters/scenario=new-key/impl=$im\$/mode=parallel\$" \
      -test.cpu 16 -test.benchtime 200ms >> $OUT/newkey16.txt 2>&1
  done
  echo "newkey16 round $r" >> $OUT/progress.txt
done
echo done >> $OUT/progress.txt
