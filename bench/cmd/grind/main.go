// Command grind counts what one serial decision costs each implementation
// in every scenario, under valgrind's callgrind: the instructions it
// executes and the misses it takes in callgrind's simulated caches (a
// 32 KiB, 8-way D1 and a 32 MiB, 16-way last level, the development VM's,
// whatever the machine it runs on). Timings drift with the machine
// (bench/BENCHMARKS.md, "Run-to-run spread"); these counts do not: the hot
// key's came out within 0.2 instruction in two runs, each beside other work
// (two peers' within 0.4 and 2.5). Where the path depends on where keys
// fall (each limiter draws its hash seed) they moved by up to 6% between
// the runs, and a new key's by up to 22% (its count holds table growth,
// part of which sluice's sweeper does on its own thread, uncounted). So
// they show what a change did to a decision's work without the machine's
// noise, though not what that work costs in time: they know nothing of a
// miss's latency, of cores passing lines, of how many instructions retire
// at once or of hardware prefetching.
//
//	go test -c -o out/bench.test ./bench
//	go run ./bench/cmd/grind -bin out/bench.test -out out/grind
//
// It runs the binary once a scenario with -test.benchtime Nx at
// GOMAXPROCS 1. The benchmark's serial loop (loopSerial in bench_test.go)
// turns the count on just before its loop and off just after, on its own
// thread, and has callgrind write it to a file named by the benchmark and
// its b.N; go test runs each benchmark at b.N=1 and then at b.N=N, so a
// decision is (count at N − count at 1) / (N − 1): the loop alone, no
// setup, no benchmark machinery. The GC's background work runs on other
// threads and is not counted; what a decision allocates, and the GC
// assists it pays, are. So is the default clock's recalibration where it
// falls inside the loop: it runs on the thread that reads the clock when
// a scale's span (at most 100 ms of wall time) ends, and one took 38,853
// instructions under callgrind, about 0.4 a decision at the default
// 100,000 (TestUnderValgrind, which compares two b.N, counts around it).
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
)

// The simulated caches: the family-25 development VM's L1d and L3
// (lscpu), set rather than taken from the host, so that the counts do not
// depend on where they are made. Callgrind writes the caches it simulated
// into each file; parseDump holds them to these.
var (
	cacheArgs = []string{"--I1=32768,8,64", "--D1=32768,8,64", "--LL=33554432,16,64"}
	caches    = []string{
		"desc: I1 cache: 32768 B, 64 B, 8-way associative",
		"desc: D1 cache: 32768 B, 64 B, 8-way associative",
		"desc: LL cache: 33554432 B, 64 B, 16-way associative",
	}
)

var scenarios = []string{"hot-allow", "hot-deny", "keys-1k", "keys-1M", "zipf-1M", "new-key"}

func main() {
	bin := flag.String("bin", "out/bench.test", "the bench package's test binary (go test -c ./bench)")
	out := flag.String("out", "out/grind", "folder for callgrind's files")
	n := flag.Int("n", 100_000, "decisions counted in each benchmark")
	only := flag.String("scenarios", strings.Join(scenarios, ","), "scenarios to count, comma-separated")
	impls := flag.String("impls", ".*", "regexp of the implementations to count")
	read := flag.Bool("read", false, "run nothing: print the tables of the counts files named (as -out's counts.txt)")
	flag.Parse()
	if *read {
		if err := readOnly(os.Stdout, flag.Args()); err != nil {
			fail(err)
		}
		return
	}
	if *n < 2 {
		fail(errors.New("-n must be at least 2: a decision is the count at n less the count at 1"))
	}
	if _, err := regexp.Compile(*impls); err != nil {
		fail(fmt.Errorf("-impls: %v", err))
	}
	if strings.Contains(*impls, "/") {
		fail(errors.New("-impls: no '/': go test splits its -test.bench pattern there"))
	}
	scs := strings.Split(*only, ",")
	for _, sc := range scs {
		if !slices.Contains(scenarios, sc) {
			fail(fmt.Errorf("-scenarios: no scenario %q (there are %s)", sc, strings.Join(scenarios, ", ")))
		}
	}
	if runtime.GOARCH != "amd64" {
		fail(errors.New("the benchmarks' client requests to callgrind are written for amd64 only"))
	}
	if _, err := exec.LookPath("valgrind"); err != nil {
		fail(errors.New("valgrind not found: apt-get install valgrind"))
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fail(err)
	}
	// counts.txt keeps, of every file callgrind wrote, the lines the
	// tables come from, for -read.
	counts, err := os.Create(filepath.Join(*out, "counts.txt"))
	if err != nil {
		fail(err)
	}
	var all []result
	for _, sc := range scs {
		rs, dumps, err := grind(*bin, *out, sc, *impls, *n)
		if err != nil {
			fail(err)
		}
		writeCounts(counts, dumps)
		all = append(all, rs...)
	}
	if err := counts.Close(); err != nil {
		fail(err)
	}
	writeTables(os.Stdout, all, *n)
}

