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
// lookup and its CAS (the manual clocks' runs for 4 seeds of 24 on 2
// cores; once in CI, an attempt's runs and histories not in ten);
// HeldBucket plays that race out every time. The other three are caught
// by the random runs (on 8 attempts of 8 each, seeds 2-9); the ten
// attempts stay as slack for them. The test logs what caught each mutant
// and on which attempt.
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

// catch runs every invariant mode, the linearizability check and the
// held-bucket race once, and returns what found a violation first ("" if
// nothing did).
func catch(t *testing.T, seed uint64) string {
	clocks := []ClockKind{Manual, ManualBackwards}
	if seed == 1 {
		clocks = append(clocks, Real)
	}
	for _, c := range clocks {
		cfg := Default(c)
		cfg.Duration, cfg.Seed = time.Second, seed
		rep, err := Run(cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !rep.OK() {
			return c.String() + " run: " + rep.Violations[0].String()
		}
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

// TestMutantsOff is the control: with the switches built in but off, the
// same runs find nothing.
func TestMutantsOff(t *testing.T) {
	mutant.Set(mutant.None)
	if by := catch(t, 1); by != "" {
		t.Fatalf("the real engine flagged: %s", by)
	}
}
