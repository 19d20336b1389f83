// Package mutant switches on deliberate bugs in the engine, so that the
// stress harness can prove it catches them (a harness that passes every
// engine proves nothing). The switches exist only in builds with the tag
// sluice_mutants; in every other build Is is a constant false that the
// compiler removes, so the hot path carries no trace of them.
package mutant

// Kind names one deliberate bug.
type Kind int32

// The mutants. Each breaks one guarantee that DESIGN.md names.
const (
	None Kind = iota
	// CASAsStore replaces the bucket's compare-and-swap with a load and a
	// plain store: concurrent takers overwrite each other's tokens.
	CASAsStore
	// SweepNoMark makes the sweeper delete an idle key without marking its
	// bucket evicted: a goroutine holding the old pointer spends tokens on
	// an orphan while a new full bucket is made for the key.
	SweepNoMark
	// StateBackwards lets a clock reading behind the state pull the state
	// back to that reading, as if the debt had been paid.
	StateBackwards
	// RoundedRefill rounds the time per token down to whole nanoseconds,
	// as a limiter that divides the period by the count does.
	RoundedRefill
)

// Kinds lists the mutants, for tests that walk them.
var Kinds = []Kind{CASAsStore, SweepNoMark, StateBackwards, RoundedRefill}

func (k Kind) String() string {
	switch k {
	case None:
		return "none"
	case CASAsStore:
		return "cas-as-store"
	case SweepNoMark:
		return "sweep-no-mark"
	case StateBackwards:
		return "state-backwards"
	case RoundedRefill:
		return "rounded-refill"
	}
	return "unknown"
}