// writeCounts writes the dumps as a counts file: each the header line
// and the lines it was read from.
func writeCounts(w io.Writer, dumps []dump) {
	for _, d := range dumps {
		fmt.Fprintf(w, "%s\n%s\n", header, strings.Join(d.kept, "\n"))
	}
}

// readOnly prints the tables of counts files written before.
func readOnly(w io.Writer, files []string) error {
	if len(files) == 0 {
		return errors.New("-read: name the counts files")
	}
	var dumps []dump
	n := 0
	for _, f := range files {
		ds, err := readDumps(f)
		if err != nil {
			return err
		}
		for _, d := range ds {
			if d.name != "" {
				dumps = append(dumps, d)
				n = max(n, d.n)
			}
		}
	}
	rs, err := perDecision(dumps, n)
	if err != nil {
		return err
	}
	if len(rs) == 0 {
		return errors.New("-read: no counts in the files named")
	}
	writeTables(w, rs, n)
	return nil
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "grind:", err)
	os.Exit(1)
}

// result is one benchmark's count a decision.
type result struct {
	scenario, impl string
	per            map[string]float64 // event → count a decision
}

// errUntranslated: valgrind stopped the benchmark at an instruction it
// does not translate, which says nothing of the benchmark.
var errUntranslated = errors.New("valgrind stopped at an instruction it does not translate (its \"Unrecognised instruction\" above), not a failure of the benchmark")

// grind runs one scenario's serial benchmarks under callgrind, its output
// shown as it comes, and reads back the counts.
func grind(bin, out, sc, impls string, n int) ([]result, []dump, error) {
	prefix := filepath.Join(out, sc)
	old, _ := filepath.Glob(prefix + ".*")
	for _, f := range old {
		os.Remove(f)
	}
	args := append([]string{"--tool=callgrind", "--cache-sim=yes", "--collect-atstart=no",
		"--callgrind-out-file=" + prefix + ".%p"}, cacheArgs...)
	args = append(args, bin, "-test.run", "^$",
		"-test.bench", fmt.Sprintf("^BenchmarkLimiters$/^scenario=%s$/^impl=(%s)$/^mode=serial$", regexp.QuoteMeta(sc), impls),
		"-test.benchtime", fmt.Sprintf("%dx", n), "-test.cpu", "1", "-test.count", "1", "-test.timeout", "3h")
	fmt.Fprintf(os.Stderr, "# %s: valgrind %s\n", sc, strings.Join(args, " "))
	cmd := exec.Command("valgrind", args...)
	// No preemption signals: callgrind 3.19 asserts on a signal that
	// arrives while it handles another (threads.c:247), which the
	// runtime's SIGURG did in the 1M-key setups. No RDTSCP: on a host
	// without it (family 26 under kvm-clock, 2026-12-07), valgrind 3.19's
	// emulated CPUID still offers it, and the runtime's cputicks, which a
	// contended runtime lock reads, died of SIGILL in 7 of 17 runs
	// (errUntranslated); without it cputicks uses RDTSC, and no decision
	// reads cputicks, so the counts are the same.
	godebug := "asyncpreemptoff=1,cpu.rdtscp=off"
	if g := os.Getenv("GODEBUG"); g != "" {
		godebug = g + "," + godebug
	}
	cmd.Env = append(os.Environ(), "GODEBUG="+godebug)
	// Shown as it comes, and kept to tell valgrind's own stop
	// (errUntranslated) from the benchmark's failure.
	var shown strings.Builder
	cmd.Stdout = os.Stderr
	cmd.Stderr = io.MultiWriter(os.Stderr, &shown)
	if err := cmd.Run(); err != nil {
		if strings.Contains(shown.String(), "valgrind: Unrecognised instruction") {
			return nil, nil, fmt.Errorf("%s: %v: %w", sc, err, errUntranslated)
		}
		return nil, nil, fmt.Errorf("%s: %v", sc, err)
	}
	files, _ := filepath.Glob(prefix + ".*")
	var dumps []dump
	for _, f := range files {
		ds, err := readDumps(f)
		if err != nil {
			return nil, nil, err
		}
		for _, d := range ds {
			if d.name != "" { // the file written at exit holds nothing counted
				dumps = append(dumps, d)
			}
		}
	}
	slices.SortFunc(dumps, func(a, b dump) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		return a.n - b.n
	})
	rs, err := perDecision(dumps, n)
	if err == nil && len(rs) == 0 {
		err = fmt.Errorf("%s: no benchmark counted: none matched, or the binary was built without loopSerial's count", sc)
	}
	return rs, dumps, err
}

