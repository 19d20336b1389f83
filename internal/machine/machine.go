// Package machine measures what the machine gives two cores, for the
// benchmarks that report two-core scaling: the root package's and bench/'s.
// A decision whose bucket's cache line the other core wrote last waits for
// that line to cross between the cores, so a two-core figure means little
// without the time of that crossing beside it. On the development VM it is
// 23-34 ns most of the time and 159-207 ns in stretches of seconds, within
// one run (bench/BENCHMARKS.md).
package machine

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/cpu"
)

// A handoff is measured handoffTries times, handoffPasses passes each,
// and the fastest try counts: a try that a garbage collection, a
// preemption or another goroutine interrupted reads slow without the line
// being slow (right after a benchmark that allocates, a try took 2 ms a
// pass). The machine's slow mode lasts seconds, so every try meets it.
// handoffBudget bounds a try where passes are far slower (two Ps sharing
// one CPU through a container's quota pass by time slices).
const (
	handoffTries  = 4
	handoffPasses = 5_000
	handoffBudget = 5 * time.Millisecond
)

// Handoff returns the ns one pass of a cache line between two goroutines
// takes, each on its own P, the fastest of handoffTries tries, or NaN at
// GOMAXPROCS 1 or on one CPU.
func Handoff() float64 {
	if runtime.GOMAXPROCS(0) < 2 || runtime.NumCPU() < 2 {
		return math.NaN()
	}
	best := math.Inf(1)
	for range handoffTries {
		best = min(best, handoffTry())
	}
	return best
}

// handoffTry is one try. Each goroutine spins on the line until the turn
// is its own, then writes the next turn: a pass is one read that finds the
// line in the other core's cache and one write that takes it back. The
// time starts once both goroutines are running, so that no wakeup is
// timed, and ends after handoffPasses passes or, past handoffBudget, after
// those made so far.
func handoffTry() float64 {
	var line struct {
		_    cpu.CacheLinePad
		turn atomic.Int64 // the next pass's number; -1: stop
		_    cpu.CacheLinePad
	}
	var up atomic.Int32
	var ns float64
	var done sync.WaitGroup
	done.Add(2)
	for me := range int64(2) {
		go func() {
			defer done.Done()
			up.Add(1)
			for up.Load() < 2 {
			}
			start := time.Now()
			// The budget is checked after 16, 32, ..., 1024 passes, then
			// every 1024: a slow machine stops early, and a fast one reads
			// the time a few times a try.
			check := int64(16)
			// Passes me, me+2, ...: together the turn goes 0, 1, ..., passes.
			t := me
			for ; t < handoffPasses; t += 2 {
				v := line.turn.Load()
				for ; v != t && v >= 0; v = line.turn.Load() {
				}
				if v < 0 {
					return // the other one stopped early
				}
				if me == 0 && t >= check {
					if time.Since(start) > handoffBudget {
						line.turn.Store(-1)
						break
					}
					check = min(2*check, check+1024)
				}
				line.turn.Store(t + 1)
			}
			if me == 0 {
				for t == handoffPasses && line.turn.Load() != handoffPasses {
				}
				ns = float64(time.Since(start).Nanoseconds()) / float64(t)
			}
		}()
	}
	done.Wait()
	return ns
}

// Around runs a parallel benchmark's timed loop and reports, as
// handoff-ns, the slower of the handoffs just before and just after it,
// both out of the timed span (the machine can change mode within a
// benchmark). At GOMAXPROCS 1 it reports nothing. The timer is left
// stopped.
func Around(b *testing.B, run func()) {
	b.StopTimer()
	h := Handoff()
	b.StartTimer()
	run()
	b.StopTimer()
	if h = max(h, Handoff()); !math.IsNaN(h) {
		b.ReportMetric(h, "handoff-ns")
	}
}
