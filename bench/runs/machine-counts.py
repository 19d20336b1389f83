#!/usr/bin/env python3
"""Prints the README's counts of the machine over the raw output kept here.

The README's "Read the table with the spread in mind" and "Two cores on
1,000 keys" give the machine's two modes and its arithmetic's scaling over
every full and quick run whose raw output is kept (bench/runs/<commit>.txt
and bench/runs/*-quick.txt). This script computes those figures from the
files, so that a reader can check them and a new run's can be added
without carrying a count forward by hand. Run it from the repository's
root (it builds bench/cmd/report, which needs Go):

    python3 bench/runs/machine-counts.py

It prints:

  - handoff-ns, the time to hand a cache line between the two cores, as
    printed on each BenchmarkLimiters line: how many readings, how many in
    the fast mode (under 100 ns), the slow mode (100 to 1000 ns) and over
    a microsecond (a descheduled vCPU), and the 1st and 99th percentile of
    each mode (linear interpolation between the closest ranks, as numpy's
    default);
  - BenchmarkMachine, arithmetic alone on two cores over one, as the
    report prints it ("arithmetic alone"): the span over all runs, and how
    many runs read 1.97-2.01x.
"""

import glob
import os
import re
import subprocess
import sys
import tempfile

RUNS = os.path.dirname(os.path.abspath(__file__))
FAST, STALLED = 100.0, 1000.0


def runs():
    """The full runs' and quick runs' raw files, by name."""
    full = re.compile(r"^[0-9a-f]{7}\.txt$")
    return sorted(
        f
        for f in glob.glob(os.path.join(RUNS, "*.txt"))
        if full.match(os.path.basename(f)) or f.endswith("-quick.txt")
    )


def percentile(sorted_values, p):
    """The p-th percentile, interpolated linearly between closest ranks."""
    if not sorted_values:
        return float("nan")
    x = (len(sorted_values) - 1) * p / 100.0
    i = int(x)
    j = min(i + 1, len(sorted_values) - 1)
    return sorted_values[i] + (sorted_values[j] - sorted_values[i]) * (x - i)


def handoffs(files):
    handoff = re.compile(r"\s([0-9.]+) handoff-ns")
    values = []
    for f in files:
        with open(f) as fh:
            for line in fh:
                if not line.startswith("BenchmarkLimiters"):
                    continue
                m = handoff.search(line)
                if m:
                    values.append(float(m.group(1)))
    return values


def machine_ratios(files):
    """Each file's BenchmarkMachine ratio, as the report prints it."""
    ratio = re.compile(r"arithmetic alone.*: ([0-9.]+)×")
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report")
        subprocess.run(["go", "build", "-o", report, "./bench/cmd/report"], check=True)
        for f in files:
            text = subprocess.run([report, f], check=True, capture_output=True, text=True).stdout
            m = ratio.search(text)
            if m:
                out[os.path.basename(f)] = float(m.group(1))
    return out


def main():
    files = runs()
    if not files:
        sys.exit("no raw output found: run this from the repository's root")
    values = handoffs(files)
    fast = sorted(v for v in values if v < FAST)
    slow = sorted(v for v in values if FAST <= v <= STALLED)
    stalled = [v for v in values if v > STALLED]
    print(f"raw files: {len(files)}")
    print(f"handoff-ns readings: {len(values)}")
    print(
        f"  fast mode (< {FAST:.0f} ns): {len(fast)}, 1st-99th percentile "
        f"{percentile(fast, 1):.2f}-{percentile(fast, 99):.2f} ns"
    )
    print(
        f"  slow mode ({FAST:.0f}-{STALLED:.0f} ns): {len(slow)}, 1st-99th percentile "
        f"{percentile(slow, 1):.2f}-{percentile(slow, 99):.2f} ns"
    )
    print(f"  over a microsecond (a descheduled vCPU): {len(stalled)}")
    ratios = machine_ratios(files)
    if ratios:
        inside = sum(1 for r in ratios.values() if 1.97 <= r <= 2.01)
        print(
            f"BenchmarkMachine, two cores over one: {min(ratios.values()):.2f}-"
            f"{max(ratios.values()):.2f}x over {len(ratios)} runs, "
            f"1.97-2.01x in {inside}"
        )
        for name, r in sorted(ratios.items()):
            if not 1.97 <= r <= 2.01:
                print(f"  outside 1.97-2.01x: {name} {r:.2f}x")


if __name__ == "__main__":
    main()