// dump is one file callgrind wrote on the benchmark's request.
type dump struct {
	name   string // the benchmark, without the BenchmarkLimiters/ prefix
	n      int    // its b.N
	totals map[string]int64
	kept   []string // the lines read: the caches, the trigger, the events, the totals
}

// header is the first line of every callgrind file, and of each dump in
// a counts file.
const header = "# callgrind format"

// trigger is the description line of a dump the benchmark asked for.
var trigger = regexp.MustCompile(`^desc: Trigger: Client Request: (\S+) N=(\d+)$`)

// readDumps reads each dump in a file: one in a file callgrind wrote,
// every benchmark's in a counts file, each opening with the header line. A
// dump with no client-request trigger (the file written at exit) comes
// back with no name.
func readDumps(path string) ([]dump, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var ds []dump
	for i, part := range strings.Split(string(b), header+"\n") {
		if i == 0 {
			if strings.TrimSpace(part) != "" {
				return nil, fmt.Errorf("%s: not a callgrind file", path)
			}
			continue
		}
		d, err := parseDump(strings.NewReader(part))
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		ds = append(ds, d)
	}
	if len(ds) == 0 {
		return nil, fmt.Errorf("%s: not a callgrind file", path)
	}
	return ds, nil
}

func parseDump(r io.Reader) (dump, error) {
	var d dump
	var events []string
	seen := 0
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		t := sc.Text()
		if strings.HasPrefix(t, "desc: ") && strings.HasSuffix(t, "associative") {
			if !slices.Contains(caches, t) {
				return d, fmt.Errorf("callgrind simulated %q, not the caches asked for", strings.TrimPrefix(t, "desc: "))
			}
			seen++
			d.kept = append(d.kept, t)
		} else if m := trigger.FindStringSubmatch(t); m != nil {
			d.name = strings.TrimPrefix(m[1], "BenchmarkLimiters/")
			d.n, _ = strconv.Atoi(m[2])
			d.kept = append(d.kept, t)
		} else if s, ok := strings.CutPrefix(t, "events: "); ok {
			events = strings.Fields(s)
			d.kept = append(d.kept, t)
		} else if s, ok := strings.CutPrefix(t, "totals: "); ok {
			d.kept = append(d.kept, t)
			v := strings.Fields(s)
			if len(v) > len(events) {
				return d, fmt.Errorf("totals has %d values for %d events", len(v), len(events))
			}
			d.totals = map[string]int64{}
			for i, e := range events {
				d.totals[e] = 0 // callgrind leaves trailing zeros out
				if i < len(v) {
					x, err := strconv.ParseInt(v[i], 10, 64)
					if err != nil {
						return d, fmt.Errorf("totals: %v", err)
					}
					d.totals[e] = x
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		return d, err
	}
	if d.name != "" && d.totals == nil {
		return d, errors.New("no totals line")
	}
	if d.name != "" && seen != len(caches) {
		return d, errors.New("no simulated caches named: run callgrind with --cache-sim=yes")
	}
	return d, nil
}

// perDecision pairs each benchmark's dump at b.N=1 with its dump at
// b.N=n and returns the difference over n−1 decisions, per event.
func perDecision(dumps []dump, n int) ([]result, error) {
	byName := map[string]map[int]dump{}
	var names []string
	for _, d := range dumps {
		if byName[d.name] == nil {
			byName[d.name] = map[int]dump{}
			names = append(names, d.name)
		}
		if _, dup := byName[d.name][d.n]; dup {
			return nil, fmt.Errorf("%s: two counts at b.N=%d", d.name, d.n)
		}
		byName[d.name][d.n] = d
	}
	slices.Sort(names)
	var rs []result
	for _, name := range names {
		one, okOne := byName[name][1]
		all, okN := byName[name][n]
		if !okOne || !okN || len(byName[name]) != 2 {
			return nil, fmt.Errorf("%s: counted at b.N %v, not at exactly 1 and %d", name, keys(byName[name]), n)
		}
		parts := map[string]string{}
		for _, p := range strings.Split(name, "/") {
			if k, v, ok := strings.Cut(p, "="); ok {
				parts[k] = v
			}
		}
		if parts["scenario"] == "" || parts["impl"] == "" {
			return nil, fmt.Errorf("%s: not a scenario=/impl= name", name)
		}
		r := result{scenario: parts["scenario"], impl: parts["impl"], per: map[string]float64{}}
		for e, v := range all.totals {
			d := v - one.totals[e]
			if d < 0 {
				// A miss the run at b.N=1 took on a line still cold
				// from the setup, which the run at b.N=n found warm:
				// fewer than the first run's own count, none a decision.
				if e == "Ir" || -d > one.totals[e] {
					return nil, fmt.Errorf("%s: %s counted %d at b.N=%d and %d at b.N=1", name, e, v, n, one.totals[e])
				}
				d = 0
			}
			r.per[e] = float64(d) / float64(n-1)
		}
		if r.per["Ir"] <= 0 {
			return nil, fmt.Errorf("%s: no instructions counted", name)
		}
		rs = append(rs, r)
	}
	return rs, nil
}

func keys(m map[int]dump) []int {
	var ks []int
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// The tables: each a sum of callgrind's events.
var tables = []struct {
	title  string
	events []string
	format string
}{
	{"instructions a decision (Ir)", []string{"Ir"}, "%.1f"},
	{"data reads and writes a decision (Dr + Dw)", []string{"Dr", "Dw"}, "%.1f"},
	{"D1 misses a decision, simulated 32 KiB 8-way (D1mr + D1mw)", []string{"D1mr", "D1mw"}, "%.3f"},
	{"last-level misses a decision, simulated 32 MiB 16-way (DLmr + DLmw)", []string{"DLmr", "DLmw"}, "%.3f"},
}

// writeTables writes one table an event sum: a row an implementation in the
// order first met, a column a scenario, "-" where it was not measured;
// the instructions also as a ratio to sluice's.
func writeTables(w io.Writer, rs []result, n int) {
	var impls, scs []string
	at := map[[2]string]result{}
	for _, r := range rs {
		if !slices.Contains(impls, r.impl) {
			impls = append(impls, r.impl)
		}
		if !slices.Contains(scs, r.scenario) {
			scs = append(scs, r.scenario)
		}
		at[[2]string{r.impl, r.scenario}] = r
	}
	// sluice first, then by name.
	slices.SortStableFunc(impls, func(a, b string) int { return rank(a) - rank(b) })
	slices.SortStableFunc(scs, func(a, b string) int {
		return slices.Index(scenarios, a) - slices.Index(scenarios, b)
	})
	fmt.Fprintf(w, "callgrind, serial, GOMAXPROCS 1: (count at b.N=%d − count at b.N=1) / %d\n", n, n-1)
	for _, t := range tables {
		fmt.Fprintf(w, "\n%s\n\n| impl |", t.title)
		for _, sc := range scs {
			fmt.Fprintf(w, " %s |", sc)
		}
		fmt.Fprintf(w, "\n| --- |%s\n", strings.Repeat(" ---: |", len(scs)))
		for _, im := range impls {
			fmt.Fprintf(w, "| %s |", im)
			for _, sc := range scs {
				r, ok := at[[2]string{im, sc}]
				if !ok {
					fmt.Fprint(w, " - |")
					continue
				}
				var v float64
				for _, e := range t.events {
					v += r.per[e]
				}
				cell := fmt.Sprintf(t.format, v)
				if s, ok := at[[2]string{"sluice", sc}]; ok && im != "sluice" && t.events[0] == "Ir" {
					cell += fmt.Sprintf(" (%.2f×)", v/s.per["Ir"])
				}
				fmt.Fprintf(w, " %s |", cell)
			}
			fmt.Fprintln(w)
		}
	}
	// What the report counts in timed misses (BenchmarkMiss): the 1M-key
	// decision less the 1k-key one, whose lines every cache holds.
	if slices.Contains(scs, "keys-1M") && slices.Contains(scs, "keys-1k") {
		fmt.Fprintf(w, "\nlast-level misses that 1M keys add to a decision on 1k (keys-1M − keys-1k)\n\n| impl | misses |\n| --- | ---: |\n")
		for _, im := range impls {
			m, okM := at[[2]string{im, "keys-1M"}]
			k, okK := at[[2]string{im, "keys-1k"}]
			if okM && okK {
				fmt.Fprintf(w, "| %s | %.3f |\n", im, m.per["DLmr"]+m.per["DLmw"]-k.per["DLmr"]-k.per["DLmw"])
			}
		}
	}
}

func rank(impl string) int {
	if impl == "sluice" {
		return 0
	}
	return 1
}
