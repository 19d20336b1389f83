#!/usr/bin/env python3
"""Reads 764ea1f-keys-sharing.txt: twenty processes of the root package's
BenchmarkAllowKeysSharing, made by

    go test -c -o /tmp/root.test .
    for r in $(seq 1 20); do echo "# round $r"
      /tmp/root.test -test.run '^$' -test.bench AllowKeysSharing \
        -test.benchtime 300ms -test.cpu 2; done

and prints, per key count and case, the median of each round's own ratio
(the serial loop's ns over the parallel one's, both from one process), over
every round and over the rounds whose handoff-ns was under 60 (the VM's
fast mode), then every round's ratio at its handoff."""
import re, statistics, sys

path = sys.argv[1] if len(sys.argv) > 1 else "764ea1f-keys-sharing.txt"
line = re.compile(r"BenchmarkAllowKeysSharing/impl=sluice/clock=default/keys=(\d+)/(\S+)-2\s+\d+\s+([\d.]+) ns/op(?:\s+([\d.]+) handoff-ns)?")
rounds, cur = [], None
for l in open(path):
    if l.startswith("# round"):
        cur = {}
        rounds.append(cur)
    elif m := line.match(l):
        cur[(int(m[1]), m[2])] = (float(m[3]), float(m[4]) if m[4] else None)
rows = {}
for d in rounds:
    for (n, mode), (ns, h) in d.items():
        if mode.startswith("mode=parallel"):
            serial = d[(n, "mode=serial/counts=off" if "counts=off" in mode else "mode=serial")][0]
            rows.setdefault((n, mode), []).append((serial / ns, h, serial, ns))
med = statistics.median
for (n, mode), v in sorted(rows.items()):
    fast = [x for x in v if x[1] < 60]
    print(f"{n:>7} {mode:<38} all {med(x[0] for x in v):.2f}  fast ({len(fast)}) {med(x[0] for x in fast):.2f}"
          f"  serial {med(x[2] for x in fast):.1f} ns, two cores {med(x[3] for x in fast):.1f} ns  | "
          + " ".join(f"{x[0]:.2f}@{x[1]:.0f}" for x in v))
