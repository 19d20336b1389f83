# Reads a device run's pair-1k.txt (bench/runs/48f7fff-device-run.sh): for
# each implementation, the medians of the serial and two-core ns and of each
# round's own ratio (serial ns ÷ two-core ns), BenchmarkMachine's ratio where
# a round ran it, the handoffs, and sluice's rounds by handoff.
#   python3 bench/runs/4df6363-16core-pair.py bench/runs/4df6363-16core-pair-1k.txt
# Several files (device runs whose round numbers start over) are read as
# one set of rounds, a round named by its file's place and its number.
import re, statistics as st, sys

rounds, r = {}, None
for i, path in enumerate(sys.argv[1:]):
    r = None
    for line in open(path):
        m = re.match(r'# round (\d+)', line)
        if m:
            r = int(m.group(1)) if len(sys.argv) == 2 else f'{i + 1}:{m.group(1)}'
            rounds[r] = {}
            continue
        m = re.match(r'Benchmark(\S+?)\s+\d+\s+([\d.]+) ns/op(?:\s+([\d.]+) handoff-ns)?', line)
        if m and r is not None:
            rounds[r][m.group(1)] = (float(m.group(2)), float(m.group(3)) if m.group(3) else None)

def pair(d, impl):
    k = 'Limiters/scenario=keys-1k/impl=' + impl + '/mode='
    return d.get(k + 'serial'), d.get(k + 'parallel-2')

handoffs = []
for impl in ['sluice', 'sluice-coarse', 'floor', 'x-time-rate']:
    s, p, x = [], [], []
    for d in rounds.values():
        a, b = pair(d, impl)
        if a and b:
            s.append(a[0]); p.append(b[0]); x.append(a[0] / b[0]); handoffs.append(b[1])
    print(f'{impl:14s} serial {st.median(s):6.1f} ns  two cores {st.median(p):6.1f} ns  '
          f'{st.median(x):.2f}x ({min(x):.2f}-{max(x):.2f}, {len(x)} rounds)')
mc = []
for d in rounds.values():
    a = d.get('Machine/scenario=compute/impl=control/mode=serial')
    b = d.get('Machine/scenario=compute/impl=control/mode=parallel-2')
    if a and b:
        mc.append(a[0] / b[0])
if mc:
    print(f'compute (nothing shared)  {st.median(mc):.2f}x ({min(mc):.2f}-{max(mc):.2f}, {len(mc)} rounds)')
print(f'handoff-ns: median {st.median(handoffs):.1f}, {min(handoffs):.1f} to {max(handoffs):.1f} over {len(handoffs)} benchmarks')
rows = sorted((b[1], a[0] / b[0], n) for n, d in rounds.items() for a, b in [pair(d, 'sluice')] if a and b)
print('sluice, the six lowest handoffs (ns, ratio, round):', [(round(h), round(x, 2), n) for h, x, n in rows[:6]])
print('sluice, the six highest ratios (ratio, handoff ns, round):',
      [(round(x, 2), round(h), n) for h, x, n in sorted(rows, key=lambda t: -t[1])[:6]])
