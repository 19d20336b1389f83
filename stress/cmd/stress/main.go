// Command stress runs the sluice stress harness for a set time: invariant
// runs on every clock in turn, each followed by a batch of linearizability
// histories and one playing of the held-bucket race (stress.HeldBucket).
// It prints live progress and a closing summary, and exits 1 if any
// violation was found (2 for a bad command line).
//
//	go run ./stress/cmd/stress -duration 60s
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/seed997/sluice/stress"
)

type options struct {
	duration  time.Duration
	segment   time.Duration
	clocks    []stress.ClockKind
	workers   int
	histories int
	seed      uint64
	outDir    string
}

var clockNames = map[string]stress.ClockKind{
	"real": stress.Real, "coarse": stress.Coarse, "manual": stress.Manual, "manual-backwards": stress.ManualBackwards,
}

func parse(args []string, stderr io.Writer) (options, error) {
	o := options{}
	fs := flag.NewFlagSet("stress", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.DurationVar(&o.duration, "duration", time.Minute, "total time to run")
	fs.DurationVar(&o.segment, "segment", 5*time.Second, "length of one invariant run (each on a fresh limiter)")
	clocks := fs.String("clocks", "real,coarse,manual,manual-backwards", "clocks to cycle through, comma-separated")
	fs.IntVar(&o.workers, "workers", 8, "hammering goroutines per run")
	fs.IntVar(&o.histories, "histories", 50, "linearizability histories after each run (0: none)")
	fs.Uint64Var(&o.seed, "seed", uint64(time.Now().UnixNano()), "seed of the first run")
	fs.StringVar(&o.outDir, "out", os.TempDir(), "where visualizations of non-linearizable histories go")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	switch {
	case fs.NArg() > 0:
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	case o.duration <= 0:
		return o, fmt.Errorf("-duration %v: must be positive", o.duration)
	case o.segment < 100*time.Millisecond:
		return o, fmt.Errorf("-segment %v: must be at least 100ms", o.segment)
	case o.workers < 1 || o.workers > 1024:
		return o, fmt.Errorf("-workers %d: must be between 1 and 1024", o.workers)
	case o.histories < 0 || o.histories > 100000:
		return o, fmt.Errorf("-histories %d: must be between 0 and 100000", o.histories)
	}
	for _, name := range strings.Split(*clocks, ",") {
		c, ok := clockNames[strings.TrimSpace(name)]
		if !ok {
			return o, fmt.Errorf("-clocks: unknown clock %q (real, coarse, manual, manual-backwards)", name)
		}
		o.clocks = append(o.clocks, c)
	}
	return o, nil
}

func main() {
	o, err := parse(os.Args[1:], os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "stress:", err)
		os.Exit(2)
	}
	bad, err := run(o, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "stress:", err)
		os.Exit(2)
	}
	if bad {
		os.Exit(1)
	}
}

type totals struct {
	runs, decisions, admitted, windows, quiet, evictions int64
	lowerChecked, lowerSkipped                           int
	histories, operations, undecided, held               int
	violations                                           []stress.Violation
}

// run cycles through the clocks until o.duration has passed and reports
// whether any violation was found.
func run(o options, out io.Writer) (bool, error) {
	var t totals
	start := time.Now()
	for i := 0; time.Since(start) < o.duration; i++ {
		cfg := stress.Default(o.clocks[i%len(o.clocks)])
		cfg.Workers, cfg.Seed = o.workers, o.seed+uint64(i)
		cfg.Duration = min(o.segment, max(o.duration-time.Since(start), 100*time.Millisecond))
		var lastPrint time.Time
		var prev int64
		rep, err := stress.Run(cfg, func(p stress.Progress) {
			if time.Since(lastPrint) < time.Second {
				return
			}
			rate := float64(p.Decisions-prev) / time.Since(lastPrint).Seconds()
			if lastPrint.IsZero() {
				rate = float64(p.Decisions) / p.Elapsed.Seconds()
			}
			lastPrint, prev = time.Now(), p.Decisions
			fmt.Fprintf(out, "%7.1fs  run %d %-16s %9.0f decisions/s  keys %5d  evictions %7d  violations so far %d\n",
				time.Since(start).Seconds(), i+1, cfg.Clock, rate, p.Keys, p.Evictions, len(t.violations))
		})
		if err != nil {
			return false, err
		}
		t.runs++
		t.decisions += rep.Decisions
		t.admitted += rep.Admitted
		t.windows += rep.WindowsChecked
		t.quiet += rep.QuietChecked
		t.evictions += rep.Evictions
		t.lowerChecked += rep.LowerChecked
		t.lowerSkipped += rep.LowerSkipped
		t.violations = append(t.violations, rep.Violations...)
		fmt.Fprintf(out, "run %d %s: %d decisions, %d admitted, %d evictions, %d violations\n",
			i+1, cfg.Clock, rep.Decisions, rep.Admitted, rep.Evictions, len(rep.Violations))
		for _, v := range rep.Violations {
			fmt.Fprintf(out, "  VIOLATION %s\n", v)
		}
		vs, err := stress.HeldBucket()
		if err != nil {
			return false, err
		}
		t.held++
		t.violations = append(t.violations, vs...)
		for _, v := range vs {
			fmt.Fprintf(out, "  VIOLATION %s\n", v)
		}
		if o.histories > 0 {
			lr, err := stress.CheckLinear(stress.LinearConfig{Histories: o.histories, Seed: cfg.Seed, OutDir: o.outDir})
			if err != nil {
				return false, err
			}
			t.histories += lr.Histories
			t.operations += lr.Operations
			t.undecided += lr.Unknown
			t.violations = append(t.violations, lr.Violations...)
			for _, v := range lr.Violations {
				fmt.Fprintf(out, "  VIOLATION %s\n", v)
			}
		}
	}
	fmt.Fprintf(out, "\nsummary after %.1fs (%d runs, seeds %d..%d)\n", time.Since(start).Seconds(), t.runs, o.seed, o.seed+uint64(t.runs)-1)
	fmt.Fprintf(out, "  decisions checked      %d (%d admitted) against the upper bound, %d window starts\n", t.decisions, t.admitted, t.windows)
	fmt.Fprintf(out, "  saturated windows      %d of hot keys checked against the lower bound, %d not shown saturated\n", t.lowerChecked, t.lowerSkipped)
	fmt.Fprintf(out, "  quiet decisions        %d matched the exact reference\n", t.quiet)
	fmt.Fprintf(out, "  evictions              %d\n", t.evictions)
	fmt.Fprintf(out, "  histories checked      %d (%d operations, %d undecided) for linearizability\n", t.histories, t.operations, t.undecided)
	fmt.Fprintf(out, "  held-bucket races      %d played, a request held across an eviction\n", t.held)
	fmt.Fprintf(out, "  violations             %d\n", len(t.violations))
	return len(t.violations) > 0 || t.undecided > 0, nil
}
