//go:build sluice_mutants

package stress

import (
	"testing"
	"time"

	"github.com/seed997/sluice/internal/mutant"
)

// TestMutantsCaught runs the harness against deliberately broken engines
// (internal/mutant) and requires each to be caught: a harness that passes
// everything proves nothing. Run with -tags sluice_mutants (make test does).
// The random runs catch sweep-no-mark only when a sweep lands between a
// lookup and its CAS: BenchmarkRandomCatch's one-second runs on the manual
// clocks caught it for 4, then 6, seeds of 24 on 2 cores (2 or 3 in three
// measurements since the key cap evicts only keys idle for the TTL), and
// once in CI ten attempts missed it. HeldBucket plays that race out every
// time. The same runs caught the other three for 21, 22 and 24 seeds of 24
// (20 or 21, 24 and 24 since), and an attempt adds the linearizability
// histories; the ten attempts are slack for them. The test logs what caught
// each mutant and on which attempt.
func TestMutantsCaught(t *testing.T) {
	defer mutant.Set(mutant.None)
	for _, m := range mutant.Kinds {
		t.Run(m.String(), func(t *testing.T) {
			mutant.Set(m)
			defer mutant.Set(mutant.None)
			for attempt := 1; attempt <= 10; attempt++ {
				if by := catch(t, uint64(attempt)); by != "" {
					t.Logf("caught on attempt %d by %s", attempt, by)
					return
				}
			}
			t.Fatalf("mutant %v passed the harness ten times", m)
		})
	}
}

// TestMutantHeldBucket holds HeldBucket alone to the bug it was written
// for: a sweep that evicts without the mark must be caught by the held
// request on every playing. TestMutantsCaught accepts a catch by anything,
// and its random runs catch sweep-no-mark now and then, so a HeldBucket
// that no longer reaches the race (its hold moved before the lookup, when
// AllowN's reading did) passed there until ten attempts in a row missed.
func TestMutantHeldBucket(t *testing.T) {
	mutant.Set(mutant.SweepNoMark)
	defer mutant.Set(mutant.None)
	for range 3 {
		vs, err := HeldBucket()
		if err != nil {
			t.Fatal(err)
		}
		if len(vs) == 0 {
			t.Fatal("sweep-no-mark passed the held-bucket race: the held request did not meet the eviction between its lookup and its CAS")
		}
	}
}

// catch runs every invariant mode, the linearizability check and the
// held-bucket race once, and returns what found a violation first ("" if
// nothing did).
func catch(t *testing.T, seed uint64) string {
	clocks := []ClockKind{Manual, ManualBackwards}
	if seed == 1 {
		clocks = append(clocks, Real)
	}
	if by := runs(t, seed, clocks...); by != "" {
		return by
	}
	lc := DefaultLinear()
	lc.Histories, lc.Seed, lc.OutDir = 50, seed, t.TempDir()
	rep, err := CheckLinear(lc)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Violations) > 0 {
		return "linearizability: " + rep.Violations[0].String()
	}
	vs, err := HeldBucket()
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) > 0 {
		return "the held-bucket race: " + vs[0].String()
	}
	return ""
}

// runs makes a one-second invariant run on each clock and returns what the
// first failing one found ("" if none did).
func runs(tb testing.TB, seed uint64, clocks ...ClockKind) string {
	for _, c := range clocks {
		cfg := Default(c)
		cfg.Duration, cfg.Seed = time.Second, seed
		rep, err := Run(cfg, nil)
		if err != nil {
			tb.Fatal(err)
		}
		if !rep.OK() {
			return c.String() + " run: " + rep.Violations[0].String()
		}
	}
	return ""
}

// BenchmarkRandomCatch measures how often the random runs alone, one
// second on each manual clock, catch each mutant: caught/run is the share
// of seeds that did, one seed an iteration. It is a measurement, not a
// check (TestMutantsCaught is the check); run it with a fixed count:
//
//	go test -tags sluice_mutants -run '^$' -bench RandomCatch -benchtime 24x ./stress
func BenchmarkRandomCatch(b *testing.B) {
	defer mutant.Set(mutant.None)
	for _, m := range mutant.Kinds {
		b.Run(m.String(), func(b *testing.B) {
			mutant.Set(m)
			defer mutant.Set(mutant.None)
			caught := 0
			for i := 0; i < b.N; i++ {
				if runs(b, uint64(i+1), Manual, ManualBackwards) != "" {
					caught++
				}
			}
			b.ReportMetric(float64(caught)/float64(b.N), "caught/run")
			b.ReportMetric(0, "ns/op") // seconds of fixed-length runs: not a speed
		})
	}
}

// TestMutantsOff is the control: with the switches built in but off, the
// same runs find nothing.
func TestMutantsOff(t *testing.T) {
	mutant.Set(mutant.None)
	if by := catch(t, 1); by != "" {
		t.Fatalf("the real engine flagged: %s", by)
	}
}
