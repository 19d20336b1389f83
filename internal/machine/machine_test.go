package machine

import (
	"math"
	"runtime"
	"testing"
)

// Handoff needs two Ps: at one it measures nothing (NaN, which the
// benchmarks do not report), at two a finite time per pass. How long is
// not checked: it is the machine's (a CI run read 3.2 ms a pass, the
// other vCPU descheduled through all four tries, where a bound of 1 ms
// failed the test).
func TestHandoff(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	if h := Handoff(); !math.IsNaN(h) {
		t.Fatalf("handoff at GOMAXPROCS 1: %v, want NaN", h)
	}
	if runtime.NumCPU() < 2 {
		t.Skip("one CPU: two spinning goroutines would take turns by time slice")
	}
	runtime.GOMAXPROCS(2)
	if h := Handoff(); !(h > 0 && !math.IsInf(h, 0)) {
		t.Fatalf("handoff at GOMAXPROCS 2: %v ns a pass", h)
	}
}
