// Package sweeper evicts idle keys in the background and makes room at the
// key cap, without ever changing a decision.
//
// A full bucket is indistinguishable from a bucket never created, so only a
// full bucket is evicted, and eviction is a state of the bucket itself: the
// sweeper first marks the bucket evicted with a CAS from the full state it
// observed, then deletes the key's slot, under the stripe's lock. A
// goroutine holding the old pointer meets the mark and looks the key up
// again, so it can never spend tokens on an orphan; the slot is never
// reused under it.
package sweeper

import (
	"runtime"
	"sync"
	"time"

	"github.com/seed997/sluice/atomicbucket"
	"github.com/seed997/sluice/clock"
	"github.com/seed997/sluice/stripes"
)

// Bucket is what the sweeper needs of a bucket: atomicbucket.Bucket and
// atomicbucket.MutexBucket both satisfy it.
type Bucket[B any] interface {
	stripes.Bucket[B]
	Evict(l *atomicbucket.Limit, now, idle time.Duration) bool
}

// minStep keeps a tiny TTL from turning the sweeper into a busy loop.
const minStep = time.Millisecond

// Sweeper visits one stripe per tick and sweeps it in the stripe's steps
// (stripes.Stripe.SweepStep), each holding the stripe's lock for a few
// dozen groups; decisions on existing keys never take it. Between steps it
// makes the tables that nearly full stripes ask for (stripes.Table.Asks),
// so that no request waits for a new table's pages, and drops those keys
// come to too slowly (stripes.Server).
type Sweeper[B any, P Bucket[B]] struct {
	table *stripes.Table[B, P]
	limit *atomicbucket.Limit
	clock clock.Clock
	ttl   time.Duration
	step  time.Duration

	urgent chan struct{}
	stop   chan struct{}
	done   chan struct{}
	once   sync.Once
}

// TTL returns the idle time after which a full key is evicted: the
// configured ttl, capped at half the limit's horizon so that no key stays
// unswept long enough to leave the exact range.
func TTL(l *atomicbucket.Limit, ttl time.Duration) time.Duration {
	return min(ttl, l.Horizon()/2)
}

// Start begins sweeping: every key whose bucket has been full for TTL(l, ttl)
// is evicted within about 1.5 TTL. Close stops it.
func Start[B any, P Bucket[B]](t *stripes.Table[B, P], l *atomicbucket.Limit, clk clock.Clock, ttl time.Duration) *Sweeper[B, P] {
	ttl = TTL(l, ttl)
	// A full walk takes ttl/2, so a key is evicted at most 1.5 ttl after
	// its bucket filled, and well within the horizon.
	step := max(ttl/2/time.Duration(t.Len()), minStep)
	s := &Sweeper[B, P]{
		table: t, limit: l, clock: clk, ttl: ttl, step: step,
		urgent: make(chan struct{}, 1),
		stop:   make(chan struct{}),
		done:   make(chan struct{}),
	}
	go s.run()
	return s
}

func (s *Sweeper[B, P]) run() {
	defer close(s.done)
	tick := time.NewTicker(s.step)
	defer tick.Stop()
	var tables stripes.Server[B, P]
	for i := 0; ; {
		select {
		case <-s.stop:
			return
		case <-tick.C:
			if _, stopped := sweep(s.table, i, s.limit, s.clock, s.ttl, s.stop); stopped {
				return
			}
			i = (i + 1) % s.table.Len()
		case st := <-s.table.Asks():
			// A stripe nearly full: make the table it will grow into
			// here, so that no request waits for its pages.
			tables.Ask(st)
		case <-tables.Due():
			tables.Review()
		case <-s.urgent:
			// The key cap was hit: evict every full bucket now, whatever
			// its idle time, one stripe at a time.
			for j := 0; j < s.table.Len(); j++ {
				if _, stopped := sweep(s.table, j, s.limit, s.clock, 0, s.stop); stopped {
					return
				}
			}
		}
	}
}

// Urge asks for an immediate pass that evicts every full bucket; it never
// blocks, and requests made while one is pending merge into it.
func (s *Sweeper[B, P]) Urge() {
	select {
	case s.urgent <- struct{}{}:
	default:
	}
}

// Close stops the sweeper and waits for its goroutine to finish: it
// returns once the goroutine has done its last work (closing its done
// channel), an instant before the runtime stops counting it. It may be
// called more than once.
func (s *Sweeper[B, P]) Close() {
	s.once.Do(func() { close(s.stop) })
	<-s.done
}

// Stripe evicts from stripe i every bucket that has been full for at least
// idle, and returns how many it evicted.
func Stripe[B any, P Bucket[B]](t *stripes.Table[B, P], i int, l *atomicbucket.Limit, clk clock.Clock, idle time.Duration) int {
	n, _ := sweep(t, i, l, clk, idle, nil)
	return n
}

// sweep is Stripe, a pass of the stripe's SweepStep, which holds the
// stripe's lock for one step at a time; between steps it yields, so that
// a goroutine the unlock woke (onto this P, to run next) takes the lock,
// and it stops, reporting stopped, once stop is closed (nil: never), so
// that Close never waits for a pass over a large stripe, nor for one
// started over again and again by the growths of a flood of new keys.
func sweep[B any, P Bucket[B]](t *stripes.Table[B, P], i int, l *atomicbucket.Limit, clk clock.Clock, idle time.Duration, stop <-chan struct{}) (evicted int, stopped bool) {
	st := t.At(i)
	var now time.Duration
	evict := func(b P) bool { return b.Evict(l, now, idle) }
	for {
		// One reading a step, not one a key: a step takes microseconds,
		// and an older reading only evicts less (Bucket.Evict).
		now = clk.Now()
		n, done := st.SweepStep(evict)
		t.DropKeys(n)
		evicted += n
		if done {
			return evicted, false
		}
		select {
		case <-stop:
			return evicted, true
		default:
		}
		runtime.Gosched()
	}
}
