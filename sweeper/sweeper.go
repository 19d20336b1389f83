// Package sweeper evicts idle keys in the background, and sooner when the
// key cap is reached, without ever changing a decision on a key used within
// the idle TTL.
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
	"sync/atomic"
	"time"

	"github.com/seed997/sluice/atomicbucket"
	"github.com/seed997/sluice/clock"
	"github.com/seed997/sluice/stripes"
)

// Bucket is what the sweeper needs of a bucket: atomicbucket.Bucket and
// atomicbucket.MutexBucket both satisfy it.
type Bucket[B any] interface {
	stripes.Bucket[B]
	Evict(l *atomicbucket.Limit, clk clock.Clock, now, idle time.Duration) bool
}

// minStep keeps a tiny TTL from turning the sweeper into a busy loop.
const minStep = time.Millisecond

// urgentRest is how many times an urgent pass's length the sweeper waits
// after it before the next: 9, for a tenth of its time at most.
const urgentRest = 9

// Sweeper visits one stripe per tick and sweeps it in the stripe's steps
// (stripes.Stripe.SweepStep), each holding the stripe's lock for a few
// dozen groups; decisions on existing keys never take it. Between steps it
// makes the tables that nearly full stripes ask for (stripes.Table.Asks),
// so that no request waits for a new table's pages, and drops those keys
// come to too slowly (stripes.Server).
//
// At the key cap (Urge) it sweeps every stripe at once, with the same TTL:
// the cap brings the eviction of keys idle for the TTL forward, from up to
// half a TTL after it to at once, and never evicts a key used more
// recently. Evicting every full bucket instead, sluice's first policy,
// made room for a flood of forged keys out of the keys of the users it was
// decided for: a user between two requests, its bucket full, was evicted,
// and its next request, a new key at a cap the flood had filled again,
// was refused (BenchmarkAllowAtCap, TestKeyCapFlood in package sluice).
type Sweeper[B any, P Bucket[B]] struct {
	table *stripes.Table[B, P]
	limit *atomicbucket.Limit
	clock clock.Clock
	ttl   time.Duration
	step  time.Duration

	urgent chan struct{}
	now    chan chan struct{} // SweepNow's requests, each closed when served
	passes atomic.Int64       // urgent passes made, for tests
	busy   atomic.Int64       // their total length in ns, for tests
	most   atomic.Int64       // the longest one's in ns, for tests
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
		now:    make(chan chan struct{}),
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
	// due is the earliest start of the next urgent pass; held, when one was
	// urged before it, delivers on heldC (nil otherwise) when it is due.
	var (
		due   time.Time
		held  *time.Timer
		heldC <-chan time.Time
	)
	defer func() {
		if held != nil {
			held.Stop()
		}
	}()
	// pass makes an urgent pass now and disarms held: a timer that fired
	// while an Urge was being served must not start a second pass at once
	// (under -race, 108 passes in 100 ms of urging, TestUrgeSpaced). urge
	// makes one if it is due, and otherwise arms held for when it is. Each
	// reports false once the sweeper is stopped.
	pass := func() bool {
		if held != nil {
			held.Stop()
		}
		heldC = nil
		return s.urgentPass(&due)
	}
	urge := func() bool {
		wait := time.Until(due)
		if wait <= 0 {
			return pass()
		}
		if held == nil {
			held = time.NewTimer(wait)
		} else {
			held.Reset(wait)
		}
		heldC = held.C
		return true
	}
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
			// The key cap was hit: sweep every stripe now, unless the last
			// such pass ended too recently; then when it is due.
			if !urge() {
				return
			}
		case <-heldC:
			if !urge() {
				return
			}
		case served := <-s.now:
			ok := pass()
			close(served)
			if !ok {
				return
			}
		}
	}
}

// urgentPass sweeps every stripe at the TTL, one after the other, and sets
// due, the earliest start of the next urgent pass: urgentRest times the
// pass's own length after its end (a millisecond at least), so that a
// flood of new keys at the cap, each refused and each urging, keeps the
// sweeper busy a tenth of the time at most. Under a flood a pass mostly
// finds the flood's own keys, none idle yet, and evicts nothing; at 1M
// keys it takes about 20 ms here (16 stripes, BenchmarkSweep's 1.2–1.3 ms
// a stripe), so passes come about 200 ms apart, nothing beside a TTL. It
// reports false if the sweeper was stopped.
func (s *Sweeper[B, P]) urgentPass(due *time.Time) bool {
	start := time.Now()
	for j := 0; j < s.table.Len(); j++ {
		if _, stopped := sweep(s.table, j, s.limit, s.clock, s.ttl, s.stop); stopped {
			return false
		}
	}
	end := time.Now()
	took := end.Sub(start)
	*due = end.Add(max(urgentRest*took, minStep))
	s.busy.Add(int64(took))
	if int64(took) > s.most.Load() {
		s.most.Store(int64(took)) // only this goroutine writes it
	}
	s.passes.Add(1)
	return true
}

// Urge asks for a pass over every stripe now, which evicts the keys idle
// for the TTL at once rather than when the walk reaches their stripe; it
// never blocks, and requests made while one is pending merge into it. A
// pass starts no sooner after the last one than nine times as long as
// that one took, and a millisecond at least.
func (s *Sweeper[B, P]) Urge() {
	select {
	case s.urgent <- struct{}{}:
	default:
	}
}

// SweepNow makes the pass Urge asks for, whenever the last one ended, and
// returns when it is done, or at once if the sweeper is closed: for tests,
// which need a pass known to start after their clock moved.
func (s *Sweeper[B, P]) SweepNow() {
	served := make(chan struct{})
	select {
	case s.now <- served:
		<-served
	case <-s.done:
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
	evict := func(b P) bool { return b.Evict(l, clk, now, idle) }
	for {
		// One reading a step, not one a key: a step takes microseconds,
		// and an older reading only evicts less; Evict reads the clock
		// again only for a bucket full at this one, in case the clock
		// went back since (Bucket.Evict).
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
