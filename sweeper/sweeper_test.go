package sweeper

import (
	"fmt"
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
	testStripe(t, atomicbucket.NewBucket)
	testStripe(t, atomicbucket.NewMutexBucket)
}

type bucket interface {
	Bucket
	TakeAt(l *atomicbucket.Limit, now time.Duration, cost int64) atomicbucket.Decision
	Dead() bool
}

func testStripe[B bucket](t *testing.T, mk func(*atomicbucket.Limit, time.Duration) B) {
	l, _ := atomicbucket.NewLimit(1, time.Second, 2)
	clk := clock.NewManual(0)
	tb, _ := stripes.New[B](1)
	st := tb.At(0)
	var keys []stripes.Key
	for i := 0; i < 10; i++ {
		_, k := tb.Of(fmt.Sprint("k", i))
		b := mk(&l, 0)
		if i%2 == 0 {
			b.TakeAt(&l, 0, 2) // empty until 2s
		}
		st.Map.Store(k, b)
		tb.AddKey(0)
		keys = append(keys, k)
	}
	clk.Set(time.Second) // odd keys full for 1s, even keys owe a second
	if n := Stripe(tb, 0, &l, clk, time.Second); n != 5 {
		t.Fatalf("evicted %d, want the 5 full ones", n)
	}
	if st.Map.Size() != 5 || tb.Keys() != 5 || st.Evictions.Load() != 5 {
		t.Fatalf("size %d keys %d evictions %d", st.Map.Size(), tb.Keys(), st.Evictions.Load())
	}
	for i, k := range keys {
		if _, ok := st.Map.Load(k); ok != (i%2 == 0) {
			t.Fatalf("key %d present=%v", i, ok)
		}
	}
}

// racer is a bucket whose eviction is followed at once by a request that
// removes the dead entry, as create does when the key cap refuses a new
// bucket; it lands between the sweeper's mark and its delete.
type racer struct {
	b       *atomicbucket.Bucket
	onEvict func()
}

func (r *racer) Evict(l *atomicbucket.Limit, clk clock.Clock, idle time.Duration) bool {
	ok := r.b.Evict(l, clk, idle)
	if ok {
		r.onEvict()
	}
	return ok
}

// The sweeper must not store anything back under a key whose entry is gone:
// it once stored a nil bucket there, and the next request on the key
// dereferenced it (found by the stress harness).
func TestEntryRemovedUnderSweeper(t *testing.T) {
	l, _ := atomicbucket.NewLimit(1, time.Second, 1)
	clk := clock.NewManual(time.Hour)
	tb, _ := stripes.New[*racer](1)
	st := tb.At(0)
	_, k := tb.Of("k")
	r := &racer{b: atomicbucket.NewBucket(&l, 0)}
	r.onEvict = func() { st.Map.Delete(k) }
	st.Map.Store(k, r)
	tb.AddKey(0)
	if n := Stripe(tb, 0, &l, clk, time.Second); n != 1 {
		t.Fatalf("evicted %d, want 1", n)
	}
	if v, ok := st.Map.Load(k); ok {
		t.Fatalf("an entry came back under the key: %v", v)
	}
}
