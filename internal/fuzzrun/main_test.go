package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The outputs in testdata are go test's own, on Go 1.26.8:
//   - deadline.txt: make fuzz's FuzzLimiter at -fuzztime 4m, failed by the
//     coordinator's deadline race (golang/go#75804) with nothing found;
//   - deadline-race.txt: the same race in make fuzz's FuzzHash, under
//     -race, at the default -fuzztime 30s;
//   - input.txt: a target that fails at one input, which go test wrote
//     to testdata/fuzz/FuzzBoom;
//   - seed.txt: the same target again, its kept failing input now
//     failing as a seed, so that nothing new is written.
func fixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// fake is a go test that writes said, keeps an input named kept in its
// target's directory (where kept is not ""), and fails with err.
type fake struct {
	said string
	kept string
	err  error
}

// exitErr stands for go test's exit status 1; fuzz only tests its type.
var exitErr = &exec.ExitError{}

func TestFuzz(t *testing.T) {
	late, input, seed := fixture(t, "deadline.txt"), fixture(t, "input.txt"), fixture(t, "seed.txt")
	lateRace := fixture(t, "deadline-race.txt")
	for _, c := range []struct {
		name   string
		target string // the fuzz function: FuzzLimiter for deadline.txt, FuzzHash for deadline-race.txt, FuzzBoom for the others
		had    string // an input kept before the run
		run    fake
		want   outcome
		errs   bool
	}{
		{"passed", "FuzzLimiter", "", fake{said: "fuzz: elapsed: 3s, execs: 20000 (6650/sec), new interesting: 0 (total: 52)\nPASS\nok  \tgithub.com/seed997/sluice\t3.1s\n"}, passed, false},
		{"the deadline alone", "FuzzLimiter", "", fake{said: late, err: exitErr}, deadline, false},
		{"the deadline alone, under -race", "FuzzHash", "", fake{said: lateRace, err: exitErr}, deadline, false},
		{"the deadline under -race, and a race", "FuzzHash", "", fake{said: strings.Replace(lateRace, "--- FAIL", "==================\nWARNING: DATA RACE\n==================\n--- FAIL", 1), err: exitErr}, failed, false},
		{"the deadline alone, with inputs kept before", "FuzzLimiter", "582528ddfad69eb5", fake{said: late, err: exitErr}, deadline, false},
		{"the deadline, and an input kept", "FuzzLimiter", "", fake{said: late, kept: "f4f49857cd651e00", err: exitErr}, failed, false},
		{"the deadline of another target", "FuzzStep", "", fake{said: late, err: exitErr}, failed, false},
		{"the deadline, and a race", "FuzzLimiter", "", fake{said: strings.Replace(late, "--- FAIL", "==================\nWARNING: DATA RACE\n==================\n--- FAIL", 1), err: exitErr}, failed, false},
		{"the deadline, and a hung worker", "FuzzLimiter", "", fake{said: strings.Replace(late, "    context deadline exceeded\n", "    context deadline exceeded\n    fuzzing process hung or terminated unexpectedly: exit status 2\n", 1), err: exitErr}, failed, false},
		{"the deadline's words in another failure", "FuzzLimiter", "", fake{said: "--- FAIL: FuzzLimiter (0.01s)\n    --- FAIL: FuzzLimiter (0.00s)\n        fuzz_test.go:40: context deadline exceeded\nFAIL\n", err: exitErr}, failed, false},
		{"a failing input", "FuzzBoom", "", fake{said: input, kept: "f4f49857cd651e00", err: exitErr}, failed, false},
		{"a failing seed, nothing new kept", "FuzzBoom", "f4f49857cd651e00", fake{said: seed, err: exitErr}, failed, false},
		{"go test did not run", "FuzzBoom", "", fake{err: errors.New(`exec: "go": executable file not found in $PATH`)}, failed, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			tg := target{dir: t.TempDir(), name: c.target}
			kept := filepath.Join(tg.dir, "testdata", "fuzz", tg.name)
			if c.had != "" {
				if err := os.MkdirAll(kept, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(kept, c.had), []byte("go test fuzz v1\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			run := func(dir string, argv []string, out io.Writer) error {
				if dir != tg.dir {
					t.Errorf("ran in %s, want %s", dir, tg.dir)
				}
				io.WriteString(out, c.run.said)
				if c.run.kept != "" {
					if err := os.MkdirAll(kept, 0o755); err != nil {
						return err
					}
					if err := os.WriteFile(filepath.Join(kept, c.run.kept), []byte("go test fuzz v1\nbyte('\\xc8')\n"), 0o644); err != nil {
						return err
					}
				}
				return c.run.err
			}
			var out bytes.Buffer
			got, err := fuzz(tg, "go", nil, run, &out)
			if got != c.want || (err != nil) != c.errs {
				t.Errorf("fuzz = %v, %v; want %v, error %v", got, err, c.want, c.errs)
			}
			if !strings.Contains(out.String(), c.run.said) {
				t.Errorf("go test's output was not passed on:\n%s", out.String())
			}
		})
	}
}

func TestDeadlineOnly(t *testing.T) {
	// The two lines alone, with and without go test's closing lines.
	for _, s := range []string{
		"--- FAIL: FuzzX (30.01s)\n    context deadline exceeded\n",
		"--- FAIL: FuzzX (30.01s)\r\n    context deadline exceeded\r\nFAIL\r\nexit status 1\r\nFAIL\tm\t30.02s\r\n",
	} {
		if !deadlineOnly(s, "FuzzX") {
			t.Errorf("deadlineOnly(%q) = false", s)
		}
	}
	for _, s := range []string{
		"",
		"PASS\n",
		"--- FAIL: FuzzX (30.01s)\n",
		"    context deadline exceeded\n",
		"--- FAIL: FuzzXY (30.01s)\n    context deadline exceeded\n",
		"--- FAIL: FuzzX (30.01s)\n    context canceled\n",
		"--- FAIL: FuzzX (30.01s)\n    context deadline exceeded\n    context deadline exceeded\n",
		"--- FAIL: FuzzX (30.01s)\n    context deadline exceeded\nexit status 2\n",
		"warning: starting with empty corpus\n--- FAIL: FuzzX (30.01s)\n    context deadline exceeded\n",
	} {
		if deadlineOnly(s, "FuzzX") {
			t.Errorf("deadlineOnly(%q) = true", s)
		}
	}
}

// TestFuzzAll runs every target after a failure, passes the flags and the
// race detector to go test, and exits 1 only where a target failed.
func TestFuzzAll(t *testing.T) {
	late := fixture(t, "deadline.txt")
	dir := t.TempDir()
	results := map[string]fake{
		"FuzzLimiter": {said: late, err: exitErr},
		"FuzzStep":    {said: "--- FAIL: FuzzStep (0.01s)\n    panic: boom\nFAIL\n", err: exitErr},
		"FuzzHash":    {said: "PASS\n"},
	}
	var argvs [][]string
	run := func(d string, argv []string, out io.Writer) error {
		argvs = append(argvs, argv)
		name := strings.Trim(argv[slices.Index(argv, "-fuzz")+1], "^$")
		io.WriteString(out, results[name].said)
		return results[name].err
	}
	flags := []string{"-fuzztime", "4m", "-fuzzminimizetime", "10s"}
	all := []target{{dir, "FuzzLimiter", false}, {dir, "FuzzStep", false}, {dir, "FuzzHash", true}}

	var out bytes.Buffer
	if rc := fuzzAll(all, "go1", flags, run, &out); rc != 1 {
		t.Errorf("fuzzAll = %d with a target failed, want 1", rc)
	}
	want := [][]string{
		{"go1", "test", "-run", "^$", "-fuzz", "^FuzzLimiter$", "-fuzztime", "4m", "-fuzzminimizetime", "10s", "."},
		{"go1", "test", "-run", "^$", "-fuzz", "^FuzzStep$", "-fuzztime", "4m", "-fuzzminimizetime", "10s", "."},
		{"go1", "test", "-race", "-run", "^$", "-fuzz", "^FuzzHash$", "-fuzztime", "4m", "-fuzzminimizetime", "10s", "."},
	}
	if !slices.EqualFunc(argvs, want, slices.Equal) {
		t.Errorf("ran\n%q\nwant\n%q", argvs, want)
	}
	for _, line := range []string{
		"fuzzrun: FuzzLimiter (" + dir + "): passed; the fuzzer failed it at its own time limit",
		"fuzzrun: FuzzStep (" + dir + "): FAILED\n",
		"fuzzrun: FuzzHash (" + dir + "): passed\n",
		"fuzzrun: 2 of 3 targets passed (1 failed by the fuzzer's own time limit alone); failed: FuzzStep\n",
	} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("output lacks %q:\n%s", line, out.String())
		}
	}

	out.Reset()
	if rc := fuzzAll([]target{all[0], all[2]}, "go", flags, run, &out); rc != 0 {
		t.Errorf("fuzzAll = %d with none failed, want 0:\n%s", rc, out.String())
	}
}

