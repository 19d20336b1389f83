#!/bin/bash
# Rounds of the builds in turns, each a process per benchmark group, on the
# development VM (2 cores). The builds are root-package test binaries,
# /tmp/b_NAME.test: base is main at 126fa84 (go test -c -o /tmp/b_base.test .);
# the others are 126fa84 with 126fa84-line-hint.patch applied, built with
# go test [-tags T] -c: addr no tag, r -tags hintr, rnopf -tags hintrnopf,
# nof -tags hintnofilter. Output in /tmp/ab/NAME.txt; 126fa84-line-hint.txt
# is the five files, each under a "### build NAME" line.
#   BUILDS="base addr r rnopf nof" R=10 bash bench/runs/126fa84-line-hint.sh
mkdir -p /tmp/ab; rm -f /tmp/ab/*.txt
R=${R:-8}
for r in $(seq 1 $R); do
  for v in $BUILDS; do
    B=/tmp/b_$v.test
    {
    echo "# round $r"
    $B -test.run '^$' -test.cpu 2 -test.benchtime 300ms -test.bench 'AllowKeysSharing/impl=sluice/clock=default/keys=1000$/mode=(serial|parallel)$'
    $B -test.run '^$' -test.cpu 2 -test.benchtime 300ms -test.bench 'AllowPaired/clock=default/keylen=13/counts=on'
    $B -test.run '^$' -test.cpu 2 -test.benchtime 300ms -test.bench 'Allow/impl=sluice/clock=default/keylen=13/mode=(serial|parallel)$'
    $B -test.run '^$' -test.cpu 2 -test.benchtime 300ms -test.bench 'AllowDenied/impl=sluice/clock=default/mode=(serial|parallel)$'
    } >> /tmp/ab/$v.txt 2>&1
  done
  echo round $r done
done
