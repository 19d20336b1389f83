package grind

import "testing"

// Outside valgrind every request must fall through to its default: the
// benchmarks call Running at start-up and would otherwise count nothing,
// or stall, on every run of make bench.
func TestOutsideValgrind(t *testing.T) {
	if Running() {
		t.Skip("running under valgrind")
	}
	if got := do(42, reqRunning, 0); got != 42 {
		t.Fatalf("a request returned %d outside valgrind, not its default 42", got)
	}
	Toggle()
	Dump("nothing")
}
