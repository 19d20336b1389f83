package main

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

const sample = `goos: linux
BenchmarkLimiters/scenario=hot-allow/impl=sluice/mode=serial-2         	 1000	        60.0 ns/op	  1.6e+07 ops/s	       0 B/op	       0 allocs/op
BenchmarkLimiters/scenario=hot-allow/impl=sluice/mode=serial-2         	 1000	        70.0 ns/op	  1.4e+07 ops/s	       0 B/op	       0 allocs/op
BenchmarkLimiters/scenario=hot-allow/impl=sluice/mode=serial-2         	 1000	        65.0 ns/op	  1.5e+07 ops/s	       0 B/op	       0 allocs/op
BenchmarkLimiters/scenario=hot-allow/impl=x-time-rate/mode=serial-2    	 1000	       130.0 ns/op	  7.7e+06 ops/s	       0 B/op	       0 allocs/op
BenchmarkLimiters/scenario=hot-allow/impl=x-time-rate-single/mode=parallel-2 	 1000	  99.0 ns/op	  1e+07 ops/s	       0 B/op	       0 allocs/op
BenchmarkLimiters/scenario=hot-allow/impl=sluice/mode=parallel 	 1000	        50.0 ns/op
BenchmarkMemory/scenario=heap-1M/impl=go-limiter-2 	       1	2559920771 ns/op	       119.8 B/key
`

// The parser takes medians, keeps hyphenated implementation names whole
// (the GOMAXPROCS suffix is the only "-digits" part), and reads B/key.
func TestParse(t *testing.T) {
	data, procs, err := parse(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	if len(procs) != 2 || procs[0] != "2" || procs[1] != "1" { // the Memory line has no mode: no procs
		t.Fatalf("procs %v", procs)
	}
	s := data[key{"hot-allow", "sluice", "serial-2"}]["ns/op"]
	if median(s) != 65 {
		t.Fatalf("median of %v = %v", s, median(s))
	}
	if _, ok := data[key{"hot-allow", "x-time-rate-single", "parallel-2"}]; !ok {
		t.Fatalf("x-time-rate-single lost: %v", data)
	}
	if _, ok := data[key{"hot-allow", "sluice", "parallel-1"}]; !ok {
		t.Fatal("a line without a GOMAXPROCS suffix is GOMAXPROCS=1")
	}
	if v := data[key{"heap-1M", "go-limiter", ""}]["B/key"]; len(v) != 1 || v[0] != 119.8 {
		t.Fatalf("B/key %v", v)
	}
	rows := table(map[key]map[string][]float64{
		{"s", "sluice", "serial"}: {"ns/op": {50}}, {"s", "peer", "serial"}: {"ns/op": {100}},
	}, "s", "parallel", []string{"sluice", "peer"})
	if len(rows) != 2 || rows[1].ratioS != 2 {
		t.Fatalf("rows %+v", rows)
	}
}

// misses counts the 1M-key serial time, less the 1k-key time, in units of
// BenchmarkMiss's median, and leaves out what the run did not measure.
func TestMisses(t *testing.T) {
	in := `BenchmarkLimiters/scenario=keys-1k/impl=sluice/mode=serial-2 1 50 ns/op
BenchmarkLimiters/scenario=keys-1M/impl=sluice/mode=serial-2 1 550 ns/op
BenchmarkLimiters/scenario=zipf-1M/impl=sluice/mode=serial-2 1 150 ns/op
BenchmarkLimiters/scenario=keys-1k/impl=go-limiter/mode=serial-2 1 100 ns/op
BenchmarkLimiters/scenario=keys-1M/impl=go-limiter/mode=serial-2 1 1100 ns/op
BenchmarkLimiters/scenario=hot-allow/impl=uber/mode=serial-2 1 60 ns/op
BenchmarkMiss/scenario=miss/impl=chase-2 1 250 ns/op
BenchmarkMiss/scenario=miss/impl=chase-2 1 200 ns/op
BenchmarkMiss/scenario=miss/impl=chase-2 1 100 ns/op
`
	data, procs, err := parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	columns(data, procs)
	unit, rows := misses(data, []string{"sluice", "go-limiter", "uber"})
	if unit != 200 {
		t.Fatalf("unit %v, want the median 200", unit)
	}
	if len(rows) != 2 || rows[0] != (missRow{"sluice", 2.5, 0.5}) || rows[1].impl != "go-limiter" || rows[1].keys1M != 5 {
		t.Fatalf("rows %+v", rows)
	}
	if !math.IsNaN(rows[1].zipf) {
		t.Fatalf("go-limiter's zipf-1M was not measured, got %v", rows[1].zipf)
	}
	if _, rows := misses(data, []string{"sluice"}); len(rows) != 1 {
		t.Fatal("impls not asked for")
	}
	delete(data, key{missScenario, "chase", ""})
	if unit, rows := misses(data, []string{"sluice"}); !math.IsNaN(unit) || rows != nil {
		t.Fatalf("no BenchmarkMiss: %v %v", unit, rows)
	}
}

func TestParseBadMetrics(t *testing.T) {
	if _, _, err := parse(strings.NewReader("BenchmarkLimiters/scenario=a/impl=b/mode=serial-2 10 5 ns/op 7\n")); err == nil {
		t.Fatal("odd metrics accepted")
	}
}

// FuzzParse: any input is parsed or refused with an error naming the line;
// nothing panics, and the table and chart build from whatever parsed.
func FuzzParse(f *testing.F) {
	f.Add(sample)
	f.Add("BenchmarkLimiters/scenario=a/impl=b/mode=serial-2 10 5 ns/op 7\n")
	f.Add("BenchmarkMemory/scenario=heap-1M/impl=x 1 NaN B/key\n")
	f.Add("BenchmarkAllowPaired/clock=default/keylen=13/counts=on-2 10 19.6 ns/op 16.9 floor-ns/op 1.16 sluice/floor\n")
	f.Fuzz(func(t *testing.T, in string) {
		data, _, err := parse(strings.NewReader(in))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "line ") && !strings.Contains(err.Error(), "token too long") {
				t.Fatalf("error does not name the line: %v", err)
			}
			return
		}
		var charts []chart
		for k := range data {
			rows := table(data, k.scenario, "parallel", []string{k.impl, "sluice"})
			c := chart{title: k.scenario, unit: "ns/op"}
			for _, r := range rows {
				c.bars = append(c.bars, bar{r.impl, r.serial, r.par})
			}
			charts = append(charts, c)
		}
		_ = draw(charts, "parallel")
	})
}

