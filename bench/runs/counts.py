#!/usr/bin/env python3
"""Prints the README's counts over the raw output kept here.

The README's "Read the table with the spread in mind" and "Two cores on
1,000 keys" give the machine's two modes and its arithmetic's scaling over
every full and quick run whose raw output is kept (bench/runs/<commit>.txt
and bench/runs/*-quick.txt), and two counts of two-core rounds. This
script computes those figures from the files, so that a reader can check
them and a new run's can be added without carrying a count forward by
hand. Run it from the repository's root, in a clone with its history (it
builds bench/cmd/report, which needs Go, and picks the quick runs by
their commits' dates):

    python3 bench/runs/counts.py

It prints:

  - handoff-ns, the time to hand a cache line between the two cores, as
    printed on each BenchmarkLimiters line: how many readings, how many in
    the fast mode (under 100 ns), the slow mode (100 to 1000 ns) and over
    a microsecond (a descheduled vCPU), and the 1st and 99th percentile of
    each mode (linear interpolation between the closest ranks, as numpy's
    default);
  - BenchmarkMachine, arithmetic alone on two cores over one, as the
    report prints it ("arithmetic alone"): the span over all runs, and how
    many runs read 1.97-2.01x;
  - two cores on 1M keys, round by round, in the full runs from the
    thirtieth on (their order is the header of BENCHMARKS.md's table
    "Every run against the targets"): the rounds at a fast handoff over a
    serial run of at most 340 ns, how many read 1.85-2.31x, each
    ratio rounded to two places as the report prints it, and the median
    of their serial runs; of those outside, how many had a two-core run
    slower than every round inside, and the span of each kind's two-core
    runs;
  - two cores on 1,000 keys, round by round, in the full runs from the
    twenty-sixth on (bdd361b's engine: Allow's decision path has not
    changed since): the rounds at a fast handoff over a serial run of at
    most 26 ns, their span, median and quartiles. 26 ns was 2% above the
    median of these runs' serial runs when the rule was set (25.52 ns,
    the twenty-sixth to fifty-fifth; the script prints the median now).
    Of those, the rounds of the runs after the rule was set (RULE_SET),
    run by run: the rule's test out of the sample it was set on.
    Then the same with the serial limit at 25, 27, 28 and 30 ns, to show
    how much the limit moves them (for the README, also the run of the
    lowest round at 26 ns, and each round that reaches 1.8x at 30 ns,
    with its run and serial run). A slow serial run is the ratio's
    denominator: it raises the ratio without the two cores being any
    faster, so the rule holds the serial run to the usual speed; a slow
    two-core run stays in;
  - every full run against the targets, from BENCHMARKS.md's table "Every
    run against the targets": each target's span over the runs and how
    many met it, the floor's spans over the runs since 31bd5c7 (the
    twenty-third on), what the README's "Against the targets" gives, with
    the runs whose coarse-clock floor was not met, which it names; the
    default clock's floor run by run from the thirty-fifth on, as the
    README's "The floor" lists it (each figure as the table writes it,
    the rounds' median in brackets where the report prints two places,
    and "met" where the table writes it bold), each figure held to the
    median of the rounds the report holds, read off the raw file; and
    each run's column, from the twenty-fifth on (the first read round by
    round, as the report reads every run now), held to what the report
    prints on that run's raw file, so that a figure mistyped into the
    table shows; and so is each run's own section in the history ("A ...
    full run, at `commit`", all but the twenty-sixth's, which keeps an
    older form): the ns that its hot-key and 1M ratios divide, the
    ratios themselves and the two-core medians (but the twenty-fifth's
    two-core medians, which its own report read off the ratio of the
    medians), and every round's figure of the targets it gives round by
    round, the core engine issue's floor on each clock among them (the
    ns, the ratio and the uncounted ratio, floor_row); from the
    fifty-third on (FIRST_OPENING), its opening
    paragraph's median handoff and span, its count of parallel
    benchmarks in the slow mode and over a microsecond, and
    BenchmarkMachine's ratio, and the Go and date where the raw file
    names them, and the minutes it says it began after an earlier run
    ("begun 45 minutes after the hundred and second", begun_against),
    from the two raw files' dates; from the fifty-sixth on, the running
    count of the 1,000-key rounds it gives ("now 121 rounds in fifty-six
    runs, ...", and those since the rule was set), as the rule counts
    them over the runs up to it; and wherever a section gives it, its
    running count of the 1M-key rounds inside 1.85-2.31x ("now 98 of 112
    inside 1.85–2.31×"); and in each section from the twenty-fifth on (the
    twenty-sixth's too), each figure in ns that its prose gives, which
    must be a value the run's raw file or report holds, or a raw file
    in bench/runs that the section cites, or one that NS_ELSEWHERE
    lists as taken from elsewhere (ns_against_run), and
    each ratio it gives of how the floor reference's 1,000 keys and a
    denied hot key scaled on two cores (and each ns those sentences
    give), which must be one of the run's own rounds', each list of them
    in round order and at the handoffs the sentence names
    (scaled_against_run), and each pair of ns it gives as "serial → two
    cores", which must be one round's of one scenario
    (arrows_against_run), with the ratio its sentence gives each pair of
    a bracket of them (bracketed_ratios), and each span it gives of the
    paired blocks' ns over all four rounds, the floor's and sluice's
    (floor_spans_against_run), and the rounds its paragraphs on two
    cores say ran at fast handoffs or in the slow mode ("The first two
    rounds ran at fast handoffs"), each of which must have
    (handoffs_named_against_run); its paragraph on the hot key, each
    ratio by round, each ns a serial run and each span of them one
    implementation's least to most (hot_against_run); its rows of the
    heap per key and the allocations; and from the forty-first on
    (FIRST_FLOOR_PROSE) each ratio to the floor it writes to three places
    or more, which must be one of that clock's rounds or their medians
    (floor_ratios_against_run); and from
    the forty-fourth on (FIRST_TWIN),
    its paragraph "Against the mutex twin:": each verdict, ahead, behind
    or level, on the rounds it names or counts, and the rounds of each
    comparison all given a verdict once, the ns beside each verdict
    those rounds' own, sluice's against the twin's, the handoff it says
    each ran at (from the hundred and third on, FIRST_HANDOFF_CLAUSES,
    also where a clause gives handoffs alone: "in the third both in the
    slow mode"), and sluice-stripes' ns on two goroutines and serially
    (twin_against_run);
  - with --check only: each ratio in the README and in the run sections
    (the history's, and "Another machine"'s) given as another full
    run's ("the nineteenth's 3.53×", "3.53× in the nineteenth"; ordinals
    past the tenth, FIRST_NAMED), a value that run's report prints or
    one of its rounds' serial over two-core ratios (named_run_ratios);
  - with --check only: each section of BENCHMARKS.md or of a file of the
    history (HISTORY.md, HISTORY-<N>.md: history_files) that the README,
    those records or a Go source names with its file
    ("`bench/HISTORY.md`, "XXH3"", ""Keys past 16 bytes", in
    `HISTORY.md`"), and each link to one of them with an anchor, reaches
    a heading or a bold paragraph title there (named_sections), so that
    a name moved from one to the other, or renamed, is seen;
  - none of these counts reads a full run on another processor than
    the history's (SERIES_FAMILY, the VM's AMD EPYC of family 25), kept
    as <commit>-family<N>.txt (<commit>-family<N>-kvm-clock.txt on a host
    that keeps time by kvm-clock, whose runs are another machine's:
    OTHER_RUN); each such run's section under
    BENCHMARKS.md's "Another machine" is held to its raw file as the
    history's sections are (others_against_reports), and a history run
    whose raw file names another family in its cpu-id line fails; where
    the documents list those runs' figures together ("1.38×, 1.43×, 1.44×
    and 1.44× on the median") or give a span over them, each list is the
    reports' on their raw files, in the order their sections stand
    (other_figures, other_phrases), and on a host under another
    clocksource the README's verdict on the mutex twin on a hot key on
    two goroutines, over its full runs' and make benchstat's rounds
    (hot_twin_phrase); and what "Another machine" says of
    its BenchmarkAllowKeysSharing runs (the medians and their ratios,
    sharing_phrases; the README's "Taken apart" the same of the history's
    run kept as <commit>-sharing.txt, and counted_sharing's spans of the
    processes kept as <commit>-sharing-ten.txt) and of its make benchstat
    run (the handoffs' modes and spans, and sluice against the twin round
    by round, benchstat_phrases; benchstat's own table is not
    recomputed);
  - with --check only: each row of the two documents' benchstat tables,
    against go tool benchstat on the rounds the document names before
    it: the medians, each 95% interval of 10% or more, the change and
    its p (benchstat_tables); and the prose around those tables in
    BENCHMARKS.md's "`make benchstat`, run by run": each figure a value
    that the rounds of the run it stands under (or of the kept run last
    named before it) or benchstat on them hold, each "by N ns" one
    round's sluice less its mutex twin, each "R× (A ÷ B)" its quotient
    (benchstat_prose; the runs whose rounds were not kept,
    BENCHSTAT_UNKEPT, are read and not held);
  - with --check only: make profile's kept runs (<commit>-profile/,
    <commit>-family<N>-profile/ and <commit>-family<N>-kvm-clock-profile/),
    each run's six summaries present and, where it kept its bench.txt,
    the README table's ns and handoffs its lines' and its cpu-id the
    family the directory names
    (profile_tables); and each share, time, ns and busy share that the
    README's and BENCHMARKS.md's paragraphs on those runs read off them,
    against the runs' pprof -top summaries, bench.txt and contention.txt
    (PROFILE_SHARES, with every figure in %, ms or µs in those
    paragraphs one of them, and ABSENT, profile_shares);
  - the coarse clock's hot key against the fastest per-key peer from the
    twenty-seventh run on (FIRST_LOCATE, fe6ad05's decision path), as the
    report prints it on each raw file: the medians' span, the peer's and
    sluice-coarse's ns, and the runs with a round under 3.5x; and the
    same runs' medians on two cores and 1,000 keys. BENCHMARKS.md gives
    these where it once listed those runs one by one;
  - which full run leads (calm_lead): from the twenty-sixth on, in run
    order, a run takes the lead when no larger a share of its parallel
    benchmarks handed a line over out of the fast mode than of the
    lead's, and sluice's serial runs that the targets read spread less
    from round to round than the lead's; each run that took the lead,
    with both measures. With --check, LEAD must be the run it names;
  - the README's two tables of the run it shows whole (LEAD),
    "At a glance" and the one under "Beside the Go limiters people
    use", each row as the report gives it on that run's raw file;
  - with --check only: the README's "Multi-core scaling" list and the
    sweep table of BENCHMARKS.md's ninth 16-core session, from that
    session's raw file (SWEEP16): medians of its rounds, and the rounds'
    own ratios where the list gives one implementation against another;
  - two cores on 1,000 keys, round by round, in the quick runs from
    3f1e565's on: the rounds at a fast handoff over a serial run under
    30 ns, the highest ratio among them and their median (a looser limit
    than the full runs', kept from before the rule: it lets in more of
    the rounds that a slow serial run lifts, not fewer).

With --check it prints none of that: it computes the same figures (all
but the quick runs', which need the repository's history; the handoff
percentiles to the whole ns; it needs Go and python3, but no git and no
history, as make test runs on a tree that may have neither) and exits
1, naming each one, unless README.md and bench/BENCHMARKS.md write
every figure they quote from it as it computes it now (a run of white
space matches any other), and unless every column of the table from the
twenty-fifth run on, and each such run's section, agrees with the
report, unless every in-page link of the two documents (their tables of
contents) names a heading, and unless each full run's chart
(<commit>.svg, from the eighteenth on) is the one the report draws from
its raw file. make test runs it, so that a full run added to the table
and to bench/runs cannot leave the documents' counts behind. A change
to the report that moves what it prints or draws for a kept run fails
it too, so that such a change is seen against every run it re-reads:

    python3 bench/runs/counts.py --check

Until 2026-11-27 the README gave the full runs' 1,000-key rounds as
judged run by run (1.37-1.67x over twenty-three runs), each serial run
held to the usual speed against the run's other rounds; that judgement
was not the same from run to run (25.61 ns was held out in one run,
25.84 kept in another), so the rule above replaced it.
"""

import bisect
import contextlib
import datetime
import functools
import glob
import io
import os
import re
import statistics
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


@functools.lru_cache(maxsize=None)
def limiter_runs(path):
    """Every BenchmarkLimiters line of a raw file, by (scenario, impl,
    mode): the rounds' (ns, handoff ns or None), in order. Read once a
    file; not to be changed by the caller."""
    line = re.compile(
        r"BenchmarkLimiters/scenario=([^/]+)/impl=([^/]+)/mode=([a-z0-9-]+)\s+\d+\s+"
        r"([0-9.]+) ns/op(?:\s+([0-9.]+) handoff-ns)?"
    )
    if not os.path.exists(path):
        sys.exit(f"no raw output {os.path.relpath(path)} for a run that BENCHMARKS.md's table names")
    got = {}
    with open(path) as fh:
        for text in fh:
            m = line.match(text)
            if m:
                got.setdefault(m.groups()[:3], []).append((float(m.group(4)), m.group(5) and float(m.group(5))))
    return got


def rounds(path, scenario, impl="sluice"):
    """An implementation's (serial ns, two-core ns, handoff ns) in each
    round of a scenario, sluice's unless impl names another: the serial
    run at GOMAXPROCS 1 where the run has one (the full runs' -cpu 1,2),
    else at 2 (the quick runs), beside the round's run on two goroutines."""
    got = limiter_runs(path)
    serial = got.get((scenario, impl, "serial")) or got.get((scenario, impl, "serial-2"), [])
    return [(s, p, h) for (s, _), (p, h) in zip(serial, got.get((scenario, impl, "parallel-2"), []))]


def benchmarks_lines():
    """BENCHMARKS.md, line by line, and where its table "Every run against
    the targets" starts (its header, one column a full run)."""
    lines = record_text("BENCHMARKS.md").split("\n")
    for i, text in enumerate(lines):
        if text.startswith("| target | `"):
            return lines, i
    sys.exit("BENCHMARKS.md has no table of every run against the targets")


def full_runs_in_order():
    """The full runs' commits in run order, from BENCHMARKS.md's table."""
    lines, start = benchmarks_lines()
    return re.findall(r"`([0-9a-f]{7})`", lines[start])


def commit_time(commit):
    out = subprocess.run(["git", "log", "-1", "--format=%ct", commit], check=True, capture_output=True, text=True)
    return int(out.stdout)


def reports(files):
    """The report (bench/cmd/report, built once) as it prints each file;
    and, for each full run's file (another processor's too, OTHER_RUN),
    whether the chart kept beside it (<commit>.svg, <commit>-family<N>.svg)
    is the one the report draws from it: a list of those
    that are missing or differ, and how many were drawn."""
    out, charts, drawn = {}, [], 0
    full = re.compile(r"^[0-9a-f]{7}\.txt$")
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report")
        subprocess.run([os.environ.get("GO", "go"), "build", "-o", report, "./bench/cmd/report"], check=True)
        for f in files:
            name = os.path.basename(f)
            if not (full.match(name) or OTHER_RUN.match(name)):
                out[name] = subprocess.run([report, f], check=True, capture_output=True, text=True).stdout
                continue
            svg = os.path.join(tmp, "chart.svg")
            text = subprocess.run([report, "-svg", svg, f], check=True, capture_output=True, text=True).stdout
            # The report names the chart it wrote on its last line; the
            # text the other checks read is the report without it.
            tail = f"\nchart: {svg}\n"
            if not text.endswith(tail):
                sys.exit(f"counts.py: the report on {name} did not end by naming its chart")
            out[name] = text[: -len(tail)]
            kept = f[: -len(".txt")] + ".svg"
            drawn += 1
            if not os.path.exists(kept):
                charts.append(f"{os.path.relpath(kept)} is missing: the report draws it from {name}")
                continue
            with open(kept, "rb") as a, open(svg, "rb") as b:
                if a.read() != b.read():
                    charts.append(f"{os.path.relpath(kept)} is not the chart the report draws from {name}")
    return out, charts, drawn


def machine_ratios(texts):
    """Each file's BenchmarkMachine ratio, as the report prints it."""
    ratio = re.compile(r"arithmetic alone.*: ([0-9.]+)×")
    out = {}
    for name, text in texts.items():
        m = ratio.search(text)
        if m:
            out[name] = float(m.group(1))
    return out