func TestMainRun(t *testing.T) {
	never := func(string, []string, io.Writer) error {
		t.Error("go test ran")
		return nil
	}
	for _, c := range []struct {
		args []string
		says string
	}{
		{nil, "no targets"},
		{[]string{"-fuzztime"}, "flag needs an argument"},
		{[]string{"stripes"}, `target "stripes": want dir:FuzzName`},
		{[]string{":FuzzHash"}, `target ":FuzzHash": want dir:FuzzName`},
		{[]string{"stripes:Hash"}, `"Hash" is not a fuzz function's name`},
		{[]string{"stripes:FuzzHash:msan"}, `"msan": the only option is race`},
		{[]string{"stripes:FuzzHash:race:x"}, "want dir:FuzzName"},
	} {
		var stdout, stderr bytes.Buffer
		if rc := mainRun(c.args, &stdout, &stderr, never); rc != 2 || !strings.Contains(stderr.String(), c.says) {
			t.Errorf("mainRun(%q) = %d, %q; want 2 and %q", c.args, rc, stderr.String(), c.says)
		}
	}

	var got []string
	run := func(d string, argv []string, out io.Writer) error {
		got = append(got, d+" "+strings.Join(argv, " "))
		return nil
	}
	var stdout, stderr bytes.Buffer
	args := []string{"-go", "go1", "-fuzztime", "20000x", ".:FuzzLimiter", "stripes:FuzzHash:race"}
	if rc := mainRun(args, &stdout, &stderr, run); rc != 0 {
		t.Fatalf("mainRun = %d: %s", rc, stderr.String())
	}
	want := []string{
		". go1 test -run ^$ -fuzz ^FuzzLimiter$ -fuzztime 20000x -fuzzminimizetime 10s .",
		"stripes go1 test -race -run ^$ -fuzz ^FuzzHash$ -fuzztime 20000x -fuzzminimizetime 10s .",
	}
	if !slices.Equal(got, want) {
		t.Errorf("ran %q, want %q", got, want)
	}
}

