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

// Around reports the handoff with the benchmark's own figures at two Ps,
// and nothing at one, where Handoff measures nothing.
func TestAround(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	bench := func(b *testing.B) {
		Around(b, func() {
			for range b.N {
			}
		})
	}
	if r := testing.Benchmark(bench); r.N == 0 || r.Extra["handoff-ns"] != 0 {
		t.Fatalf("at GOMAXPROCS 1: N %d, extra %v; want runs and no handoff", r.N, r.Extra)
	}
	if runtime.NumCPU() < 2 {
		t.Skip("one CPU: two spinning goroutines would take turns by time slice")
	}
	runtime.GOMAXPROCS(2)
	if r := testing.Benchmark(bench); !(r.Extra["handoff-ns"] > 0) {
		t.Fatalf("at GOMAXPROCS 2: extra %v; want a handoff-ns", r.Extra)
	}
}
