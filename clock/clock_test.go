package clock

import (
	"runtime"
	"sort"
	"testing"
	"time"
)

func TestManual(t *testing.T) {
	m := NewManual(5)
	if m.Now() != 5 || m.Advance(10) != 15 || m.Now() != 15 {
		t.Fatal("advance")
	}
	m.Set(-3) // backwards on purpose
	if m.Now() != -3 {
		t.Fatal("set")
	}
	var z Manual
	if z.Now() != 0 {
		t.Fatal("zero value")
	}
}

func TestMonoMonotone(t *testing.T) {
	m := NewMono()
	prev := m.Now()
	for i := 0; i < 100000; i++ {
		now := m.Now()
		if now < prev {
			t.Fatalf("went back from %v to %v", prev, now)
		}
		prev = now
	}
}

// A coarse reading lags, never leads: it is never later than a monotonic
// reading of the same origin taken after it, and it never goes backwards.
func TestCoarseNeverAhead(t *testing.T) {
	c := NewCoarse(100 * time.Microsecond)
	defer c.Stop()
	prev := c.Now()
	deadline := time.Now().Add(50 * time.Millisecond)
	moved := false
	for time.Now().Before(deadline) {
		now := c.Now()
		if after := c.mono.Now(); now > after {
			t.Fatalf("coarse %v ahead of monotonic %v", now, after)
		}
		if now < prev {
			t.Fatalf("coarse went back from %v to %v", prev, now)
		}
		moved = moved || now != prev
		prev = now
		runtime.Gosched()
	}
	if !moved {
		t.Fatal("coarse clock never advanced")
	}
	c.Stop()
	c.Stop() // twice is fine
	stopped := c.Now()
	time.Sleep(2 * time.Millisecond)
	if c.Now() != stopped {
		t.Fatal("stopped clock still moves")
	}
}

// TestCoarseResolutionFloor: a resolution below a microsecond, zero or
// negative included, is raised to one, as NewCoarse documents, rather than
// handed to the ticker, which panics on a non-positive period in the
// clock's own goroutine. The clock runs and advances.
func TestCoarseResolutionFloor(t *testing.T) {
	for _, r := range []time.Duration{0, -time.Second, time.Nanosecond} {
		c := NewCoarse(r)
		start := c.Now()
		deadline := time.Now().Add(5 * time.Second)
		for c.Now() == start && time.Now().Before(deadline) {
			time.Sleep(100 * time.Microsecond)
		}
		moved := c.Now() != start
		c.Stop()
		if !moved {
			t.Errorf("NewCoarse(%v): the clock never advanced", r)
		}
	}
}

// BenchmarkNow is the cost of a reading of each clock.
func BenchmarkNow(b *testing.B) {
	for _, c := range []struct {
		name string
		clk  Clock
	}{{"mono", NewMono()}, {"default", Default()}, {"coarse", NewCoarse(time.Millisecond)}, {"manual", NewManual(0)}} {
		b.Run("clock="+c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				c.clk.Now()
			}
		})
		if cc, ok := c.clk.(*Coarse); ok {
			cc.Stop()
		}
	}
	// The default clock's TryNow, inlined as Allow calls it, with Now
	// where it reports false.
	if c, ok := Default().(*Counter); ok {
		c.Now()
		b.Run("clock=default-trynow", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, ok := c.TryNow(); !ok {
					c.Now()
				}
			}
		})
	}
}

// BenchmarkCoarseLag measures the resolution a coarse clock gives up: how
// far its reading trails the monotonic clock, sampled while the caller
// spins (median and 99th percentile, as lag-p50-ns and lag-p99-ns).
func BenchmarkCoarseLag(b *testing.B) {
	for _, res := range []time.Duration{100 * time.Microsecond, time.Millisecond} {
		b.Run("resolution="+res.String(), func(b *testing.B) {
			c := NewCoarse(res)
			defer c.Stop()
			time.Sleep(3 * res)
			lags := make([]time.Duration, 0, b.N)
			for i := 0; i < b.N; i++ {
				now := c.Now()
				lags = append(lags, c.mono.Now()-now)
			}
			sort.Slice(lags, func(i, j int) bool { return lags[i] < lags[j] })
			b.ReportMetric(float64(lags[len(lags)/2]), "lag-p50-ns")
			b.ReportMetric(float64(lags[len(lags)*99/100]), "lag-p99-ns")
		})
	}
}