// TestUnreadableInputs: where the directory of kept inputs cannot be read,
// before go test or after it failed, fuzzrun cannot tell whether an input
// was kept, and the target fails; fuzzAll says why.
func TestUnreadableInputs(t *testing.T) {
	late := fixture(t, "deadline.txt")
	for _, when := range []string{"before", "after"} {
		t.Run(when, func(t *testing.T) {
			tg := target{dir: t.TempDir(), name: "FuzzLimiter"}
			kept := filepath.Join(tg.dir, "testdata", "fuzz", tg.name)
			block := func() error { // a file where the directory should be
				if err := os.MkdirAll(filepath.Dir(kept), 0o755); err != nil {
					return err
				}
				return os.WriteFile(kept, nil, 0o644)
			}
			if when == "before" {
				if err := block(); err != nil {
					t.Fatal(err)
				}
			}
			ran := false
			run := func(dir string, argv []string, out io.Writer) error {
				ran = true
				io.WriteString(out, late)
				if when == "after" {
					if err := block(); err != nil {
						return err
					}
				}
				return exitErr
			}
			var out bytes.Buffer
			if rc := fuzzAll([]target{tg}, "go", nil, run, &out); rc != 1 {
				t.Errorf("fuzzAll = %d, want 1:\n%s", rc, out.String())
			}
			if ran != (when == "after") {
				t.Errorf("go test ran: %v", ran)
			}
			if want := "fuzzrun: FuzzLimiter (" + tg.dir + "): FAILED: "; !strings.Contains(out.String(), want) {
				t.Errorf("output lacks %q:\n%s", want, out.String())
			}
		})
	}
}
