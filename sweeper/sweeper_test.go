package sweeper

import (
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/seed997/sluice/atomicbucket"
	"github.com/seed997/sluice/clock"
	"github.com/seed997/sluice/stripes"
)

func TestTTLCap(t *testing.T) {
	fast, _ := atomicbucket.NewLimit(atomicbucket.MaxUnit, 1953125, 1) // horizon ~73 min
	slow, _ := atomicbucket.NewLimit(100, time.Second, 1)              // horizon ~146 years
	if got := TTL(&fast, 24*time.Hour); got != fast.Horizon()/2 {
		t.Fatalf("TTL not capped at half the horizon: %v (horizon %v)", got, fast.Horizon())
	}
	if got := TTL(&slow, 24*time.Hour); got != 24*time.Hour {
		t.Fatalf("TTL capped needlessly: %v", got)
	}
}

// Stripe evicts exactly the full, idle buckets, counts them, and leaves a
// bucket that replaced an evicted one in place; for both bucket kinds.
func TestStripe(t *testing.T) {
	testStripe[atomicbucket.Bucket](t)
	testStripe[atomicbucket.MutexBucket](t)
}

type bucket[B any] interface {
	Bucket[B]
	Start(l *atomicbucket.Limit, now time.Duration)
	TakeAt(l *atomicbucket.Limit, now time.Duration, cost int64) atomicbucket.Decision
	Dead() bool
}

func testStripe[B any, P bucket[B]](t *testing.T) {
	l, _ := atomicbucket.NewLimit(1, time.Second, 2)
	clk := clock.NewManual(0)
	tb, _ := stripes.New[B, P](1)
	st := tb.At(0)
	var keys []stripes.Key
	for i := 0; i < 10; i++ {
		_, k := tb.Of(fmt.Sprint("k", i))
		b := st.LoadOrInsert(k, tb.AddKey, func(b P) { b.Start(&l, 0) })
		if i%2 == 0 {
			b.TakeAt(&l, 0, 2) // empty until 2s
		}
		keys = append(keys, k)
	}
	var held []P // the buckets as a request would hold them during the sweep
	for _, k := range keys {
		held = append(held, st.Load(k))
	}
	clk.Set(time.Second) // odd keys full for 1s, even keys owe a second
	if n := Stripe(tb, 0, &l, clk, time.Second); n != 5 {
		t.Fatalf("evicted %d, want the 5 full ones", n)
	}
	if keys, _, _ := st.Size(); keys != 5 || tb.Keys() != 5 || st.Evictions.Load() != 5 {
		t.Fatalf("size %d keys %d evictions %d", keys, tb.Keys(), st.Evictions.Load())
	}
	for i, k := range keys {
		if b := st.Load(k); (b != nil) != (i%2 == 0) {
			t.Fatalf("key %d present=%v", i, b != nil)
		}
		if held[i].Dead() != (i%2 == 1) {
			t.Fatalf("key %d: an evicted bucket not marked dead, or a kept one marked", i)
		}
	}
}

