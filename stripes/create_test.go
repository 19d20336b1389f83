package stripes

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

// BenchmarkCreate creates b.N keys in one stripe, as a flood of new keys
// does, and reports beside the mean cost of a creation the longest calls:
// how long the stripe's lock is held as its table grows, which every other
// creation in the stripe, and every decision that meets a bucket frozen by
// the move, waits out. max-µs is the longest call; over-1ms-ms, the time
// spent in calls longer than a millisecond, all together. Both include
// what the machine adds (a garbage collection's assist, a page fault, the
// VM's own stalls), so compare medians of several runs. A goroutine
// makes the tables the stripe asks for, as the sweeper does. Run it with a
// fixed count (-benchtime 1000000x) to compare tables of one size. Each
// call is timed with two clock readings, which ns/op includes.
func BenchmarkCreate(b *testing.B) {
	tb, _ := New[ctr](1)
	st := tb.At(0)
	keys := make([]Key, b.N)
	for i := range keys {
		_, keys[i] = tb.Of(fmt.Sprintf("user:%011d", i))
	}
	took := make([]time.Duration, b.N)
	// As the sweeper does, make the tables the stripe asks for.
	stop := make(chan struct{})
	defer close(stop)
	go tb.Serve(stop)
	b.ResetTimer()
	for i, k := range keys {
		t0 := time.Now()
		st.LoadOrInsert(k, always, startAt(0))
		took[i] = time.Since(t0)
	}
	b.StopTimer()
	var long time.Duration
	for _, d := range took {
		if d > time.Millisecond {
			long += d
		}
	}
	b.ReportMetric(float64(slices.Max(took).Nanoseconds())/1e3, "max-µs")
	b.ReportMetric(float64(long.Nanoseconds())/1e6, "over-1ms-ms")
}

// BenchmarkMakeTable makes a table for 1M keys in one stripe (214,000
// groups, 55 MB) and writes each of its pages, as Prepare does: what a
// growth of that stripe would otherwise do under the lock, or spread over
// its moves as page faults. Run it with a small fixed count (-benchtime
// 5x); the first op takes fresh memory from the operating system, later
// ones may reuse the heap's, which the runtime zeroes.
func BenchmarkMakeTable(b *testing.B) {
	const groups = 214_000
	for range b.N {
		nt := newTable[ctr](groups, 1)
		touch(nt.groups, func() bool { return true })
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/groups, "ns/group")
}