// A run of parallel benchmarks alone (make scaling) still gets its tables:
// the first column is the parallel run at the lowest GOMAXPROCS, labelled
// so, and the serial column is taken from serial runs whenever any exist.
func TestColumnsParallelOnly(t *testing.T) {
	in := `BenchmarkLimiters/scenario=k/impl=sluice/mode=parallel 	 10	 80.0 ns/op
BenchmarkLimiters/scenario=k/impl=sluice/mode=parallel-16 	 10	 10.0 ns/op
BenchmarkLimiters/scenario=k/impl=peer/mode=parallel 	 10	 160.0 ns/op
BenchmarkLimiters/scenario=k/impl=peer/mode=parallel-16 	 10	 40.0 ns/op
`
	data, procs, err := parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	first, par := columns(data, procs)
	if first != "parallel-1" || par != "parallel-16" {
		t.Fatalf("columns %q, %q", first, par)
	}
	rows := table(data, "k", par, []string{"sluice", "peer"})
	if len(rows) != 2 || rows[0].serial != 80 || rows[1].ratioS != 2 || rows[1].ratioP != 4 {
		t.Fatalf("rows %+v", rows)
	}
	data, procs, _ = parse(strings.NewReader(sample))
	if first, par := columns(data, procs); first != "serial" || par != "parallel-2" {
		t.Fatalf("with serial runs: columns %q, %q", first, par)
	}
}

// targetsOf parses a run's output and evaluates its targets.
func targetsOf(t *testing.T, in string) (map[key]map[string][]float64, []target) {
	t.Helper()
	data, procs, err := parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	_, par := columns(data, procs)
	return data, targets(data, par)
}

