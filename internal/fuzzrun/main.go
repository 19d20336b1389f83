// Command fuzzrun runs fuzz targets one after another for make fuzz, and
// tells a failing input apart from the fuzzer failing a target that found
// nothing.
//
//	go run ./internal/fuzzrun [-go go] [-fuzztime 30s] [-fuzzminimizetime 10s] dir:FuzzName[:race] ...
//
// go test -fuzz takes one target at a time, so make fuzz runs several in a
// row. With a duration for -fuzztime, Go 1.26's fuzz coordinator can fail a
// target at its time limit with "context deadline exceeded" and no failing
// input: it takes its deadline for the normal end of a run only once the
// context it derived for its workers has been cancelled too, and it can
// look in the moment between the two (golang/go#75804, fixed in Go 1.27,
// not in any 1.26 release). As a plain list of commands, make fuzz stopped
// there: it failed a run that had found nothing, and ran none of the
// targets after that one.
//
// fuzzrun runs every target whatever the ones before it did. It counts a
// target's failure as that deadline only when go test's output, beyond
// the fuzzer's progress lines and go test's closing lines, is the target's
// "--- FAIL" line and "context deadline exceeded" alone, and no new file
// appeared in the package's testdata/fuzz/<target>, where go test keeps a
// failing input. Any other failure (a failing input, a panic, a race, a
// hung worker, a build error) fails the run, which exits 1 after the last
// target.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// target is one fuzz target: the package directory to run go test in, the
// fuzz function, and whether it runs under the race detector.
type target struct {
	dir, name string
	race      bool
}

func (t target) String() string { return t.name + " (" + t.dir + ")" }

// parseTarget reads dir:FuzzName or dir:FuzzName:race.
func parseTarget(s string) (target, error) {
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 || parts[0] == "" {
		return target{}, fmt.Errorf("target %q: want dir:FuzzName or dir:FuzzName:race", s)
	}
	t := target{dir: parts[0], name: parts[1]}
	if !strings.HasPrefix(t.name, "Fuzz") {
		return target{}, fmt.Errorf("target %q: %q is not a fuzz function's name (Fuzz...)", s, t.name)
	}
	if len(parts) == 3 {
		if parts[2] != "race" {
			return target{}, fmt.Errorf("target %q: %q: the only option is race", s, parts[2])
		}
		t.race = true
	}
	return t, nil
}

// runner runs one go test command in dir, its output written to out as it
// comes, and returns its error (an *exec.ExitError where it ran and
// failed).
type runner func(dir string, argv []string, out io.Writer) error

func execRunner(dir string, argv []string, out io.Writer) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = out, out
	return cmd.Run()
}

// outcome is what became of one target.
type outcome int

const (
	passed   outcome = iota
	deadline         // failed by the fuzzer's own time limit, nothing found
	failed
)

// inputs lists the files in t's directory of kept inputs; a missing
// directory holds none.
func inputs(t target) (map[string]bool, error) {
	entries, err := os.ReadDir(filepath.Join(t.dir, "testdata", "fuzz", t.name))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	names := make(map[string]bool, len(entries))
	for _, e := range entries {
		names[e.Name()] = true
	}
	return names, nil
}

// deadlineOnly reports whether out, go test's output for the fuzz target
// name, says only that the target failed with "context deadline
// exceeded". The lines it passes over are the fuzzer's progress ("fuzz:
// elapsed: ..."), and go test's own after a failure: "FAIL", "exit
// status 1", and "FAIL" with the package and its time. Anything else, a
// failing input's report, a panic, a race, a warning, is not the deadline.
func deadlineOnly(out, name string) bool {
	var said []string
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimRight(line, "\r")
		switch {
		case line == "", line == "FAIL", line == "exit status 1",
			strings.HasPrefix(line, "fuzz: elapsed: "),
			strings.HasPrefix(line, "FAIL\t"):
			continue
		}
		said = append(said, line)
	}
	return len(said) == 2 &&
		strings.HasPrefix(said[0], "--- FAIL: "+name+" (") &&
		strings.TrimSpace(said[1]) == "context deadline exceeded"
}

