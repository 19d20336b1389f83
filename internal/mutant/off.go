//go:build !sluice_mutants

package mutant

// Enabled reports whether this build carries the mutants.
const Enabled = false

// Set does nothing without the sluice_mutants tag and reports false.
func Set(Kind) bool { return false }

// Is is always false without the sluice_mutants tag.
func Is(Kind) bool { return false }