// targets reads each target off the medians: met, not met, or not measured
// when the run lacks what it needs; two cores only at GOMAXPROCS 2.
func TestTargets(t *testing.T) {
	in := `BenchmarkLimiters/scenario=hot-allow/impl=sluice/mode=serial-2 1 30 ns/op 0 B/op 0 allocs/op
BenchmarkLimiters/scenario=hot-allow/impl=sluice-coarse/mode=serial-2 1 20 ns/op
BenchmarkLimiters/scenario=hot-allow/impl=go-limiter/mode=serial-2 1 60 ns/op
BenchmarkLimiters/scenario=hot-allow/impl=throttled/mode=serial-2 1 100 ns/op
BenchmarkLimiters/scenario=hot-allow/impl=floor/mode=serial-2 1 25 ns/op
BenchmarkLimiters/scenario=keys-1k/impl=sluice/mode=serial-2 1 40 ns/op
BenchmarkLimiters/scenario=keys-1k/impl=sluice/mode=parallel-2 1 20 ns/op
BenchmarkLimiters/scenario=keys-1M/impl=sluice/mode=serial-2 1 500 ns/op
BenchmarkLimiters/scenario=keys-1M/impl=sluice/mode=parallel-2 1 300 ns/op
BenchmarkLimiters/scenario=keys-1M/impl=throttled/mode=serial-2 1 700 ns/op
BenchmarkLimiters/scenario=keys-1M/impl=go-limiter/mode=serial-2 1 800 ns/op
BenchmarkLimiters/scenario=keys-1M/impl=go-limiter/mode=parallel-2 1 600 ns/op
BenchmarkMemory/scenario=heap-1M/impl=sluice-2 1 1 ns/op 34 B/key
BenchmarkMemory/scenario=heap-1M/impl=throttled-2 1 1 ns/op 30 B/key
`
	data, ts := targetsOf(t, in)
	got := map[string]string{}
	for _, tg := range ts {
		got[tg.what] = tg.met()
	}
	want := map[string]string{
		"hot key, default clock: ≥ 2× the fastest per-key peer, serial":        "met",     // 60/30
		"hot key, coarse clock: ≥ 3.5× the fastest per-key peer, serial":       "not met", // 60/20
		"hot key: 0 allocs per decision":                                       "met",
		"1M uniform keys: ≥ 1.5× the fastest per-key peer, serial":             "not met", // throttled 700/500
		"1M uniform keys: ≥ 1.5× the fastest per-key peer, parallel-2":         "met",     // 600/300
		"heap per key at 1M keys: ≤ 48 B":                                      "met",
		"heap per key at 1M keys: below every peer":                            "not met", // 30 < 34
		"two cores on distinct keys (keys-1k): ≥ 1.8× serial throughput":       "met",     // 40/20
		"two cores on distinct keys (keys-1M): ≥ 1.8× serial throughput":       "not met", // 500/300
		"core engine: hot key ≤ about 1.1× the floor, default clock":           "not met", // 30/25
		"core engine: hot key ≤ about 1.1× the floor, runtime monotonic clock": "not measured",
	}
	for what, w := range want {
		if got[what] != w {
			t.Errorf("%s: %q, want %q", what, got[what], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d targets, want %d: %v", len(got), len(want), got)
	}
	for _, tg := range targets(data, "parallel-16") {
		if strings.HasPrefix(tg.what, "two cores") {
			t.Errorf("two-core target evaluated on a parallel-16 column: %+v", tg)
		}
	}
}

// machine reads the machine's figures: arithmetic's parallel over serial
// throughput (BenchmarkMachine) and every handoff-ns of the parallel mode;
// a skipped benchmark's line ("0 NaN ns/op") is no measurement and adds no
// GOMAXPROCS. The two-core targets list their rounds, each with its
// handoff.
func TestMachine(t *testing.T) {
	in := `BenchmarkMachine/scenario=compute/impl=control/mode=serial 	 1000	 13.0 ns/op
BenchmarkMachine/scenario=compute/impl=control/mode=serial-2 	 1000	 13.5 ns/op
BenchmarkMachine/scenario=compute/impl=control/mode=parallel 	 1000	 13.0 ns/op
BenchmarkMachine/scenario=compute/impl=control/mode=parallel-2 	 1000	 6.5 ns/op
BenchmarkLimiters/scenario=keys-1k/impl=sluice/mode=serial 	 1000	 40.0 ns/op
BenchmarkLimiters/scenario=keys-1k/impl=sluice/mode=parallel 	 0	 NaN ns/op
BenchmarkLimiters/scenario=keys-1k/impl=sluice/mode=parallel-2 	 1000	 20.0 ns/op	 31.0 handoff-ns
BenchmarkLimiters/scenario=keys-1k/impl=sluice/mode=serial 	 1000	 42.0 ns/op
BenchmarkLimiters/scenario=keys-1k/impl=sluice/mode=parallel-2 	 1000	 30.0 ns/op	 170.0 handoff-ns
BenchmarkLimiters/scenario=keys-1k/impl=go-limiter/mode=parallel-2 	 1000	 60.0 ns/op	 27.0 handoff-ns
`
	data, procs, err := parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := data[key{"keys-1k", "sluice", "parallel-1"}]; ok {
		t.Fatalf("the skipped line was read as %v", v)
	}
	if len(procs) != 2 || procs[0] != "1" || procs[1] != "2" {
		t.Fatalf("procs %v", procs) // GOMAXPROCS 1 from the serial lines, not from the skipped one
	}
	_, par := columns(data, procs)
	scale, hs := machine(data, par)
	if scale != 2 || len(hs) != 3 || hs[0] != 27 || hs[2] != 170 {
		t.Fatalf("machine: scale %v, handoffs %v; want 2 and [27 31 170]", scale, hs)
	}
	if scale, hs := machine(data, "parallel-16"); !math.IsNaN(scale) || len(hs) != 0 {
		t.Fatalf("machine at a GOMAXPROCS not run: %v, %v", scale, hs)
	}
	if txt := machineText(data, par); !strings.Contains(txt, "median 31.0 ns, 27.0 to 170.0 over 3 benchmarks") || strings.Contains(txt, "not running") {
		t.Fatalf("machine text: %q", txt)
	}
	stall := data[key{"keys-1k", "go-limiter", par}]
	stall["handoff-ns"] = append(stall["handoff-ns"], 3994280)
	if txt := machineText(data, par); !strings.Contains(txt, "1 of them over 1000 ns: the other core was not running (its vCPU descheduled) while the handoff was read") || strings.Contains(txt, "so those ran on one core") {
		t.Fatalf("a stalled core's reading: %q", txt)
	}
	if txt := machineText(data, "parallel-16"); txt != "" {
		t.Fatalf("machine text at a GOMAXPROCS not run: %q", txt)
	}
	var two string
	for _, tg := range targets(data, par) {
		if strings.Contains(tg.what, "two cores") && strings.Contains(tg.what, "keys-1k") {
			two = tg.result
		}
	}
	if !strings.HasSuffix(two, "by round, × at handoff ns: 2.00 at 31, 1.40 at 170") {
		t.Fatalf("two-core target: %q", two)
	}
}

// The peer and floor targets list their ratios round by round too, each
// round's figures paired by position; a run of one round lists none.
func TestTargetRounds(t *testing.T) {
	in := `BenchmarkLimiters/scenario=hot-allow/impl=sluice/mode=serial 1 30 ns/op
BenchmarkLimiters/scenario=hot-allow/impl=floor/mode=serial 1 25 ns/op
BenchmarkLimiters/scenario=hot-allow/impl=go-limiter/mode=serial 1 60 ns/op
BenchmarkLimiters/scenario=hot-allow/impl=sluice/mode=serial 1 32 ns/op
BenchmarkLimiters/scenario=hot-allow/impl=floor/mode=serial 1 40 ns/op
BenchmarkLimiters/scenario=hot-allow/impl=go-limiter/mode=serial 1 80 ns/op
`
	_, ts := targetsOf(t, in)
	got := map[string]string{}
	for _, tg := range ts {
		got[tg.what] = tg.result
	}
	for what, suffix := range map[string]string{
		"hot key, default clock: ≥ 2× the fastest per-key peer, serial": "; by round: 2.00, 2.50",
		"core engine: hot key ≤ about 1.1× the floor, default clock":    "; by round: 1.20, 0.80",
	} {
		if !strings.HasSuffix(got[what], suffix) {
			t.Errorf("%s: %q, want it to end %q", what, got[what], suffix)
		}
	}
	if r := perRound([]float64{1}, []float64{2}); r != "" {
		t.Errorf("one round listed: %q", r)
	}
}

// The core engine's floor target is qualified wherever the run measured
// it, whatever it reads: through the suite's interface a "met" is not the
// target met. A run without the floor prints no note.
func TestFloorNote(t *testing.T) {
	with := `BenchmarkLimiters/scenario=hot-allow/impl=sluice/mode=serial 1 21 ns/op
BenchmarkLimiters/scenario=hot-allow/impl=floor/mode=serial 1 21 ns/op
`
	_, ts := targetsOf(t, with)
	if n := floorNote(ts); !strings.Contains(n, "-bench AllowPaired") {
		t.Errorf("a run with the floor: note %q", n)
	}
	without := `BenchmarkLimiters/scenario=hot-allow/impl=sluice/mode=serial 1 21 ns/op
BenchmarkLimiters/scenario=hot-allow/impl=go-limiter/mode=serial 1 70 ns/op
`
	_, ts = targetsOf(t, without)
	if n := floorNote(ts); n != "" {
		t.Errorf("a run without the floor: note %q", n)
	}
}

// A value whose two decimals read as the target itself is printed with
// the decimals that tell them apart, so that the verdict beside it can be
// read off it: the thirty-sixth full run's 1.104 printed "1.10" beside
// "not met", and the thirty-seventh's 1.0975 "1.10" beside "met".
func TestShown(t *testing.T) {
	for _, c := range []struct {
		value, want float64
		atMost      bool
		shown, met  string
	}{
		{1.104, 1.1, true, "1.104", "not met"},
		{1.0975, 1.1, true, "1.097", "met"},
		{1.1004, 1.1, true, "1.1004", "not met"},
		{1.0996, 1.1, true, "1.0996", "met"},
		{1.1, 1.1, true, "1.10", "met"},
		{1.095, 1.1, true, "1.09", "met"},
		{3.78, 2, false, "3.78", "met"},
		{1.7951, 1.8, false, "1.795", "not met"},
		{33.82, 48, true, "33.82", "met"},
	} {
		tg := target{value: c.value, want: c.want, atMost: c.atMost}
		if got := tg.shown(); got != c.shown || tg.met() != c.met {
			t.Errorf("%v against %v: shown %q, %s; want %q, %s", c.value, c.want, got, tg.met(), c.shown, c.met)
		}
	}
}

// The core engine's floor targets come from the root package's paired
// blocks where the run has them, the counting limiter's ratio the value
// (median of the rounds), the uncounted one's beside it; a clock the run
// has no paired lines for falls back on the suite's floor, and only such a
// target brings the note. The paired lines add no GOMAXPROCS.
func TestPairedFloor(t *testing.T) {
	in := `BenchmarkLimiters/scenario=hot-allow/impl=sluice/mode=serial 1 21 ns/op
BenchmarkLimiters/scenario=hot-allow/impl=floor/mode=serial 1 21 ns/op
BenchmarkLimiters/scenario=hot-allow/impl=sluice-mono/mode=serial 1 40 ns/op
BenchmarkLimiters/scenario=hot-allow/impl=floor-mono/mode=serial 1 42 ns/op
BenchmarkAllowPaired/clock=default/keylen=13/counts=on-2 	 63085364	 19.61 ns/op	 16.95 floor-ns/op	 1.156 sluice/floor	 0 B/op	 0 allocs/op
BenchmarkAllowPaired/clock=default/keylen=13/counts=off-2 	 65790176	 19.19 ns/op	 16.95 floor-ns/op	 1.111 sluice/floor	 0 B/op	 0 allocs/op
BenchmarkAllowPaired/clock=coarse/keylen=13/counts=on-2 	 89532007	 14.35 ns/op	 11.88 floor-ns/op	 1.206 sluice/floor	 0 B/op	 0 allocs/op
BenchmarkAllowPaired/clock=coarse/keylen=13/counts=off-2 	 94361670	 13.02 ns/op	 11.89 floor-ns/op	 1.095 sluice/floor	 0 B/op	 0 allocs/op
BenchmarkLimiters/scenario=hot-allow/impl=sluice/mode=serial 1 22 ns/op
BenchmarkLimiters/scenario=hot-allow/impl=floor/mode=serial 1 20 ns/op
BenchmarkAllowPaired/clock=default/keylen=13/counts=on-2 	 63085364	 19.62 ns/op	 16.95 floor-ns/op	 1.05 sluice/floor	 0 B/op	 0 allocs/op
BenchmarkAllowPaired/clock=default/keylen=13/counts=on-2 	 63085364	 20.80 ns/op	 16.95 floor-ns/op	 1.226 sluice/floor	 0 B/op	 0 allocs/op
`
	data, procs, err := parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(procs) != 1 || procs[0] != "1" {
		t.Fatalf("procs %v: the paired lines' -2 is no GOMAXPROCS of the suite", procs)
	}
	_, ts := targetsOf(t, in)
	got := map[string]target{}
	for _, tg := range ts {
		got[tg.what] = tg
	}
	def := got["core engine: hot key ≤ about 1.1× the floor, default clock"]
	if def.value != 1.156 || def.met() != "not met" || def.viaSuite ||
		!strings.HasPrefix(def.result, "sluice 19.62 ns ÷ floor 16.95 ns, paired blocks; by round: 1.156, 1.050, 1.226") ||
		!strings.HasSuffix(def.result, "; WithoutDecisionCounts 1.111") {
		t.Errorf("default clock: %+v", def)
	}
	if c := got["core engine: hot key ≤ about 1.1× the floor, coarse clock"]; c.value != 1.206 || c.met() != "not met" ||
		c.result != "sluice 14.35 ns ÷ floor 11.88 ns, paired blocks; WithoutDecisionCounts 1.095" {
		t.Errorf("coarse clock: %+v", c)
	}
	mono := got["core engine: hot key ≤ about 1.1× the floor, runtime monotonic clock"]
	if !mono.viaSuite || mono.value != 40.0/42 {
		t.Errorf("monotonic clock, from the suite: %+v", mono)
	}
	if n := floorNote(ts); n == "" {
		t.Error("no note for the monotonic clock's target, read off the suite")
	}
	var paired []target
	for _, tg := range ts {
		if !tg.viaSuite {
			paired = append(paired, tg)
		}
	}
	if n := floorNote(paired); n != "" {
		t.Errorf("a note with every floor target paired: %q", n)
	}
	if _, ok := data[key{pairedScenario, "default/on", ""}]; !ok || len(data[key{pairedScenario, "default/on", ""}]["ns/op"]) != 3 {
		t.Fatalf("paired lines: %v", data[key{pairedScenario, "default/on", ""}])
	}
}

// A paired round whose floor ran in the machine's slow mode, more than
// floorSpeedBand above the fastest round's, does not count: the slow mode
// adds about as much to both sides and pulls the ratio towards 1. The
// rounds of the twenty-second full run's default clock: two fast, one a
// little slower, one slow; the median of all four would read 1.095, met.
func TestPairedFloorSlowRounds(t *testing.T) {
	in := `BenchmarkLimiters/scenario=hot-allow/impl=sluice/mode=serial 1 21 ns/op
BenchmarkAllowPaired/clock=default/keylen=13/counts=on-2 1 24.89 ns/op 21.55 floor-ns/op 1.123 sluice/floor
BenchmarkAllowPaired/clock=default/keylen=13/counts=off-2 1 23.08 ns/op 21.51 floor-ns/op 1.072 sluice/floor
BenchmarkAllowPaired/clock=default/keylen=13/counts=on-2 1 25.93 ns/op 21.45 floor-ns/op 1.131 sluice/floor
BenchmarkAllowPaired/clock=default/keylen=13/counts=off-2 1 23.13 ns/op 21.33 floor-ns/op 1.083 sluice/floor
BenchmarkAllowPaired/clock=default/keylen=13/counts=on-2 1 24.20 ns/op 22.74 floor-ns/op 1.066 sluice/floor
BenchmarkAllowPaired/clock=default/keylen=13/counts=off-2 1 23.10 ns/op 21.50 floor-ns/op 1.074 sluice/floor
BenchmarkAllowPaired/clock=default/keylen=13/counts=on-2 1 37.72 ns/op 36.91 floor-ns/op 1.033 sluice/floor
BenchmarkAllowPaired/clock=default/keylen=13/counts=off-2 1 24.74 ns/op 21.59 floor-ns/op 1.092 sluice/floor
`
	_, ts := targetsOf(t, in)
	var def target
	for _, tg := range ts {
		if tg.what == "core engine: hot key ≤ about 1.1× the floor, default clock" {
			def = tg
		}
	}
	// The third round's floor, 22.74 ns, ran 6.6% over the fastest this
	// clock's floor ran (21.33, counts off): the floor alone slow, which
	// read 1.066.
	if def.value != 1.127 || def.met() != "not met" {
		t.Errorf("value %v (%s), want 1.127, the median of the two rounds at the floor's speed, not met", def.value, def.met())
	}
	for _, want := range []string{
		"sluice 25.41 ns ÷ floor 21.50 ns, paired blocks; by round: 1.123, 1.131, 1.066, 1.033",
		"held to the 2 of 4 rounds whose floor ran within 5% of the fastest this clock's floor ran in the run, 21.33 ns (in the others, 22.74, 36.91 ns:",
		"; WithoutDecisionCounts 1.079",
	} {
		if !strings.Contains(def.result, want) {
			t.Errorf("result %q lacks %q", def.result, want)
		}
	}
	// Every round at one speed: nothing is held back, and nothing said.
	if keep := atFloorSpeed([]float64{21.5, 22.0, 21.4}, 3, 21.4); slices.Contains(keep, false) {
		t.Errorf("rounds within the band dropped: %v", keep)
	}
	// Readings that do not match the rounds one for one: all count.
	if keep := atFloorSpeed([]float64{21.5}, 2, 21.5); !keep[0] || !keep[1] {
		t.Errorf("mismatched readings: %v", keep)
	}
	// No round of the counting limiter at the floor's speed: not measured,
	// not met on a slow floor.
	_, ts = targetsOf(t, `BenchmarkLimiters/scenario=hot-allow/impl=sluice/mode=serial 1 21 ns/op
BenchmarkAllowPaired/clock=default/keylen=13/counts=on-2 1 22.88 ns/op 23.00 floor-ns/op 1.018 sluice/floor
BenchmarkAllowPaired/clock=default/keylen=13/counts=off-2 1 21.61 ns/op 21.40 floor-ns/op 1.002 sluice/floor
`)
	for _, tg := range ts {
		if tg.what == "core engine: hot key ≤ about 1.1× the floor, default clock" && tg.met() != "not measured" {
			t.Errorf("every counting round on a slow floor: %s (%v), want not measured", tg.met(), tg.value)
		}
	}
}

// The two-core targets are the median of each round's own ratio, serial
// over parallel, not the ratio of the medians, which can pair slow serial
// rounds with fast parallel ones. The twenty-fifth full run's 1,000 keys:
// its medians, 37.8 ÷ 21.0, read 1.80 and met; its rounds 2.01, 1.48,
// 1.39 and 1.62.
func TestTwoCoresByRound(t *testing.T) {
	var in strings.Builder
	for _, r := range [][3]float64{{42.27, 21.05, 34}, {31.03, 20.96, 46}, {46.48, 33.46, 52}, {33.35, 20.65, 37}} {
		fmt.Fprintf(&in, "BenchmarkLimiters/scenario=keys-1k/impl=sluice/mode=serial 1 %v ns/op\n", r[0])
		fmt.Fprintf(&in, "BenchmarkLimiters/scenario=keys-1k/impl=sluice/mode=parallel-2 1 %v ns/op %v handoff-ns\n", r[1], r[2])
	}
	_, ts := targetsOf(t, in.String())
	var two target
	for _, tg := range ts {
		if tg.what == "two cores on distinct keys (keys-1k): ≥ 1.8× serial throughput" {
			two = tg
		}
	}
	if math.Abs(two.value-1.55) > 0.005 || two.met() != "not met" {
		t.Errorf("value %v (%s), want 1.55, the median of 2.01, 1.48, 1.39, 1.62, not met", two.value, two.met())
	}
	if !strings.HasPrefix(two.result, "median of the rounds' own ratios; medians: serial 37.8 ns, two cores 21.0 ns; by round") {
		t.Errorf("result %q", two.result)
	}
	// One round: the ratio of its two runs.
	_, ts = targetsOf(t, "BenchmarkLimiters/scenario=keys-1k/impl=sluice/mode=serial 1 40 ns/op\nBenchmarkLimiters/scenario=keys-1k/impl=sluice/mode=parallel-2 1 20 ns/op\n")
	found := false
	for _, tg := range ts {
		if strings.Contains(tg.what, "two cores") && strings.Contains(tg.what, "keys-1k") {
			found = true
			if tg.value != 2 || !strings.HasPrefix(tg.result, "serial 40.0 ns ÷ two cores 20.0 ns") {
				t.Errorf("one round: %v %q", tg.value, tg.result)
			}
		}
	}
	if !found {
		t.Error("one round: no two-core target for keys-1k")
	}
}

// The report opens with what the run was run on, from the configuration
// lines before the first benchmark only, and says nothing where there
// are none.
func TestRanOn(t *testing.T) {
	in := "go: go1.26.8\ndate: 2026-11-28T22:27:16Z\ncpu-id: AuthenticAMD family 26 model 2 stepping 1\n" +
		"commit: 6c85727\ngoos: linux\ncpu: AMD EPYC\n" +
		"BenchmarkLimiters/scenario=a/impl=sluice/mode=serial 10 5 ns/op\ncpu: later\nclocksource: tsc\n"
	want := "run on: commit 6c85727, date 2026-11-28T22:27:16Z, go go1.26.8, cpu AMD EPYC, " +
		"cpu-id AuthenticAMD family 26 model 2 stepping 1\n"
	if got := ranOn([]byte(in)); got != want {
		t.Errorf("ranOn = %q, want %q", got, want)
	}
	// make bench writes the kernel's clocksource from the commit after
	// 2026-12-07's first run on a host that keeps time by kvm-clock.
	in = "go: go1.26.8\ncpu-id: AuthenticAMD family 26 model 2 stepping 1\nclocksource: kvm-clock\ncpu: AMD EPYC\n"
	want = "run on: go go1.26.8, cpu AMD EPYC, cpu-id AuthenticAMD family 26 model 2 stepping 1, clocksource kvm-clock\n"
	if got := ranOn([]byte(in)); got != want {
		t.Errorf("ranOn = %q, want %q", got, want)
	}
	if got := ranOn([]byte(sample)); got != "" {
		t.Errorf("ranOn of output with no such lines = %q, want \"\"", got)
	}
}

// BenchmarkHotPaired's lines are kept apart from the suite's tables and
// charts, and give, per clock, the fastest peer in the paired blocks (by
// its own ns there, as the targets pick it, not by the lowest ratio: here
// x-time-rate's, whose blocks met a slower sluice), the median of that
// peer's ratios over the rounds, and the other peers' ratios; a run
// without them (an older raw file) prints nothing.
func TestHotPaired(t *testing.T) {
	in := `BenchmarkHotPaired/impl=x-time-rate/against=sluice-2         	 5101663	        52.0 ns/op	        100.0 peer-ns/op	         1.900 peer/sluice	       0 B/op	       0 allocs/op
BenchmarkHotPaired/impl=go-limiter/against=sluice-2          	 5521933	        40.0 ns/op	        80.0 peer-ns/op	         2.000 peer/sluice	       0 B/op	       0 allocs/op
BenchmarkHotPaired/impl=go-limiter/against=sluice-coarse-2   	 7412978	        12.0 ns/op	        84.0 peer-ns/op	         7.000 peer/sluice	       0 B/op	       0 allocs/op
BenchmarkHotPaired/impl=x-time-rate/against=sluice-2         	 5101663	        45.0 ns/op	        90.0 peer-ns/op	         2.000 peer/sluice	       0 B/op	       0 allocs/op
BenchmarkHotPaired/impl=go-limiter/against=sluice-2          	 5521933	        42.0 ns/op	        92.0 peer-ns/op	         2.200 peer/sluice	       0 B/op	       0 allocs/op
BenchmarkHotPaired/impl=go-limiter/against=sluice-coarse-2   	 7412978	        11.0 ns/op	        86.0 peer-ns/op	         7.800 peer/sluice	       0 B/op	       0 allocs/op
BenchmarkHotPaired/impl=go-limiter/against=sluice-coarse-2   	 7412978	        13.0 ns/op	        88.0 peer-ns/op	         6.800 peer/sluice	       0 B/op	       0 allocs/op
BenchmarkLimiters/scenario=hot-allow/impl=sluice/mode=serial 	 1000	 40.0 ns/op
`
	data, _, err := parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if got := data[key{hotPairedScenario + "/sluice-coarse", "go-limiter", ""}]["peer/sluice"]; !slices.Equal(got, []float64{7, 7.8, 6.8}) {
		t.Fatalf("go-limiter against sluice-coarse: %v (the GOMAXPROCS suffix is not part of the name)", got)
	}
	want := "\nthe hot key in paired blocks (BenchmarkHotPaired: sluice and each per-key peer in turns, blocks of 1,000 decisions, medians of the rounds; not targets):\n" +
		"  default clock: go-limiter 86.0 ns ÷ sluice 41.0 ns: 2.10× (by round: 2.00, 2.20); x-time-rate 1.95×\n" +
		"  coarse clock: go-limiter 86.0 ns ÷ sluice-coarse 12.0 ns: 7.00× (by round: 7.00, 7.80, 6.80)\n"
	if got := hotPairedText(data); got != want {
		t.Fatalf("hot paired text:\n%q\nwant\n%q", got, want)
	}
	old, _, err := parse(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	if got := hotPairedText(old); got != "" {
		t.Fatalf("a run without paired blocks: %q", got)
	}
}