// fuzz runs go test -fuzz on t and says what became of it.
func fuzz(t target, goCmd string, flags []string, run runner, out io.Writer) (outcome, error) {
	before, err := inputs(t)
	if err != nil {
		return failed, err
	}
	argv := []string{goCmd, "test"}
	if t.race {
		argv = append(argv, "-race")
	}
	argv = append(argv, "-run", "^$", "-fuzz", "^"+t.name+"$")
	argv = append(argv, flags...)
	argv = append(argv, ".")
	fmt.Fprintf(out, "cd %s && %s\n", t.dir, strings.Join(argv, " "))
	var said bytes.Buffer
	err = run(t.dir, argv, io.MultiWriter(out, &said))
	if err == nil {
		return passed, nil
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		return failed, err // go test did not run
	}
	after, err := inputs(t)
	if err != nil {
		return failed, err
	}
	for name := range after {
		if !before[name] {
			return failed, nil // a failing input, kept
		}
	}
	if deadlineOnly(said.String(), t.name) {
		return deadline, nil
	}
	return failed, nil
}

// fuzzAll runs every target, reports each and a tally on out, and returns
// the exit status: 1 if any target failed, 0 otherwise.
func fuzzAll(targets []target, goCmd string, flags []string, run runner, out io.Writer) int {
	var ok, late int
	var bad []string
	for _, t := range targets {
		o, err := fuzz(t, goCmd, flags, run, out)
		switch {
		case err != nil:
			fmt.Fprintf(out, "fuzzrun: %v: FAILED: %v\n", t, err)
			bad = append(bad, t.name)
		case o == passed:
			fmt.Fprintf(out, "fuzzrun: %v: passed\n", t)
			ok++
		case o == deadline:
			fmt.Fprintf(out, "fuzzrun: %v: passed; the fuzzer failed it at its own time limit"+
				" with no failing input (golang/go#75804, a Go 1.26 bug)\n", t)
			ok++
			late++
		default:
			fmt.Fprintf(out, "fuzzrun: %v: FAILED\n", t)
			bad = append(bad, t.name)
		}
	}
	fmt.Fprintf(out, "fuzzrun: %d of %d targets passed", ok, len(targets))
	if late > 0 {
		fmt.Fprintf(out, " (%d failed by the fuzzer's own time limit alone)", late)
	}
	if len(bad) > 0 {
		fmt.Fprintf(out, "; failed: %s\n", strings.Join(bad, ", "))
		return 1
	}
	fmt.Fprintln(out)
	return 0
}

func main() { os.Exit(mainRun(os.Args[1:], os.Stdout, os.Stderr, execRunner)) }

func mainRun(args []string, stdout, stderr io.Writer, run runner) int {
	fs := flag.NewFlagSet("fuzzrun", flag.ContinueOnError)
	fs.SetOutput(stderr)
	goCmd := fs.String("go", "go", "the go command")
	fuzztime := fs.String("fuzztime", "30s", "go test's -fuzztime for each target: a duration, or a count of inputs (20000x)")
	minimize := fs.String("fuzzminimizetime", "10s", "go test's -fuzzminimizetime")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "fuzzrun: no targets (dir:FuzzName or dir:FuzzName:race)")
		return 2
	}
	targets := make([]target, 0, fs.NArg())
	for _, a := range fs.Args() {
		t, err := parseTarget(a)
		if err != nil {
			fmt.Fprintf(stderr, "fuzzrun: %v\n", err)
			return 2
		}
		targets = append(targets, t)
	}
	flags := []string{"-fuzztime", *fuzztime, "-fuzzminimizetime", *minimize}
	return fuzzAll(targets, *goCmd, flags, run, stdout)
}