// The sweeper makes the table a nearly full stripe asks for: the stripe's
// memory (Size) then counts a second table while the stripe's own table,
// not yet growing, keeps its size; and drops it when no more keys come.
//
// Keys are created until the stripe asks, and then no more until the table
// is made, unless it was made already as the key that asked was created.
// Creating them on, as a flood does, left the sweeper to make the table
// before the growth came: under make cover, on 2 cores, it missed every
// growth of two million keys in about one run in a hundred. How soon the
// sweeper answers an ask is a matter of speed, for the benchmarks (stripes'
// BenchmarkMakeTable and the new-key scenarios), not of this test.
func TestPrepares(t *testing.T) {
	l, _ := atomicbucket.NewLimit(1, time.Second, 2)
	tb, _ := stripes.New[atomicbucket.Bucket](1)
	sw := Start(tb, &l, clock.NewManual(0), time.Hour)
	defer sw.Close()
	st := tb.At(0)
	_, slots, bytes := st.Size()
	perSlot := bytes / slots // one table, not growing, short keys
	// When a stripe asks (stripes' prepareAt and prepareMin): its table,
	// of at least 128 groups of 8 slots, holds at least 1/8 less than its
	// limit, 7/8 of its slots.
	asked := func(keys, slots int) bool {
		limit := slots / 8 * 7
		return slots >= 128*8 && keys >= limit-limit/8
	}
	quiet := slots // the table's slots when it was last not growing
	for i := 0; ; i++ {
		if i == 2_000_000 {
			t.Fatal("no table made in two million keys")
		}
		_, k := tb.Of(fmt.Sprint("k", i))
		st.LoadOrInsert(k, tb.AddKey, func(b *atomicbucket.Bucket) { b.Start(&l, 0) })
		keys, s, b := st.Size()
		switch {
		case b == s*perSlot && asked(keys, s):
			// One table, not growing, and the stripe has asked: no key
			// now until the table is made.
			deadline := time.Now().Add(5 * time.Second)
			for ; b == s*perSlot; _, _, b = st.Size() {
				if time.Now().After(deadline) {
					t.Fatalf("no table made 5s after the stripe asked (%d keys, %d slots)", keys, s)
				}
				time.Sleep(time.Millisecond)
			}
			if _, now, _ := st.Size(); now != s {
				t.Fatalf("the stripe's table changed from %d slots to %d with no key created", s, now)
			}
		case b == s*perSlot:
			quiet = s
			continue
		case s != quiet:
			continue // a growth moving
		}
		// More than the table, and no growth: a table made for the
		// next, here or already as the key that asked was created.
		slots = s
		break
	}
	// No key comes now, so a review drops the table.
	deadline := time.Now().Add(5 * time.Second)
	for _, _, bytes = st.Size(); bytes != slots*perSlot; _, _, bytes = st.Size() {
		if time.Now().After(deadline) {
			t.Fatalf("the made table still held 5s after the last key (%d bytes, %d slots)", bytes, slots)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestUrgeSpaced: however often the key cap urges, an urgent pass starts
// no sooner than a millisecond after the last one ended (nine times its
// length, if longer), so a flood of refusals cannot keep the sweeper busy: in
// 100 ms of Urge called without pause there are at most 101 passes. A
// slower machine only makes fewer; without the spacing there were
// thousands. Passes longer than a tenth of a millisecond rest nine times
// their length, so the sweeper passes a tenth of its time at most. And an
// Urge made while a pass is held back is not lost: a pass follows it.
func TestUrgeSpaced(t *testing.T) {
	l, _ := atomicbucket.NewLimit(1, time.Second, 2)
	tb, _ := stripes.New[atomicbucket.Bucket](4)
	sw := Start(tb, &l, clock.NewManual(0), time.Hour)
	defer sw.Close()
	const d = 100 * time.Millisecond
	start := time.Now()
	for time.Since(start) < d {
		sw.Urge()
	}
	// The count first: every pass it counts ended before the time is read.
	n := sw.passes.Load()
	elapsed := time.Since(start)
	if most := int64(elapsed/minStep) + 1; n > most || n < 1 {
		t.Fatalf("%d urgent passes in %v of urging, want 1 to %d", n, elapsed, most)
	}
	// Passes long enough that the rest after each, nine times its length,
	// is longer than the millisecond: 100,000 keys, none idle (each has
	// spent a token; a bucket only started reads as idle forever). Each pass
	// but the last is followed by nine times its length before the next
	// starts, so the passes' total length is at most a tenth of the time
	// plus the last one (the longest, to be safe); at rest equal to the
	// pass, as before, it was half the time.
	const keys = 100_000
	big, _ := stripes.New[atomicbucket.Bucket](4)
	for i := range keys {
		st, k := big.Of(fmt.Sprint("k", i))
		st.LoadOrInsert(k, big.AddKey, func(b *atomicbucket.Bucket) {
			b.Start(&l, 0)
			b.TakeAt(&l, 0, 1)
		})
	}
	sw3 := Start(big, &l, clock.NewManual(0), time.Hour)
	defer sw3.Close()
	// 300 ms of urging, and two passes at least: under qemu's emulation
	// (make cross) a pass took longer than the 300 ms.
	start = time.Now()
	for time.Since(start) < 300*time.Millisecond || sw3.passes.Load() < 2 {
		if time.Since(start) > time.Minute {
			t.Fatalf("%d urgent passes in a minute of urging", sw3.passes.Load())
		}
		sw3.Urge()
	}
	n, busy, most := sw3.passes.Load(), time.Duration(sw3.busy.Load()), time.Duration(sw3.most.Load())
	elapsed = time.Since(start)
	if busy > elapsed/10+most || big.Keys() != keys {
		t.Fatalf("%d urgent passes of %v in all (the longest %v) in %v of urging, %d keys left: want a tenth of the time and the longest at most, and every key", n, busy, most, elapsed, big.Keys())
	}
	t.Logf("%d urgent passes of %v in all (the longest %v) in %v of urging", n, busy, most, elapsed)

	// A sweeper no one else urges: its first pass sets the next one's due
	// time a millisecond on, and the Urge right after must wait for it.
	sw2 := Start(tb, &l, clock.NewManual(0), time.Hour)
	defer sw2.Close()
	sw2.SweepNow()
	sw2.Urge()
	deadline := time.Now().Add(10 * time.Second)
	for sw2.passes.Load() < 2 {
		if time.Now().After(deadline) {
			t.Fatal("an Urge made while a pass was held back was never served")
		}
		time.Sleep(time.Millisecond)
	}
}

// BenchmarkSweep times a pass over one stripe of 62,500 keys, what each of
// a limiter's 16 stripes holds at 1M keys, on the default clock: the whole
// pass (ns/op), which held the stripe's lock throughout until the sweep
// took steps, and its steps (p99-step-µs, max-step-µs), the longest a new
// key in the stripe now waits for the sweeper. evict=none: no key is full;
// evict=all: every key is full, and evicted, and the table shrinks.
func BenchmarkSweep(b *testing.B) {
	l, _ := atomicbucket.NewLimit(1, time.Hour, 10)
	clk := clock.Default()
	keys := make([]string, 62_500)
	for i := range keys {
		keys[i] = fmt.Sprintf("key:%09d", i)
	}
	for _, all := range []bool{false, true} {
		name := map[bool]string{false: "evict=none", true: "evict=all"}[all]
		b.Run(name, func(b *testing.B) {
			var steps []time.Duration
			evicted := 0
			for range b.N {
				b.StopTimer()
				tb, _ := stripes.New[atomicbucket.Bucket](1)
				st := tb.At(0)
				for _, key := range keys {
					_, k := tb.Of(key)
					now := clk.Now()
					bk := st.LoadOrInsert(k, tb.AddKey, func(b *atomicbucket.Bucket) { b.Start(&l, now) })
					if !all {
						bk.TakeAt(&l, now, 1) // full again an hour later
					}
				}
				st.Sweep(func(*atomicbucket.Bucket) bool { return false }) // any growth finished
				var now time.Duration
				evict := func(bk *atomicbucket.Bucket) bool { return bk.Evict(&l, clk, now, 0) }
				runtime.GC() // no collection's work in the timed steps
				b.StartTimer()
				for done := false; !done; {
					t0 := time.Now()
					now = clk.Now() // as sweep reads it, once a step
					var n int
					n, done = st.SweepStep(evict)
					steps = append(steps, time.Since(t0))
					evicted += n
				}
			}
			if want := map[bool]int{false: 0, true: len(keys) * b.N}[all]; evicted != want {
				b.Fatalf("evicted %d keys, want %d", evicted, want)
			}
			// The 99th percentile as well as the longest: on a shared
			// machine, the longest is often a step the process was
			// descheduled in.
			slices.Sort(steps)
			b.ReportMetric(float64(steps[len(steps)*99/100].Nanoseconds())/1e3, "p99-step-µs")
			b.ReportMetric(float64(steps[len(steps)-1].Nanoseconds())/1e3, "max-step-µs")
			b.ReportMetric(float64(len(steps))/float64(b.N), "steps/op")
		})
	}
}

// TestClosed: Close may be called again, and a closed sweeper's SweepNow
// and Urge return at once rather than wait for a goroutine that is gone.
func TestClosed(t *testing.T) {
	l, _ := atomicbucket.NewLimit(1, time.Second, 2)
	tb, _ := stripes.New[atomicbucket.Bucket](4)
	sw := Start(tb, &l, clock.NewManual(0), time.Hour)
	sw.Close()
	sw.Close()
	done := make(chan struct{})
	go func() {
		sw.Urge()
		sw.SweepNow()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("SweepNow on a closed sweeper did not return")
	}
}

// TestSweepStops: a pass over a large stripe stops after the step it is
// in once the sweeper is stopped, so that Close never waits for the whole
// pass; without a stop it evicts every idle key.
func TestSweepStops(t *testing.T) {
	l, _ := atomicbucket.NewLimit(1, time.Second, 2)
	clk := clock.NewManual(0)
	tb, _ := stripes.New[atomicbucket.Bucket](1)
	st := tb.At(0)
	const n = 20_000
	for i := range n {
		_, k := tb.Of(fmt.Sprint("k", i))
		st.LoadOrInsert(k, tb.AddKey, func(b *atomicbucket.Bucket) { b.Start(&l, 0) })
	}
	clk.Set(time.Hour) // every key full and idle for an hour
	stop := make(chan struct{})
	close(stop)
	// One step: some keys, or none if the step was one of a growth that
	// the last insert left in progress.
	evicted, stopped := sweep(tb, 0, &l, clk, time.Second, stop)
	if !stopped || evicted >= n {
		t.Fatalf("stopped sweep: evicted %d of %d, stopped %v; want one step's keys", evicted, n, stopped)
	}
	rest, stopped := sweep(tb, 0, &l, clk, time.Second, nil)
	if stopped || evicted+rest != n || tb.Keys() != 0 {
		t.Fatalf("whole sweep: evicted %d more, %d keys left, stopped %v", rest, tb.Keys(), stopped)
	}
}
