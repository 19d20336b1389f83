package main

import (
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// A valgrind that stops at an instruction it does not translate is told
// apart from a benchmark that fails, and says so. A stand-in valgrind on
// PATH plays each.
func TestUntranslatedStop(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in valgrind is a shell script")
	}
	for _, c := range []struct {
		says         string
		untranslated bool
	}{
		{"==1== valgrind: Unrecognised instruction at address 0x48ee69.", true},
		{"panic: the stand-in benchmark failed", false},
	} {
		dir := t.TempDir()
		script := "#!/bin/sh\necho '" + c.says + "' >&2\nexit 2\n"
		if err := os.WriteFile(filepath.Join(dir, "valgrind"), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
		_, _, err := grind("bench.test", dir, "hot-allow", "sluice", 10)
		if err == nil {
			t.Fatalf("%q: no error from a valgrind that exits 2", c.says)
		}
		if errors.Is(err, errUntranslated) != c.untranslated {
			t.Errorf("%q: %v, errUntranslated %v, want %v", c.says, err, errors.Is(err, errUntranslated), c.untranslated)
		}
	}
}

// Two files callgrind wrote for sluice's hot key (trimmed to the lines
// parseDump reads): the run at b.N=1 and the run at b.N=100000.
func TestParseDump(t *testing.T) {
	ones, err := readDumps("testdata/sluice-n1")
	if err != nil {
		t.Fatal(err)
	}
	alls, err := readDumps("testdata/sluice-n100000")
	if err != nil {
		t.Fatal(err)
	}
	if len(ones) != 1 || len(alls) != 1 {
		t.Fatalf("%d and %d dumps, not one each", len(ones), len(alls))
	}
	one, all := ones[0], alls[0]
	if one.name != "scenario=hot-allow/impl=sluice/mode=serial" || one.n != 1 || all.n != 100000 {
		t.Fatalf("read %q at %d and %q at %d", one.name, one.n, all.name, all.n)
	}
	// totals: 487 145 78 9 15 2 4, the last two events left out.
	want := map[string]int64{"Ir": 487, "Dr": 145, "Dw": 78, "I1mr": 9, "D1mr": 15, "D1mw": 2, "ILmr": 4, "DLmr": 0, "DLmw": 0}
	for e, v := range want {
		if one.totals[e] != v {
			t.Errorf("%s = %d, want %d", e, one.totals[e], v)
		}
	}
	rs, err := perDecision([]dump{all, one}, 100000)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 1 || rs[0].scenario != "hot-allow" || rs[0].impl != "sluice" {
		t.Fatalf("results %+v", rs)
	}
	if got, want := rs[0].per["Ir"], float64(23772320-487)/99999; math.Abs(got-want) > 1e-9 {
		t.Errorf("Ir a decision %v, want %v", got, want)
	}
	// DLmw: 0 at b.N=1 and 0 at 100000; DLmr: 0 and 1.
	if rs[0].per["DLmr"] != 1.0/99999 || rs[0].per["DLmw"] != 0 {
		t.Errorf("DLmr %v, DLmw %v", rs[0].per["DLmr"], rs[0].per["DLmw"])
	}
}

// A counts file holds what the tables need: written from the two dumps
// and read back, it gives the tables the dumps give.
func TestCounts(t *testing.T) {
	var dumps []dump
	for _, f := range []string{"testdata/sluice-n1", "testdata/sluice-n100000"} {
		ds, err := readDumps(f)
		if err != nil {
			t.Fatal(err)
		}
		dumps = append(dumps, ds...)
	}
	path := filepath.Join(t.TempDir(), "counts.txt")
	var b strings.Builder
	writeCounts(&b, dumps)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	if err := readOnly(&got, []string{path}); err != nil {
		t.Fatal(err)
	}
	rs, err := perDecision(dumps, 100000)
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	writeTables(&want, rs, 100000)
	if got.String() != want.String() {
		t.Fatalf("read back:\n%s\nwant:\n%s", got.String(), want.String())
	}
	if !strings.Contains(got.String(), "| sluice | 237.7 |") {
		t.Errorf("no row for sluice's 237.7 instructions:\n%s", got.String())
	}
	if err := readOnly(&got, []string{"main.go"}); err == nil {
		t.Error("read a file that is no counts file")
	}
}

func TestParseDumpRefuses(t *testing.T) {
	good, err := os.ReadFile("testdata/sluice-n1")
	if err != nil {
		t.Fatal(err)
	}
	for name, edit := range map[string]func(string) string{
		"other caches": func(s string) string {
			return strings.Replace(s, "33554432 B, 64 B, 16-way", "268435456 B, 64 B, direct-mapped", 1)
		},
		"no cache simulation": func(s string) string {
			return strings.ReplaceAll(s, "associative", "")
		},
		"no totals": func(s string) string {
			return s[:strings.Index(s, "totals:")]
		},
		"more totals than events": func(s string) string {
			return strings.Replace(s, "totals: 487", "totals: 1 2 3 4 5 6 7 8 9 10 487", 1)
		},
	} {
		if _, err := parseDump(strings.NewReader(edit(string(good)))); err == nil {
			t.Errorf("%s: read without an error", name)
		}
	}
}

func TestPerDecisionRefuses(t *testing.T) {
	d := func(impl string, n int, ir, miss int64) dump {
		return dump{name: "scenario=keys-1k/impl=" + impl + "/mode=serial", n: n,
			totals: map[string]int64{"Ir": ir, "D1mr": miss}}
	}
	for name, c := range map[string]struct {
		dumps []dump
		ok    bool
	}{
		"a pair":                          {[]dump{d("sluice", 1, 500, 3), d("sluice", 1000, 250_000, 40)}, true},
		"a cold miss at b.N=1":            {[]dump{d("sluice", 1, 500, 3), d("sluice", 1000, 250_000, 2)}, true},
		"no run at b.N=1":                 {[]dump{d("sluice", 1000, 250_000, 40)}, false},
		"no run at b.N=n":                 {[]dump{d("sluice", 1, 500, 3)}, false},
		"two runs at b.N=n":               {[]dump{d("sluice", 1, 500, 3), d("sluice", 1000, 250_000, 40), d("sluice", 1000, 250_000, 40)}, false},
		"a third b.N":                     {[]dump{d("sluice", 1, 500, 3), d("sluice", 1000, 250_000, 40), d("sluice", 7, 3000, 4)}, false},
		"fewer instructions at n":         {[]dump{d("sluice", 1, 500, 3), d("sluice", 1000, 400, 40)}, false},
		"more misses lost than run 1 had": {[]dump{d("sluice", 1, 500, 3), d("sluice", 1000, 250_000, -1)}, false},
		"no instructions":                 {[]dump{d("sluice", 1, 500, 3), d("sluice", 1000, 500, 3)}, false},
		"not a scenario's name":           {[]dump{{name: "x", n: 1, totals: map[string]int64{"Ir": 1}}, {name: "x", n: 1000, totals: map[string]int64{"Ir": 9}}}, false},
	} {
		rs, err := perDecision(c.dumps, 1000)
		if (err == nil) != c.ok {
			t.Errorf("%s: %v, %v", name, rs, err)
		}
	}
}

// TestUnderValgrind counts two implementations' hot key at two b.N. The
// count a decision must not depend on b.N, which it would if anything
// outside the loop were counted (the setup, the benchmark's machinery),
// and the two must differ. Without valgrind it skips, except under CI,
// whose .ci/run installs it.
//
// Each b.N is counted up to three times, and the least count of each
// implementation kept: the default clock recalibrates when its scale's
// span (at most 100 ms of wall time) ends, on the thread that reads it
// then, and under callgrind a 20000-decision loop lasts long enough for
// that to fall inside it now and then (a sample, a new scale, about
// 39,000 instructions; seen as 249 → 250.8 and 269.7 a decision). Such
// work only adds, so the least of a few counts is the loop's own.
func TestUnderValgrind(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the benchmarks' client requests to callgrind are written for amd64 only")
	}
	if _, err := exec.LookPath("valgrind"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("valgrind not found, and CI installs it (.ci/run)")
		}
		t.Skip("valgrind not found: apt-get install valgrind")
	}
	if testing.Short() {
		t.Skip("builds the bench package and runs it under valgrind")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bench.test")
	if out, err := exec.Command("go", "test", "-c", "-o", bin, "../..").CombinedOutput(); err != nil {
		t.Fatalf("go test -c: %v\n%s", err, out)
	}
	ir := map[int]map[string]float64{}
	for _, n := range []int{2000, 20000} {
		ir[n] = map[string]float64{}
		for try := 0; try < 3; try++ {
			rs, _, err := grind(bin, dir, "hot-allow", "sluice|floor", n)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rs {
				if v, ok := ir[n][r.impl]; !ok || r.per["Ir"] < v {
					ir[n][r.impl] = r.per["Ir"]
				}
			}
			t.Logf("b.N=%d, try %d: %v", n, try+1, ir[n])
			if whole(ir[n]) {
				break // no interference: a whole number of instructions each
			}
		}
	}
	for _, impl := range []string{"sluice", "floor"} {
		a, b := ir[2000][impl], ir[20000][impl]
		if a == 0 || b == 0 || math.Abs(a-b) > 0.02*b {
			t.Errorf("%s: %.1f instructions a decision at b.N=2000, %.1f at 20000", impl, a, b)
		}
	}
	if ir[20000]["sluice"] == ir[20000]["floor"] {
		t.Errorf("sluice and the floor counted alike: %v", ir[20000])
	}
}

// whole reports whether every count is a whole number of instructions a
// decision, as a loop alone counts; a recalibration inside it leaves a
// fraction.
func whole(ir map[string]float64) bool {
	for _, v := range ir {
		if v != math.Trunc(v) {
			return false
		}
	}
	return len(ir) > 0
}
