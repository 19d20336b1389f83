//go:build sluice_mutants

package mutant

import "sync/atomic"

// Enabled reports whether this build carries the mutants.
const Enabled = true

var active atomic.Int32

// Set switches on mutant k (None switches all off) and reports whether the
// build carries mutants.
func Set(k Kind) bool { active.Store(int32(k)); return true }

// Is reports whether mutant k is on.
func Is(k Kind) bool { return Kind(active.Load()) == k }