def quartiles(sorted_values):
    """The lower quartile, the median and the upper quartile of sorted
    values: each quartile the median of the values below the median, or
    above it (the median itself left out of both when the count is odd)."""
    def median(v):
        n = len(v)
        return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2
    n = len(sorted_values)
    return median(sorted_values[: n // 2]), median(sorted_values), median(sorted_values[(n + 1) // 2 :])


# The 1,000-key rounds are counted in the full runs from this one on
# (bdd361b's engine), those over a serial run of at most LIMIT_1K ns.
FIRST_1K, LIMIT_1K = 26, 26.0


def rounds_1k(full, first):
    """Every 1,000-key round of the full runs from the first-th on, as
    (run, serial ns, two-core ns, handoff ns)."""
    return [
        (run, s, p, h)
        for run, commit in enumerate(full, 1)
        if run >= first
        for s, p, h in rounds(os.path.join(RUNS, commit + ".txt"), "keys-1k")
    ]


def counted_1k(every, most):
    """The rounds of every (rounds_1k) that the rule counts with its
    serial limit at most ns: at a fast handoff, over a serial run of at
    most that. Each as (ratio to two places, run)."""
    return [(round(s / p, 2), run) for run, s, p, h in every if h is not None and h < FAST and s <= most]


def counted_1m(full):
    """The 1M-key rounds counted round by round, in the full runs from
    the thirtieth on: at a fast handoff over a serial run of at most 340
    ns. Each as (run, serial ns, two-core ns, ratio to two places)."""
    return [
        (run, s, p, round(s / p, 2))
        for run, commit in enumerate(full, 1)
        if run >= 30
        for s, p, h in rounds(os.path.join(RUNS, commit + ".txt"), "keys-1M")
        if h is not None and h < FAST and s <= 340
    ]


# The band most counted 1M-key rounds read.
BAND_1M = (1.85, 2.31)


def inside_1m(ratio):
    """Whether a counted 1M-key round is inside BAND_1M."""
    return BAND_1M[0] <= ratio <= BAND_1M[1]


def print_1k_full(full, first, limit=LIMIT_1K, others=(25.0, 27.0, 28.0, 30.0)):
    """Two cores on 1,000 keys in the full runs from the first-th on: the
    rounds at a fast handoff over a serial run of at most limit ns."""
    every = rounds_1k(full, first)

    def counted(most):
        return counted_1k(every, most)

    got = counted(limit)
    if not got:
        return None
    serial = sorted(s for _, s, _, _ in every)
    serial_median = quartiles(serial)[1]
    print(
        f"two cores on 1,000 keys, full runs {first}-{len(full)}: {len(serial)} serial runs, "
        f"median {serial_median:.2f} ns"
    )
    ratios = sorted(r for r, _ in got)
    q1, med, q3 = quartiles(ratios)
    in_runs = len({o for _, o in got})
    print(
        f"  {len(ratios)} rounds in "
        f"{in_runs} runs at a fast handoff over a serial run of at most {limit:.0f} ns: "
        f"{ratios[0]:.2f}-{ratios[-1]:.2f}x, median {med:.2f}x (quartiles {q1:.2f}-{q3:.2f}x), "
        f"{sum(r >= 1.8 for r in ratios)} at 1.8x or more"
    )
    # The rounds of the runs after the rule was set: what it reads out of
    # the sample it was set on.
    after = [(run, r) for r, run in got if run > RULE_SET]
    a = sorted(r for _, r in after)
    if a:
        aq1, amed, aq3 = quartiles(a)
        print(
            f"  of them, {len(a)} rounds in the runs after the rule was set ({RULE_SET + 1}-{len(full)}): "
            f"{a[0]:.2f}-{a[-1]:.2f}x, median {amed:.2f}x (quartiles {aq1:.2f}-{aq3:.2f}x), "
            f"{sum(r >= 1.8 for r in a)} at 1.8x or more"
        )
        for run in sorted({run for run, _ in after}):
            print(f"    run {run}: " + ", ".join(f"{r:.2f}x" for o, r in after if o == run))
    at = {}
    for most in others:
        rs = sorted(r for r, _ in counted(most))
        at[most] = rs
        if rs:
            print(
                f"  serial at most {most:.0f} ns: {len(rs)} rounds, {rs[0]:.2f}-{rs[-1]:.2f}x, "
                f"median {quartiles(rs)[1]:.2f}x, {sum(r >= 1.8 for r in rs)} at 1.8x or more"
            )
    # The README names the lowest counted round's run, and each round
    # that reaches 1.8x only with the limit at 30 ns, with its run and the
    # span of their serial runs.
    low = [run for r, run in got if r == ratios[0]]
    high = sorted(
        (run, round(s / p, 2), s)
        for run, s, p, h in every
        if h is not None and h < FAST and s <= 30.0 and round(s / p, 2) >= 1.8
    )
    return {
        "lowest": f"The lowest, {ordinals(sorted(set(low)))}'s {ratios[0]:.2f}×",
        "high30": high,
        "serial": len(serial),
        "serial_median": serial_median,
        "rounds": ratios,
        "runs": in_runs,
        "quartiles": (q1, med, q3),
        "after": a,
        "at": at,
    }


# The rule that counts the 1,000-key rounds was set on the full runs up
# to this one; the rounds of the runs after it are its test out of sample.
RULE_SET = 55

# The first full run on the lookup's first step as a leaf (31bd5c7), from
# which the README gives the floor's spans.
FIRST_LEAF = 23

# The full run the README shows whole and BENCHMARKS.md opens with: the
# calmest, by calm_lead's rule. check() fails when the rule names another
# run, so that a calmer run recorded later cannot go unnoticed.
LEAD = 66

# The first full run calm_lead weighs: the twenty-sixth, the first on
# bdd361b's decision path (Allow's has not changed since), which led first.
FIRST_CALM = 26

# The serial runs whose spread from round to round calm_lead weighs: those
# the targets are read on (sluice's hot key on the default and the coarse
# clock, 1,000 keys and 1M keys). A slow phase that lands on one of them
# moves a target's figure; one elsewhere does not.
CALM_SERIAL = (
    ("hot-allow", "sluice"),
    ("hot-allow", "sluice-coarse"),
    ("keys-1k", "sluice"),
    ("keys-1M", "sluice"),
)


def calmness(path):
    """A full run's two measures of its hour: how many of its parallel
    benchmarks' handoffs were out of the fast mode (the slow mode, or over
    a microsecond: a descheduled vCPU) and of how many, and the widest
    spread, slowest over fastest round, of the serial runs in
    CALM_SERIAL."""
    values = handoffs([path])
    widest = 0.0
    for scenario, impl in CALM_SERIAL:
        ns = [x for x, _ in limiter_runs(path).get((scenario, impl, "serial"), [])]
        if len(ns) < 2:
            sys.exit(
                f"counts.py: {os.path.relpath(path)} has {len(ns)} serial runs of {impl} on {scenario}, "
                "not one a round"
            )
        widest = max(widest, max(ns) / min(ns))
    return sum(1 for v in values if v >= FAST), len(values), widest


def calm_lead(full):
    """Which full run leads, by one rule: the FIRST_CALM-th leads first;
    then, in run order, a run takes the lead when no larger a share of its
    parallel benchmarks left the fast mode than of the lead's, and its
    widest serial spread is narrower than the lead's. The first measure
    is the machine's hour as the two-core targets meet it, the second as
    the serial ones do. Returns each run that took the lead, in turn, as
    (run, out of the fast mode, parallel benchmarks, widest spread)."""
    turns = []
    for run, commit in enumerate(full, 1):
        if run < FIRST_CALM:
            continue
        slow, n, widest = calmness(os.path.join(RUNS, commit + ".txt"))
        if not turns:
            turns.append((run, slow, n, widest))
            continue
        _, lead_slow, lead_n, lead_widest = turns[-1]
        if slow * lead_n <= lead_slow * n and widest < lead_widest:
            turns.append((run, slow, n, widest))
    return turns

# The first full run from which the README lists the default clock's
# floor run by run, each at the precision the table writes it.
FIRST_LISTED_FLOOR = 35


def table_rows():
    """BENCHMARKS.md's table "Every run against the targets": each row's
    label and its cells, one a full run, in run order."""
    lines, start = benchmarks_lines()
    rows = {}
    for text in lines[start + 2 :]:
        if not text.startswith("|"):
            break
        cells = [c.strip() for c in text.split("|")[1:-1]]
        rows[cells[0]] = cells[1:]
    return rows


def first_number(cell):
    """The cell's first figure, bold or not; None for a run without one (–)."""
    m = re.match(r"\**([0-9]+\.[0-9]+)", cell)
    return float(m.group(1)) if m else None


def default_floor(cell):
    """A run's default-clock floor as the table's cell writes it: the
    figure in brackets where the cell gives one (the rounds' median to
    three or four places beside the report's two), else the first; and
    whether it is bold, the table's mark of "met"."""
    head = cell.split(" / ")[0]
    m = re.match(r"(\*\*)?([0-9]+\.[0-9]+)(?:\*\*)?(?: \(([0-9]+\.[0-9]+)\))?", head)
    if not m:
        sys.exit(f"BENCHMARKS.md's table: no default-clock floor in {cell!r}")
    return m.group(3) or m.group(2), bool(m.group(1))


# How far above the fastest floor of its clock in a run a paired round's
# floor may run and still count: the report's floorSpeedBand
# (bench/cmd/report/main.go, where the reasons are). Were the two to
# part, the table's figures, written to the report's rule, would fail
# the check that uses this.
FLOOR_SPEED_BAND = 1.05


def held_floor(path, clock="default"):
    """The median of a run's paired floor ratios (sluice/floor, as the
    raw lines give them: four significant figures) over the rounds the
    report holds: those of the counted decision whose floor ran within
    FLOOR_SPEED_BAND of the fastest floor of that clock in the run,
    counted or not. The figure the table writes in brackets; None for a
    run without paired blocks."""
    held = held_ratios(path, clock)
    return statistics.median(held) if held else None


def held_ratios(path, clock, counted=True):
    """The ratios of held_floor's rounds, as floats; empty for a run
    without paired blocks. Not counted: the uncounted decision's rounds
    held alike, whose median the report prints as WithoutDecisionCounts."""
    on, off = paired_rows(path, clock), paired_rows(path, clock, counted=False)
    if not on:
        return []
    floors = [f for _, f, _ in on + off]
    return [float(r) for _, f, r in (on if counted else off) if f <= FLOOR_SPEED_BAND * min(floors)]


def targets(full):
    """Every full run against the targets, from BENCHMARKS.md's table: the
    spans and counts of runs met that the README's "Against the targets"
    gives. A target is met at the figure the table writes (two places, as
    the report prints it); the floor on the coarse clock is met where the
    table writes it bold, as it writes each run's verdict."""
    rows = table_rows()

    def row(prefix):
        cells = [v for k, v in rows.items() if k.startswith(prefix)]
        if len(cells) != 1 or len(cells[0]) != len(full):
            sys.exit(f"BENCHMARKS.md's table has no one row '{prefix}...' with a cell for each of {len(full)} runs")
        return cells[0]

    def pair(cell):
        m = re.match(r"\**([0-9.]+)\** / \**([0-9.]+)", cell)
        if not m:
            sys.exit(f"BENCHMARKS.md's table: no 'a / b' in {cell!r}")
        return float(m.group(1)), float(m.group(2))

    hot = [first_number(c) for c in row("hot key, default clock")]
    coarse = [first_number(c) for c in row("hot key, coarse clock")]
    uniform = [pair(c) for c in row("1M uniform keys")]
    heap = sorted({first_number(c) for c in row("heap per key")})
    two = [pair(c) for c in row("two cores")]
    floor = row("issue 2")
    since = floor[FIRST_LEAF - 1 :]
    default = [first_number(c) for c in since]
    mono = [
        (run, float(m.group(1)))
        for run, c in enumerate(floor, 1)
        for m in [re.search(r" / \**([0-9]+\.[0-9]+)", c)]
        if m
    ]
    coarse_floor = [re.search(r"coarse (\*\*)?([0-9]+\.[0-9]+)", c) for c in since]
    if None in hot + coarse + default or None in coarse_floor:
        sys.exit("BENCHMARKS.md's table: a run without a figure where every run has one")
    streak = len(coarse) - max((i + 1 for i, v in enumerate(coarse) if v < 3.5), default=0)
    t = {
        "hot": (min(hot), max(hot), sum(v >= 2 for v in hot)),
        "coarse": (min(coarse), max(coarse), sum(v >= 3.5 for v in coarse), streak),
        "serial": (min(s for s, _ in uniform), max(s for s, _ in uniform), sum(s >= 1.5 for s, _ in uniform)),
        "parallel": (min(p for _, p in uniform), max(p for _, p in uniform), sum(p >= 1.5 for _, p in uniform)),
        "heap": heap,
        "1m": (min(b for _, b in two), max(b for _, b in two), sum(b >= 1.8 for _, b in two)),
        # Each run's medians, two cores on 1M and 1,000 keys by run number
        # and the coarse clock's hot key in run order, for the README's
        # accounts of the runs from the thirtieth, the fortieth and the
        # eighth on.
        "1m_by_run": {run: b for run, (_, b) in enumerate(two, 1)},
        "1k_by_run": {run: a for run, (a, _) in enumerate(two, 1)},
        "coarse_by_run": coarse,
        "1k": (min(a for a, _ in two), max(a for a, _ in two), sum(a >= 1.8 for a, _ in two)),
        "mono": (min(v for o, v in mono if o >= 5), max(v for o, v in mono if o >= 5)),
        "mono40": (min(v for o, v in mono if o >= 40), max(v for o, v in mono if o >= 40)),
        "default": (min(default), max(default), len(since)),
        # Each run's default-clock floor from FIRST_LISTED_FLOOR on, for
        # the README's list: (run, the figure as written, met).
        "default_listed": [
            (run, *default_floor(c)) for run, c in enumerate(floor, 1) if run >= FIRST_LISTED_FLOOR
        ],
        "coarse_floor": (
            min(float(m.group(2)) for m in coarse_floor),
            max(float(m.group(2)) for m in coarse_floor),
            sum(1 for m in coarse_floor if m.group(1)),
        ),
        # The README names the runs whose coarse-clock floor was not met,
        # and gives the span of the others.
        "coarse_floor_met": (
            min((float(m.group(2)) for m in coarse_floor if m.group(1)), default=float("nan")),
            max((float(m.group(2)) for m in coarse_floor if m.group(1)), default=float("nan")),
        ),
        "coarse_floor_missed": [FIRST_LEAF + k for k, m in enumerate(coarse_floor) if not m.group(1)],
    }
    # The lead run's figures, each as the table writes it.
    lead = LEAD - 1
    t["lead"] = {
        "hot": hot[lead],
        "coarse": coarse[lead],
        "uniform": uniform[lead],
        "heap": first_number(row("heap per key")[lead]),
        "two": two[lead],
        "mono": dict(mono)[LEAD],
        "default": floor[lead].split(" / ")[0],
        "coarse_floor": "{0}{1}{0}".format(coarse_floor[LEAD - FIRST_LEAF].group(1) or "", coarse_floor[LEAD - FIRST_LEAF].group(2)),
    }
    n = len(full)
    print(f"every full run against the targets ({n}, BENCHMARKS.md's table):")
    print(f"  hot key, default clock: {t['hot'][0]:.2f}-{t['hot'][1]:.2f}x, met in {t['hot'][2]}")
    print(
        f"  hot key, coarse clock: {t['coarse'][0]:.2f}-{t['coarse'][1]:.2f}x, met in {t['coarse'][2]}, "
        f"the last {t['coarse'][3]} in a row"
    )
    print(
        f"  1M uniform: serial {t['serial'][0]:.2f}-{t['serial'][1]:.2f}x, met in {t['serial'][2]}; "
        f"parallel {t['parallel'][0]:.2f}-{t['parallel'][1]:.2f}x, met in {t['parallel'][2]}"
    )
    print(f"  heap per key: {', '.join(f'{v} B' for v in heap)}")
    print(f"  two cores, 1M keys: {t['1m'][0]:.2f}-{t['1m'][1]:.2f}x, met in {t['1m'][2]}")
    print(f"  two cores, 1,000 keys: {t['1k'][0]:.2f}-{t['1k'][1]:.2f}x, met in {t['1k'][2]}")
    print(
        f"  floor, monotonic clock: {t['mono'][0]:.2f}-{t['mono'][1]:.2f}x from the fifth, "
        f"{t['mono40'][0]:.2f}-{t['mono40'][1]:.2f}x from the fortieth"
    )
    print(
        f"  floor since 31bd5c7 ({t['default'][2]} runs): default clock {t['default'][0]:.2f}-"
        f"{t['default'][1]:.2f}x; coarse clock {t['coarse_floor'][0]:.2f}-{t['coarse_floor'][1]:.2f}x, "
        f"met in {t['coarse_floor'][2]}"
    )
    return t


# The first full run whose two-core targets were read round by round, as
# the report reads them now; the runs before it were read on the ratio of
# the medians, so the report's figures on their raw files differ from the
# table's.
FIRST_BY_ROUND = 25

# The first full run whose section opens in the form every later one
# keeps: "A handoff of 25.9 ns on the median (22.7–208.9 ns), 46 of 224
# parallel benchmarks in the slow mode, none over a microsecond;
# `BenchmarkMachine` 1.97×". From it on, those figures are held to the raw
# file and the report on it.
FIRST_OPENING = 53

# The first full run whose paragraph "Against the mutex twin:" makes its
# comparisons in the form every later one keeps (twin_against_run): the
# hot key on two goroutines, then a new key serially and on two
# goroutines, each a verdict on rounds named or counted, then
# sluice-stripes alone. From it on, those are held to the raw file. (The
# forty-fourth to eighty-first were brought to that form where they
# strayed from it.) The forty-fourth to fifty-first say nothing of
# sluice-stripes; from FIRST_STRIPES on, the paragraph must.
FIRST_TWIN = 44
FIRST_STRIPES = 53
# From the hundred and third on, a clause in the paragraph's brackets that
# gives handoffs alone ("in the third both in the slow mode, in the others
# both at fast handoffs") is in a form handoff_clause reads, and is held
# to the raw file; before it such clauses took other forms, and are not
# read.
FIRST_HANDOFF_CLAUSES = 103


def report_targets(text):
    """The report's target lines: each target's words, the figure printed
    for it and what follows in brackets (the ns it divides, by round)."""
    line = re.compile(r"^\s+(?:met|not met)\s+(.*?)\s{2,}([0-9]+\.[0-9]+)\s+\((.*)\)\s*$", re.M)
    return {words: (figure, detail) for words, figure, detail in line.findall(text)}


def unique(found, words):
    """The one entry whose key holds words, or None."""
    got = [v for k, v in found.items() if words in k]
    return got[0] if len(got) == 1 else None


def half_unit(figure):
    """Half a unit of a written figure's last place: how far the value it
    rounds may lie from it (half of one where it has no point)."""
    return 0.5 * 10 ** -len((figure.split(".") + [""])[1])


# A figure as the documents and the report write one: digits, a point, digits.
FIGURE = re.compile(r"[0-9]+\.[0-9]+")
# A figure in ns, where Go's testing prints 1,000 ns and more without a
# point ("810.9–1019", "serially 703.1–1063 ns").
NS_FIGURE = re.compile(r"[0-9]+\.[0-9]+|(?<![0-9.])[0-9]{4,}(?![0-9.])")


def rounds_to(written, value):
    """Whether a figure written to its places can be value rounded to
    them (half a unit of its last place either way)."""
    return abs(float(written) - value) <= half_unit(written) + 1e-9


def among(written, values):
    """Whether a written figure is one of sorted values rounded to its
    places: bisect for the first value at or above the low end of the
    figure's half unit either way."""
    i = bisect.bisect_left(values, float(written) - half_unit(written) - 1e-9)
    return i < len(values) and rounds_to(written, values[i])


def agree(written, printed):
    """Whether two figures, each one value rounded to its own places,
    can be the same value: the two roundings' intervals meet. (Python's
    round() on the float cannot say so at a half: 1.135 is stored below
    itself and rounds to 1.13.)"""
    return abs(float(written) - float(printed)) <= half_unit(written) + half_unit(printed) + 1e-9


def table_against_reports(full, texts):
    """Each full run's column of BENCHMARKS.md's table, from the
    FIRST_BY_ROUND-th on, against the report's targets on its raw file:
    the lines where the two disagree. The table may write a figure to more
    places than the report prints, or fewer. From the FIRST_LISTED_FLOOR-th
    on, the default clock's floor is also held to the rounds on the raw
    file (held_floor), to as many places as the table writes it."""
    rows = table_rows()

    def cell(prefix, i):
        return next(v[i] for k, v in rows.items() if k.startswith(prefix)).replace("*", "")

    bad, compared = [], 0
    for i, commit in enumerate(full):
        if i + 1 >= FIRST_LISTED_FLOOR:
            # The figure the README lists, held to the rounds themselves
            # rather than to the report's two places: it may round their
            # median to its own places, no further.
            # So is the coarse clock's, where the run has its paired blocks
            # ("coarse **1.0955**"); every run from here on has the default's.
            coarse = re.search(r"coarse ([0-9]+\.[0-9]+)", cell("issue 2", i))
            for clock, written in (("default", default_floor(cell("issue 2", i))[0]), ("coarse", coarse and coarse.group(1))):
                median = held_floor(os.path.join(RUNS, commit + ".txt"), clock)
                if clock == "coarse" and median is None:
                    continue
                compared += 1
                if median is None or written is None or not rounds_to(written, median):
                    bad.append(
                        f"run {i + 1} (`{commit}`), floor, {clock} clock: the table writes {written or 'nothing'}, "
                        f"the median of the rounds the report holds is {median if median is None else round(median, 4)}"
                    )
        if i + 1 < FIRST_BY_ROUND:
            continue
        printed = {k: v for k, (v, _) in report_targets(texts.get(commit + ".txt", "")).items()}
        report = lambda words: unique(printed, words)

        floor = cell("issue 2", i)
        mono = re.search(r" / ([0-9]+\.[0-9]+)", floor)
        coarse = re.search(r"coarse ([0-9]+\.[0-9]+)", floor)
        pairs = [
            ("hot key, default clock", FIGURE.findall(cell("hot key, default clock", i))[:1], "default clock: ≥ 2×"),
            ("hot key, coarse clock", FIGURE.findall(cell("hot key, coarse clock", i))[:1], "coarse clock: ≥ 3.5×"),
            ("1M uniform, serial", FIGURE.findall(cell("1M uniform keys", i))[:1], "1.5× the fastest per-key peer, serial"),
            ("1M uniform, parallel", FIGURE.findall(cell("1M uniform keys", i))[1:2], "1.5× the fastest per-key peer, parallel-2"),
            ("heap per key", FIGURE.findall(cell("heap per key", i))[:1], "heap per key at 1M keys: ≤ 48 B"),
            ("two cores, 1,000 keys", FIGURE.findall(cell("two cores", i))[:1], "(keys-1k)"),
            ("two cores, 1M keys", FIGURE.findall(cell("two cores", i))[1:2], "(keys-1M)"),
            ("floor, default clock", FIGURE.findall(floor)[:1], "floor, default clock"),
            ("floor, monotonic clock", [mono.group(1)] if mono else [], "monotonic clock"),
            ("floor, coarse clock", [coarse.group(1)] if coarse else [], "floor, coarse clock"),
        ]
        for name, written, words in pairs:
            compared += 1
            got = report(words)
            if not written or got is None or not agree(written[0], got):
                bad.append(
                    f"run {i + 1} (`{commit}`), {name}: the table writes {written[0] if written else 'nothing'}, "
                    f"the report prints {got if got is not None else 'nothing'}"
                )
    return bad, compared


def opening_against_report(opening, path, text):
    """A section's opening paragraph, from the FIRST_OPENING-th run on,
    against its raw file (path) and the report on it (text): the median
    handoff, and its span where the paragraph gives one; how many parallel
    benchmarks were in the slow mode and of how many; how many were over a
    microsecond ("none", "one", ...); and BenchmarkMachine's ratio. The
    first of each in the paragraph is the run's own (a later one may
    compare it with another run's); and where the raw file opens with the
    Go and the date it was run on (make bench writes them), those, and
    the processor's family and the kernel's clocksource where it names
    them. What disagrees, and the commit the raw file names, if it names
    one."""
    body = " ".join(opening.split())
    report = re.search(r"median ([0-9.]+) ns, ([0-9.]+) to ([0-9.]+) over ([0-9]+) benchmarks", text)
    machine = re.search(r"arithmetic alone.*: ([0-9.]+)×", text)
    if report is None or machine is None:
        return ["the report prints no handoff or BenchmarkMachine line"], None
    med, lo, hi, n = report.groups()
    values = handoffs([path])
    slow = sum(1 for v in values if FAST <= v <= STALLED)
    stalled = sum(1 for v in values if v > STALLED)
    bad = []
    m = re.search(r"handoff of ([0-9.]+) ns on the median( \(([0-9.]+)–([0-9.]+) ns)?", body)
    if m is None:
        bad.append("no \"handoff of ... ns on the median\"")
    elif m.group(1) != med or (m.group(2) and (m.group(3), m.group(4)) != (lo, hi)):
        span = f" ({m.group(3)}–{m.group(4)} ns)" if m.group(2) else ""
        bad.append(f"the opening writes a handoff of {m.group(1)} ns{span}, the report prints {med} ({lo}–{hi})")
    m = re.search(r"([0-9]+) of ([0-9]+) parallel benchmarks in the slow mode", body)
    if m is None or (int(m.group(1)), m.group(2)) != (slow, n):
        written = f"{m.group(1)} of {m.group(2)}" if m else "no count"
        bad.append(f"the opening writes {written} in the slow mode, the raw file has {slow} of {n}")
    m = re.search(r"\b([a-z]+|[0-9]+) over a microsecond", body)
    want = "none" if stalled == 0 else words(stalled)
    if m is None or m.group(1) != want:
        bad.append(f"the opening writes {m.group(1) if m else 'nothing'} over a microsecond, the raw file has {want}")
    m = re.search(r"`BenchmarkMachine` ([0-9.]+)×", body)
    if m is None or m.group(1) != machine.group(1):
        bad.append(f"the opening writes BenchmarkMachine {m.group(1) if m else 'nowhere'}, the report {machine.group(1)}")
    # The raw output of make bench from 2026-11-28 on opens with what it
    # was run on: the opening must name the same Go and date.
    top = raw_top(path)
    header = dict(re.findall(r"^(go|date|commit|clocksource): (\S+)$", top, re.M))
    if "go" in header and f"Go {header['go'].removeprefix('go')}," not in body:
        bad.append(f"the opening does not name the Go the raw file was run on, {header['go']}")
    if "date" in header and f", {header['date'][:10]}," not in body:
        bad.append(f"the opening does not give the date the raw file was run on, {header['date'][:10]}")
    # From c93919f on it names the kernel's clocksource, which decides
    # what the default clock is (clock.Default): "under kvm-clock" (the
    # raw file's name may hold the word too).
    if "clocksource" in header and not re.search(rf"\bunder {re.escape(header['clocksource'])}\b", body):
        bad.append(f"the opening does not say it ran under the clocksource the raw file names, {header['clocksource']}")
    # From 7541753 on it names the processor too (CPU_FAMILY).
    family = CPU_FAMILY.search(top)
    family = family and family.group(1)
    if family and f"family {family}" not in body:
        bad.append(f"the opening does not name the processor's family the raw file was run on, {family}")
    return bad, header.get("commit")


def running_1k(body, got, run):
    """A section's running count of the 1,000-key rounds, from the run
    after the rule was set on: "now 121 rounds in fifty-six runs,
    1.10–1.71×, median 1.59×, quartiles 1.50–1.62×" and "the 62 rounds
    since the rule was set read 1.59× on the median (1.10–1.70×)", each
    figure that the section gives held to the rule's count over the runs
    up to this one (got, counted_1k's). How many phrases were read, and
    what disagrees."""
    upto = sorted(r for r, o in got if o <= run)
    since = sorted(r for r, o in got if RULE_SET < o <= run)
    if not upto:
        return 0, []
    q1, med, q3 = quartiles(upto)
    want = [str(len(upto)), words(len({o for _, o in got if o <= run})), f"{upto[0]:.2f}", f"{upto[-1]:.2f}",
            f"{med:.2f}", f"{q1:.2f}", f"{q3:.2f}"]
    read, bad = 0, []
    total = re.compile(
        r"(?:[Nn]ow|stays at) ([0-9]+) rounds in ([a-z-]+) runs(?:, ([0-9.]+)–([0-9.]+)×"
        r"(?:, median ([0-9.]+)×, quartiles ([0-9.]+)–([0-9.]+)×)?)?"
    )
    for m in total.finditer(body):
        read += 1
        written = list(m.groups())
        expect = [w if g is not None else None for g, w in zip(written, want)]
        if written != expect:
            bad.append(f"the running count writes {m.group(0)!r}, the rule counts {want}")
    after = re.compile(r"the ([0-9]+) rounds since the rule was set read ([0-9.]+)× on the median \(([0-9.]+)–([0-9.]+)×\)")
    for m in after.finditer(body):
        read += 1
        expect = (str(len(since)), f"{quartiles(since)[1]:.2f}", f"{since[0]:.2f}", f"{since[-1]:.2f}") if since else None
        if m.groups() != expect:
            bad.append(f"the count since the rule writes {m.group(0)!r}, the rule counts {expect}")
    return read, bad


# A section's figures in ns: "24.37 ns", "359.4–422.1 ns", "18.92, 19.03
# and 19.51 ns", and those that follow such a phrase after "against" or
# "; two cores" ("(359.4–422.1 ns against 386.9–450.1)", "(26.76 ns; two
# cores 17.41)"). A difference, "by 0.5 and 2.7 ns", is worked out by
# hand from two figures, so it is not read.
NS_LIST = r"(?:[0-9]+\.[0-9]+(?:–|, | and | or | to ))*[0-9]+\.[0-9]+"
NS_DIFFERENCE = re.compile(r"\bby %s ns\b" % NS_LIST)
NS_PHRASE = re.compile(
    r"(?<![\w.,])(%s) ns\b|(?<=ns against )(%s)(?![0-9]*[×%%])|(?<=ns; two cores )(%s)(?![0-9]*[×%%])"
    % (NS_LIST, NS_LIST, NS_LIST)
)

# The figures in ns that a section takes from outside its own run's raw
# file and report, which ns_against_run therefore cannot find there: by
# run, the figures, and where they come from. Each must still be one that
# the run's files do not hold, so that an entry left behind by an edit is
# seen.
NS_ELSEWHERE = {
    26: ({"17.07"}, "three paired processes run after the run"),
    32: ({"1.49", "0.99", "18.40"}, "counted less uncounted, worked out by hand; six paired processes at 359c911"),
    33: ({"1.45", "244.8", "485.1"}, "the pinned count's cost, worked out by hand; six processes of a new key run after the run"),
    36: ({"15.06", "16.21"}, "the thirty-fifth's two-core runs"),
    37: ({"818.4"}, "the thirty-sixth's 1M keys"),
    43: ({"33.7"}, "the twenty-sixth's serial run"),
    44: ({"135.9", "188.6", "216.9"}, "the 1M rounds of every run so far"),
    47: ({"294.8", "329.1"}, "the runs since the thirtieth"),
    49: ({"77.3", "20.8"}, "the forty-eighth's hot key"),
    54: ({"0.4"}, "the count's share over many processes (WithoutDecisionCounts)"),
    57: ({"188.6", "216.9"}, "the 1M rounds outside 1.85–2.31× in every run so far"),
    64: ({"28.12"}, "the serial runs the rule's 30 ns limit lets in, over all runs"),
    72: ({"25.30", "28.12", "29.70"}, "the serial runs of all runs, and those the rule's 30 ns limit lets in"),
    76: ({"25.44"}, "the median of the serial runs of all runs"),
}


def ns_against_run(body, path, text, run):
    """A section's figures in ns (NS_PHRASE), each of which must be a
    value that its run's raw file (path) or the report on it (text) holds,
    to the places the section writes it, or one NS_ELSEWHERE lists for
    the run, or one that a raw file the section cites by its path in
    bench/runs (a check run after the run, "bench/runs/<name>.txt")
    holds. How many were read, and what disagrees. Where a figure is
    held does not say what it was measured of: this finds a figure
    mistyped or taken from another run, not one put in the wrong place,
    and not every slip: a run's files hold so many values that a figure
    off by a unit or two in its last place can still find one."""
    with open(path) as fh:
        kept = fh.read() + text
    for cited in sorted(set(re.findall(r"bench/runs/([\w.-]+\.txt)", body))):
        if os.path.join(RUNS, cited) != path and os.path.exists(os.path.join(RUNS, cited)):
            with open(os.path.join(RUNS, cited)) as fh:
                kept += "\n" + fh.read()
    held = [float(v) for v in re.findall(r"[0-9]+(?:\.[0-9]+)?", kept)]
    held.sort()
    elsewhere = NS_ELSEWHERE.get(run, (set(), ""))[0]
    read, bad, missed = 0, [], set()
    for m in NS_PHRASE.finditer(NS_DIFFERENCE.sub("", body)):
        for f in FIGURE.findall(m.group(0)):
            read += 1
            if among(f, held):
                continue
            missed.add(f)
            if f not in elsewhere:
                bad.append(f"{f} ns ({m.group(0)!r}) is not a value its raw file, the report or a file it cites holds")
    for f in sorted(elsewhere - missed):
        bad.append(f"NS_ELSEWHERE lists {f} ns, which its section no longer writes or its files hold")
    return read, bad


# The sentences in which a section says how two scenarios besides the
# targets scaled on two cores, round by round: the words that open each,
# and the scenario and implementation whose rounds it gives.
SCALED = (
    ("The floor reference's own 1,000 keys scaled", "keys-1k", "floor"),
    ("a denied hot key", "hot-deny", "sluice"),
)
# Where one of those sentences opens.
SCALED_OPENING = re.compile("|".join(re.escape(w) for w, _, _ in SCALED), re.I)

# The ratios those sentences give of other runs, by run: the figures, and
# whose they are. Each must still be one that the run's rounds do not give.
SCALED_ELSEWHERE = {
    36: ({"1.27", "1.31"}, "the thirty-fifth's floor reference"),
    44: ({"1.28", "1.46"}, "the floor reference's fast rounds in the fortieth to forty-third runs"),
}


def scaled_against_run(body, path, run):
    """Each ratio ("1.65×", and each end of "1.15–1.43×") in a section's
    sentences of SCALED, which must be one of the run's own rounds of that
    scenario, serial over two cores, to the places written, or one that
    SCALED_ELSEWHERE lists for the run. A sentence runs from its opening
    words to its full stop, or to the next one's opening words where it
    goes on to the other ("..., and a denied hot key 1.92×, ..."). Some
    sentences give the rounds at fast handoffs first, so the sentence as
    a whole need not be in round order, but the rounds must be such that
    (scaled_rounds): each ratio outside brackets is a round of its own,
    each list of them ("1.31×, 1.25× and 1.10×") in round order, and each
    ratio that a handoff follows ("at fast handoffs", "in the slow mode")
    a round at that handoff. Each figure in ns the sentences give, but a
    handoff's, must be one of those rounds' own, serial or on two cores.
    How many ratios were read, and what disagrees."""
    elsewhere = SCALED_ELSEWHERE.get(run, (set(), ""))[0]
    read, bad, missed = 0, [], set()
    for m in SCALED_OPENING.finditer(body):
        words = m.group(0).lower()
        scenario, impl = next((sc, im) for w, sc, im in SCALED if w.lower() == words)
        rest = body[m.end() :]
        # The sentence ends at a full stop before a capital, or the next opening.
        end = re.search(r"\.(?= [A-Z`*]|$)", rest)
        stop = end.start() if end else len(rest)
        other = SCALED_OPENING.search(rest)
        if other and other.start() < stop:
            stop = other.start()
        its = rounds(path, scenario, impl)
        ratios = [s / p for s, p, _ in its]
        if not scaled_rounds(rest[:stop], its, elsewhere):
            bad.append(f"\"{m.group(0)} {rest[:stop]}\": no rounds of {impl} on {scenario} give its ratios as it orders "
                       "them and at the handoffs it names: "
                       + ", ".join(f"{s / p:.3f} ({'fast' if h is not None and h < FAST else 'slow' if h else '?'})"
                                   for s, p, h in its))
        # Each ns the sentence gives (a slow two-core run "(11.60 ns)", a
        # span "of 17.45–18.00 ns"; not a handoff, "a 160.5 ns handoff") is
        # one of these rounds' own, serial or on two cores, not only some
        # value of the run's file.
        own = sorted(x for s, p, _ in its for x in (s, p))
        for x in re.findall(r"([0-9]+\.[0-9]+)(?=(?:–[0-9.]+)? ns(?! handoff))", rest[:stop]):
            if not among(x, own):
                bad.append(f"{x} ns after \"{m.group(0)}\", which no round of {impl} on {scenario} took")
        for f in re.findall(r"([0-9]+\.[0-9]+)(?=×|–[0-9.]+×)|(?<=[0-9]–)([0-9]+\.[0-9]+)(?=×)", rest[:stop]):
            f = f[0] or f[1]
            read += 1
            if any(rounds_to(f, r) for r in ratios):
                continue
            missed.add(f)
            if f not in elsewhere:
                bad.append(f"{f}× after \"{m.group(0)}\", where its rounds of {impl} on {scenario} read "
                           + ", ".join(f"{r:.3f}" for r in ratios))
    for f in sorted(elsewhere - missed):
        bad.append(f"SCALED_ELSEWHERE lists {f}×, which its section no longer writes or its rounds give")
    return read, bad


# In a sentence of SCALED: a ratio outside brackets (a span's two ends
# are two, rounds of their own but in the order of their size, not of
# the rounds), the words that join the ratios of one list, and the
# handoff that the words after a ratio name.
SCALED_RATIO = re.compile(r"(?<![0-9.])([0-9]+\.[0-9]+)(?:×|(?=–[0-9.]+×))|(?<=[0-9]–)([0-9]+\.[0-9]+)×")
SCALED_JOIN = re.compile(r"^(?:,? and |, )$")
SCALED_HANDOFF = re.compile(r"at (?:a )?fast handoffs?|in the slow mode")


def scaled_rounds(sentence, its, elsewhere=()):
    """Whether some rounds (its: serial ns, two-core ns, handoff ns) give
    a sentence of SCALED its ratios (scaled_against_run's rules): each
    ratio outside brackets a round of its own, but those that refer back
    to ratios given before ("the 2.00× and 1.56× over slow serial runs")
    and another run's (elsewhere); those of one list (joined by a comma or
    "and") in round order; and each at the handoff that the words right
    after it, or after the list it ends, name ("1.29×, 1.38× and 1.25× at
    fast handoffs and 0.50× in the slow mode"), where its round has one.
    The rounds are few, so every assignment is tried."""
    bare = re.sub(r"\([^()]*\)", lambda m: " " * len(m.group(0)), sentence)
    every = [(m.start(), m.end(), m.group(1) or m.group(2)) for m in SCALED_RATIO.finditer(bare)]
    # A ratio after "the" refers back, and so does each joined to it.
    back = []
    for i, (start, _, _) in enumerate(every):
        back.append(bare[:start].endswith("the ") or bool(
            i and back[-1] and SCALED_JOIN.match(bare[every[i - 1][1] : start])))
    found = [f for f, b in zip(every, back) if not b and f[2] not in elsewhere]
    joined = [i > 0 and bool(SCALED_JOIN.match(bare[found[i - 1][1] : found[i][0]])) for i in range(len(found))]
    claims = [None] * len(found)
    for h in SCALED_HANDOFF.finditer(bare):
        # The ratio the handoff's words follow, and the list it ends.
        before = [i for i, (_, end, _) in enumerate(found) if end <= h.start()]
        if not before:
            continue
        i = before[-1]
        while True:
            claims[i] = claims[i] or ("slow" if "slow" in h.group(0) else "fast")
            if not joined[i]:
                break
            i -= 1

    def fits(i, r):
        s, p, h = its[r]
        if not rounds_to(found[i][2], s / p):
            return False
        if claims[i] is None or h is None:
            return True
        return claims[i] == ("fast" if h < FAST else "slow")

    def assign(i, used, last):
        if i == len(found):
            return True
        return any(
            assign(i + 1, used | {r}, r)
            for r in range(len(its))
            if r not in used and fits(i, r) and not (joined[i] and r < last)
        )

    return assign(0, frozenset(), -1)


# A bracket that opens with serial → two-core pairs ("(24.25 → 16.24 and
# 24.28 → 15.17 ns)"), with anything after them but another bracket
# ("(27.56 → 32.12 ns, at a 160 ns handoff)", "(317.1 → 167.2 ns,
# 1.90×)"); a ratio (not the upper end of a span, "1.85–2.31×"); and where
# a sentence ends (a full stop before a capital, a backtick or bold).
ARROW = re.compile(r"([0-9]+\.[0-9]+) → ([0-9]+\.[0-9]+)")
PAIRS_BRACKET = re.compile(
    r"\(((?:[0-9]+\.[0-9]+ → [0-9]+\.[0-9]+(?: ns)?(?:, and |, | and ))*[0-9]+\.[0-9]+ → [0-9]+\.[0-9]+(?: ns)?)([^()]*)\)"
)
RATIO = re.compile(r"(?<![–0-9.])([0-9]+\.[0-9]+)×")
SENTENCE_END = re.compile(r"\.\s+(?=[A-Z`*])")


def bracketed_ratios(body):
    """Each bracket of pairs in a section's prose with the ratios it gives
    them: the one after a lone pair inside it ("(517.8 → 242.4, 2.14×)"),
    or else the last as many ratios as it has pairs in its sentence before
    it, outside any bracket ("1.09×, 1.36× (in the slow mode), 1.34× and
    1.02× (26.17 → 24.03 ns, ...)", "2.05× in the first (320.9 → 156.7
    ns)"). A bracket with fewer ratios before it in its sentence gives
    none ("The first round, at a fast handoff ... (330.3 → 154.3 ns)")."""
    ends = [e.end() for e in SENTENCE_END.finditer(body)]
    for m in PAIRS_BRACKET.finditer(body):
        given = ARROW.findall(m.group(1))
        after = re.match(r",\s*([0-9]+\.[0-9]+)×", m.group(2))
        if len(given) == 1 and after:
            yield [after.group(1)], given, m
            continue
        start = ends[bisect.bisect_right(ends, m.start()) - 1] if ends and ends[0] <= m.start() else 0
        before, depth = [], 0
        for ch in body[start : m.start()]:
            depth += ch == "("
            before.append(ch if depth == 0 else " ")
            depth -= ch == ")" and depth > 0
        written = RATIO.findall("".join(before))
        if len(written) >= len(given):
            yield written[len(written) - len(given) :], given, m


def arrows_against_run(body, path):
    """Each "serial → two cores" pair of ns in a section's prose ("24.21
    → 15.19"), which must be one round's serial run (at GOMAXPROCS 1) and
    the same round's run on two goroutines, of one scenario and
    implementation in the run's raw file (path), to the places written;
    and each ratio that bracketed_ratios gives a bracket of such pairs
    ("1.49× and 1.60× (24.25 → 16.24 and 24.28 → 15.17 ns)"), which must
    be its pair's round's, serial over two cores. How many pairs and
    ratios were read, and what disagrees."""
    pairs = [(s, p) for scenario, impl, mode in limiter_runs(path) if mode == "parallel-2" for s, p, _ in rounds(path, scenario, impl)]
    read, ratios, bad = 0, 0, []
    fits = lambda a, b: [(s, p) for s, p in pairs if rounds_to(a, s) and rounds_to(b, p)]
    for m in ARROW.finditer(body):
        read += 1
        if not fits(*m.groups()):
            bad.append(f"{m.group(1)} → {m.group(2)} ns is no round's serial and two-core run in its raw file")
    for written, given, m in bracketed_ratios(body):
        for r, (a, b) in zip(written, given):
            these = fits(a, b)
            if not these:
                continue
            ratios += 1
            if not any(rounds_to(r, s / p) for s, p in these):
                bad.append(f"{r}× with {a} → {b} ns ({m.group(0)!r}): that round's ratio is {these[0][0] / these[0][1]:.3f}")
    return read, ratios, bad


# Where a section gives the span of the paired blocks' ns over all four
# rounds: the floor's ("The default clock's floor ran at its usual speed
# in all four rounds (16.57–16.71 ns)", "The coarse clock's floor ran at
# 11.62–11.98 ns in all four", "The floor on the default clock ran at
# 13.62–13.98 ns in all four rounds"), sluice's after it ("it took
# 18.48–19.45 ns, the uncounted one 17.35–17.38") and both at once ("in
# all four rounds: sluice took 13.01–13.26 ns, the floor 13.42–13.46").
# Sluice's after the floor's is held only within the sentence (a full
# stop is one not followed by a digit).
FLOOR_SPANS = (
    re.compile(r"The (default|coarse|monotonic) clock's floor ran (?:at its usual speed in all four rounds "
               r"\((?P<f1>[0-9]+\.[0-9]+)–(?P<f2>[0-9]+\.[0-9]+) ns\)|at (?P<f3>[0-9]+\.[0-9]+)–(?P<f4>[0-9]+\.[0-9]+) ns in all four)"),
    re.compile(r"The floor on the (default|coarse|monotonic) clock ran at (?P<f1>[0-9]+\.[0-9]+)–(?P<f2>[0-9]+\.[0-9]+) ns in all four rounds"),
    re.compile(r"The floor on the (default|coarse|monotonic) clock: .{0,80}?in all four rounds: sluice took "
               r"(?P<s1>[0-9]+\.[0-9]+)–(?P<s2>[0-9]+\.[0-9]+) ns, the floor (?P<f1>[0-9]+\.[0-9]+)–(?P<f2>[0-9]+\.[0-9]+)"),
)
UNCOUNTED_SPAN = re.compile(r"^(?:[^.]|\.(?=[0-9]))*?it took ([0-9]+\.[0-9]+)–([0-9]+\.[0-9]+) ns, the uncounted one ([0-9]+\.[0-9]+)–([0-9]+\.[0-9]+)")


def paired_rows(path, clock, counted=True):
    """A raw file's paired blocks on one clock, round by round: sluice's
    ns, the floor's ns and their ratio as the line writes it (sluice/floor,
    three places), of the counted decision, or of the uncounted one."""
    line = re.compile(
        r"BenchmarkAllowPaired/clock=%s/keylen=\d+/counts=%s-\d+\s+\d+\s+([0-9.]+) ns/op\s+"
        r"([0-9.]+) floor-ns/op\s+([0-9.]+) sluice/floor" % (re.escape(clock), "on" if counted else "off")
    )
    with open(path) as fh:
        return [(float(m.group(1)), float(m.group(2)), m.group(3)) for m in map(line.match, fh) if m]


def floor_spans_against_run(body, path):
    """Each span of FLOOR_SPANS in a section's prose, which must run from
    the least to the most of those ns in the counted decision's four
    rounds on that clock, to the places written (and the uncounted
    decision's, after "the uncounted one"). How many spans were read, and
    what disagrees."""
    read, bad = 0, []
    for pattern in FLOOR_SPANS:
        for m in pattern.finditer(body):
            clock = {"monotonic": "mono"}.get(m.group(1), m.group(1))
            on = paired_rows(path, clock)
            if not on:
                bad.append(f"{m.group(0)!r}: no paired blocks on the {m.group(1)} clock in its raw file")
                continue
            g = m.groupdict()
            spans = [((g["f1"] or g.get("f3"), g["f2"] or g.get("f4")), [f for _, f, _ in on], "the floor's")]
            if g.get("s1"):
                spans.append(((g["s1"], g["s2"]), [s for s, _, _ in on], "sluice's"))
            t = UNCOUNTED_SPAN.match(body[m.end() :])
            if t:
                off = paired_rows(path, clock, counted=False)
                spans += [(t.groups()[:2], [s for s, _, _ in on], "sluice's"), (t.groups()[2:], [s for s, _, _ in off], "the uncounted")]
            for (lo, hi), values, whose in spans:
                read += 1
                if not (rounds_to(lo, min(values)) and rounds_to(hi, max(values))):
                    bad.append(f"{m.group(0)!r}: {whose} {lo}–{hi} ns, where its rounds ran {min(values)}–{max(values)}")
    return read, bad


# Where a section's prose speaks of a clock's floor ratio: "The coarse
# clock's floor ran ...", "the monotonic clock's **0.98**", "the coarse
# one (1.106)". A ratio written to three places or more after it, up to
# the next such mention or the paragraph's end, is that clock's.
FLOOR_CLOCK = re.compile(r"\b(default|coarse|monotonic) clock\b|\bthe (default|coarse|monotonic)(?= one\b| [0-9])")
FLOOR_RATIO = re.compile(r"(?<![0-9.])([0-9]\.[0-9]{3,4})(?![0-9])")
# The first full run whose prose on the floor floor_ratios_against_run
# reads: the sections before it mix in side runs' and other runs' ratios
# ("at `359c911`", "the coarse clock's nine 1.046–1.070").
FIRST_FLOOR_PROSE = 41


def floor_ratios_against_run(section, path):
    """Each ratio of sluice to the floor that a section's prose writes to
    three places or more (FLOOR_CLOCK, FLOOR_RATIO), which must be, to
    its places, one of that clock's paired rounds in the raw file,
    counted or uncounted, or the median of the counted rounds, of the
    uncounted ones, or of either held to the floor's usual speed (as the
    report holds them, FLOOR_SPEED_BAND), as the raw lines give them or
    to three places. A ratio another run's ("the fifty-fourth's 1.154",
    "the 1.031 of the fifty-third") is left to named_run_ratios. Before,
    only the tables' rows and the spans in ns were held: a "(0.985)" for
    the monotonic clock's 0.983 passed. How many were read, and what
    disagrees."""
    read, bad = 0, []
    for para in section.split("\n\n"):
        para = " ".join(para.split())
        if para.startswith("|"):
            continue
        marks = list(FLOOR_CLOCK.finditer(para))
        for k, m in enumerate(marks):
            span = para[m.start() : marks[k + 1].start() if k + 1 < len(marks) else len(para)]
            name = m.group(1) or m.group(2)
            clock = {"monotonic": "mono"}.get(name, name)
            on, off = paired_rows(path, clock), paired_rows(path, clock, counted=False)
            medians = []
            every = ([float(r) for *_, r in on], [float(r) for *_, r in off])
            for ratios in every + (held_ratios(path, clock), held_ratios(path, clock, False)):
                if ratios:
                    medians += [statistics.median(ratios), statistics.median(round(r, 3) for r in ratios)]
            for r in FLOOR_RATIO.finditer(span):
                before, after = span[: r.start()], span[r.end() :]
                if re.search(r"(?:th|st|nd|rd)'s (?:\*\*)?$", before) or re.match(r"×? of the [a-z-]+(?:th|st|nd|rd)\b", after):
                    continue
                read += 1
                # A median where the prose says so: bold, alone in brackets
                # after a bold ratio ("**0.98** (0.983)", not a span
                # "(1.089–1.105)" or a list "(0.986 and 0.980)"), "... on
                # their median", "uncounted 0.996" (the report's).
                median = (
                    re.search(r"\*\*$|uncounted(?: decision| one)?(?: read)? $", before)
                    or re.search(r"\*\*[0-9.]+\*\*×? \($", before) and not re.match(r"–| and ", after)
                    or re.match(r"(?:\*\*)? on (?:their|the rounds') median", after)
                )
                cands = medians + ([] if median else every[0] + every[1])
                if not any(rounds_to(r.group(1), v) for v in cands):
                    what = "their medians" if median else "its rounds' ratios or their medians"
                    bad.append(f"{r.group(1)} on the {name} clock ({span[:60]!r}...) is none of {what}")
    return read, bad


def raw_top(path):
    """What a raw file holds before its first benchmark line: the header
    make bench writes from 2026-11-28 on (go, date, cpu-id, commit)."""
    with open(path) as fh:
        return fh.read().split("\nBenchmark", 1)[0]


def raw_date(path):
    """When a raw file's run began, by its header's "date: ", or None
    where it has none."""
    m = re.search(r"^date: (\S+)Z$", raw_top(path), re.M)
    return m and datetime.datetime.fromisoformat(m.group(1))


# The hot-key paragraph of a section: "The hot key on the default clock:
# **3.76×** on the median, 3.54–3.77× by round, the third's 3.54× with
# sluice at 24.11 ns and go-limiter at 85.32 (19.96–20.08 and 74.80–75.58
# in the others). On the coarse clock **5.02×**, 4.90–5.16× by round
# (sluice-coarse at 14.66–16.80 ns)."
HOT_PARAGRAPH = "The hot key on the default clock"
# The rounds of a full run as the sections name them, and patterns of
# them: one round ("third"), a list ("first, third and fourth"), and how
# a round ran ("at a fast handoff", "in the slow mode").
ROUND_WORDS = ("first", "second", "third", "fourth")
ORD = "(?:" + "|".join(ROUND_WORDS) + ")"
ORDS = rf"{ORD}(?:(?:, | and ){ORD})*"
MODE = r"(at (?:a )?fast handoffs?|in the slow mode)"


# The paragraph of a section on the hot key in paired blocks, and each
# clock's clause in it: "**2.10×** on the default clock, go-limiter 86.0 ns
# ÷ sluice 41.0 (2.00–2.20× by round)".
HOT_PAIRED_PARAGRAPH = "In paired blocks (`BenchmarkHotPaired`)"
HOT_PAIRED_CLAUSE = (r"\*\*([0-9.]+)×\*\* on the {clock} clock, ([a-z-]+) ([0-9.]+)(?: ns)? ÷ (?:sluice(?:-coarse)? )?"
                     r"([0-9.]+)(?: ns)? \(([0-9.]+)–([0-9.]+)× by round\)")
# The report's line for each clock (bench/cmd/report, hotPairedText).
HOT_PAIRED_LINE = r"^  {clock} clock: ([a-z-]+) ([0-9.]+) ns ÷ sluice(?:-coarse)? ([0-9.]+) ns: ([0-9.]+)× \(by round: ([^)]*)\)"


def hot_paired_against_run(section, text):
    """A section's paragraph on the hot key in paired blocks
    (HOT_PAIRED_PARAGRAPH) against the report's lines from
    BenchmarkHotPaired (text): for each clock it gives, the ratio, the
    fastest peer there, the peer's ns and sluice's, and the span of the
    ratios by round must be what the report prints. A section whose
    report prints those lines must have the paragraph, and give both
    clocks in it; one whose report does not (a run before
    BenchmarkHotPaired) need not. How many figures were read, and what
    disagrees."""
    read, bad = 0, []
    paras = [" ".join(p.split()) for p in section.split("\n\n")]
    if not any(p.startswith(HOT_PAIRED_PARAGRAPH) for p in paras) and re.search(HOT_PAIRED_LINE.format(clock="default"), text, re.M):
        bad.append(f"the report prints the hot key in paired blocks, and the section has no paragraph '{HOT_PAIRED_PARAGRAPH}, ...'")
    for para in paras:
        if not para.startswith(HOT_PAIRED_PARAGRAPH):
            continue
        for clock in ("default", "coarse"):
            said = re.search(HOT_PAIRED_CLAUSE.format(clock=clock), para)
            printed = re.search(HOT_PAIRED_LINE.format(clock=clock), text, re.M)
            if said is None:
                bad.append(f"the hot key in paired blocks: no clause '**N×** on the {clock} clock, <peer> N ns ÷ sluice N (N–N× by round)'")
                continue
            if printed is None:
                bad.append(f"the hot key in paired blocks: the report prints nothing for the {clock} clock")
                continue
            by_round = [float(x) for x in FIGURE.findall(printed.group(5))]
            ratio, peer, ns_peer, ns_us, low, high = said.groups()
            read += 6
            want = (printed.group(4), printed.group(1), printed.group(2), printed.group(3))
            if (ratio, peer, ns_peer, ns_us) != want:
                bad.append(f"the hot key in paired blocks, {clock} clock: {said.group(0)!r}, where the report prints {printed.group(0).strip()!r}")
            if not by_round or not (rounds_to(low, min(by_round)) and rounds_to(high, max(by_round))):
                bad.append(f"the hot key in paired blocks, {clock} clock: {low}–{high}× by round, where the report prints {by_round}")
    return read, bad


def hot_against_run(section, path, text):
    """A section's paragraph on the hot key (HOT_PARAGRAPH) against the
    report on its raw file (text) and the raw file (path), on each clock
    (the coarse one after "On the coarse clock", up to "On two
    goroutines", whose ns are parallel ones): the span of the ratios "by
    round" must run from the least to the most the report prints by
    round; a round it names ("the third's 3.54×", "its first round
    3.17×") must have that ratio, and the ns it gives right after
    ("by sluice's 21.58 ns", "with sluice at 24.11 ns and go-limiter at
    85.32") that round's; each figure in ns must be a serial run of
    the hot key by one of sluice, sluice-coarse and the peer the report
    divides by, and each span of them must run from the least to the
    most of one of those's serial runs: in all rounds, or in all but a
    round the paragraph names (only those where it says "in the
    others"), or in the rounds it says ("in the first three rounds").
    Before, such a figure had only to be somewhere in the raw file, and
    a span's ends any two serial runs. How many figures were read, and
    what disagrees."""
    read, bad = 0, []
    printed = report_targets(text)
    for para in section.split("\n\n"):
        para = " ".join(para.split())
        if not para.startswith(HOT_PARAGRAPH):
            continue
        para = para.split(" On two goroutines", 1)[0]
        default, _, coarse = para.partition("On the coarse clock")
        for part, clock in ((default, "default"), (coarse, "coarse")):
            if not part:
                continue
            target = unique(printed, f"{clock} clock: ≥ {'2×' if clock == 'default' else '3.5×'}")
            if target is None:
                bad.append(f"the hot key on the {clock} clock: nothing in the report")
                continue
            detail = target[1]
            peer = re.match(r"([a-z-]+) [0-9.]+ ns ÷", detail)
            by_round = [float(x) for x in FIGURE.findall(detail.split("by round:", 1)[-1])]
            m = re.search(r"([0-9]+\.[0-9]+)–([0-9]+\.[0-9]+)× by round", part)
            if m:
                read += 1
                if not by_round or not (rounds_to(m.group(1), min(by_round)) and rounds_to(m.group(2), max(by_round))):
                    bad.append(f"the hot key, {clock} clock: {m.group(0)!r}, where the report prints {by_round}")
            serial = {}
            for who in ("sluice", "sluice-coarse", peer and peer.group(1)):
                got = rounds(path, "hot-allow", who)
                if got:
                    serial[who] = [ns for ns, _, _ in got]
            # The rounds the paragraph names, kept for "in the others" below.
            rounds_named = []
            for m in re.finditer(rf"(?:the ({ORD})'s|its ({ORD}) round) ([0-9]+\.[0-9]+)×", part):
                read += 1
                named = ROUND_WORDS.index(m.group(1) or m.group(2))
                rounds_named.append(named)
                if named >= len(by_round) or not rounds_to(m.group(3), by_round[named]):
                    bad.append(f"the hot key, {clock} clock: {m.group(0)!r}, where the report prints {by_round}")
                # The ns it gives that round: "by sluice's 21.58 ns", "with
                # sluice at 24.11 ns and go-limiter at 85.32", "(sluice at 23.93 ns".
                # A figure ends at its last digit: a sentence may end right after
                # it ("by go-limiter's 90.39.").
                figure = r"[0-9]+(?:\.[0-9]+)?"
                told = re.match(rf" (?:by|with|\()((?: ?[a-z-]+(?:'s| at) {figure}(?: ns)?(?:,? and)?)+)", part[m.end() :])
                for who, ns in re.findall(rf"([a-z-]+)(?:'s| at) ({figure})", told.group(1) if told else ""):
                    read += 1
                    if who not in serial or named >= len(serial[who]) or not rounds_to(ns, serial[who][named]):
                        bad.append(f"the hot key, {clock} clock: {m.group(0)!r} by {who}'s {ns} ns, which is not that round's")
            for m in re.finditer(r"(?<![0-9.×–])([0-9]+\.[0-9]{2})(?:–([0-9]+\.[0-9]{2}))?(?![0-9×–])", part):
                read += 1
                ends = [x for x in m.groups() if x]
                if len(ends) == 1:
                    if not any(any(rounds_to(ends[0], v) for v in vs) for vs in serial.values()):
                        bad.append(f"the hot key, {clock} clock: {m.group(0)} ns is no serial run of the hot key by one of {', '.join(serial)}")
                    continue
                # A span runs from the least to the most of one
                # implementation's serial runs: in all rounds, or in all
                # but a round the paragraph names ("74.61–77.80 in the
                # others"), and only those where it says "in the others".
                # "14.78–15.34 ns in the first three rounds": those.
                after = part[m.end() :]
                others = after.startswith(" in the others")
                some = re.match(r"(?: ns)? in the (first|last) (two|three) rounds", after)
                if some:
                    k = COUNT_WORDS.index(some.group(2)) + 1
                    pick = lambda vs: [vs[:k] if some.group(1) == "first" else vs[-k:]]
                else:
                    pick = lambda vs: ([] if others else [vs]) + [[v for i, v in enumerate(vs) if i != r] for r in rounds_named]
                spans = [(min(these), max(these)) for vs in serial.values() for these in pick(vs) if these]
                if not any(rounds_to(ends[0], lo) and rounds_to(ends[1], hi) for lo, hi in spans):
                    where = (
                        f"the {some.group(1)} {some.group(2)} rounds" if some
                        else "all rounds but one it names" if others else "all rounds, or all but one it names,"
                    )
                    bad.append(f"the hot key, {clock} clock: {m.group(0)} ns is not the least to the most serial run of the hot key in {where} by one of {', '.join(serial)}")
    return read, bad


# The paragraphs on two cores, and the scenario each is of.
TWO_CORES = (("Two cores on 1,000 keys:", "keys-1k"), ("Two cores on 1M keys:", "keys-1M"))
# Rounds said to have run at a handoff: "The first and third rounds ran at
# fast handoffs", "the fourth ran in the slow mode", "The first three
# rounds ran at fast handoffs", "all four rounds at fast handoffs".
ROUNDS_AT = re.compile(
    rf"\b(?:[Tt]he ({ORDS})|[Tt]he (first|last) (two|three)|([Aa]ll four))(?: rounds?)? (?:ran )?{MODE}"
)


def handoffs_named_against_run(section, path):
    """The rounds that a section's paragraphs on two cores (TWO_CORES) say
    ran in the slow mode or at fast handoffs (ROUNDS_AT), up to the
    sentences on the floor reference and a denied hot key (SCALED): each
    round's two-core run of sluice must have run so (a handoff under FAST
    ns is fast). "The other two" names rounds by those named before it,
    and is not read. How many rounds were read, and what disagrees."""
    read, bad = 0, []
    for para in section.split("\n\n"):
        para = " ".join(para.split())
        scenario = next((sc for w, sc in TWO_CORES if para.startswith(w)), None)
        if scenario is None:
            continue
        other = SCALED_OPENING.search(para)
        para = para[: other.start()] if other else para
        its = rounds(path, scenario)
        for m in ROUNDS_AT.finditer(para):
            if m.group(1):
                named = [ROUND_WORDS.index(w) for w in re.findall(ORD, m.group(1))]
            elif m.group(2):
                k = COUNT_WORDS.index(m.group(3)) + 1
                named = list(range(k)) if m.group(2) == "first" else list(range(len(its) - k, len(its)))
            else:
                named = list(range(len(its)))
            slow = m.group(5).startswith("in the slow")
            for i in named:
                read += 1
                h = its[i][2] if i < len(its) else None
                if h is None or (h >= FAST) != slow:
                    bad.append(f"{scenario}: {m.group(0)!r}, but its {ROUND_WORDS[i]} round ran at a {h} ns handoff")
    return read, bad


def sections_against_reports(full, texts):
    """Each full run's own section in HISTORY.md ("A ... full
    run, at `commit`"), from the FIRST_BY_ROUND-th on, against the report
    on its raw file: the ns the hot key's and 1M keys' ratios divide,
    those ratios and the two-core medians, and every target's figures
    round by round (with the handoff beside each two-core round); from the
    FIRST_OPENING-th on, also its opening paragraph
    (opening_against_report), and the minutes it says it began after an
    earlier run, by the raw files' dates (raw_date); after RULE_SET, its
    running count of the 1,000-key rounds (running_1k); and wherever it
    gives one, its count of the 1M-key rounds inside 1.85–2.31×; and its
    rows of the floor (floor_row); and, in its prose, each figure in ns
    (ns_against_run) and each ratio of the floor reference's 1,000 keys
    and a denied hot key (scaled_against_run), and each pair of a round's
    serial and two-core ns (arrows_against_run), and the floor's spans
    (floor_spans_against_run) and, from the FIRST_FLOOR_PROSE-th on, its
    ratios (floor_ratios_against_run); from the FIRST_TWIN-th on, its
    comparisons with the mutex twin (twin_against_run). The lines where
    they disagree, and how many of each were read (SECTION_COUNTS). The
    twenty-sixth's section keeps the form the head of the file had while
    that run led it (its rounds in brackets beside the medians), so only
    its prose's figures are read. The checks of one section are
    section_against_run's, which the runs on another processor
    (others_against_reports) share."""
    sections, files = run_sections(files=True)
    bad, n = [], dict.fromkeys(SECTION_COUNTS, 0)
    n["twins"] = [0, 0]
    got = counted_1k(rounds_1k(full, FIRST_1K), LIMIT_1K)
    rounds_1m = counted_1m(full)
    band_1m = re.compile(r"([0-9]+) of ([0-9]+) (?:[a-z]+ )?(?:inside|within|in) 1\.85–2\.31×")
    for i, commit in enumerate(full, 1):
        if i < FIRST_BY_ROUND:
            continue
        where = f"run {i} (`{commit}`)"
        section = sections.get((ordinal(i), commit))
        if section is not None:
            where += f", its section in bench/{files[ordinal(i), commit]}"
        if section is None:
            article = "An" if ordinal(i)[0] in "aeiou" else "A"
            bad.append(f"{where}: no section headed \"{article} {ordinal(i)} full run, at `{commit}`\"")
            continue
        bad += section_against_run(
            section, commit, commit + ".txt", texts, i, where, n,
            twin=i >= FIRST_TWIN, stripes=i >= FIRST_STRIPES, opening=i >= FIRST_OPENING, table=i != 26,
        )
        if i == 26:
            continue
        body = " ".join(section.split())
        if i > RULE_SET:
            k, wrong = running_1k(body, got, i)
            n["running"] += k
            bad += [f"{where}: {d}" for d in wrong]
        earlier = {ordinal(j): (os.path.join(RUNS, c + ".txt"), sections.get((ordinal(j), c), "")) for j, c in enumerate(full[: i - 1], 1)}
        k, wrong = begun_against(body, os.path.join(RUNS, commit + ".txt"), earlier)
        n["begun"] += k
        bad += [f"{where}: {d}" for d in wrong]
        # "now 98 of 112 inside 1.85–2.31×": the 1M rounds counted up to this run.
        upto = [r for o, _, _, r in rounds_1m if o <= i]
        want = (str(sum(map(inside_1m, upto))), str(len(upto)))
        for m in band_1m.finditer(body):
            n["running"] += 1
            if m.groups() != want:
                bad.append(f"{where}: the 1M count writes {m.group(0)!r}, the rounds counted up to it are {want[0]} of {want[1]}")
    return bad, n


# When a run's opening says it began after an earlier one: "begun 45
# minutes after the hundred and second" and "27 minutes after the sixth
# began" (start to start), "begun 18 minutes after the sixth ended" (from
# the earlier one's start plus the time its own opening gives it, "(16m27s,
# "). Each to the nearest minute, by the dates the raw files open with.
BEGUN = re.compile(r"\b([0-9]+) minutes after the ([a-z -]+?)( ended| began)?(?=[,;.)])")
TOOK = re.compile(r"\(([0-9]+)m([0-9]+)s, ")


def begun_against(body, path, earlier):
    """Each BEGUN phrase of a section (body, its text on one line) whose
    raw file is path, against the raw files' dates (raw_date); earlier
    maps an earlier run's ordinal, as the phrase names it, to its raw
    file and its section. How many were read, and what disagrees."""
    bad, k = [], 0
    for m in BEGUN.finditer(body):
        k += 1
        raw, section = earlier.get(m.group(2), (None, ""))
        began = [raw_date(f) for f in (raw, path) if f and os.path.exists(f)]
        took = TOOK.search(" ".join(section.split()))
        if len(began) != 2 or None in began:
            bad.append(f"{m.group(0)!r} names no earlier run whose raw file and this one's give the date they began")
            continue
        if m.group(3) == " ended":
            if took is None:
                bad.append(f"{m.group(0)!r}: the {m.group(2)}'s section gives no time it took, \"(NmNNs, \"")
                continue
            began[0] += datetime.timedelta(minutes=int(took.group(1)), seconds=int(took.group(2)))
        if round((began[1] - began[0]).total_seconds() / 60) != int(m.group(1)):
            bad.append(f"{m.group(0)!r}, where the raw files give {began[1] - began[0]}")
    return k, bad


# A ratio that the documents give as another full run's: "the
# nineteenth's 3.53×", "(3.53× in the nineteenth)", "the fifty-first's two
# 1.84×". Only ordinals past the tenth are read as runs: a count of ten
# rounds or fewer names its rounds the same way ("the third's 1.41×").
FIRST_NAMED = 11


def named_run_ratios(full, texts):
    """Each ratio in the history's and "Another machine"'s sections of
    BENCHMARKS.md and in the README that names the full run it is from
    (FIRST_NAMED), which must be one that run's report prints (texts) or
    one of its rounds' serial over two-core ratios, to the places
    written. How many were read, and what disagrees."""
    number = {ordinal(i): i for i in range(FIRST_NAMED, len(full) + 1)}
    names = "|".join(sorted(map(re.escape, number), key=len, reverse=True))
    forms = (
        re.compile(r"the (%s)'s (?:two )?([0-9]+\.[0-9]+)×" % names),
        re.compile(r"([0-9]+\.[0-9]+)× in the (%s)\b(?! to\b)" % names),
    )

    @functools.lru_cache(maxsize=None)
    def held(i):
        raw = full[i - 1] + ".txt"
        values = [float(v) for v in FIGURE.findall(texts.get(raw, ""))]
        got = limiter_runs(os.path.join(RUNS, raw))
        for (sc, impl, mode), two in got.items():
            if mode == "parallel-2":
                one = got.get((sc, impl, "serial")) or got.get((sc, impl, "serial-2"), [])
                values += [s / p for (s, _), (p, _) in zip(one, two)]
        return sorted(values)

    with open(os.path.join(RUNS, "..", "..", "README.md")) as fh:
        docs = [("README.md", fh.read())]
    sections, files = run_sections(files=True)
    docs += [(f"bench/{files[k]}, the {k[0]} run's section", s) for k, s in sections.items()]
    read, bad = 0, []
    for where, text in docs:
        prose = " ".join(" ".join(l for l in text.split("\n") if not l.startswith("|")).split())
        for form in forms:
            for m in form.finditer(prose):
                name, x = m.groups() if form is forms[0] else m.groups()[::-1]
                read += 1
                if not among(x, held(number[name])):
                    bad.append(f"{where}: {m.group(0)!r}, which the {name} run's report and rounds do not hold")
    return read, bad


# What section_against_run and sections_against_reports count: table
# rows, openings, the minutes from an earlier run's start, running counts,
# figures in ns, scaling ratios, serial → two-core pairs and the ratios
# given them, the floor's spans and ratios, and the mutex twin's
# verdicts and figures.
SECTION_COUNTS = ("rows", "openings", "begun", "running", "ns", "scaled", "arrows", "arrow_ratios", "spans", "floor_ratios", "hot", "handoffs_named", "twins")


# The history of changes and full runs, split out of BENCHMARKS.md, a
# section (##) each, is in files by era, read as one, in order:
# HISTORY.md, then each HISTORY-<N>.md, which holds the history from the
# Nth full run on (history_split says where one does not).
HISTORY_FILE = re.compile(r"^HISTORY(?:-([0-9]+))?\.md$")


def history_files():
    """The names of the history's files, in order: HISTORY.md first, then
    each HISTORY-<N>.md by N."""
    names = [os.path.basename(f) for f in glob.glob(os.path.join(RUNS, "..", "HISTORY*.md"))]
    return sorted((n for n in names if HISTORY_FILE.match(n)), key=lambda n: int(HISTORY_FILE.match(n).group(1) or 0))


def record_text(name):
    """A record of the bench/ directory (BENCHMARKS.md or one of the
    history's files), whole."""
    with open(os.path.join(RUNS, "..", name)) as fh:
        return fh.read()


# A full run's heading: in the history (##), "A ... full run, at
# `commit`"; under BENCHMARKS.md's "Another machine" (###), "A ... full
# run on family N, at `commit`", or "on family N under kvm-clock" for a
# host that keeps time by another clocksource (OTHER_RUN).
RUN_HEADING = r"^#{%d} An? ([a-z -]+?) full run(?: on family ([0-9]+(?: under [a-z-]+)?))?, at `([0-9a-f]{7})`.*$"


def run_sections(files=False):
    """The sections of full runs, by (ordinal, commit), from their
    headings (RUN_HEADING): in the history's files (##), and under
    BENCHMARKS.md's "Another machine" (###, keyed by (ordinal, commit,
    N)). A section ends where the next heading of its level or above
    begins, or its file ends: a history section's own subsections (###)
    stay in it. With files, also the name of the file each is in."""
    sections, where = {}, {}
    texts = [(name, record_text(name), 2) for name in history_files()]
    texts.append(("BENCHMARKS.md", record_text("BENCHMARKS.md"), 3))
    for name, text, level in texts:
        heading = re.compile(RUN_HEADING % level, re.M)
        following = re.compile(r"^#{1,%d} " % level, re.M)
        for h in heading.finditer(text):
            end = following.search(text, h.end())
            key = (h.group(1), h.group(3)) + ((h.group(2),) if h.group(2) else ())
            sections[key] = text[h.end() : end.start() if end else len(text)]
            where[key] = name
    return (sections, where) if files else sections


def history_split():
    """Where the history's files do not split it as their names say: each
    HISTORY-<N>.md must open its full runs with the Nth, and the file
    before it end its own with the (N-1)th."""
    sections, files = run_sections(files=True)
    bad, last = [], None
    for name in history_files():
        n = HISTORY_FILE.match(name).group(1)
        runs = [key[0] for key in sections if files[key] == name]
        if n is not None:
            if not runs or runs[0] != ordinal(int(n)):
                bad.append(f"bench/{name}: its first full run is not the {ordinal(int(n))} ({runs[0] if runs else 'none'})")
            if last is not None and last != ordinal(int(n) - 1):
                bad.append(f"bench/{name}: the file before it ends its full runs with the {last}, not the {ordinal(int(n) - 1)}")
        if runs:
            last = runs[-1]
    return bad


# The processor of every run in the history, full and quick: the VM's AMD
# EPYC of family 25. A full run on another processor (the VM has moved
# to another host once, at 0e8399e, with the same "cpu: AMD EPYC") is kept
# as <commit>-family<N>.txt beside its chart, with its own section under
# BENCHMARKS.md's "Another machine", and is left out of every count of
# the history's runs: its decisions and handoffs are another processor's.
SERIES_FAMILY = "25"
# The first full run of the history after the VM came back to
# SERIES_FAMILY from family 26; the documents say how far the runs have
# gone on it since.
BACK_ON_SERIES = 100
# A host whose kernel keeps time by a clocksource other than the TSC is
# another machine though its processor is the same: there the default
# clock is the runtime's monotonic clock (clock.Default), so every
# decision costs more. Its files carry the clocksource after the family
# (<commit>-family26-kvm-clock.txt), and its sections' headings say "on
# family 26 under kvm-clock"; machine() gives the key they share.
OTHER_RUN = re.compile(r"^([0-9a-f]{7})-family([0-9]+)(?:-(kvm-clock))?\.txt$")


def other_runs():
    """The raw files of full runs on another processor, by name."""
    return sorted(f for f in glob.glob(os.path.join(RUNS, "*.txt")) if OTHER_RUN.match(os.path.basename(f)))


def machine(name):
    """The commit of a raw file on another machine (OTHER_RUN), and the
    machine as its sections' headings name it: "26", or "26 under
    kvm-clock"."""
    commit, fam, source = OTHER_RUN.match(name).groups()
    return commit, fam + (f" under {source}" if source else "")


def machine_file(commit, key):
    """The raw file's name of a full run on the machine key names."""
    fam, _, source = key.partition(" under ")
    return f"{commit}-family{fam}" + (f"-{source}" if source else "") + ".txt"


# The processor family in a raw file's cpu-id line (make bench writes one
# from 7541753 on), among the lines before its first benchmark.
CPU_FAMILY = re.compile(r"^cpu-id: .* family ([0-9]+) ", re.M)


def cpu_family(path):
    """The processor family that a raw file's cpu-id line names, or None
    where it has none."""
    m = CPU_FAMILY.search(raw_top(path))
    return m and m.group(1)


def series_machine(files):
    """Each of the history's raw files (runs()) whose cpu-id line names a
    family other than SERIES_FAMILY: it must not enter the counts."""
    bad = []
    for f in files:
        fam = cpu_family(f)
        if fam is not None and fam != SERIES_FAMILY:
            commit = os.path.basename(f)[:7]
            bad.append(f"{os.path.relpath(f)} was run on an AMD EPYC of family {fam}, not the history's {SERIES_FAMILY}: "
                       f"keep it as {commit}-family{fam}.txt (and .svg) with a section under \"Another machine\"")
    return bad


def others_against_reports(texts, n):
    """Each full run on another processor (other_runs) against its own
    section, "A <ordinal> full run on family N, at `commit`", by
    section_against_run, which adds what it reads to n, and the minutes
    its opening says it began after an earlier run of the family
    (begun_against); each such heading must have its raw file, and a
    family's headings must run first, second, ... in the order they
    stand. What disagrees."""
    sections = {k: v for k, v in run_sections().items() if len(k) == 3}
    bad = []
    for f in other_runs():
        raw = os.path.basename(f)
        commit, fam = machine(raw)
        where = f"bench/BENCHMARKS.md, the run on family {fam} at `{commit}`"
        named = cpu_family(f)
        if named is not None and named != fam.split()[0]:
            bad.append(f"{where}: its raw file's cpu-id names family {named}")
        keys = [k for k in sections if k[1:] == (commit, fam)]
        if len(keys) != 1:
            bad.append(f"{where}: {len(keys)} sections headed \"A ... full run on family {fam}, at `{commit}`\", not one")
            continue
        bad += section_against_run(sections[keys[0]], commit, raw, texts, raw, where, n)
        own = [k for k in sections if k[2] == fam]
        earlier = {k[0]: (os.path.join(RUNS, machine_file(k[1], fam)), sections[k]) for k in own[: own.index(keys[0])]}
        k, wrong = begun_against(" ".join(sections[keys[0]].split()), f, earlier)
        n["begun"] += k
        bad += [f"{where}: {d}" for d in wrong]
    for fam in sorted({k[2] for k in sections}):
        for j, (o, commit, _) in enumerate((k for k in sections if k[2] == fam), 1):
            if o != ordinal(j):
                bad.append(f"the {o} full run on family {fam}, at `{commit}`, stands {ordinal(j)} of that family's")
            if not os.path.exists(os.path.join(RUNS, machine_file(commit, fam))):
                bad.append(f"the {o} full run on family {fam}, at `{commit}`: no raw output {machine_file(commit, fam)}")
    return bad


def other_figures(texts):
    """The full runs on each other processor (other_runs), in the order
    their sections stand, as the documents list them together: from the
    report on each (texts), the hot key's ratio to the fastest per-key
    peer, the peer's ns and sluice's, the coarse clock's ratio and ns,
    two cores on 1,000 keys and on 1M keys and sluice's serial ns of
    each, the default clock's floor, the median handoff, BenchmarkMiss;
    from the raw file, how many parallel benchmarks ran in the slow mode,
    the floor's median over the rounds the report holds (held_floor), and
    the 1,000-key rounds at fast handoffs. By family: a list of dicts."""
    order = [k[1:] for k in run_sections() if len(k) == 3]
    by = {}
    for f in other_runs():
        commit, fam = machine(os.path.basename(f))
        by.setdefault(fam, []).append((order.index((commit, fam)) if (commit, fam) in order else len(order), f))
    out = {}
    for fam, fs in by.items():
        out[fam] = []
        for _, f in sorted(fs):
            text = texts.get(os.path.basename(f), "")
            targets = report_targets(text)
            get = lambda words: next((v for w, v in targets.items() if w.startswith(words)), None)
            hot, coarse = get("hot key, default clock"), get("hot key, coarse clock")
            k1, k1m = get("two cores on distinct keys (keys-1k)"), get("two cores on distinct keys (keys-1M)")
            floor = get("core engine: hot key ≤ about 1.1× the floor, default clock")
            handoff = re.search(r"median ([0-9.]+) ns, [0-9.]+ to [0-9.]+ over ([0-9]+) benchmarks", text)
            miss = re.search(r"÷ ([0-9.]+) ns,\s*one dependent miss here", text)
            peer = hot and re.match(r"(\S+) ([0-9.]+) ns ÷ sluice ([0-9.]+) ns", hot[1])
            coarse_ns = coarse and re.match(r"\S+ [0-9.]+ ns ÷ sluice-coarse ([0-9.]+) ns", coarse[1])
            serial = [v and re.search(r"serial ([0-9.]+) ns, two cores ([0-9.]+) ns", v[1]) for v in (k1, k1m)]
            if None in (coarse, coarse_ns, floor, handoff, miss, peer, *serial) or not all(serial):
                sys.exit(f"the report on {os.path.basename(f)} lacks a line other_figures reads")
            out[fam].append({
                "hot": hot[0], "peer": peer.group(2), "hot_ns": peer.group(3), "coarse": coarse[0],
                "coarse_ns": coarse_ns.group(1),
                "1k": k1[0], "1k_ns": serial[0].group(1), "1k_two": serial[0].group(2),
                "1m": k1m[0], "1m_ns": serial[1].group(1),
                "floor": floor[0], "held": held_floor(f, "default"),
                "handoff": handoff.group(1), "parallel": handoff.group(2), "miss": miss.group(1),
                "slow": sum(1 for v in handoffs([f]) if FAST <= v <= STALLED),
                "fast_1k": [s / p for s, p, h in rounds(f, "keys-1k") if h is not None and h < FAST],
                "slow_1k": [s / p for s, p, h in rounds(f, "keys-1k") if h is not None and h >= FAST],
                "hot_twin": hot_twin_rounds(f),
            })
    return out


def hot_twin_rounds(path):
    """Each round of one admitted hot key on two goroutines in a raw file:
    (sluice's ns, its handoff, the mutex twin's ns, its handoff)."""
    got = limiter_runs(path)
    ours, twin = (got.get(("hot-allow", impl, "parallel-2"), []) for impl in ("sluice", "sluice-mutex"))
    return [(a, ah, b, bh) for (a, ah), (b, bh) in zip(ours, twin) if ah is not None and bh is not None]


def hot_twin_phrase(rows):
    """The README's verdict on the mutex twin against sluice on a hot key
    on two goroutines, over the rounds of a host's full runs and its make
    benchstat runs: in how many of the rounds where both ran in the slow
    mode the twin was ahead, the least handoff among them, and in how
    many of those where both ran at fast handoffs it was behind ("all
    eight", "twenty-one of the twenty-two"); and where the two ran in
    different modes, in how many of those rounds it was behind ("and in
    the one where sluice ran at a fast handoff and the twin in the slow
    mode")."""
    slow = [r for r in rows if r[1] >= FAST and r[3] >= FAST]
    fast = [r for r in rows if r[1] < FAST and r[3] < FAST]
    if not slow or not fast:
        return "(the twin's rounds do not split by mode as the paragraph says)"
    count = lambda k, n: f"all {words(n)}" if k == n else f"{words(k)} of the {words(n)}"
    ahead = sum(1 for a, _, b, _ in slow if b < a)
    behind = sum(1 for a, _, b, _ in fast if a < b)
    low = min(min(ah, bh) for _, ah, _, bh in slow)
    phrase = (f"the mutex twin was ahead of sluice in {count(ahead, len(slow))} rounds of the full runs and of `make "
              f"benchstat` where both ran in the slow mode (handoffs of {low:.1f} ns and over), and behind it in "
              f"{count(behind, len(fast))} where both ran at fast handoffs")
    for first, second, these in (
        ("sluice", "the twin", [r for r in rows if r[1] < FAST <= r[3]]),
        ("the twin", "sluice", [r for r in rows if r[3] < FAST <= r[1]]),
    ):
        if not these:
            continue
        where = (f"the one where {first} ran at a fast handoff" if len(these) == 1
                 else f"the {words(len(these))} where {first} ran at fast handoffs") + f" and {second} in the slow mode"
        behind = sum(1 for a, _, b, _ in these if a < b)
        if behind == len(these):
            phrase += f", and in {where}" if len(these) == 1 else f", and in all {where.removeprefix('the ')}"
        else:
            phrase += f"; it was behind in {words(behind)} of {where}" if behind else f"; it was ahead in {where}"
    return phrase


def other_phrases(others):
    """The phrases README.md and BENCHMARKS.md write of the full runs on
    another processor together (other_figures): their count, and each
    figure listed run by run or as a span over them."""
    every = words(sum(len(group) for group in others.values()))
    readme = [f"it holds the sections of the {every} runs on another processor"] if others else []
    benchmarks = [f"({every} full runs on a processor of another generation, kept apart)"] if others else []
    for fam, group in sorted(others.items()):
        n = words(len(group))
        col = lambda key: [r[key] for r in group]
        lst = lambda key, unit="": joined([v + unit for v in col(key)])
        span = lambda key, unit="": f"{min(col(key), key=float)}–{max(col(key), key=float)}{unit}"
        fast = [v for r in group for v in r["fast_1k"]]
        if " under " in fam:
            # A host that keeps time by another clocksource: the README's
            # paragraph on it, its figures run by run.
            k = len(fast)
            readme += [
                f"In its {n} full run{'s' if len(group) > 1 else ''} a hot key's decision took {lst('hot_ns')} ns on "
                f"the default clock and {lst('coarse_ns')} on the coarse one",
                f"the hot key read {lst('hot', '×')} the fastest per-key peer, the coarse clock {lst('coarse', '×')}, "
                f"and the core engine issue's floor {lst('floor')} on the default clock",
                f"A line crossed in {lst('handoff')} ns on the median, and two cores on 1,000 keys gave "
                f"**{lst('1k', '×')}** on the median ("
                + (f"{joined([f'{v:.2f}×' for v in fast])} in the {'one round' if k == 1 else words(k) + ' rounds'} "
                   f"at a fast handoff" if k else "no round at a fast handoff")
                + f"), 1M keys {lst('1m', '×')}",
            ]
            # The README's opening, where it falls short.
            readme.append(f"on a host that keeps time by {fam.partition(' under ')[2]}, where a line took "
                          f"{span('handoff')} ns to cross on the medians, {n} full runs read {span('1k', '×')}")
            stats = glob.glob(os.path.join(RUNS, machine_file("[0-9a-f]" * 7, fam).removesuffix(".txt") + "-benchstat.txt"))
            readme.append(hot_twin_phrase([row for r in group for row in r["hot_twin"]]
                                          + [row for f in sorted(stats) for row in hot_twin_rounds(f)]))
            continue
        fast = f"{min(fast):.2f}–{max(fast):.2f}×"
        held = joined([f"{r['held']:.5f}".rstrip("0") for r in group])
        readme += [
            f"{n} full runs read {span('1k', '×')}",
            f"in the {n} runs on family {fam}",
            f"({n} full runs on family {fam} are under",
            f"{n} full runs read a handoff of {span('handoff')} ns on the median, sluice took {span('1k_ns')} ns a "
            f"decision on 1,000 keys on one core, and two cores gave **{lst('1k', '×')}** on the median (every round "
            f"at a fast handoff {fast}), while 1M keys gave {span('1m', '×')}",
            f"The hot key read {span('hot', '×')} the fastest per-key peer, and the core engine issue's floor "
            f"{span('floor')} on the default clock",
            f"{span('miss')} in the {n} runs on family {fam}",
        ]
        # Where a run's median handoff was in the slow mode, the span over
        # all of them needs the fast runs' and the slow runs' apart.
        fast_runs = [r["1k"] for r in group if float(r["handoff"]) < FAST]
        slow_runs = [r["1k"] + "×" for r in group if float(r["handoff"]) >= FAST]
        if slow_runs and fast_runs:
            readme.append(
                f"{min(fast_runs, key=float)}–{max(fast_runs, key=float)}× in the {words(len(fast_runs))} whose median "
                f"handoff was fast, {joined(slow_runs)} in the {'one' if len(slow_runs) == 1 else words(len(slow_runs))} "
                f"whose median handoff was in the slow mode"
            )
        for i, r in enumerate(group, 1):
            if float(r["handoff"]) >= FAST:
                rounds_1k = len(r["fast_1k"]) + len(r["slow_1k"])
                below = "where two cores took longer than one" if max(r["slow_1k"], default=1) < 1 else "(not all below 1×)"
                readme.append(
                    f"The {ordinal(i)} met the VM's slow mode in {words(len(r['slow_1k']))} of its {words(rounds_1k)} "
                    f"1,000-key rounds, {below}"
                )
        benchmarks += [
            f"The {n} full runs made on family {fam} are kept",
            f"on the medians of these {n} runs against the",
            f"sluice's hot key took {lst('hot_ns')} ns",
            f"1,000 keys {lst('1k_ns')} ns, 1M keys {lst('1m_ns')}",
            f"at {span('peer')} ns, the hot key read {lst('hot', '×')}, the coarse clock {lst('coarse', '×')}",
            f"the default clock read {lst('floor')} ({held} on the rounds' median)",
            f"{lst('handoff')} ns on the median handoff",
            f"({joined([str(v) for v in col('slow')])} of {'/'.join(sorted(set(col('parallel'))))} parallel benchmarks in it)",
            f"{lst('1k', '×')} on the median, every fast round {fast}",
            f"1M keys still scale {lst('1m', '×')}",
        ]
        # The account of the second run, all four of its 1,000-key rounds
        # fast: one core's decision, two cores' wall time and each core's,
        # what the other core added, twice that for each line that moved
        # (about half the admissions move one), the handoff, and what 1.8×
        # would allow.
        if len(group) > 1:
            second = group[1]
            one, two = float(second["1k_ns"]), float(second["1k_two"])
            moved = 2 * (2 * two - one)
            benchmarks.append(
                f"In the second run, {'all four rounds at fast handoffs' if len(second['fast_1k']) == 4 else '(not all fast)'}, "
                f"one core took {second['1k_ns']} ns a decision and two took {second['1k_two']} ns of wall time, "
                f"{2 * two:.1f} each: the other core added {2 * two - one:.1f} ns to a decision, about {moved:.0f} ns for "
                f"each line that moved, {'a third' if 0.3 <= moved / float(second['handoff']) < 0.37 else '(not a third)'} "
                f"of a {second['handoff']} ns handoff"
            )
            benchmarks.append(f"where 1.8× would allow {2 * one / 1.8 - one:.1f} ns")
    return readme, benchmarks


# A BenchmarkAllowKeysSharing line of sluice on the default clock: its
# keys, its mode ("serial", "parallel/share=keys/counts=off", ...), its ns
# and, for a parallel run, the handoff around it.
SHARING_LINE = re.compile(
    r"^BenchmarkAllowKeysSharing/impl=sluice/clock=default/keys=([0-9]+)/mode=(\S+)-2\s+\d+\s+([0-9.]+) ns/op"
    r"(?:\s+([0-9.]+) handoff-ns)?",
    re.M,
)


def sharing_phrases():
    """What BENCHMARKS.md's "Another machine" and the README write of each
    BenchmarkAllowKeysSharing run kept with the one command those use
    (five runs of each benchmark): each benchmark's median as the raw file
    prints it, and each ratio of a serial median over a parallel one. The
    runs on another processor (<commit>-family<N>-sharing.txt) stand in
    "Another machine", with the README's one sentence on share=nothing
    over those on a processor's own clock (a host that keeps time by
    another clocksource, <commit>-family<N>-kvm-clock-sharing.txt, has
    only its section's); the history's (<commit>-sharing.txt, family 25)
    in the README's "Taken apart"."""
    readme, benchmarks, nothing = [], [], []
    other = re.compile(r"^[0-9a-f]{7}-family[0-9]+(-kvm-clock)?-sharing\.txt$")
    history = re.compile(r"^[0-9a-f]{7}-sharing\.txt$")
    for f in sorted(glob.glob(os.path.join(RUNS, "*-sharing.txt"))):
        name = os.path.basename(f)
        if not (other.match(name) or history.match(name)):
            continue
        with open(f) as fh:
            got = {}
            for keys, mode, ns, _ in SHARING_LINE.findall(fh.read()):
                got.setdefault((keys, mode), []).append(ns)
        med = {k: sorted(v, key=float)[len(v) // 2] for k, v in got.items() if len(v) % 2}
        need = [("1000", m) for m in ("serial", "parallel/share=keys", "parallel/share=lines", "parallel/share=nothing",
                                       "serial/counts=off", "parallel/share=keys/counts=off")]
        need += [(k, m) for k in ("10000", "100000") for m in ("serial", "parallel/share=keys")]
        if any(k not in med for k in need):
            sys.exit(f"{name}: not an odd number of runs of each benchmark sharing_phrases reads")
        m = lambda keys, mode: med[(keys, mode)]
        r = lambda a, b: f"{float(a) / float(b):.2f}×"
        one = m("1000", "serial")
        phrases = [
            f"one goroutine {one} ns; two on the same keys (share=keys) {m('1000', 'parallel/share=keys')} ns, "
            f"{r(one, m('1000', 'parallel/share=keys'))}; each its own keys, the lines still shared (share=lines) "
            f"{m('1000', 'parallel/share=lines')} ns, {r(one, m('1000', 'parallel/share=lines'))}; each its own limiter "
            f"(share=nothing) {m('1000', 'parallel/share=nothing')} ns, {r(one, m('1000', 'parallel/share=nothing'))}; "
            f"the same without the decision count {m('1000', 'serial/counts=off')} → "
            f"{m('1000', 'parallel/share=keys/counts=off')} ns, "
            f"{r(m('1000', 'serial/counts=off'), m('1000', 'parallel/share=keys/counts=off'))}",
            f"At 10,000 keys {m('10000', 'serial')} → {m('10000', 'parallel/share=keys')} ns "
            f"({r(m('10000', 'serial'), m('10000', 'parallel/share=keys'))}), at 100,000 {m('100000', 'serial')} → "
            f"{m('100000', 'parallel/share=keys')} ({r(m('100000', 'serial'), m('100000', 'parallel/share=keys'))})",
        ]
        if history.match(name):
            readme += phrases
            # "Another machine" sets the history's run beside its own.
            benchmarks.append(
                f"On family {SERIES_FAMILY}, with the same command at `{name[:7]}`, two cores read "
                f"{r(one, m('1000', 'parallel/share=keys'))} on the same keys, "
                f"{r(one, m('1000', 'parallel/share=lines'))} on their own keys whose lines are shared, and "
                f"{r(one, m('1000', 'parallel/share=nothing'))} with nothing shared"
            )
            continue
        benchmarks += phrases + [f"with nothing shared they scale {r(one, m('1000', 'parallel/share=nothing'))}"]
        # A later run's paragraph sets share=nothing against the two that
        # share: "where sharing the keys, or only their lines, holds them
        # to 1.52–1.54×"; so does a host on another clocksource's.
        shared = sorted((r(one, m("1000", f"parallel/share={k}")) for k in ("keys", "lines")), key=lambda x: float(x[:-1]))
        span = shared[0] if shared[0] == shared[1] else f"{shared[0][:-1]}–{shared[1]}"
        kvm = other.match(name).group(1)
        if nothing or kvm:
            benchmarks.append(f"where sharing the keys, or only their lines, holds them to {span}")
        if kvm:
            # Its one sentence in the README's paragraph on that host.
            readme.append(
                f"a limiter to each goroutine, two cores gave {r(one, m('1000', 'parallel/share=nothing'))} there "
                f"(`BenchmarkAllowKeysSharing`), against {r(one, m('1000', 'parallel/share=keys'))} on the same keys"
            )
            continue
        nothing.append(r(one, m('1000', 'parallel/share=nothing')))
    if nothing:
        # One sentence over the runs, in the order of their files' names.
        readme.append(f"a limiter to each goroutine, two cores gave {joined(nothing)} there")
    readme += counted_sharing()
    return readme, benchmarks


def counted_sharing():
    """The README's figures on the decision count's cost to two cores,
    from each kept set of processes of BenchmarkAllowKeysSharing's
    1,000-key benchmarks (<commit>-sharing-ten.txt: a process's lines
    begin at its serial run): how many processes ran every parallel
    benchmark at a fast handoff, and among those, each process's own ratio
    of serial to two goroutines on the same keys, counted and
    WithoutDecisionCounts: their spans and medians."""
    out = []
    for f in sorted(glob.glob(os.path.join(RUNS, "*-sharing-ten.txt"))):
        procs = []
        with open(f) as fh:
            for keys, mode, ns, handoff in SHARING_LINE.findall(fh.read()):
                if keys != "1000":
                    continue
                if mode == "serial":
                    procs.append({})
                if not procs:
                    sys.exit(f"{os.path.basename(f)}: a benchmark before the first process's serial run")
                procs[-1][mode] = (float(ns), float(handoff) if handoff else None)
        fast = [p for p in procs if all(h is None or h < FAST for _, h in p.values())]
        if not fast:
            sys.exit(f"{os.path.basename(f)}: no process ran at fast handoffs")
        try:
            on = sorted(p["serial"][0] / p["parallel/share=keys"][0] for p in fast)
            off = sorted(p["serial/counts=off"][0] / p["parallel/share=keys/counts=off"][0] for p in fast)
        except KeyError as e:
            sys.exit(f"{os.path.basename(f)}: a process without {e}")
        out.append(
            f"In {words(len(procs))} more processes (`bench/runs/{os.path.basename(f)}`), the {words(len(fast))} at fast "
            f"handoffs read {on[0]:.2f}–{on[-1]:.2f}× counted and {off[0]:.2f}–{off[-1]:.2f}× uncounted, "
            f"{statistics.median(on):.2f}× and {statistics.median(off):.2f}× on the median"
        )
    return out


def benchstat_phrases():
    """What BENCHMARKS.md's "Another machine" writes of each make benchstat
    run kept there (<commit>-family<N>-benchstat.txt, ten rounds): how
    many parallel runs handed a line over at a fast handoff and in the
    slow mode, and the span of each; and, round by round on two
    goroutines, sluice against its mutex twin on 1,000 keys (in the fast
    and the slow rounds apart, where the two ran each round in one mode)
    and on one admitted hot key. Where sluice was not ahead in every
    round, the phrase says so and cannot be in the document: the sentence
    must be written anew."""
    line = re.compile(r"^BenchmarkLimiters/scenario=([^/]+)/impl=([^/]+)/mode=parallel-2\s+\d+\s+([0-9.]+) ns/op\s+([0-9.]+) handoff-ns", re.M)
    out = []
    for f in sorted(glob.glob(os.path.join(RUNS, "*-family*-benchstat.txt"))):
        with open(f) as fh:
            rows = line.findall(fh.read())
        h = [float(x) for *_, x in rows]
        fast, slow = [x for x in h if x < FAST], [x for x in h if FAST <= x <= STALLED]
        if not fast or not slow:
            sys.exit(f"{os.path.basename(f)}: benchstat_phrases reads both modes")
        out.append(f"{len(fast)} of the {len(h)} parallel runs handed a line over in {min(fast):.1f}–{max(fast):.1f} ns, "
                   f"{len(slow)} in {min(slow):.1f}–{max(slow):.1f}")
        by = lambda sc, impl: [(ns, float(x)) for s_, i_, ns, x in rows if (s_, i_) == (sc, impl)]
        span = lambda v: f"{min(v, key=float)}–{max(v, key=float)}"
        ours, twin = by("keys-1k", "sluice"), by("keys-1k", "sluice-mutex")
        ahead = all(float(a) < float(b) for (a, _), (b, _) in zip(ours, twin))
        same = all((x < FAST) == (y < FAST) for (_, x), (_, y) in zip(ours, twin))
        fast_r = [i for i, (_, x) in enumerate(ours) if x < FAST]
        slow_r = [i for i, (_, x) in enumerate(ours) if x >= FAST]
        pick = lambda side, idx: [side[i][0] for i in idx]
        out.append(
            ("the two engines ran each round of 1,000 keys in the same mode, " if same else "(not each round in one mode) ")
            + ("and sluice was ahead in all ten: " if ahead else "(not ahead in all) ")
            + f"{span(pick(ours, fast_r))} ns against {span(pick(twin, fast_r))} in the {words(len(fast_r))} fast rounds, "
            f"{span(pick(ours, slow_r))} against {span(pick(twin, slow_r))} in the {words(len(slow_r))} slow ones"
        )
        ours, twin = by("hot-allow", "sluice"), by("hot-allow", "sluice-mutex")
        ahead = all(float(a) < float(b) for (a, _), (b, _) in zip(ours, twin))
        if ahead:
            out.append(f"On one admitted hot key it was ahead in all ten too ({span([a for a, _ in ours])} ns against "
                       f"{span([b for b, _ in twin])})")
            continue
        # Where a line crosses slowly enough (the kvm-clock host's slow
        # mode), the twin is ahead on the hot key: the phrase gives the
        # rounds where both ran at fast handoffs, where sluice must be
        # ahead in each, and those where both ran in the slow mode, where
        # it must be behind in each; any other round makes it unwritable.
        both = lambda fast: [i for i, ((_, x), (_, y)) in enumerate(zip(ours, twin)) if (x < FAST) == fast and (y < FAST) == fast]
        fast_r, slow_r = both(True), both(False)
        fits = (len(fast_r) + len(slow_r) == len(ours) and all(float(ours[i][0]) < float(twin[i][0]) for i in fast_r)
                and all(float(ours[i][0]) > float(twin[i][0]) for i in slow_r))
        out.append(
            ("On one admitted hot key it was ahead " if fits else "(on the hot key not ahead at fast handoffs and behind in the slow mode) ")
            + f"in the {words(len(fast_r))} rounds where both ran at fast handoffs ({span(pick(ours, fast_r))} ns against "
            f"{span(pick(twin, fast_r))}) and behind in the {words(len(slow_r))} where both ran in the slow mode "
            f"({span(pick(ours, slow_r))} against {span(pick(twin, slow_r))})"
        )
    return out


# A row of the benchstat tables in README.md and BENCHMARKS.md: a scenario
# serially and on two goroutines, the CAS engine's sec/op medians (with
# benchstat's interval where the table gives one), the mutex twin's, and
# benchstat's verdicts.
BENCHSTAT_ROW = re.compile(
    r"^\| (hot key admitted|hot key denied|1k keys|1M keys), serial / 2 goroutines \| (.*?) ns \| (.*?) ns \| (.*) \|$", re.M
)
BENCHSTAT_SCENARIO = {"hot key admitted": "hot-allow", "hot key denied": "hot-deny", "1k keys": "keys-1k", "1M keys": "keys-1M"}
BENCHSTAT_LINE = re.compile(
    r"^Limiters/scenario=(\S+)/mode=(serial|parallel)-2\s+([0-9.]+)n ±\s*([0-9]+)%\s+([0-9.]+)n ±\s*([0-9]+)%\s+"
    r"(~|[+-][0-9.]+%)\s+\(p=([0-9.]+) n=[0-9]+\)",
    re.M,
)


def benchstat_tables(doc, text):
    """Each row of a document's benchstat tables (doc, its text) against
    benchstat's own comparison (go tool benchstat -col /impl, the bench
    module's pinned tool) of the rounds the document names last before
    the table (runs/<commit>[-family<N>]-benchstat.txt): each median, to
    the places written; each 95% interval of 10% or more, which the row
    must give (the tables say so), and each it gives; each change,
    rounded to a whole percent, or "~" / "no significant difference"
    where benchstat finds none; each p. How many figures were held, and
    what disagrees."""
    cited = re.compile(r"runs/([0-9a-f]{7}(?:-family[0-9]+(?:-kvm-clock)?)?-benchstat\.txt)")
    cell = re.compile(r"^([0-9.]+)(?: ± ([0-9]+)%)? / ([0-9.]+)(?: ± ([0-9]+)%)?$")
    verdict = re.compile(r"^(?:mutex )?(~|no significant difference|[+-][0-9]+%) \(p=([0-9.]+)\)$")
    compared, read, bad = {}, 0, []
    for m in BENCHSTAT_ROW.finditer(text):
        names = cited.findall(text, 0, m.start())
        where = f"{doc}, the benchstat table row {m.group(1)!r} at line {text.count(chr(10), 0, m.start()) + 1}"
        if not names:
            bad.append(f"{where}: no runs/*-benchstat.txt named before it")
            continue
        name = names[-1]
        if name not in compared:
            # Its table of sec/op (the first; ops/s and B/op follow).
            first = next((t for t in benchstat_output(name).split("\n\n") if "sec/op" in t), "")
            compared[name] = {(sc, mode): rest for sc, mode, *rest in BENCHSTAT_LINE.findall(first)}
        got = compared[name]
        sc = BENCHSTAT_SCENARIO[m.group(1)]
        if (sc, "serial") not in got or (sc, "parallel") not in got:
            bad.append(f"{where}: benchstat on {name} gives no {sc} serially and on two goroutines")
            continue
        ours, twin, said = cell.match(m.group(2)), cell.match(m.group(3)), m.group(4).split(" / ")
        if not ours or not twin or len(said) != 2 or not all(verdict.match(v) for v in said):
            bad.append(f"{where}: not in the form 'A [± x%] / B [± y%] ns' and '+N% (p=P) / ... (p=Q)'")
            continue
        for k, mode in enumerate(("serial", "parallel")):
            b_ours, i_ours, b_twin, i_twin, change, p = got[(sc, mode)]
            for written, interval, value, spread, whose in (
                (ours.group(1 + 2 * k), ours.group(2 + 2 * k), b_ours, i_ours, "sluice"),
                (twin.group(1 + 2 * k), twin.group(2 + 2 * k), b_twin, i_twin, "the mutex twin"),
            ):
                read += 1
                if not rounds_to(written, float(value)) or (interval or int(spread) >= 10) and interval != spread:
                    bad.append(f"{where}, {whose} {mode}: {written}{' ± ' + interval + '%' if interval else ''} ns, "
                               f"benchstat on {name} gives {value} ± {spread}%")
            v = verdict.match(said[k])
            read += 1
            none = v.group(1) in ("~", "no significant difference")
            if v.group(2) != p or none != (change == "~") or (not none and v.group(1) != f"{float(change[:-1]):+.0f}%"):
                bad.append(f"{where}, {mode}: {said[k]!r}, benchstat on {name} gives {change} (p={p})")
    return read, bad


def benchstat_tables_all():
    """benchstat_tables over README.md and BENCHMARKS.md."""
    read, bad = 0, []
    for doc in ("README.md", "bench/BENCHMARKS.md"):
        with open(os.path.join(RUNS, "..", "..", doc)) as fh:
            k, wrong = benchstat_tables(doc, fh.read())
        read += k
        bad += wrong
    return read, bad


@functools.lru_cache(maxsize=None)
def benchstat_output(name):
    """go tool benchstat -col /impl (the bench module's pinned tool) on
    runs/<name>, as it prints it."""
    out = subprocess.run(
        [os.environ.get("GO", "go"), "tool", "benchstat", "-col", "/impl", os.path.join(RUNS, name)],
        cwd=os.path.join(RUNS, ".."), capture_output=True, text=True,
    )
    if out.returncode != 0:
        sys.exit(f"go tool benchstat on {name}: {out.stderr.strip()}")
    return out.stdout


# The make benchstat runs that BENCHMARKS.md's "`make benchstat`, run by
# run" gives from before their rounds were kept: what follows a mention
# of one ("at `869b834`") up to the next mention of a kept run is their
# terminal's figures, read but not held to a file.
BENCHSTAT_UNKEPT = {"869b834", "aa08d72", "f12fd47", "5e4b558", "72b99b1"}
# A figure in that prose: one with a point that is not a ratio or a
# share ("1.49×", "1.52–1.72×", "+57%"), or a whole number of ns.
BENCHSTAT_FIGURE = re.compile(r"(?<![\w.])(?:[0-9]+\.[0-9]+(?![0-9]*(?:–[0-9.]+)?[×%])|[0-9]+(?=(?:–[0-9.]+)? ns\b))")


def benchstat_prose():
    """The prose of BENCHMARKS.md's "`make benchstat`, run by run" (its
    tables are benchstat_tables'), against the kept rounds
    (runs/<commit>-benchstat.txt): each figure must be a value that the
    file of the run it is written under ("At `<commit>`") or of the kept
    run last mentioned before it holds, or go tool benchstat prints on
    it; each difference ("behind by 0.6 and 2.4 ns") must be sluice's
    ns less the mutex twin's in one round on two goroutines of one of
    those runs; each ratio given its quotient ("1.49× ... (29.02 ÷
    19.43)") must be it. Where a figure is held does not say what it was
    measured of (as in ns_against_run). Paragraphs that open with `make
    profile` give runs whose output was not kept, and are left out. How
    many figures were held, how many were read under BENCHSTAT_UNKEPT
    (and not held), and what disagrees."""
    doc = record_text("BENCHMARKS.md")
    heading = "### `make benchstat`, run by run\n"
    if heading not in doc:
        return 0, 0, [f"bench/BENCHMARKS.md: no section {heading.strip()!r}"]
    section = doc.split(heading, 1)[1].split("\n### ", 1)[0]
    prose = " ".join(" ".join(p for p in section.split("\n\n") if not p.startswith(("`make profile`", "|"))).split())
    kept = {os.path.basename(f)[:7]: os.path.basename(f) for f in glob.glob(os.path.join(RUNS, "[0-9a-f]" * 7 + "-benchstat.txt"))}

    @functools.lru_cache(maxsize=None)
    def held(commit):
        with open(os.path.join(RUNS, kept[commit])) as fh:
            raw = fh.read()
        return sorted(float(v) for v in re.findall(r"[0-9]+(?:\.[0-9]+)?", raw + benchstat_output(kept[commit])))

    def differences(commit):
        got = limiter_runs(os.path.join(RUNS, kept[commit]))
        return [abs(a - b) for (sc, impl, mode), ours in got.items() if impl == "sluice" and mode == "parallel-2"
                for (a, _), (b, _) in zip(ours, got.get((sc, "sluice-mutex", mode), []))]

    read, unkept, bad = 0, 0, []
    block = last = None
    where = lambda m: f"bench/BENCHMARKS.md, `make benchstat`, run by run: {prose[max(0, m.start() - 50):m.end() + 10]!r}"
    token = re.compile(r"(?:At|at) `([0-9a-f]{7})`|`([0-9a-f]{7})`|\bby ([0-9.]+)(?: and ([0-9.]+))? ns\b|" + BENCHSTAT_FIGURE.pattern)
    for m in token.finditer(prose):
        c = m.group(1) or m.group(2)
        if c:
            if m.group(1) and m.group(0)[0] == "A":
                block = c if c in kept else None
            if c in kept or (m.group(1) and c in BENCHSTAT_UNKEPT):
                last = c
            continue
        runs = [r for r in dict.fromkeys((block, last)) if r in kept]
        named = " or ".join(kept[r] for r in runs) or "no kept run"
        if m.group(3):
            for f in filter(None, m.group(3, 4)):
                read += 1
                if not any(rounds_to(f, d) for r in runs for d in differences(r)):
                    bad.append(f"{where(m)}: {f} ns is no round's sluice less its mutex twin in {named}")
            continue
        f = m.group()
        read += 1
        if any(among(f, held(r)) for r in runs):
            continue
        if last in BENCHSTAT_UNKEPT:
            unkept += 1
            continue
        bad.append(f"{where(m)}: {f} is a value that {named} does not hold")
    for m in re.finditer(r"([0-9.]+)× [^()]*\(([0-9.]+) ÷ ([0-9.]+)\)", prose):
        read += 1
        if not rounds_to(m.group(1), float(m.group(2)) / float(m.group(3))):
            bad.append(f"{where(m)}: {m.group(2)} ÷ {m.group(3)} is {float(m.group(2)) / float(m.group(3)):.3f}")
    return read - unkept, unkept, bad


# make profile's runs kept as bench/runs/<commit>[-family<N>[-kvm-clock]]-profile/:
# a README.md whose table gives each run's ns a decision and the handoff
# around it, sluice's and the mutex twin's, and runN/ with the run's six
# pprof -top summaries and, from 335574a on, its bench.txt (what it ran
# on, then the two benchmark lines). From 9fa6129 on, bench.txt's lines
# are those of the runs with the CPU profiler alone, and contention.txt
# holds the lines of the runs with the mutex and block profilers.
PROFILE_DIR = re.compile(r"^[0-9a-f]{7}(?:-family([0-9]+)(?:-kvm-clock)?)?-profile$")
PROFILE_ROW = re.compile(r"^\| ([0-9]+) \| ([0-9.]+) \| ([0-9.]+) \| ([0-9.]+) \| ([0-9.]+) \|$", re.M)


def profile_tables():
    """Each kept make profile run against its directory's README table:
    the run's six summaries must be there, and where it kept its bench.txt,
    the table's ns and handoffs must be its lines' (limiter_runs), to
    the places written, and
    its cpu-id family the one the directory's name gives (SERIES_FAMILY
    where it names none). How many figures were held, and what
    disagrees."""
    read, bad = 0, []
    for d in sorted(glob.glob(os.path.join(RUNS, "*-profile"))):
        name = "bench/runs/" + os.path.basename(d)
        m = PROFILE_DIR.match(os.path.basename(d))
        if not m:
            bad.append(f"{name}: not named <commit>-profile, <commit>-family<N>-profile or <commit>-family<N>-kvm-clock-profile")
            continue
        try:
            with open(os.path.join(d, "README.md")) as fh:
                rows = PROFILE_ROW.findall(fh.read())
        except OSError:
            rows = []
        if not rows:
            bad.append(f"{name}/README.md: no table of the runs (| run | sluice | handoff | sluice-mutex | handoff |)")
        for run, *written in rows:
            where = f"{name}/README.md, run {run}"
            for impl in ("sluice", "sluice-mutex"):
                for kind in ("cpu", "mutex", "block"):
                    if not os.path.exists(os.path.join(d, f"run{run}", f"{impl}.{kind}.txt")):
                        bad.append(f"{where}: no {impl}.{kind}.txt in run{run}/")
            bench = os.path.join(d, f"run{run}", "bench.txt")
            if not os.path.exists(bench):
                continue
            fam = cpu_family(bench)
            if fam != (m.group(1) or SERIES_FAMILY):
                bad.append(f"{where}: its bench.txt's cpu-id names family {fam}, its directory's name gives {m.group(1) or SERIES_FAMILY}")
            got = limiter_runs(bench)
            for impl, (ns, handoff) in (("sluice", written[:2]), ("sluice-mutex", written[2:])):
                read += 2
                lines = got.get(("hot-allow", impl, "parallel-2"), [])
                if len(lines) != 1 or lines[0][1] is None or not (rounds_to(ns, lines[0][0]) and rounds_to(handoff, lines[0][1])):
                    had = f"{lines[0][0]} ns at {lines[0][1]}" if len(lines) == 1 else f"{len(lines)} lines"
                    bad.append(f"{where}: {impl} {ns} ns at a {handoff} ns handoff, where its bench.txt has {had}")
    return read, bad


# What the documents read off make profile's kept summaries. Each entry
# is (document, the opening words of its paragraph, [(words, figures)]):
# the words stand in the paragraph, whitespace aside, with each {} one
# figure that figures computes, in order. A figure is (source, form):
#   source ("pprof", dir, runs, summary, names, column): the column
#     ("flat", "flat%", "cum" or "cum%") of each run's line for a
#     function in runN/<summary>.txt, summed over names; names are as
#     pprof prints them, less github.com/seed997/sluice/, " (inline)" and
#     the generic's shape;
#   source ("bench", dir, runs, impl, field): ns or handoff, as the run's
#     bench.txt has them (limiter_runs), or as its README table gives
#     them where the run kept no bench.txt (8d984c2);
#   source ("contention", dir, runs, impl, field): the same from the
#     run's contention.txt, the run with the mutex and block profilers;
#   source ("busy", dir, runs, impl): the share of one core that the
#     run's CPU profile sampled, its "Total samples = 7.46s (197.98%)";
#   form "span": "a–b" with its unit (one figure where both ends round to
#     it), the least and the most of the runs' values; "each": the runs'
#     values in their order, "a% and b%" or "a%, b% and c%".
# Every figure in %, ms or µs in such a paragraph must be one of them,
# and each (source, runs) the check reads must name a function the
# summary has. ABSENT lists what a paragraph says fell below a
# summary's top 25.
F25, F26, SLOW = "8d984c2-profile", "335574a-family26-profile", "ec32b44-profile"
KVM = "9fa6129-family26-kvm-clock-profile"
CAS, PAUSE = "sync/atomic.(*Uint64).CompareAndSwap", "atomicbucket.pause"
CLOCK, TRYONE, TAKE = "clock.scaled", "atomicbucket.(*Bucket).TryOne", "atomicbucket.(*Bucket).take"
LOADHOME, XXH3 = "stripes.(*Stripe).LoadHome", "internal/shorthash.Sum"
SPIN = "runtime.procyieldAsm"


def _cpu(d, runs, impl, names, column="flat%"):
    return ("pprof", d, runs, f"{impl}.cpu", names, column)


PROFILE_SHARES = [
    ("README.md", "What they showed here in a calm hour (commit `8d984c2`", [
        ("sluice {} a decision at handoffs of {}, the mutex twin {} at {};", [
            (("bench", F25, (1, 2, 3), "sluice", "ns"), "span"),
            (("bench", F25, (1, 2, 3), "sluice", "handoff"), "span"),
            (("bench", F25, (1, 2, 3), "sluice-mutex", "ns"), "span"),
            (("bench", F25, (1, 2, 3), "sluice-mutex", "handoff"), "span"),
        ]),
    ]),
    ("README.md", "- **CPU, sluice**: the clock's one assembly read", [
        ("(`clock.scaled`, the counter and its scaling) {} flat", [(_cpu(F25, (1, 2, 3), "sluice", [CLOCK]), "span")]),
        ("`TryOne` {} flat", [(_cpu(F25, (1, 2, 3), "sluice", [TRYONE]), "span")]),
        ("and the CAS {};", [(_cpu(F25, (1, 2, 3), "sluice", [CAS]), "span")]),
        ("the backoff `pause` {} (", [(_cpu(F25, (1, 2, 3), "sluice", [PAUSE]), "span")]),
        ("(`LoadHome` and its `findHome`) {} cumulative", [(_cpu(F25, (1, 2, 3), "sluice", [LOADHOME], "cum%"), "span")]),
        ("(`shorthash.Sum`, the 16-byte key) {};", [(_cpu(F25, (1, 2, 3), "sluice", [XXH3]), "span")]),
        ("the per-P count about {} (`Unpin`;", [(_cpu(F25, (1, 2, 3), "sluice", ["stripes.Unpin"], "cum%"), "span")]),
        ("`runtime.procyieldAsm` {}:", [(_cpu(F25, (1, 2, 3), "sluice-mutex", [SPIN]), "span")]),
        ("then the clock read ({})", [(_cpu(F25, (1, 2, 3), "sluice-mutex", [CLOCK]), "span")]),
        ("and `find` ({} cumulative)", [(_cpu(F25, (1, 2, 3), "sluice-mutex", ["stripes.(*table).find"], "cum%"), "span")]),
        ("the mutex twin spent {} waiting in `sync.(*Mutex).Unlock`", [
            (("pprof", F25, (1, 2, 3), "sluice-mutex.mutex", ["sync.(*Mutex).Unlock"], "flat"), "span")]),
        ("sluice {}, in the runtime's own locks (`runtime.unlock`", [
            (("pprof", F25, (1, 2, 3), "sluice.mutex", ["runtime.unlock"], "flat"), "span")]),
    ]),
    ("README.md", "In the VM's slow mode, where a line takes about 160 ns to cross", [
        ("runs 1, 2 and 8: sluice {} a decision at handoffs of {}).", [
            (("bench", SLOW, (1, 2, 8), "sluice", "ns"), "span"),
            (("bench", SLOW, (1, 2, 8), "sluice", "handoff"), "span"),
        ]),
        ("There `TryOne` took {} flat and the CAS {}, {} together, and the clock {};", [
            (_cpu(SLOW, (1, 2, 8), "sluice", [TRYONE]), "span"),
            (_cpu(SLOW, (1, 2, 8), "sluice", [CAS]), "span"),
            (_cpu(SLOW, (1, 2, 8), "sluice", [TRYONE, CAS]), "span"),
            (_cpu(SLOW, (1, 2, 8), "sluice", [CLOCK]), "span"),
        ]),
        ("which follows a failed CAS, took {} in run 8", [(_cpu(SLOW, (8,), "sluice", [PAUSE]), "each")]),
        ("(against {} in the calm runs above)", [(_cpu(F25, (1, 2, 3), "sluice", [PAUSE]), "span")]),
        ("it took {} to sluice's {}, closer than in the calm runs", [
            (("bench", SLOW, (1, 8), "sluice-mutex", "ns"), "each"),
            (("bench", SLOW, (1, 8), "sluice", "ns"), "each"),
        ]),
    ]),
    ("README.md", "On the VM's family-26 processor (three runs at `335574a`", [
        ("put {} of sluice's samples on the CAS and {} on `pause`, {} together ({} in the calm family-25 runs above), and {} on the clock", [
            (_cpu(F26, (1, 3), "sluice", [CAS]), "span"),
            (_cpu(F26, (1, 3), "sluice", [PAUSE]), "span"),
            (_cpu(F26, (1, 3), "sluice", [CAS, PAUSE]), "span"),
            (_cpu(F25, (1, 2, 3), "sluice", [CAS, PAUSE]), "span"),
            (_cpu(F26, (1, 3), "sluice", [CLOCK]), "span"),
        ]),
    ]),
    ("bench/BENCHMARKS.md", "`make profile` on this processor, at `335574a`", [
        ("({} ns a decision, at {} ns)", [
            (("bench", F26, (1, 3), "sluice", "ns"), "each"),
            (("bench", F26, (1, 3), "sluice", "handoff"), "each"),
        ]),
        ("its CPU profile put {} flat on the CAS and {} on the backoff `pause` after a failed one (the retry, `take`, {} cumulative); "
         "the clock's read {}, `TryOne`'s own load and arithmetic {}, the lookup (`LoadHome`) {} cumulative, the key's XXH3 {}.", [
            (_cpu(F26, (1, 3), "sluice", [CAS]), "each"),
            (_cpu(F26, (1, 3), "sluice", [PAUSE]), "each"),
            (_cpu(F26, (1, 3), "sluice", [TAKE], "cum%"), "each"),
            (_cpu(F26, (1, 3), "sluice", [CLOCK]), "each"),
            (_cpu(F26, (1, 3), "sluice", [TRYONE]), "each"),
            (_cpu(F26, (1, 3), "sluice", [LOADHOME], "cum%"), "each"),
            (_cpu(F26, (1, 3), "sluice", [XXH3]), "each"),
        ]),
        ("(`8d984c2`) put {} on the CAS, {} on `pause`, {} on `TryOne`'s own and {} on the clock.", [
            (_cpu(F25, (1, 2, 3), "sluice", [CAS]), "span"),
            (_cpu(F25, (1, 2, 3), "sluice", [PAUSE]), "span"),
            (_cpu(F25, (1, 2, 3), "sluice", [TRYONE]), "span"),
            (_cpu(F25, (1, 2, 3), "sluice", [CLOCK]), "span"),
        ]),
        ("The CAS and the backoff together held {} here, {} there.", [
            (_cpu(F26, (1, 3), "sluice", [CAS, PAUSE]), "each"),
            (_cpu(F25, (1, 2, 3), "sluice", [CAS, PAUSE]), "span"),
        ]),
        ("In the run with sluice in the slow mode ({} ns at {}), the CAS took {} flat and `TryOne` {}, and the backoff fell out of the top 25 (the retry {} cumulative).", [
            (("bench", F26, (2,), "sluice", "ns"), "each"),
            (("bench", F26, (2,), "sluice", "handoff"), "each"),
            (_cpu(F26, (2,), "sluice", [CAS]), "each"),
            (_cpu(F26, (2,), "sluice", [TRYONE]), "each"),
            (_cpu(F26, (2,), "sluice", [TAKE], "cum%"), "each"),
        ]),
        ("`runtime.procyieldAsm` {} (the last its one run at a fast handoff), with its lock's `Lock` and `Unlock` {} and {} flat;", [
            (_cpu(F26, (1, 2, 3), "sluice-mutex", [SPIN]), "each"),
            (_cpu(F26, (1, 2, 3), "sluice-mutex", ["internal/sync.(*Mutex).Lock"]), "span"),
            (_cpu(F26, (1, 2, 3), "sluice-mutex", ["internal/sync.(*Mutex).Unlock"]), "span"),
        ]),
        ("its mutex profile had {} on `sync.(*Mutex).Unlock` ({} of its delay), sluice's {}, all in the runtime's `runtime.unlock`.", [
            (("pprof", F26, (1, 2, 3), "sluice-mutex.mutex", ["sync.(*Mutex).Unlock"], "flat"), "span"),
            (("pprof", F26, (1, 2, 3), "sluice-mutex.mutex", ["sync.(*Mutex).Unlock"], "flat%"), "span"),
            (("pprof", F26, (1, 2, 3), "sluice.mutex", ["runtime.unlock"], "flat"), "span"),
        ]),
    ]),
    ("README.md", "On the host that keeps time by kvm-clock (three runs at `9fa6129`", [
        ("the twin took {} ns a decision, sluice {}.", [
            (("bench", KVM, (1, 2), "sluice-mutex", "ns"), "each"),
            (("bench", KVM, (1, 2), "sluice", "ns"), "each"),
        ]),
        ("The twin's CPU profiles sampled {} of one core, sluice's {}:", [
            (("busy", KVM, (1, 2, 3), "sluice-mutex"), "span"),
            (("busy", KVM, (1, 2, 3), "sluice"), "span"),
        ]),
        ("the twin took {} ns, behind sluice's {} (", [
            (("contention", KVM, (1, 2), "sluice-mutex", "ns"), "each"),
            (("contention", KVM, (1, 2), "sluice", "ns"), "each"),
        ]),
    ]),
    ("bench/BENCHMARKS.md", "`make profile` on this host, at `9fa6129`", [
        ("the mutex twin took {} ns a decision at handoffs of {} ns, sluice {} at {};", [
            (("bench", KVM, (1, 2), "sluice-mutex", "ns"), "each"),
            (("bench", KVM, (1, 2), "sluice-mutex", "handoff"), "each"),
            (("bench", KVM, (1, 2), "sluice", "ns"), "each"),
            (("bench", KVM, (1, 2), "sluice", "handoff"), "each"),
        ]),
        ("sluice took {} ns to the twin's {}.", [
            (("bench", KVM, (3,), "sluice", "ns"), "each"),
            (("bench", KVM, (3,), "sluice-mutex", "ns"), "each"),
        ]),
        ("they sampled {} of one core, against sluice's {}.", [
            (("busy", KVM, (1, 2, 3), "sluice-mutex"), "span"),
            (("busy", KVM, (1, 2, 3), "sluice"), "span"),
        ]),
        ("`TryOne` {} flat, the CAS {}, the clock's read (`runtime.nanotime`, the runtime's clock on this host) {};", [
            (_cpu(KVM, (1, 2), "sluice", [TRYONE]), "each"),
            (_cpu(KVM, (1, 2), "sluice", [CAS]), "each"),
            (_cpu(KVM, (1, 2), "sluice", ["runtime.nanotime"]), "each"),
        ]),
        ("(`runtime.procyieldAsm` {}).", [(_cpu(KVM, (1, 2), "sluice-mutex", [SPIN]), "each")]),
        ("the twin took {} ns in the slow mode, sluice {}, as in the runs at `8f4dd3c`", [
            (("contention", KVM, (1, 2), "sluice-mutex", "ns"), "each"),
            (("contention", KVM, (1, 2), "sluice", "ns"), "each"),
        ]),
    ]),
]
# (document, words, directory, runs, summary, name): where the words say
# that a function fell below a summary's top 25 (pprof -top -nodecount
# 25), it has no line in those runs' summaries.
ABSENT = [
    ("README.md", "(`Unpin`; the pin fell below the summaries' top 25)", F25, (1, 2, 3), "sluice.cpu", "stripes.Pin"),
    ("bench/BENCHMARKS.md", "the backoff fell out of the top 25", F26, (2,), "sluice.cpu", PAUSE),
    ("README.md", "took 1.2% in run 8 and fell below the top 25 in the other two", SLOW, (1, 2), "sluice.cpu", PAUSE),
]
PPROF_TIME = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "ns": 1e-9}


def pprof_seconds(t):
    """A time as pprof -top prints it ("3.85s", "21.98ms", "35.72us", "0"),
    in seconds."""
    m = re.fullmatch(r"([0-9.]+)(s|ms|us|µs|ns)?", t)
    return float(m.group(1)) * PPROF_TIME[m.group(2)] if m.group(2) else float(m.group(1))


@functools.lru_cache(maxsize=None)
def pprof_top(path):
    """A pprof -top summary's lines: {name: {"flat", "flat%", "cum",
    "cum%"}}, times in seconds, the name as PROFILE_SHARES writes it."""
    with open(path) as fh:
        body = fh.read().split("flat  flat%   sum%        cum   cum%\n", 1)[1]
    out = {}
    for line in body.splitlines():
        f = line.split(None, 5)
        if len(f) < 6:
            continue
        name = re.sub(r"\[go\.shape[^\]]*\]", "", f[5]).removesuffix(" (inline)")
        name = name.removeprefix("github.com/seed997/sluice/")
        if name in out:
            raise ValueError(f"{path}: {name} twice")
        out[name] = {"flat": pprof_seconds(f[0]), "flat%": float(f[1].rstrip("%")), "cum": pprof_seconds(f[3]), "cum%": float(f[4].rstrip("%"))}
    return out


def share_values(source):
    """The runs' values for a PROFILE_SHARES source, in the runs' order,
    or a string that says why there are none."""
    kind, d, runs = source[:3]
    vals = []
    for r in runs:
        run = os.path.join(RUNS, d, f"run{r}")
        if kind == "busy":
            with open(os.path.join(run, f"{source[3]}.cpu.txt")) as fh:
                m = re.search(r"Total samples = \S+ \(([0-9.]+)%\)", fh.read())
            if not m:
                return f"{d}/run{r}/{source[3]}.cpu.txt: no Total samples line"
            vals.append(float(m.group(1)))
            continue
        if kind in ("bench", "contention"):
            impl, field = source[3:]
            name = "bench.txt" if kind == "bench" else "contention.txt"
            if os.path.exists(os.path.join(run, name)):
                lines = limiter_runs(os.path.join(run, name)).get(("hot-allow", impl, "parallel-2"), [])
                if len(lines) != 1:
                    return f"{d}/run{r}/{name}: {len(lines)} lines of {impl}"
                vals.append(lines[0][0 if field == "ns" else 1])
            elif kind == "contention":
                return f"{d}/run{r}: no contention.txt"
            else:
                with open(os.path.join(RUNS, d, "README.md")) as fh:
                    row = {int(w[0]): w[1:] for w in PROFILE_ROW.findall(fh.read())}.get(r)
                if row is None:
                    return f"{d}/README.md: no row for run {r}"
                vals.append(float(row[(0 if impl == "sluice" else 2) + (0 if field == "ns" else 1)]))
            continue
        summary, names, column = source[3:]
        top = pprof_top(os.path.join(run, f"{summary}.txt"))
        missing = [n for n in names if n not in top]
        if missing:
            return f"{d}/run{r}/{summary}.txt: no line for {', '.join(missing)}"
        vals.append(sum(top[n][column] for n in names))
    return vals


SHARE_FIGURE = r"[0-9]+(?:\.[0-9]+)?"
SHARE_UNIT = r"(?:%| ms| µs| ns)?"


def share_against(written, values, form, seconds):
    """Whether a written figure ("12–16%", "19.40 and 19.51", "20.9–28.6
    ms") is values in form; seconds where values are times."""
    nums = re.findall(SHARE_FIGURE, written)
    unit = re.search(r"(ms|µs)$", written)
    if seconds:
        if not unit:
            return False
        values = [v / PPROF_TIME[unit.group(1)] for v in values]
    if form == "span":
        lo, hi = (nums[0], nums[-1]) if len(nums) in (1, 2) else (None, None)
        return lo is not None and rounds_to(lo, min(values)) and rounds_to(hi, max(values))
    return len(nums) == len(values) and all(rounds_to(w, v) for w, v in zip(nums, values))


def profile_shares():
    """PROFILE_SHARES and ABSENT against the kept summaries: how many
    figures were held, and what disagrees."""
    docs, read, bad = {}, 0, []
    # One figure: a span, or a list of two or three joined by commas and "and".
    one = SHARE_FIGURE + r"(?:–" + SHARE_FIGURE + r")?" + SHARE_UNIT
    figure = one + r"(?:(?:, | and )" + one + r")*"
    for doc, opening, entries in PROFILE_SHARES:
        if doc not in docs:
            with open(doc) as fh:
                docs[doc] = fh.read()
        at = docs[doc].find(opening)
        if at < 0:
            bad.append(f"{doc}: no paragraph opens with {opening!r}")
            continue
        para = " ".join(docs[doc][at:].split("\n\n", 1)[0].split())
        held = []
        for words, figures in entries:
            # re.split keeps each {} between the words: the odd places are figures.
            pattern = "".join(f"({figure})" if i % 2 else re.escape(p) for i, p in enumerate(re.split(r"(\{\})", words)))
            m = re.search(pattern, para)
            if not m:
                bad.append(f"{doc}, {opening!r}: no {words!r}")
                continue
            for i, (source, form) in enumerate(figures):
                read += 1
                values = share_values(source)
                if isinstance(values, str):
                    bad.append(f"{doc}, {opening!r}: {values}")
                    continue
                seconds = source[0] == "pprof" and source[5] in ("flat", "cum")
                if not share_against(m.group(i + 1), values, form, seconds):
                    unit = PPROF_TIME.get(m.group(i + 1).split()[-1], 1) if seconds else 1
                    shown = ", ".join(f"{v / unit:.4g}" for v in values)
                    bad.append(f"{doc}, {opening!r}: {m.group(i + 1)!r} in {words!r}, where the runs have {shown}")
                held.append(m.span(i + 1))
        for f in re.finditer(r"(?<![\w.])" + SHARE_FIGURE + r"(?:–" + SHARE_FIGURE + r")?(?:%| ms\b| µs)", para):
            if not any(a <= f.start() and f.end() <= b for a, b in held):
                bad.append(f"{doc}, {opening!r}: {f.group()!r}, which no entry of PROFILE_SHARES computes")
    for doc, words, d, runs, summary, name in ABSENT:
        read += 1
        if words not in " ".join(docs.get(doc, "").split()):
            bad.append(f"{doc}: no {words!r}")
        for r in runs:
            if name in pprof_top(os.path.join(RUNS, d, f"run{r}", f"{summary}.txt")):
                bad.append(f"{doc}, {words!r}: {name} is in {d}/run{r}/{summary}.txt")
    return read, bad


def section_against_run(section, commit, raw, texts, run, where, n, twin=True, stripes=True, opening=True, table=True):
    """One full run's section (its text after the heading) against its raw
    file (bench/runs/<raw>) and the report on it (texts[raw]): in its
    prose, each figure in ns (ns_against_run), each ratio of the floor
    reference's 1,000 keys and a denied hot key (scaled_against_run),
    each pair of a round's serial and two-core ns (arrows_against_run),
    its paragraph on the hot key (hot_against_run), the rounds its
    paragraphs on two cores say ran at fast handoffs or in the slow mode
    (handoffs_named_against_run) and, but in a history
    run before FIRST_FLOOR_PROSE, each ratio to the floor to three places
    or more (floor_ratios_against_run);
    where twin, its comparisons with the mutex twin (twin_against_run,
    which, where not stripes, need not say what sluice-stripes took);
    where opening, its opening paragraph (opening_against_report), which
    must name the commit the raw file names, if it names one; where table,
    its table's rows of the targets and of the floor, and its rows of the
    heap per key (sluice's bytes and the nearest peer's) and of the
    allocations a decision makes, where it has them. run is the run's
    number in the history, or its name where it is not one of them (so
    NS_ELSEWHERE and SCALED_ELSEWHERE list nothing for it). Adds to the
    counts in n (SECTION_COUNTS) what it read; returns what disagrees."""
    path = os.path.join(RUNS, raw)
    text = texts.get(raw, "")
    plain = lambda cell: re.sub(r"\([^)]*\)", "", cell)
    at = re.compile(r"([0-9]+\.[0-9]+) at (?:an? )?([0-9]+)")
    bad = []
    # Its prose, the tables left out (their rows are read below).
    prose = " ".join(" ".join(l for l in section.split("\n") if not l.startswith("|")).split())
    k, wrong = ns_against_run(prose, path, text, run)
    n["ns"] += k
    bad += [f"{where}: {d}" for d in wrong]
    k, wrong = scaled_against_run(prose, path, run)
    n["scaled"] += k
    bad += [f"{where}: {d}" for d in wrong]
    k, r, wrong = arrows_against_run(prose, path)
    n["arrows"] += k
    n["arrow_ratios"] += r
    bad += [f"{where}: {d}" for d in wrong]
    k, wrong = floor_spans_against_run(prose, path)
    n["spans"] += k
    bad += [f"{where}: {d}" for d in wrong]
    k, wrong = hot_against_run(section, path, text)
    n["hot"] += k
    bad += [f"{where}: {d}" for d in wrong]
    k, wrong = hot_paired_against_run(section, text)
    n["hot"] += k
    bad += [f"{where}: {d}" for d in wrong]
    k, wrong = handoffs_named_against_run(section, path)
    n["handoffs_named"] += k
    bad += [f"{where}: {d}" for d in wrong]
    if not isinstance(run, int) or run >= FIRST_FLOOR_PROSE:
        k, wrong = floor_ratios_against_run(section, path)
        n["floor_ratios"] += k
        bad += [f"{where}: {d}" for d in wrong]
    if twin:
        k, m, wrong = twin_against_run(section, path, stripes, clauses=not isinstance(run, int) or run >= FIRST_HANDOFF_CLAUSES)
        n["twins"] = [n["twins"][0] + k, n["twins"][1] + m]
        bad += [f"{where}, against the mutex twin: {d}" for d in wrong]
    if opening:
        n["openings"] += 1
        wrong, ran = opening_against_report(section.split("\n| ", 1)[0], path, text)
        bad += [f"{where}, opening: {d}" for d in wrong]
        # A raw file that names its commit was run at the one it is kept under, clean.
        if ran is not None and ran != commit:
            bad.append(f"{where}: its raw file was run at {ran}, not at {commit}")
    if not table:
        return bad
    rows = {}
    for line in section.split("\n"):
        cells = [c.strip() for c in line.split("|")[1:-1]]
        if line.startswith("| ") and len(cells) == 3:
            # Two rows of one label are two places to look: neither is taken.
            rows[cells[0]] = None if cells[0] in rows else cells
    rows = {k: v for k, v in rows.items() if v is not None}
    printed = report_targets(text)
    checks = [
        ("hot key, default clock", "hot key, default clock", ["default clock: ≥ 2×"]),
        ("hot key, coarse clock", "hot key, coarse clock", ["coarse clock: ≥ 3.5×"]),
        ("1M uniform", "1M uniform", ["1.5× the fastest per-key peer, serial", "1.5× the fastest per-key peer, parallel-2"]),
        ("two cores, 1,000 keys", "two cores ≥ 1.8× serial, 1k", ["(keys-1k)"]),
        ("two cores, 1M keys", "two cores ≥ 1.8× serial, 1M", ["(keys-1M)"]),
    ]
    for name, label, words in checks:
        row = unique(rows, label)
        details = [unique(printed, w) for w in words]
        if row is None or None in details:
            bad.append(f"{where}, {name}: " + ("no row in its section" if row is None else "nothing in the report"))
            continue
        n["rows"] += 1
        # The ratios the medians column gives: "... ÷ sluice 20.3 ns: **3.75×**" for each
        # of serial and parallel, or "1.54×, not met" on two cores.
        # The twenty-fifth's section keeps the two-core medians its own
        # report printed, on the ratio of the medians, and says so.
        ratios = re.findall(r"([0-9]+\.[0-9]+)×", plain(row[1]).replace("*", ""))
        if ratios != [f for f, _ in details] and not (run == FIRST_BY_ROUND and name.startswith("two cores")):
            bad.append(f"{where}, {name}: the section's medians read {ratios}, the report prints {[f for f, _ in details]}")
        details = [d for _, d in details]
        rounds = [d.split("by round", 1)[1] for d in details]
        if name.startswith("two cores"):
            written, want = at.findall(plain(row[2])), at.findall(rounds[0])
        else:
            written = FIGURE.findall(plain(row[2]))
            want = [x for r in rounds for x in FIGURE.findall(r)]
        if written != want:
            bad.append(f"{where}, {name} by round: the section writes {written}, the report prints {want}")
        if not name.startswith("two cores"):
            # "go-limiter 76.0 ÷ sluice 20.3 ns: **3.75×**", for each of serial and parallel.
            medians = FIGURE.findall(plain(row[1]).replace("*", ""))
            written = [x for k, x in enumerate(medians) if k % 3 != 2]
            want = [x for d in details for x in FIGURE.findall(d.split(";")[0])[:2]]
            if written != want:
                bad.append(f"{where}, {name}: the section divides {written}, the report {want}")
    # The heap per key, "**33.8 B** (throttled 63.8)": sluice's bytes and
    # the nearest peer's, as the report prints them; and the allocations
    # a decision makes, "0".
    heap = unique(rows, "heap per key")
    if heap is not None:
        n["rows"] += 1
        own, peer = unique(printed, "heap per key at 1M keys: ≤ 48 B"), unique(printed, "heap per key at 1M keys: below every peer")
        own = own and re.match(r"([0-9.]+) B/key", own[1])
        peer = peer and re.match(r"([a-z-]+) ([0-9.]+) B ÷", peer[1])
        want = [own.group(1) if own else None] + ([" ".join(peer.groups())] if peer else [])
        written = FIGURE.findall(heap[1])[:1] + re.findall(r"\(([a-z-]+ [0-9.]+)\)", heap[1])[:1]
        if written != want:
            bad.append(f"{where}, heap per key: the section writes {written}, the report prints {want}")
    allocs = unique(rows, "0 allocations per decision")
    if allocs is not None:
        n["rows"] += 1
        got = unique(printed, "hot key: 0 allocs per decision")
        if got is None or allocs[1] != "0" or float(got[0]) != 0:
            bad.append(f"{where}, allocations: the section writes {allocs[1]!r}, the report prints {got and got[0]}")
    for clock, words in FLOOR_ROWS:
        # The median of the held rounds as the raw lines give them, and of
        # the same rounds to three places, as the report prints them by
        # round (a raw line writes a ratio under 1 to four: 0.9786).
        held = held_ratios(os.path.join(RUNS, raw), "mono" if clock == "monotonic" else clock)
        medians = [statistics.median(held), statistics.median(round(r, 3) for r in held)] if held else None
        wrong = floor_row(rows, clock, unique(printed, words), medians)
        n["rows"] += wrong is not None
        bad += [f"{where}, the floor on the {clock} clock: {d}" for d in (["no row in its section"] if wrong is None else wrong)]
    return bad


# The core engine issue's floor, one row a clock in each section: the
# row's label holds the clock's name, the report's line holds the words.
FLOOR_ROWS = (
    ("default", "hot key ≤ about 1.1× the floor, default clock"),
    ("coarse", "hot key ≤ about 1.1× the floor, coarse clock"),
    ("monotonic", "hot key ≤ about 1.1× the floor, runtime monotonic clock"),
)


def floor_row(rows, clock, printed, held=None):
    """A section's row of the floor on one clock against the report's
    line (printed, report_targets'): the ns of sluice and of the floor,
    the ratio to the places either writes it (and, where it writes three
    places or more, past the report's two, the median of the rounds the
    report holds, held), the uncounted ratio where the report gives one,
    and the rounds in order (a few early sections write a slow round
    after the others, "; 0.925 with the floor at 19.89 ns" or "and 1.009
    at 12.89 ns", and are held to the same rounds in any order). None
    where the section has no such row; else what disagrees."""
    found = [v for k, v in rows.items() if f"{clock} clock" in k and ("issue 2" in k or k.startswith("the same"))]
    if len(found) != 1:
        return None
    if printed is None:
        return ["nothing in the report"]
    ratio, detail = printed
    cell = FIGURE.findall(found[0][1].replace("*", ""))
    if len(cell) < 3:
        return [f"the section gives {cell}, not sluice's ns, the floor's and their ratio"]
    bad = []
    if cell[:2] != FIGURE.findall(detail)[:2]:
        bad.append(f"the section divides {cell[:2]}, the report {FIGURE.findall(detail)[:2]}")
    uncounted = re.search(r"WithoutDecisionCounts ([0-9]+\.[0-9]+)", detail)
    if uncounted and cell[-1] != uncounted.group(1):
        bad.append(f"uncounted, the section writes {cell[-1]}, the report {uncounted.group(1)}")
    # The ratio, to the places either writes it: 1.10 agrees with 1.104.
    # The ratio, not the uncounted one, which the cell ends with.
    ratios = cell[2:-1] if uncounted else cell[2:]
    if not any(agree(x, ratio) for x in ratios):
        bad.append(f"no ratio that agrees with the report's {ratio} in {ratios}")
    # The ratio to three places or more: the first the cell gives, or the
    # one in brackets just after it ("1.13 (1.134)", "**1.09** (1.091, all
    # four rounds)"), not those an early section lists after it ("held to
    # 2 rounds of 4, 1.087 and 1.092"). The report prints each round's
    # ratio to three places, where the raw line gives a ratio under 1 to
    # four; a median of either agrees.
    if ratios and held:
        m = re.search(r"(?<![0-9.])" + re.escape(ratios[0]) + r"×?(?: \(([0-9]+\.[0-9]+)[,)])?", found[0][1].replace("*", ""))
        for x in (ratios[0], m and m.group(1)):
            if x and len(x.partition(".")[2]) >= 3 and not any(rounds_to(x, h) for h in held):
                bad.append(f"the section writes {x}, the median of the rounds the report holds is {round(held[0], 4)}")
    slow = re.compile(r"(?:with the floor )?at [0-9.]+ ns")
    outside = re.sub(r"\([^)]*\)", "", found[0][2])
    written, want = FIGURE.findall(slow.sub("", outside)), FIGURE.findall(detail.split("by round:", 1)[-1].split(";")[0])
    if written != want and not (slow.search(outside) and sorted(written) == sorted(want)):
        bad.append(f"by round, the section writes {written}, the report prints {want}")
    return bad


# The Go limiters the suite runs a limiter per key of; the single limiters
# (x-time-rate-single, juju, uber) have no keys to compare.
PER_KEY = ("x-time-rate", "go-limiter", "throttled", "ulule")


def medians(text):
    """The report's tables of medians: (scenario, impl) to its serial and
    parallel-2 ns, its two ratios to sluice; heap-1M's to its B/key and
    ratio."""
    got, scenario = {}, None
    for line in text.split("\n"):
        if not line.startswith("  "):
            # A table's heading, or the end of the tables of medians.
            head = re.match(r"^([A-Za-z0-9-]+)(?: \(medians|: heap per key)", line)
            scenario = head.group(1) if head else None
            continue
        cells = line.split()
        if scenario and cells and re.fullmatch(r"[0-9.]+", cells[-1]) and cells[0] != "impl":
            got[(scenario, cells[0])] = cells[1:]
    return got


def lead_phrases(text):
    """The README's two tables of the lead run ("At a glance" and the one
    under "Beside the Go limiters people use"), each row as the report
    gives it on the lead run's raw file."""
    m = medians(text)
    if not m:
        sys.exit(f"counts.py: the report printed no tables of medians for the lead run, the {ordinal(LEAD)}")
    fastest = lambda scenario, col, peers=PER_KEY: min(
        (float(m[(scenario, p)][col]), p) for p in peers if (scenario, p) in m
    )
    rows = []
    names = {
        "hot-allow": "hot key admitted",
        "hot-deny": "hot key denied",
        "keys-1k": "1k keys",
        "keys-1M": "1M keys uniform",
        "zipf-1M": "1M keys Zipf",
        "new-key": "a new key",
    }
    coarse = unique({k: v for k, (v, _) in report_targets(text).items()}, "coarse clock: ≥ 3.5×")
    for scenario, name in names.items():
        pair = lambda impl: " / ".join(m[(scenario, impl)][:2]) if (scenario, impl) in m else "–"
        (_, ps), (_, pp) = fastest(scenario, 0), fastest(scenario, 1)
        peer = f"{ps} {m[(scenario, ps)][0]} / {m[(scenario, pp)][1]}" if ps == pp else (
            f"{ps} {m[(scenario, ps)][0]} / {pp} {m[(scenario, pp)][1]}"
        )
        rs, rp = m[(scenario, ps)][3], m[(scenario, pp)][4]
        # Bold where the ratio is one the benchmark issue judges.
        if scenario == "hot-allow":
            ratio = f"**{rs}** / {rp} (coarse **{coarse}**)"
        elif scenario == "keys-1M":
            ratio = f"**{rs}** / **{rp}**"
        else:
            ratio = f"{rs} / {rp}"
        rows.append(
            f"| {name}, serial / parallel | {pair('sluice')} | {pair('sluice-coarse')} | {pair('sluice-mutex')} | "
            f"{pair('floor')} | {peer} | {ratio} |"
        )
    heap = lambda impl: m[("heap-1M", impl)][0] + " B"
    _, hp = min((float(m[("heap-1M", p)][0]), p) for p in PER_KEY if ("heap-1M", p) in m)
    rows.append(
        f"| heap per key at 1M keys | {heap('sluice')} | {heap('sluice-coarse')} | {heap('sluice-mutex')} | "
        f"{heap('floor')} | {hp} {heap(hp)} | {m[('heap-1M', hp)][1]} |"
    )
    # At a glance: sluice, x/time/rate, and the fastest of the others.
    others = tuple(p for p in PER_KEY if p != "x-time-rate")
    glance = {"hot-allow": "one hot key", "keys-1M": "1M keys, uniform", "new-key": "a new key"}
    for scenario, name in glance.items():
        _, o = fastest(scenario, 0, others)
        sluice = m[(scenario, "sluice")][0]
        if scenario == "hot-allow":
            sluice += f" ({m[(scenario, 'sluice-coarse')][0]} on the coarse clock)"
        rows.append(f"| {name} | {sluice} | {m[(scenario, 'x-time-rate')][0]} | {o} {m[(scenario, o)][0]} |")
    _, o = min((float(m[("heap-1M", p)][0]), p) for p in others if ("heap-1M", p) in m)
    rows.append(
        f"| heap per key at 1M keys, besides the key's bytes | {heap('sluice')} | {heap('x-time-rate')} | "
        f"{o} {heap(o)} |"
    )
    return rows


# The 16-core sweep that the README's "Multi-core scaling" list quotes, the
# ninth session's five rounds of today's engine, with the table in its
# section of BENCHMARKS.md.
SWEEP16 = "87b1e4b-16core-sweep.txt"
SWEEP16_IMPLS = ("sluice", "sluice-coarse", "sluice-mutex", "floor", "x-time-rate", "go-limiter")
SWEEP16_SCENARIOS = ("hot-allow", "hot-deny", "keys-1k", "keys-1M", "zipf-1M", "new-key")
SWEEP16_CPUS = (1, 2, 4, 8, 16)


def sweep16():
    """Each round of SWEEP16: (scenario, impl, GOMAXPROCS) to ns per decision."""
    line = re.compile(
        r"BenchmarkLimiters/scenario=(\S+)/impl=(\S+)/mode=parallel(?:-(\d+))?\s+\d+\s+([0-9.]+) ns/op"
    )
    rounds, current = [], None
    with open(os.path.join(RUNS, SWEEP16)) as fh:
        for text in fh:
            if text.startswith("# round "):
                current = {}
                rounds.append(current)
                continue
            m = line.match(text)
            if m and current is not None:
                current[(m.group(1), m.group(2), int(m.group(3) or 1))] = float(m.group(4))
    if not rounds:
        sys.exit(f"counts.py: no rounds in bench/runs/{SWEEP16}")
    return rounds


def scaling_phrases():
    """The README's "Multi-core scaling" list and the ninth 16-core
    session's sweep table, as SWEEP16's rounds give them: each ns the
    median of the rounds, as the report takes it; one implementation
    against another at 16 cores the median of the rounds' own ratios."""
    rounds = sweep16()

    def med(scenario, impl, cpus):
        got = [r[(scenario, impl, cpus)] for r in rounds if (scenario, impl, cpus) in r]
        if not got:
            sys.exit(f"counts.py: bench/runs/{SWEEP16} has no {scenario} {impl} at GOMAXPROCS {cpus}")
        return statistics.median(got)

    def against(scenario, slower, faster):
        """slower ÷ faster at 16 cores: the median of the rounds' own
        ratios, how many rounds faster was ahead in, and how many rounds."""
        got = [
            r[(scenario, slower, 16)] / r[(scenario, faster, 16)]
            for r in rounds
            if (scenario, slower, 16) in r and (scenario, faster, 16) in r
        ]
        return statistics.median(got), sum(x > 1 for x in got), len(got)

    scale = lambda scenario, impl: med(scenario, impl, 1) / med(scenario, impl, 16)
    hot = [med("hot-allow", "sluice", c) for c in SWEEP16_CPUS]
    ends = lambda impl: f"{med('hot-allow', impl, 1):.0f} to {med('hot-allow', impl, 16):.0f}"
    twin, gl = against("hot-allow", "sluice-mutex", "sluice")[0], against("hot-allow", "go-limiter", "sluice")[0]
    ahead, won, of = against("new-key", "sluice", "x-time-rate")
    readme = [
        f"one hot key admitted stays at {min(hot):.0f}–{max(hot):.0f} ns from 1 to 16 cores, where its mutex twin "
        f"goes from {ends('sluice-mutex')} ns and go-limiter from {ends('go-limiter')}",
        f"at 16 cores sluice decides it {twin:.2f}× faster than its twin and {gl:.2f}× than go-limiter",
        f"a denied hot key scales {scale('hot-deny', 'sluice'):.1f}×",
        f"1k keys {scale('keys-1k', 'sluice'):.1f}× ({med('keys-1k', 'sluice', 16):.1f} ns at 16), 1M keys "
        f"{scale('keys-1M', 'sluice'):.1f}× ({med('keys-1M', 'sluice', 16):.1f} ns), Zipf "
        f"{scale('zipf-1M', 'sluice'):.1f}×",
        f"new keys scale least, {scale('new-key', 'sluice'):.1f}× ({med('new-key', 'sluice', 16):.1f} ns at 16), "
        f"where x/time/rate's `sync.Map` scales {scale('new-key', 'x-time-rate'):.1f}× from a slower start and is "
        f"ahead at 16 ({ahead:.2f}× on the rounds' own ratios, in {won} rounds of {of})",
    ]
    table = [
        f"{scenario} {impl} "
        + " ".join(f"{med(scenario, impl, c):.1f}" for c in SWEEP16_CPUS)
        + f" {scale(scenario, impl):.1f}×"
        for scenario in SWEEP16_SCENARIOS
        for impl in SWEEP16_IMPLS
        # The floor decides nothing, so it has no denied key to run.
        if any((scenario, impl, 1) in r for r in rounds)
    ]
    return readme, table


def words(n):
    """n in words, as the documents write a count of runs (1 to 199: "one
    hundred and four")."""
    ones = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
    tens = "twenty thirty forty fifty sixty seventy eighty ninety".split()
    if 100 <= n < 200:
        return "one hundred" + (" and " + words(n - 100) if n > 100 else "")
    if 1 <= n < 20:
        return ones[n - 1]
    if 20 <= n < 100:
        t, o = divmod(n, 10)
        return tens[t - 2] + ("-" + ones[o - 1] if o else "")
    return str(n)


def ordinal(n):
    """The n-th in words, as the documents write a run (1 to 199: "the
    hundredth", "the hundred and fourth")."""
    if 100 <= n < 200:
        return "hundredth" if n == 100 else "hundred and " + ordinal(n - 100)
    w = words(n)
    head, _, last = w.rpartition("-")
    special = {"one": "first", "two": "second", "three": "third", "five": "fifth", "eight": "eighth", "nine": "ninth", "twelve": "twelfth"}
    if last in special:
        last = special[last]
    elif last.endswith("y"):
        last = last[:-1] + "ieth"
    else:
        last += "th"
    return head + "-" + last if head else last


# The counts a section gives of its rounds (the rounds' own words,
# ROUND_WORDS, stand with the hot key's checks).
COUNT_WORDS = tuple(words(n) for n in range(1, 5))
CNT = "(?:" + "|".join(COUNT_WORDS) + ")"

# "Against the mutex twin:", a section's last paragraph but one, makes
# three comparisons of sluice with sluice-mutex, each from the words
# that open it to the next's: the scenario, and the mode whose rounds it
# compares (serial at GOMAXPROCS 1, or on two goroutines). Then
# sluice-stripes alone, from its name to the paragraph's end.
TWIN_PARTS = (
    ("Against the mutex twin:", "hot-allow", "parallel-2"),
    ("A new key: serially", "new-key", "serial"),
    ("; on two goroutines", "new-key", "parallel-2"),
)
TWIN_STRIPES = "`sluice-stripes` took"

# A verdict and the rounds it names: "ahead in all four", "behind in the
# other three", "ahead in three rounds", "ahead in the second to fourth
# rounds", "ahead only in the first, third and fourth".
VERDICT = re.compile(
    rf"\b(ahead|behind|level)(?: only)? in (?:(all four)|the other ({CNT})|({CNT})\b|"
    rf"the ({ORD}) to ({ORD})|the ({ORD}(?:(?:, | and ){ORD})*))( rounds?)?(?: of four)?"
)
# What a figure ran at: "at a fast handoff", "at fast handoffs", "at a
# fast one", "in the slow mode"; after "both" or "all", every figure of
# its clause.
HANDOFF = re.compile(r"(both |all )?(?:at (?:a )?fast (?:handoffs?|one)|in the fast (?:mode|one)|(in the slow (?:mode|one)))")
# Two sides one level apart are level: "35.09 against 35.10".
LEVEL = 0.01


def twin_paragraph(section):
    """A section's paragraph that opens "Against the mutex twin:", on
    one line, or None."""
    for par in section.split("\n\n"):
        if par.startswith(TWIN_PARTS[0][0]):
            return " ".join(par.split())
    return None


def flatten(text):
    """Text with each group in brackets set aside: the text with " §k"
    where the k-th group was, and the groups' insides."""
    groups = []

    def aside(m):
        groups.append(m.group(1))
        return f" §{len(groups) - 1}"

    return re.sub(r" ?\(([^()]*)\)", aside, text), groups


def sides(clause):
    """A clause "A, B and C ns at fast handoffs against D in the slow
    mode, E and F" as two lists of (figure, handoff): handoff "fast",
    "slow" or None where the clause says nothing of it. A handoff after
    a figure is each figure's back to the handoff before, but the one
    figure's where the list goes on after it with a comma ("254.2, 322.3
    in the slow mode, and 256.9") or it follows "the latter"; after
    "both" or "all", every figure's on both sides."""
    if clause.count(" against ") != 1:
        return None
    every = None
    out = []
    for side in clause.split(" against "):
        got, since = [], 0
        for m in re.finditer(rf"{FIGURE.pattern}|{HANDOFF.pattern}", side):
            if FIGURE.fullmatch(m.group(0)):
                got.append([m.group(0), None])
                continue
            mode = "slow" if m.group(2) else "fast"
            if m.group(1):
                every = mode
            # "254.2, 322.3 in the slow mode, and 256.9" and "..., the
            # latter in the slow mode": the one figure before it.
            one = re.match(r",(?: and)? [0-9]", side[m.end() :]) or side[: m.start()].endswith("the latter ")
            for g in got[len(got) - 1 if one else since :]:
                g[1] = mode
            since = len(got)
        out.append(got)
    if every:
        for g in out[0] + out[1]:
            g[1] = g[1] or every
    return out


# A clause of handoffs alone, in a bracket of the mutex twin's paragraph:
# parts joined by ", ", each "in the <rounds> <who> <where>" ("in the
# second and fourth both at fast handoffs", "in the first sluice at a fast
# handoff and the twin in the slow mode", "in the others both at fast
# handoffs") or "<who> <where> in <rounds>" ("sluice at fast handoffs in
# all three", "the twin in the slow mode in the fourth").
HANDOFF_IN = re.compile(rf"in the ({ORDS}|others) (?:(both|sluice|the twin) {MODE}|sluice {MODE} and the twin {MODE})")
HANDOFF_WHO = re.compile(rf"(sluice|the twin) {MODE} in (?:(all ({CNT})|both)|the ({ORDS}))")


def handoff_clause(clause, rounds):
    """What a clause of handoffs alone (HANDOFF_IN, HANDOFF_WHO) says of
    the bracket's rounds (their numbers, from 0): (round, "sluice" or
    "twin", fast) for each round and side it names. "The others" are the
    bracket's rounds that the clause has not named before; "all three"
    and "both" are all of them, and must count them. None where a part is
    in neither form, or counts the rounds wrong."""
    said, named = [], []
    for part in re.split(r", (?=in the |sluice |the twin )", clause):
        m = HANDOFF_IN.fullmatch(part)
        if m:
            these = [r for r in rounds if r not in named] if m.group(1) == "others" else [ROUND_WORDS.index(w) for w in re.findall(ORD, m.group(1))]
            named += these
            if m.group(2):
                who = ("sluice", "twin") if m.group(2) == "both" else ("sluice" if m.group(2) == "sluice" else "twin",)
                said += [(r, w, "fast" in m.group(3)) for r in these for w in who]
            else:
                said += [(r, w, "fast" in mode) for r in these for w, mode in (("sluice", m.group(4)), ("twin", m.group(5)))]
            continue
        m = HANDOFF_WHO.fullmatch(part)
        if not m:
            return None
        if m.group(5):
            these = [ROUND_WORDS.index(w) for w in re.findall(ORD, m.group(5))]
        elif len(rounds) != (2 if m.group(3) == "both" else COUNT_WORDS.index(m.group(4)) + 1):
            return None
        else:
            these = list(rounds)
        said += [(r, "sluice" if m.group(1) == "sluice" else "twin", "fast" in m.group(2)) for r in these]
    return said


def twin_against_run(section, path, stripes=True, clauses=True):
    """A section's "Against the mutex twin:" paragraph against its run's
    raw file (path): each verdict (ahead, behind, level) on the rounds
    it names or counts, and the rounds the verdicts name together, all
    of them once; each "A against B" in brackets after named rounds,
    their sluice's and twin's ns in that order, and after a count, some
    round's each; each handoff the brackets give a figure, fast (under
    FAST ns) or slow; where clauses, each clause of handoffs alone in a
    bracket ("in the third both in the slow mode, in the others both at
    fast handoffs", handoff_clause), each round and side it names as it
    ran, one of the bracket's rounds (a clause in no form read fails);
    each "A–B against C–D", the ends of sluice's and the twin's ns in
    the verdict's rounds (the least and the most, where the verdict's
    rounds all ran serially or at fast handoffs, or the paragraph says
    "all at fast handoffs" before the span or right after it, which must
    then hold on both sides); and what it says of sluice-stripes on two
    goroutines and serially (where stripes, it must say it; else only
    where it does), the rounds it was faster or slower than sluice in
    among them, in the forms read (any other "faster than sluice in"
    fails). Two rounds within LEVEL of each other are level, and either
    side may be said to lead by the nearer figure. How many verdicts and
    figures were read, and what disagrees."""
    par = twin_paragraph(section)
    if par is None:
        return 0, 0, ["no paragraph opens \"Against the mutex twin:\""]
    runs = limiter_runs(path)
    read, figures, bad = 0, 0, []
    stripes_from = par.find(TWIN_STRIPES)
    if stripes_from == -1 and not stripes:
        stripes_from = len(par)
    starts = [par.find(w) for w, _, _ in TWIN_PARTS] + [stripes_from]
    if -1 in starts or starts != sorted(starts):
        return 0, 0, [f"the paragraph does not make its comparisons in the order {[w for w, _, _ in TWIN_PARTS] + [TWIN_STRIPES]}"]
    for k, (words, scenario, mode) in enumerate(TWIN_PARTS):
        part = par[starts[k] + len(words) : starts[k + 1]]
        ours = runs.get((scenario, "sluice", mode), [])
        twin = runs.get((scenario, "sluice-mutex", mode), [])
        n = min(len(ours), len(twin))
        if n == 0:
            bad.append(f"{scenario} {mode}: no rounds of sluice and sluice-mutex in its raw file")
            continue
        verdict = lambda i: "level" if abs(ours[i][0] - twin[i][0]) <= LEVEL * twin[i][0] else "ahead" if ours[i][0] < twin[i][0] else "behind"
        holds = lambda said, i: said == verdict(i) or (said != "level" and verdict(i) == "level" and (ours[i][0] < twin[i][0]) == (said == "ahead"))
        where = f"{scenario} {'serially' if mode == 'serial' else 'on two goroutines'}"

        def spans(text, rounds):
            """Each "16.70–27.84 ns against 35.59–46.97" in text: the ends
            of sluice's and the twin's ns in these rounds, the least and
            the most where all of them count (serially, or all at fast
            handoffs, or sluice's "at fast handoffs"), else each one of
            them. How many figures were read."""
            got = 0
            for m in re.finditer(rf"({NS_FIGURE.pattern})–({NS_FIGURE.pattern})(?: ns)?( at fast handoffs)? against ({NS_FIGURE.pattern})–({NS_FIGURE.pattern})", text):
                got += 4
                for lo, hi, side, fast in ((m.group(1), m.group(2), ours, m.group(3)), (m.group(4), m.group(5), twin, None)):
                    these = [side[i] for i in rounds if i < n]
                    if fast:
                        these = [r for r in these if r[1] is not None and r[1] < FAST]
                    # "all at fast handoffs", before the span or right after
                    # it ("285.6–314.4, all at fast handoffs"), says every
                    # round of both sides ran at one, and so counts.
                    claimed = "all at fast handoffs" in text[: m.start()] or re.match(r",? all at fast handoffs", text[m.end() :])
                    if claimed and mode != "serial":
                        slow = [r for r in these if r[1] is None or r[1] >= FAST]
                        if slow:
                            bad.append(f"{where}: {m.group(0)!r}, all at fast handoffs, but {slow[0][0]} ran at a {slow[0][1]} ns handoff")
                    values = [r[0] for r in these]
                    every = mode == "serial" or fast or claimed
                    if not values:
                        bad.append(f"{where}: {m.group(0)!r}: no rounds of it")
                    elif every and not (rounds_to(lo, min(values)) and rounds_to(hi, max(values))):
                        bad.append(f"{where}: {m.group(0)!r}: the ns in those rounds run {min(values)}–{max(values)}")
                    elif not every and not all(any(rounds_to(x, y) for y in values) for x in (lo, hi)):
                        bad.append(f"{where}: {m.group(0)!r}: {lo} and {hi} are not both ns of those rounds")
            return got

        flat, groups = flatten(part)
        found = list(VERDICT.finditer(flat))
        if not found:
            bad.append(f"{where}: no verdict (ahead, behind or level) in {part.strip()!r}")
            continue
        named, counted = [], 0
        for j, v in enumerate(found):
            read += 1
            said = v.group(1)
            upto = found[j + 1].start() if j + 1 < len(found) else len(flat)
            rest = flat[v.end() : upto]
            rounds, count = [], None
            if v.group(2):
                count = 4
            elif v.group(3) or v.group(4):
                count = COUNT_WORDS.index(v.group(3) or v.group(4)) + 1
            elif v.group(5):
                rounds = list(range(ROUND_WORDS.index(v.group(5)), ROUND_WORDS.index(v.group(6)) + 1))
            else:
                rounds = [ROUND_WORDS.index(w) for w in re.findall(ORD, v.group(7))]
            # The bracket after the rounds named, right after them or after
            # a few words that name no other round and no other bracket
            # ("behind in the second by 1.8 ns (...)", "ahead in the second
            # alone (...)", "behind in the first, in the slow mode (...)"):
            # their figures, round by round.
            lists = []
            g = re.match(r"([^§]{0,80}?) §([0-9]+)", rest)
            if g and re.search(rf"\band the {ORD}\b|narrowly", g.group(1)):
                g = None
            first = g and groups[int(g.group(2))]
            if rounds:
                lists.append((list(rounds), first))
                # "... the fourth (...) and the third (...)": more rounds, each with its own.
                for m in re.finditer(rf"\band the ({ORD})\b(?: §([0-9]+))?", rest):
                    r = ROUND_WORDS.index(m.group(1))
                    rounds.append(r)
                    lists.append(([r], m.group(2) and groups[int(m.group(2))]))
            else:
                lists.append((None, first))
            # "ahead in all four (...), the first narrowly (372.9 against 374.3)".
            for m in re.finditer(rf", the ({ORD}) narrowly §([0-9]+)", rest):
                lists.append(([ROUND_WORDS.index(m.group(1))], groups[int(m.group(2))]))
            if count is not None:
                have = [i for i in range(n) if holds(said, i)]
                if len(have) != count and not (count == 4 and len(have) == n):
                    bad.append(f"{where}: {v.group(0)!r}, where sluice is {said} in {len(have)} of {n} rounds")
                counted += count if count != 4 else n
                rounds = have
            else:
                for r in rounds:
                    if r >= n:
                        bad.append(f"{where}: {v.group(0)!r} names a {ROUND_WORDS[r]} round, of {n}")
                    elif not holds(said, r):
                        bad.append(f"{where}: {v.group(0)!r}, but in the {ROUND_WORDS[r]} round sluice took {ours[r][0]} ns, the twin {twin[r][0]}")
                named += rounds
            for these, group in lists:
                # "(248.7 against 252.0, both at fast handoffs; 370.6 ... against 375.4 ...)":
                # the clauses go on through the rounds named.
                at = 0
                for clause in (group or "").split("; "):
                    if "–" in clause:
                        continue
                    pair = sides(clause)
                    if pair is None and clauses and " against " not in clause and re.search(r"fast handoff|slow mode", clause):
                        # A clause of handoffs alone, after the figures:
                        # each round and side it names, as it ran.
                        bracket = these if these is not None else rounds
                        got = handoff_clause(clause, bracket)
                        if got is None:
                            bad.append(f"{where}: ({clause}) is in no form of handoffs this check reads, or counts the rounds wrong")
                            continue
                        for r, side, fast in got:
                            figures += 1
                            run = (ours if side == "sluice" else twin)[r] if r < n else None
                            if r not in bracket or run is None:
                                bad.append(f"{where}: ({clause}) names the {ROUND_WORDS[r]} round, not one of the bracket's")
                            elif run[1] is None or (run[1] < FAST) != fast:
                                bad.append(f"{where}: ({clause}) says {side}'s {ROUND_WORDS[r]} round ran "
                                           f"{'at a fast handoff' if fast else 'in the slow mode'}, its handoff was {run[1]} ns")
                        continue
                    if pair is None:
                        continue
                    left, right = pair
                    if len(left) != len(right):
                        bad.append(f"{where}: ({clause}) pairs {len(left)} figures with {len(right)}")
                        continue
                    for q, ((a, ha), (b, hb)) in enumerate(zip(left, right), at):
                        figures += 2
                        if these is not None and q >= len(these):
                            bad.append(f"{where}: ({clause}) gives more figures than the rounds named before it ({len(these)})")
                            continue
                        fits = [i for i in range(n) if rounds_to(a, ours[i][0]) and rounds_to(b, twin[i][0])]
                        fits = [i for i in fits if i == these[q]] if these is not None else [i for i in fits if i in rounds]
                        if not fits:
                            bad.append(f"{where}: {a} against {b} ({clause}) is not sluice's and the twin's ns of "
                                       + (f"the {ROUND_WORDS[these[q]]} round" if these is not None else "one of its rounds"))
                            continue
                        i = fits[0]
                        for x, h, run in ((a, ha, ours[i]), (b, hb, twin[i])):
                            if h and run[1] is not None and (run[1] < FAST) != (h == "fast"):
                                bad.append(f"{where}: ({clause}) says {x} ran {'at a fast handoff' if h == 'fast' else 'in the slow mode'}, its handoff was {run[1]} ns")
                    at += len(left)
            for these, group in lists:
                for clause in (group or "").split("; "):
                    if "–" in clause:
                        figures += spans(clause, these if these is not None else rounds)
            figures += spans(rest, rounds)
        if counted + len(named) != n or len(set(named)) != len(named):
            bad.append(f"{where}: its verdicts cover {counted + len(named)} rounds ({', '.join(v.group(0) for v in found)}), of {n}")
    if stripes_from == len(par):
        return read, figures, bad
    ns, _, serial = par[stripes_from + len(TWIN_STRIPES) :].partition("; serially")
    # "serially 346.2–449.3 ns, against sluice's 311.1–411.2": sluice's
    # own serial rounds after the stripes'.
    serial, _, theirs = serial.partition(" against sluice's ")
    two = runs.get(("new-key", "sluice-stripes", "parallel-2"), [])
    alone = [s for s, _ in runs.get(("new-key", "sluice-stripes", "serial"), [])]
    ours_two = [p for p, _ in runs.get(("new-key", "sluice", "parallel-2"), [])]
    ours_alone = [s for s, _ in runs.get(("new-key", "sluice", "serial"), [])]
    fast = sorted(p for p, h in two if h is not None and h < FAST)
    slow = sorted(p for p, h in two if h is None or h >= FAST)
    head, _, tail = ns.partition(" on two goroutines")
    listed = FIGURE.findall(head)
    checks = [(serial, sorted(alone), "serially")]
    if theirs:
        checks.append((theirs, sorted(ours_alone), "serially, sluice's beside it"))
    if "–" not in head and len(two) > 1 and len(listed) == len(two):
        # Round by round, in round order: "took 227.6, 342.2 (slow mode),
        # 243.9 and 231.9 ns", or "took 334.7, 289.9, 382.1 and 256.9 ns on
        # two goroutines (the first and third in the slow mode)"; the
        # others at fast handoffs.
        marked = set(re.findall(rf"({FIGURE.pattern}) \((?:in the )?slow mode\)", head))
        named = re.search(rf"\(the (last|{ORD}(?:(?:, | and ){ORD})*) in the slow mode\)", ns)
        named = set() if not named else {len(two) - 1} if named.group(1) == "last" else {ROUND_WORDS.index(w) for w in re.findall(ORD, named.group(1))}
        for i, (x, (p, h)) in enumerate(zip(listed, two)):
            figures += 1
            said = "in the slow mode" if x in marked or i in named else "at a fast handoff"
            if not rounds_to(x, p):
                bad.append(f"sluice-stripes on two goroutines: the paragraph writes {x} for the {ROUND_WORDS[i]} round, its run {p}")
            elif (h is None or h >= FAST) != (said == "in the slow mode"):
                bad.append(f"sluice-stripes on two goroutines: {x} ns, {said} by the paragraph, ran at a {h} ns handoff")
    elif tail.startswith(", all in the slow mode"):
        # "took 485.6–567.4 ns on two goroutines, all in the slow mode": no
        # round at a fast handoff.
        checks += [(head, slow, "in the slow mode"), ("", fast, "at fast handoffs")]
    else:
        said_slow = tail.split(" in the slow mode")[0].rpartition("handoffs and ")[2] if " in the slow mode" in tail else ""
        checks += [(head, fast, "at fast handoffs"), (said_slow, slow, "in the slow mode")]
    for text, values, how in checks:
        if " on the median" in text or (how == "serially, sluice's beside it" and " on the median" in serial):
            # "serially 477.7 ns on the median against sluice's 429.8".
            values = [statistics.median(values)] if values else []
        got = NS_FIGURE.findall(text)
        figures += len(got)
        ends = [values[0], values[-1]] if "–" in text and values else values
        if len(got) != len(ends) or not all(rounds_to(g, v) for g, v in zip(sorted(got, key=float), ends)):
            bad.append(f"sluice-stripes {how}: the paragraph writes {got}, its rounds {ends}")
    # "faster than sluice in the first, third and fourth rounds", "in three
    # rounds of four", "in all four rounds": the rounds where the stripes
    # took less than sluice on two goroutines; "(251.8 against 305.9 on the
    # medians)", the two medians.
    m = re.search(rf"faster than sluice in (?:(all four|each)|({CNT}) rounds? of four|the ({ORD}) to ({ORD})|the ({ORD}(?:(?:, | and ){ORD})*))", tail)
    n = min(len(two), len(ours_two))
    if m:
        read += 1
        faster = [i for i in range(n) if two[i][0] < ours_two[i]]
        if m.group(1):
            want = len(faster) == n
        elif m.group(2):
            want = len(faster) == COUNT_WORDS.index(m.group(2)) + 1
        elif m.group(3):
            want = faster == list(range(ROUND_WORDS.index(m.group(3)), ROUND_WORDS.index(m.group(4)) + 1))
        else:
            want = faster == sorted(ROUND_WORDS.index(w) for w in re.findall(ORD, m.group(5)))
        if not want:
            bad.append(f"sluice-stripes: {m.group(0)!r}, where it was faster in {[ROUND_WORDS[i] for i in faster]}")
    elif "faster than sluice in" in tail:
        # A form the pattern above does not read ("in three rounds") would
        # otherwise pass unread.
        read += 1
        bad.append(f"sluice-stripes: {tail[tail.index('faster than sluice in'):][:60]!r} is in no form this check reads")
    # "... and slower in the third (359.1 against 295.4)": the rounds where
    # the stripes took longer than sluice on two goroutines, and, for one
    # round, the two ns.
    s = re.search(rf"and slower in the ({ORD}(?:(?:, | and ){ORD})*)(?: rounds?)?(?: \(({FIGURE.pattern}) against ({FIGURE.pattern})\))?", tail)
    if s:
        read += 1
        slower = [i for i in range(n) if two[i][0] > ours_two[i]]
        said = sorted(ROUND_WORDS.index(w) for w in re.findall(ORD, s.group(1)))
        if said != slower:
            bad.append(f"sluice-stripes: {s.group(0)!r}, where it was slower in {[ROUND_WORDS[i] for i in slower]}")
        elif s.group(2):
            figures += 2
            if len(said) != 1 or not (rounds_to(s.group(2), two[said[0]][0]) and rounds_to(s.group(3), ours_two[said[0]])):
                bad.append(f"sluice-stripes: {s.group(0)!r} is not its and sluice's ns on two goroutines in that round")
    m = re.search(rf"\(({FIGURE.pattern}) against ({FIGURE.pattern}) on the medians\)", tail)
    if m and n:
        figures += 2
        if not (rounds_to(m.group(1), statistics.median(p for p, _ in two)) and rounds_to(m.group(2), statistics.median(ours_two))):
            bad.append(f"sluice-stripes: {m.group(0)!r} are not the medians of its and sluice's runs on two goroutines")
    return read, figures, bad


def joined(parts, sep=", "):
    """Parts as the documents list them: sep between, "and" before the
    last ("a, b and c"; with sep "; ", "a; b; and c")."""
    if len(parts) < 2:
        return "".join(parts)
    last = "; and " if sep == "; " else " and "
    return sep.join(parts[:-1]) + last + parts[-1]


def ordinals(runs):
    """Runs by number, in words as the documents list them: three or more
    in a row as "the sixtieth to sixty-fifth", the last joined by "and"."""
    groups = []
    for r in sorted(runs):
        if groups and r == groups[-1][-1] + 1:
            groups[-1].append(r)
        else:
            groups.append([r])
    parts = []
    for g in groups:
        parts += [f"{ordinal(g[0])} to {ordinal(g[-1])}"] if len(g) >= 3 else [ordinal(r) for r in g]
    return "the " + joined(parts)


# BENCHMARKS.md's sentence that names, after the table, every run
# whose two cores on 1M keys missed 1.8x on the median, each with its
# median and its rounds in brackets.
MISSED_1M = "two cores on 1M keys in every run but "


def missed_1m(t):
    """The runs BENCHMARKS.md names as missing 1.8x on 1M keys against
    those the table gives under 1.80: the same runs, each named once and
    with the table's median first in its brackets ("the twelfth (1.76×:
    ..."), and each figure after it one of that run's 1M rounds' where
    its raw output was kept. Returns the disagreements."""
    text = " ".join(record_text("BENCHMARKS.md").split())
    at = text.find(MISSED_1M)
    if at < 0 or text.find(MISSED_1M, at + 1) >= 0:
        return [f"bench/BENCHMARKS.md: no one sentence '{MISSED_1M}...' to name the runs that missed 1.8x on 1M keys"]
    # The list runs to the sentence's end: the first full stop, outside
    # brackets, that a space follows.
    rest, depth, top, end = text[at + len(MISSED_1M):], 0, [], None
    for i, ch in enumerate(rest):
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and ch == "." and rest[i + 1 : i + 2] == " ":
            end = i
            break
        top.append(ch if depth == 0 or (depth == 1 and ch == "(") else "")
    if end is None:
        return [f"bench/BENCHMARKS.md: the sentence '{MISSED_1M}...' has no end"]
    by_name = {ordinal(n): n for n in t["1m_by_run"]}
    named = re.findall(r"the ((?:hundred and )?[a-z-]+) \(", "".join(top))
    medians = re.findall(r"the (?:hundred and )?[a-z-]+ \(([0-9.]+)×:", rest[:end])
    bad = []
    if len(named) != len(medians):
        bad.append(f"bench/BENCHMARKS.md: '{MISSED_1M}...' gives each named run's median but {len(named)} runs and {len(medians)} medians")
    runs_named = [by_name.get(w) for w in named]
    missed = sorted(r for r, b in t["1m_by_run"].items() if b < 1.8)
    if None in runs_named or sorted(runs_named) != missed:
        bad.append(
            f"bench/BENCHMARKS.md: '{MISSED_1M}...' names {', '.join(named)}; the table's runs under 1.80 are "
            f"{ordinals(missed)}"
        )
    for w, m in zip(named, medians):
        r = by_name.get(w)
        if r is not None and f"{t['1m_by_run'][r]:.2f}" != m:
            bad.append(f"bench/BENCHMARKS.md: '{MISSED_1M}...' gives the {w} {m}×, the table {t['1m_by_run'][r]:.2f}")
    # After the median, each figure in a run's brackets must be one of its
    # own 1M rounds': sluice's serial or two-core ns, their ratio, or the
    # round's handoff (whether a figure is the kind its words say is not
    # read). A run whose raw output was not kept is not held.
    full = full_runs_in_order()
    for b in re.finditer(r"the ((?:hundred and )?[a-z-]+) \(", rest[:end]):
        r = by_name.get(b.group(1))
        depth, i = 1, b.end()
        while depth and i < len(rest):
            depth += (rest[i] == "(") - (rest[i] == ")")
            i += 1
        path = os.path.join(RUNS, full[r - 1] + ".txt") if r and r <= len(full) else None
        if path is None or not os.path.exists(path):
            continue
        own = [v for s, p, h in rounds(path, "keys-1M") for v in (s, p, s / p, h) if v is not None]
        for x in FIGURE.findall(rest[b.end() : i - 1])[1:]:
            if not any(rounds_to(x, v) for v in own):
                bad.append(f"bench/BENCHMARKS.md: '{MISSED_1M}...' gives the {b.group(1)} {x}, none of its 1M rounds' ns, ratios or handoffs")
    return bad


# Where the README's list of the default clock's floor, run by run,
# divides the runs printed "not met": those under it, just past the
# target's 1.1, and the higher ones, which it names.
HIGH_FLOOR = 1.125


def floor_list(listed):
    """The README's account of the default clock's floor from
    FIRST_LISTED_FLOOR on: how many runs printed "met" and which, how many
    did not, split at HIGH_FLOOR, each group's span as the table writes
    its figures, and the highest."""
    span = lambda g: "–".join(sorted({min(g, key=float), max(g, key=float)}, key=float))
    met = [(r, v) for r, v, ok in listed if ok]
    low = [(r, v) for r, v, ok in listed if not ok and float(v) < HIGH_FLOOR]
    high = [(r, v) for r, v, ok in listed if not ok and float(v) >= HIGH_FLOOR]
    clauses = []
    if met:
        clauses.append(
            f"{words(len(met))} printed \"met\", at {span([v for _, v in met])} ({ordinals([r for r, _ in met])})"
        )
    if low:
        clauses.append(f"{words(len(low))} \"not met\" at {span([v for _, v in low])}")
    if high:
        clauses.append(
            f"{words(len(high))} \"not met\" at {span([v for _, v in high])} ({ordinals([r for r, _ in high])})"
        )
    head = f"Of the {words(len(listed))} from the {ordinal(FIRST_LISTED_FLOOR)} on, "
    body = joined(clauses, "; ")
    top_run, top = max(((r, v) for r, v, _ in listed), key=lambda rv: float(rv[1]))
    return f"{head}{body}. The highest is the {ordinal(top_run)}'s {top}."


# The first full run on fe6ad05's decision path (AllowN through locate),
# from which BENCHMARKS.md sums up the coarse clock's hot key.
FIRST_LOCATE = 27


def coarse_since(full, texts):
    """The coarse clock's hot key against the fastest per-key peer in the
    full runs from FIRST_LOCATE on, as the report prints it on each raw
    file: the span of the medians, of the peer's ns and of sluice-coarse's,
    how many met 3.5x on the median, and the runs with a round under it.
    BENCHMARKS.md gives this where it once listed the runs one by one."""
    detail = re.compile(r"^(\S+) ([0-9.]+) ns ÷ sluice-coarse ([0-9.]+) ns; by round: (.*)$")
    runs = []
    for run, commit in enumerate(full, 1):
        if run < FIRST_LOCATE:
            continue
        got = unique(report_targets(texts.get(commit + ".txt", "")), "coarse clock: ≥ 3.5×")
        m = detail.match(got[1]) if got else None
        if not m:
            sys.exit(f"no coarse-clock hot key in the report on run {run}'s raw file (`{commit}`)")
        rounds_ = [float(x) for x in m.group(4).split(", ")]
        runs.append((run, float(got[0]), m.group(1), float(m.group(2)), float(m.group(3)), rounds_))
    low = [(run, min(r)) for run, *_, r in runs if min(r) < 3.5]
    met = sum(v >= 3.5 for _, v, *_ in runs)
    peers = sorted({p for _, _, p, *_ in runs})
    lo, hi = lambda i: min(x[i] for x in runs), lambda i: max(x[i] for x in runs)
    text = (
        f"From the {ordinal(FIRST_LOCATE)} to the {ordinal(len(full))} run, {words(len(runs))} runs on "
        f"`fe6ad05`'s decision path, {'every run' if met == len(runs) else words(met) + ' runs'} met it on "
        f"{'its' if met == len(runs) else 'their'} median: {lo(1):.2f}–{hi(1):.2f}×, "
        f"{' or '.join(peers)} at {lo(3):.1f}–{hi(3):.1f} ns and sluice-coarse at {lo(4):.1f}–{hi(4):.1f} "
        f"on the medians"
    )
    if low:
        worst = min(low, key=lambda x: x[1])
        text += (
            f"; {words(len(low))} had a round under 3.5× ({ordinals([r for r, _ in low])}), "
            f"the lowest {worst[1]:.2f}× in the {ordinal(worst[0])}"
        )
    return text + "."


# The full run whose 1,000-key rounds the README's "Why" takes apart
# (every round in the fast mode).
WHY_RUN = 21


def figures():
    """Computes and prints every count; returns those the documents quote."""
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
    others = other_runs()
    texts, charts, drawn = reports(files + others)
    print(f"charts: {drawn} full runs' charts drawn again from their raw files, {len(charts)} unlike the one kept")
    for c in charts:
        print(f"  {c}")
    ratios = machine_ratios({k: v for k, v in texts.items() if not OTHER_RUN.match(k)})
    inside = 0
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

    full = full_runs_in_order()
    named = named_run_ratios(full, texts)
    turns = calm_lead(full)
    print(f"the lead, by calm_lead's rule from the {ordinal(FIRST_CALM)} run on: the {ordinal(turns[-1][0])}")
    for run, out, n, widest in turns:
        print(f"  took the lead: the {ordinal(run)}, {out} of {n} parallel benchmarks out of the fast mode, "
              f"its serial runs {(widest - 1) * 100:.1f}% apart at most")
    counted, outside, serial_1m, two_in, two_out = 0, [], [], [], []
    for run, s, p, r in counted_1m(full):
        counted += 1
        serial_1m.append(s)
        if not inside_1m(r):
            outside.append(f"{full[run - 1]} {r:.2f}x (serial {s} ns, two cores {p})")
            two_out.append((r, p, run, s))
        else:
            two_in.append(p)
    median_1m = statistics.median(serial_1m)
    # The README splits the rounds below 1.85x by their two-core run:
    # slower than every round inside, or not. Without such rounds the
    # phrase says so, and the README's sentence, which names them, fails.
    # The others' runs are named in the phrase, so that a new one fails the
    # check until the README's sentence, which gives each its figures, does.
    # A round above 2.31x is named with its serial and two-core ns.
    below = [o for o in two_out if o[0] < BAND_1M[0]]
    slower = [p for _, p, _, _ in below if p > max(two_in, default=0)]
    usual = [run for _, p, run, _ in below if p <= max(two_in, default=0)]
    outside_1m = "no round below 1.85× with a two-core run slower than every round inside"
    if slower:
        outside_1m = (
            f"and {words(len(below))} {min(r for r, *_ in below):.2f}–{max(r for r, *_ in below):.2f}×: "
            f"{words(len(slower))} with their two-core run slower than usual "
            f"({min(slower):.1f}–{max(slower):.1f} ns, against {min(two_in):.1f}–{max(two_in):.1f} in the others)"
        )
        if usual:
            outside_1m += f", and {words(len(usual))} with their two-core run at the usual speed ({ordinals(usual)} runs)"
    above = [o for o in two_out if o[0] > BAND_1M[1]]
    if above:
        outside_1m = (
            f"{words(len(above))} read more, "
            + joined([f"the {ordinal(run)}'s {r:.2f}× ({s} → {p} ns)" for r, p, run, s in above])
            + f", {'its two-core run' if len(above) == 1 else 'their two-core runs'} "
            + ("faster than every round inside, " if all(p < min(two_in, default=0) for _, p, _, _ in above)
               else "(not all faster than every round inside), ")
            + outside_1m
        )
    print(
        f"two cores on 1M keys, full runs 30-{len(full)}: {counted} rounds at a fast handoff "
        f"over a serial run of at most 340 ns, {counted - len(outside)} of them at 1.85-2.31x, "
        f"their serial runs' median {median_1m:.1f} ns"
    )
    for o in outside:
        print(f"  outside: {o}")
    coarse = coarse_since(full, texts)
    print(f"the coarse clock's hot key, full runs {FIRST_LOCATE}-{len(full)}: {coarse}")

    k = print_1k_full(full, first=FIRST_1K)
    t = targets(full)
    disagree, compared = table_against_reports(full, texts)
    unlike, n = sections_against_reports(full, texts)
    # The runs on another processor: their sections are read alike, and
    # what they read is added to the same counts.
    unlike += others_against_reports(texts, n)
    machines = series_machine(files)
    # The documents say the runs from BACK_ON_SERIES on ran on the
    # history's processor: each must name one in its raw file.
    machines += [
        f"the {ordinal(i + 1)} full run ({c}) names no processor (no cpu-id line), where every run from the "
        f"{ordinal(BACK_ON_SERIES)} on must"
        for i, c in enumerate(full)
        if i + 1 >= BACK_ON_SERIES and cpu_family(os.path.join(RUNS, c + ".txt")) is None
    ]
    for m in machines:
        print(f"  {m}")
    print(f"full runs on another processor: {len(others)}, their sections held alike")
    for line, bad in (
        (
            f"runs {FIRST_BY_ROUND}-{len(full)} against the report on their raw files: "
            f"{compared - len(disagree)} figures agree, {len(disagree)} do not",
            disagree,
        ),
        (
            f"their sections in the history (of the twenty-sixth's, its prose alone) against the same: "
            f"{n['rows']} rows, {n['openings']} opening paragraphs, {n['begun']} times after an earlier run, "
            f"{n['running']} running counts of the 1,000-key "
            f"and 1M-key rounds, {n['ns']} figures in ns and {n['scaled']} ratios of the floor reference's 1,000 keys "
            f"and a denied hot key, {n['arrows']} pairs of serial and two-core ns, {n['spans']} spans of the "
            f"floor's rounds, {n['floor_ratios']} ratios to the floor and {n['hot']} figures of the hot key and {n['handoffs_named']} rounds' handoffs read, "
            f"{len(unlike)} lines disagree",
            unlike,
        ),
    ):
        print("  " + line)
        for d in bad:
            print(f"    {d}")
    return {
        "readings": len(values),
        "stalled": len(stalled),
        "fast": (percentile(fast, 1), percentile(fast, 99)),
        "slow": (percentile(slow, 1), percentile(slow, 99)),
        "machine": ratios,
        "machine_inside": inside,
        "full": len(full),
        "rounds_1m": counted,
        "inside_1m": counted - len(outside),
        "serial_1m": median_1m,
        "outside_1m": outside_1m,
        "k": k,
        "targets": t,
        "disagree": [f"bench/BENCHMARKS.md, {d}" for d in disagree] + unlike,
        "sections": n,
        "machines": machines,
        "profiles": profile_tables(),
        "shares": profile_shares(),
        "benchstat": benchstat_tables_all(),
        "benchstat_prose": benchstat_prose(),
        "named": named,
        "other": other_figures(texts),
        "charts": charts,
        "drawn": drawn,
        "others": len(others),
        "lead": texts.get(full[LEAD - 1] + ".txt", ""),
        "why": texts.get(full[WHY_RUN - 1] + ".txt", ""),
        "coarse_since": coarse,
        "calm": turns,
    }


def print_quick():
    """The quick runs' 1,000-key rounds (their commits' dates pick them,
    so this needs the repository's history)."""
    since = commit_time("3f1e565")
    quick = [
        f
        for f in glob.glob(os.path.join(RUNS, "*-quick.txt"))
        if commit_time(os.path.basename(f).split("-")[0]) >= since
    ]
    ratios_1k = [
        round(s / p, 2)
        for f in quick
        for s, p, h in rounds(f, "keys-1k")
        if h is not None and h < FAST and s < 30
    ]
    if ratios_1k:
        print(
            f"two cores on 1,000 keys, {len(quick)} quick runs since 3f1e565: {len(ratios_1k)} rounds at a "
            f"fast handoff over a serial run under 30 ns, the highest {max(ratios_1k):.2f}x, "
            f"median {quartiles(sorted(ratios_1k))[1]:.2f}x, "
            f"{sum(r >= 1.8 for r in ratios_1k)} at 1.8x or more"
        )


def high30(high):
    """The rounds that reach 1.8x with the serial limit at 30 ns, as the
    README lists them: each run's rounds ("the fifty-first's two 1.84×"),
    then the span of their serial runs. Where there are none it says so,
    and the README's sentence, which names them, fails the check."""
    if not high:
        return "no round reaches 1.8× with the serial limit at 30 ns"
    parts = []
    for run in sorted({run for run, _, _ in high}):
        rs = [r for o, r, _ in high if o == run]
        same = len(set(rs)) == 1
        parts.append(
            f"the {ordinal(run)}'s "
            + (f"{words(len(rs))} {rs[0]:.2f}×" if same and len(rs) > 1 else " and ".join(f"{r:.2f}×" for r in rs))
        )
    serial = [s for _, _, s in high]
    return f"{joined(parts)}, over serial runs of {min(serial):.2f}–{max(serial):.2f} ns"


def quoted(f):
    """The phrases README.md and BENCHMARKS.md write with these figures,
    each as the document words it."""
    k = f["k"]
    rs = k["rounds"]
    q1, med, q3 = k["quartiles"]
    at = k["at"]
    m = f["machine"].values()
    span = lambda v: f"{v[0]:.2f}–{v[-1]:.2f}×"
    ns = lambda lo_hi: f"{lo_hi[0]:.0f}–{lo_hi[1]:.0f} ns"
    after = k["after"]
    # How far the rule's 26 ns limit stands above the serial runs' median.
    above = round((26.0 / k["serial_median"] - 1) * 100)
    # How many of some rounds reached the target, as the documents word it.
    at_target = lambda v: f"{words(sum(r >= 1.8 for r in v)) if any(r >= 1.8 for r in v) else 'none'} at 1.8×"
    # The span at each serial limit below 30 ns; two limits whose spans
    # are the same are written as one ("1.10–1.78× at 27 or 28 ns (149 and
    # 161)"), as both documents wrote them until a round came in between.
    if span(at[27.0]) == span(at[28.0]):
        by_limit = f"{span(at[25.0])} at 25 ns ({len(at[25.0])} rounds), {span(at[27.0])} at 27 or 28 ns ({len(at[27.0])} and {len(at[28.0])})"
    else:
        by_limit = (
            f"{span(at[25.0])} at 25 ns ({len(at[25.0])} rounds), {span(at[27.0])} at 27 ns ({len(at[27.0])}), "
            f"{span(at[28.0])} at 28 ns ({len(at[28.0])})"
        )
    # The median at each serial limit: one figure where it is the same at
    # all of them ("1.59× at each of 25, 27, 28 and 30 ns"), else each.
    by_limit_median = (
        f"{quartiles(at[25.0])[1]:.2f}× at each of 25, 27, 28 and 30 ns"
        if len({f"{quartiles(at[x])[1]:.2f}" for x in at}) == 1
        else joined([f"{quartiles(at[x])[1]:.2f}×" for x in sorted(at)], sep=", ") + " at 25, 27, 28 and 30 ns"
    )
    # The rule's test out of sample, as both documents give it (none yet:
    # no phrase, and the opening's count of every round still checks).
    since = []
    if after:
        aq1, amed, aq3 = quartiles(after)
        since = [
            f"the {len(after)} rounds of the {ordinal(RULE_SET + 1)} to {ordinal(f['full'])} runs read "
            f"**{amed:.2f}×** on the median (quartiles {aq1:.2f}–{aq3:.2f}×, all {span(after)}), {at_target(after)}"
        ]
    readme = since + [
        f"a line crosses between them in {ns(f['fast'])}, and a slow one, where it takes {ns(f['slow'])}",
        f"{med:.2f}× on the median of {len(rs)} rounds in {words(k['runs'])} full runs ({span(rs)}, "
        f"{at_target(rs)})",
        f"{f['stalled']} readings of {f['readings']:,};",
        f"over the {words(f['full'])} full runs recorded",
        f"| the {words(f['full'])} full runs | met |",
        f"{above}% above that of those runs' {k['serial']} serial runs ({k['serial_median']:.2f} ns) now",
        f"Those are {len(rs)} rounds in {words(k['runs'])} runs, and they read **{med:.2f}×** on the median "
        f"(quartiles {q1:.2f}–{q3:.2f}×, all {span(rs)})",
        # How far that median falls short of the target, to the percent.
        f"1.8×: short by {round(100 * (1 - med / 1.8))}% on the median",
        by_limit,
        # The README says the limit moves the span and little or not the
        # median, and that only the loosest limit lets rounds reach 1.8x.
        f"median, {by_limit_median}",
        f"only at 30 ns do {words(sum(r >= 1.8 for r in at[30.0]))} rounds reach 1.8×"
        + ("" if not any(r >= 1.8 for x in (25.0, 27.0, 28.0) for r in at[x]) else " (and below 30 ns too)"),
        k["lowest"],
        high30(k["high30"]),
        f"{f['inside_1m']} of those runs' {f['rounds_1m']} read 1.85–2.31×",
        f"where the counted rounds' median is {f['serial_1m']:.1f})",
        f["outside_1m"],
        f"scales 1.97–2.01× on this VM in {f['machine_inside']} of the {len(m)} full and quick runs whose raw "
        f"output is kept, {min(m):.2f}–{max(m):.2f}× in all",
    ]
    # The README's table "Against the targets", from BENCHMARKS.md's table.
    t = f["targets"]
    n = f["full"]
    two = lambda v: f"{v[0]:.2f}–{v[1]:.2f}×"
    met = lambda count: "met in all" if count == n else f"met in {count}"
    coarse_met = f"met in the last {t['coarse'][3]}" if t["coarse"][2] == t["coarse"][3] else met(t["coarse"][2])
    # Each row gives the lead run's figure, bold where it meets the
    # target, as the table beside it does, then the span over the runs.
    lead = t["lead"]
    bold = lambda text, ok: f"**{text}**" if ok else text
    hot = bold(f"{lead['hot']:.2f}×", lead["hot"] >= 2)
    coarse = bold(f"{lead['coarse']:.2f}×", lead["coarse"] >= 3.5)
    uniform = bold(f"{lead['uniform'][0]:.2f}× / {lead['uniform'][1]:.2f}×", min(lead["uniform"]) >= 1.5)
    heap = bold(f"{lead['heap']} B", lead["heap"] <= 48)
    two_1m = bold(f"{lead['two'][1]:.2f}×", lead["two"][1] >= 1.8)
    two_1k = bold(f"{lead['two'][0]:.2f}×", lead["two"][0] >= 1.8)
    mono = bold(f"{lead['mono']:.2f}×", lead["mono"] <= 1.1)
    readme += lead_phrases(f["lead"])
    # Two cores on 1M keys from the thirtieth run on: the span of the runs
    # that met 1.8x on their medians, and each that did not.
    since30 = {run: v for run, v in t["1m_by_run"].items() if run >= 30}
    met_1m = [v for v in since30.values() if v >= 1.8]
    missed_1m = [(run, v) for run, v in since30.items() if v < 1.8]
    readme.append(
        f"{min(met_1m):.2f}–{max(met_1m):.2f}× on the medians of the thirtieth to {ordinal(n)} runs"
        + (f" but {words(len(missed_1m))}" if missed_1m else "")
    )
    readme += [f"{v:.2f}× in the {ordinal(run)}," for run, v in missed_1m]
    # The coarse clock's hot key from the eighth run on, which the README
    # sets a quick run's figure against.
    coarse8 = t["coarse_by_run"][7:]
    readme.append(f"where the full runs since the eighth read {min(coarse8):.2f}–{max(coarse8):.2f}×")
    # Two cores on 1,000 keys in the runs after the one the README shows.
    later = [v for run, v in t["1k_by_run"].items() if run > LEAD]
    readme.append(
        f"the {words(len(later))} runs after the {ordinal(LEAD)} {min(later):.2f}–{max(later):.2f}× on their medians"
    )
    both = "met in all" if t["serial"][2] == t["parallel"][2] == n else f"met in {t['serial'][2]} / {t['parallel'][2]}"
    readme += [
        f"| {hot} | {two(t['hot'])}, {met(t['hot'][2])} |",
        f"| {coarse} | {two(t['coarse'])}, {coarse_met} |",
        f"| {uniform} | {two(t['serial'])} / {two(t['parallel'])}, {both} |",
        f"| {heap} (throttled",
        "| " + " or ".join(f"{v} B" for v in t["heap"]) + " in all |",
        f"| {two_1m} | {two(t['1m'])}, {met(t['1m'][2])} |",
        f"| {two_1k} | {two(t['1k'])}, {met(t['1k'][2])} |",
        f"(on 2026-12-06 it was back on family {SERIES_FAMILY}, for the {ordinal(BACK_ON_SERIES)} to {ordinal(n)} runs)",
        f"| {mono} | {two(t['mono'])}, from the fifth |",
        f"({two(t['mono'])} over the runs, {two(t['mono40'])} in the fortieth to {ordinal(n)})",
        f"| {lead['default']} | {two(t['default'])} since `31bd5c7` |",
        f"{two(t['default'])} over the {words(t['default'][2])} full runs since `31bd5c7`",
        floor_list(t["default_listed"]),
        f"| {lead['coarse_floor']} | {two(t['coarse_floor'])} since `31bd5c7`, met in {t['coarse_floor'][2]} of "
        f"{t['default'][2]} | yes, but for {ordinals(t['coarse_floor_missed'])} (below) |",
        f"**Coarse clock:** {two(t['coarse_floor_met'])} over the same runs but "
        f"{ordinals(t['coarse_floor_missed'])}.",
    ]
    # The rounds that reach 1.8x with the serial limit at 30 ns, counted
    # where BENCHMARKS.md gives the span at that limit.
    hi30 = [s for _, _, s in k["high30"]]
    reaching30 = (
        ""
        if not hi30
        else f", the {words(len(hi30))} rounds at 1.8× or more over serial runs of {min(hi30):.2f}–{max(hi30):.2f} ns"
        if len(hi30) > 1
        else f", the one round at 1.8× or more over a serial run of {hi30[0]:.2f} ns"
    )
    benchmarks = since + [
        f"The targets of the benchmark issue over the {words(f['full'])} full runs",
        f"passes 2× on the medians of {words(t['hot'][2])} runs of {words(n)}",
        f"now {above}% above the median of their {k['serial']} serial runs ({k['serial_median']:.2f} ns): {len(rs)} rounds in "
        f"{words(k['runs'])} runs, **{med:.2f}×** on the median, quartiles {q1:.2f}–{q3:.2f}×, all {span(rs)}",
        f"the span is {by_limit}, and {span(at[30.0])} at 30 ns ({len(at[30.0])})" + reaching30,
        # The processor the history's runs came back to on the day the
        # VM left family 26, and how far they have run on it since.
        f"where the {ordinal(BACK_ON_SERIES)} to {ordinal(n)} full runs of the history ran",
        f"The median is {by_limit_median}",
        f["coarse_since"],
        # Two cores on 1,000 keys from the same run on, where the document
        # stopped listing the runs one by one.
        "the {} to {} runs' medians read {:.2f}–{:.2f}×".format(
            ordinal(FIRST_LOCATE),
            ordinal(n),
            min(v for run, v in t["1k_by_run"].items() if run >= FIRST_LOCATE),
            max(v for run, v in t["1k_by_run"].items() if run >= FIRST_LOCATE),
        ),
    ]
    # The lead run, and each run that took the lead by calm_lead's rule.
    turns = [
        f"the {ordinal(run)} ({slow} of {n}; {(widest - 1) * 100:.1f}%)" for run, slow, n, widest in f["calm"]
    ]
    benchmarks.append("took the lead in turn: " + joined(turns))
    readme.append(f"At a glance, from the {ordinal(LEAD)} full run of `make bench-full`")
    scaling, table = scaling_phrases()
    readme += scaling
    benchmarks += table
    more = other_phrases(f["other"])
    readme += more[0]
    benchmarks += more[1]
    # The README's "Why": one core's decision in the WHY_RUN-th run, two
    # cores' wall time and each core's, what the other core added, twice
    # that for each line that moved, the rounds' handoffs, and what 1.8x
    # would allow.
    why = re.search(r"\(keys-1k\).*medians: serial ([0-9.]+) ns, two cores ([0-9.]+) ns; by round, × at handoff ns: (.*)\)", f["why"])
    if why:
        one, two = float(why.group(1)), float(why.group(2))
        ats = [int(a) for a in re.findall(r"at ([0-9]+)", why.group(3))]
        fast = all(a < FAST for a in ats)
        readme.append(
            f"In the {ordinal(WHY_RUN)} run, {'every round in the fast mode' if fast else '(not every round fast)'}, one core "
            f"took {why.group(1)} ns a decision and two took {why.group(2)} ns of wall time, {2 * two:.1f} ns each: the "
            f"other core added {2 * two - one:.1f} ns to a decision, about {2 * (2 * two - one):.0f} ns for each line that "
            f"moved, where a handoff measured {min(ats)}–{max(ats)} ns"
        )
        readme.append(f"1.8× would allow {2 * one / 1.8 - one:.1f} ns a decision")
    else:
        readme.append(f"the report on the {ordinal(WHY_RUN)} run gives no 1,000-key medians")
    # "Another machine" sets its runs beside the history's: the number of
    # the history's runs, the lead run's hot key, whether every run there
    # beat every run here on the hot key's ratios, and the floor's span.
    lead_hot = re.search(r"hot key, default clock.*?÷ sluice ([0-9.]+) ns", f["lead"])
    for fam, group in f["other"].items():
        if " under " in fam:
            # A host on another clocksource reads a slower default clock:
            # its section says so, and is not set beside the history here.
            continue
        above = all(float(r["hot"]) > t["hot"][1] and float(r["coarse"]) > t["coarse"][1] for r in group)
        benchmarks += [
            f"against the {words(f['full'])} full runs on family {SERIES_FAMILY}",
            f"({lead_hot.group(1) if lead_hot else '?'} in the {ordinal(LEAD)})",
            f"each above every family-{SERIES_FAMILY} run's" if above else f"(not each above every family-{SERIES_FAMILY} run's)",
            f"where it had sat at {t['default'][0]:.2f}–{t['default'][1]:.2f}× on family {SERIES_FAMILY} since `31bd5c7`",
        ]
    more = sharing_phrases()
    readme += more[0]
    benchmarks += more[1] + benchstat_phrases()
    return {"README.md": readme, os.path.join("bench", "BENCHMARKS.md"): benchmarks}


def slug(heading):
    """A heading's anchor as GitHub makes it: lower case, every character
    but letters, digits, spaces, hyphens and underscores dropped, each
    space a hyphen."""
    kept = "".join(c for c in heading.strip().lower() if c.isalnum() or c in " -_")
    return kept.replace(" ", "-")


def broken_links(text):
    """The in-page links (#anchor) of a Markdown text that name no heading
    of it (a repeated heading's anchor takes -1, -2, ... as on GitHub;
    headings inside fenced code are not headings)."""
    anchors, seen, fenced = set(), {}, False
    for line in text.split("\n"):
        if line.startswith("```"):
            fenced = not fenced
        m = None if fenced else re.match(r"#{1,6} (.*)", line)
        if m:
            a = slug(m.group(1))
            n = seen.get(a, 0)
            seen[a] = n + 1
            anchors.add(a if n == 0 else f"{a}-{n}")
    return [a for a in re.findall(r"\]\(#([^)]*)\)", text) if a not in anchors]


def split_headings(text):
    """The headings of a Markdown text (outside fenced code) whose next
    line is not blank: Markdown ends a heading at its line, so a heading
    wrapped onto a second line renders that line as a paragraph, and the
    heading's anchor loses its words."""
    lines, fenced, split = text.split("\n"), False, []
    for k, line in enumerate(lines):
        if line.startswith("```"):
            fenced = not fenced
        if not fenced and re.match(r"#{1,6} ", line) and k + 1 < len(lines) and lines[k + 1].strip():
            split.append(line)
    return split


# The records of the bench/ directory: BENCHMARKS.md (the calmest full
# run, every run against the targets, the 16-core sessions, another
# processor) and the history (each change and each full run, in order),
# split out of it when BENCHMARKS.md neared a megabyte, and later into
# files by era (history_files).
RECORDS = ("BENCHMARKS.md",) + tuple(history_files())

# A section of one of RECORDS named in prose or in a comment: the file,
# then the name in quotes or italics ("`bench/HISTORY.md`, "XXH3"",
# "BENCHMARKS.md's "Another machine""), or the name, then the file ("
# "Keys past 16 bytes", in `HISTORY.md`").
NAMED_AFTER = re.compile(r"(?:bench/)?(BENCHMARKS|HISTORY(?:-[0-9]+)?)\.md`?(?:'s)?,?\s+[\"*]([^\"*]{3,120}?)[\"*]")
NAMED_BEFORE = re.compile(r"[\"*]([^\"*]{3,120}?)[\"*],?\s+in\s+`?(?:bench/)?(BENCHMARKS|HISTORY(?:-[0-9]+)?)\.md")


def record_titles(name):
    """The headings and bold paragraph titles ("**The count's pin before
    the lookup.**") of one of RECORDS, each with its runs of white space
    made one space; and its headings' anchors."""
    text = record_text(name)
    heads = [" ".join(m.group(1).split()) for m in re.finditer(r"^#{1,6} (.*)$", text, re.M)]
    bold = [" ".join(m.group(1).split()).rstrip(".") for m in re.finditer(r"\*\*([^*]+?)\*\*", text)]
    return heads + bold, {slug(h) for h in heads}


def go_sources(root):
    """The Go files of the three modules, relative to root: every one in
    the tree but under hidden directories and the outputs' out/. A walk,
    not git ls-files: make test runs this on machines without git, or
    on a tree that is no checkout (it listed the same 87 files as git
    ls-files at e987771)."""
    found = []
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if not x.startswith(".") and not (d == root and x == "out"))
        found += [os.path.relpath(os.path.join(d, f), root) for f in sorted(files) if f.endswith(".go")]
    return found


def named_sections():
    """Each reference by name to a section of RECORDS, in README.md, in
    RECORDS themselves (but their fenced blocks, a report's output as it
    printed) and in the Go sources (comments and strings), that names no
    heading or bold paragraph title of its file (the name may be
    a title's opening words: "A fortieth full run"); and each Markdown link
    to one of RECORDS whose anchor names none of its headings. Returns how
    many were read and what failed."""
    root = os.path.join(RUNS, "..", "..")
    titles = {name: record_titles(name) for name in RECORDS}
    docs = ["README.md"] + [os.path.join("bench", r) for r in RECORDS]
    docs += go_sources(root)
    read, bad = 0, []
    for doc in docs:
        with open(os.path.join(root, doc)) as fh:
            raw = fh.read()
        if doc.endswith(".go"):
            raw = re.sub(r"^\s*// ?", "", raw.replace('\\"', '"'), flags=re.M)
        else:
            # Fenced blocks hold a report as it printed, names and all.
            raw = re.sub(r"^```.*?^```", "", raw, flags=re.M | re.S)
        text = " ".join(raw.split())
        found = [(m.group(1), m.group(2), m.start()) for m in NAMED_AFTER.finditer(text)]
        found += [(m.group(2), m.group(1), m.start()) for m in NAMED_BEFORE.finditer(text)]
        for record, name, at in found:
            read += 1
            if record + ".md" not in titles:
                bad.append(f"{doc}: {name!r} is named in bench/{record}.md, which is no record of bench/: {text[max(0, at - 40):at + len(name) + 60]!r}")
            elif not any(t.startswith(name.rstrip(".,")) for t in titles[record + ".md"][0]):
                bad.append(f"{doc}: {name!r} names no section of bench/{record}.md: {text[max(0, at - 40):at + len(name) + 60]!r}")
        for record, anchor in re.findall(r"\]\((?:bench/)?(BENCHMARKS|HISTORY(?:-[0-9]+)?)\.md(?:#([^)]*))?\)", raw):
            read += 1
            if record + ".md" not in titles:
                bad.append(f"{doc}: a link to bench/{record}.md, which is no record of bench/")
            elif anchor and anchor not in titles[record + ".md"][1]:
                bad.append(f"{doc}: a link to bench/{record}.md#{anchor}, which no heading there makes")
    return read, bad


def check():
    """Exits 1 unless every phrase quoted() gives is in its document, each
    compared with runs of white space made one space, and not as the tail
    of a longer number or word."""
    with contextlib.redirect_stdout(io.StringIO()):
        f = figures()
    if f["k"] is None or not f["machine"]:
        sys.exit("counts.py --check: no 1,000-key round or BenchmarkMachine ratio was counted: nothing to check")
    root = os.path.join(RUNS, "..", "..")
    missing, n, links = [], 0, 0
    # The history quotes no computed phrase, but its links and headings
    # are held as the others' are.
    for doc, phrases in {**quoted(f), **{os.path.join("bench", h): [] for h in history_files()}}.items():
        with open(os.path.join(root, doc)) as fh:
            raw = fh.read()
        # The documents' tables of contents: each link must reach its
        # heading, so that one renamed is seen.
        links += len(re.findall(r"\]\(#", raw))
        for a in broken_links(raw):
            missing.append(f"{doc}: a link to #{a}, which no heading makes")
        for h in split_headings(raw):
            missing.append(f"{doc}: the heading {h!r} goes on to the next line, which Markdown renders as a paragraph")
        text = " ".join(raw.split())
        for p in phrases:
            n += 1
            # Not inside a longer number or word: 37 must not match 137.
            if not re.search(r"(?<![\w.,])" + re.escape(" ".join(p.split())), text):
                missing.append(f"{doc}: {p}")
    missing += f["disagree"]
    missing += missed_1m(f["targets"])
    missing += history_split()
    named = named_sections()
    missing += named[1]
    missing += f["charts"] + f["machines"] + f["profiles"][1] + f["shares"][1] + f["benchstat"][1] + f["benchstat_prose"][2] + f["named"][1]
    if f["calm"][-1][0] != LEAD:
        missing.append(
            f"LEAD: the rule of calm_lead names the {ordinal(f['calm'][-1][0])} run as the lead, not the "
            f"{ordinal(LEAD)}: set LEAD, and make that run the one README.md shows and BENCHMARKS.md opens with"
        )
    if missing:
        print("counts.py --check: these figures and charts are not as computed from bench/runs:")
        for m in missing:
            print("  " + m)
        print("run python3 bench/runs/counts.py and bring the documents up to date")
        sys.exit(1)
    print(
        f"counts.py --check: {n} phrases in README.md and bench/BENCHMARKS.md agree with bench/runs, "
        f"their {links} in-page links and the history's ({', '.join('bench/' + h for h in history_files())}) each reach a heading, "
        f"each file of the history opens its full runs with the run its name gives, "
        f"the runs BENCHMARKS.md names as missing 1.8× on 1M keys are those the table gives under 1.80, each with its median, "
        f"the {named[0]} references by name or link to a section of bench/BENCHMARKS.md or the history "
        f"(in those, the README and the Go sources) each name one, the history's {f['sections']['rows']} rows, "
        f"{f['sections']['openings']} openings and {f['sections']['running']} running counts of full runs are as the report "
        f"prints and the raw files hold, their {f['sections']['ns']} figures in ns are values the runs' files or the raw files their sections cite hold (but those listed as taken from elsewhere), "
        f"their {f['sections']['scaled']} ratios of the floor reference's 1,000 keys and a denied hot key are their rounds', "
        f"their {f['sections']['arrows']} pairs of serial and two-core ns (\"24.21 → 15.19\") are each one round's, "
        f"and the {f['sections']['arrow_ratios']} ratios given them that round's, "
        f"their {f['named'][0]} ratios that name another full run (\"the nineteenth's 3.53×\") are that run's, "
        f"their {f['sections']['spans']} spans of the floor's and sluice's ns in paired blocks are their rounds', "
        f"their {f['sections']['floor_ratios']} ratios to the floor to three places or more are their clock's rounds' or those rounds' medians, "
        f"the {f['sections']['hot']} ratios and ns of their paragraphs on the hot key are its rounds' (and, in paired blocks, the report's), "
        f"the {f['sections']['handoffs_named']} rounds their paragraphs on two cores say ran at a fast handoff or in the slow mode did, "
        f"their {f['sections']['twins'][0]} verdicts on the mutex twin (ahead, behind, level) and the {f['sections']['twins'][1]} figures beside them "
        f"are their rounds', the {f['profiles'][0]} ns and handoffs of make profile's kept runs are their bench.txt's, "
        f"the {f['shares'][0]} shares, times and ns the documents read off those runs are their summaries', bench.txt's and contention.txt's, "
        f"the {f['benchstat'][0]} medians and verdicts of the benchstat tables are benchstat's on their rounds, "
        f"the {f['benchstat_prose'][0]} figures, differences and quotients of their prose are their rounds' "
        f"(and {f['benchstat_prose'][1]} more are read, not held, where they give runs whose rounds were not kept), and "
        f"the {f['drawn']} full runs' charts are the report's (of them, {f['others']} on another processor, "
        f"whose sections are held alike and left out of every count)"
    )


def main():
    if sys.argv[1:] == ["--check"]:
        check()
        return
    if sys.argv[1:]:
        sys.exit("usage: python3 bench/runs/counts.py [--check]")
    figures()
    print_quick()


if __name__ == "__main__":
    main()
