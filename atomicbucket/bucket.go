package atomicbucket

import (
	"sync/atomic"
	"time"

	"github.com/seed997/sluice/clock"
	"github.com/seed997/sluice/internal/mutant"
)

// Bucket is one key's token bucket: one uint64 updated by a CAS loop. Create
// it with NewBucket; every method takes the Limit it was created with.
type Bucket struct{ state atomic.Uint64 }

// NewBucket returns a full bucket at time now.
func NewBucket(l *Limit, now time.Duration) *Bucket {
	b := &Bucket{}
	b.Start(l, now)
	return b
}

// Start makes b, which nobody else can see yet, a full bucket at time now.
// A table that stores buckets by value initializes them in place with it.
func (b *Bucket) Start(l *Limit, now time.Duration) { b.state.Store(l.fresh(now)) }

// Freeze marks the bucket dead, as eviction does, but keeps its state and
// returns it, so that a table moving its buckets to new memory can carry
// the state over with Thaw. From the CAS that freezes it on, every method
// returns Evicted, so no goroutine can spend tokens on the old copy after
// the state was read. ok is false if the bucket was already dead.
func (b *Bucket) Freeze() (state uint64, ok bool) {
	for {
		old := b.state.Load()
		if old&tombstone != 0 {
			return 0, false
		}
		if b.state.CompareAndSwap(old, old|tombstone) {
			return old, true
		}
	}
}

// Thaw gives b, which nobody else can see yet, a state returned by Freeze.
func (b *Bucket) Thaw(state uint64) { b.state.Store(state &^ tombstone) }

// Dead reports whether the bucket has been evicted.
func (b *Bucket) Dead() bool { return b.state.Load()&tombstone != 0 }

// Allow takes cost tokens at the clock's time and reports only the status;
// it skips the divisions that a full Decision needs.
func (b *Bucket) Allow(l *Limit, clk clock.Clock, cost int64) Status {
	st, _, _ := b.take(l, clk, readClock(clk), cost)
	return st
}

// AllowFrom is Allow with the clock already read: now is clk's reading,
// taken by the caller just before, where it costs the caller least (sluice's
// Allow reads it after hashing the key, before the bucket's load). A state
// further ahead of now than a fresh reading allows makes it read clk again.
func (b *Bucket) AllowFrom(l *Limit, clk clock.Clock, now time.Duration, cost int64) Status {
	st, _, _ := b.take(l, clk, now, cost)
	return st
}

// TryOne is a first, lock-free attempt to take one token at now, a fresh
// reading of the clock, written small enough to inline into its caller,
// where the call into take would cost more than the attempt itself. It
// reports whether it took the token. False decides nothing: the bucket may
// be empty, dead, or ahead of a stalled reading, or another core's CAS may
// have come first; the caller then decides with DeniesOne and AllowFrom,
// which handle each case. Deciding a denial here as well would no longer
// inline, so a denial reads the state twice, both times in line.
//
// It is step's arithmetic for a cost of one, rearranged to shorten the
// chain from the clock's reading to the CAS, which waits for all of it:
// max(TAT−now, 0) + token <= tau is tested as 2·(TAT−now) <= slack, on
// the offset before its sign is extended, and the new TAT is
// max(TAT, now) + token, one conditional move and an add, rather than
// now + max(TAT−now, 0) + token. TestTryOne holds it to step at every
// boundary.
func (b *Bucket) TryOne(l *Limit, now time.Duration) bool {
	old := b.state.Load()
	v := uint64(now) * l.unit  // vnow, unmasked: the masks below drop bit 63
	d := int64((old - v) << 1) // 2·offset(old, v), exactly
	from := v
	if d > 0 {
		from = old
	}
	return d <= l.slack && old&tombstone == 0 &&
		b.state.CompareAndSwap(old, (from+uint64(l.token))&tatMask)
}

// DeniesOne reports whether a request for one token at now, a fresh
// reading of the clock, is certainly denied; it writes nothing. It is
// TryOne's companion for the caller whose TryOne failed, as small, so that
// the common denial (an empty bucket under a flood) is decided in line too,
// without a call into the CAS loop. False decides nothing: the bucket may
// be dead, hold a token after all (another core's refund, or a CAS lost to
// a core that then left tokens), or be further ahead of now than a fresh
// reading allows (a stall since the clock read, which AllowFrom re-reads).
func (b *Bucket) DeniesOne(l *Limit, now time.Duration) bool {
	old := b.state.Load()
	d := int64((old - uint64(now)*l.unit) << 1) // 2·offset, as in TryOne
	return d > l.slack && d <= 2*l.tau && old&tombstone == 0
}

// Take takes cost tokens at the clock's time.
func (b *Bucket) Take(l *Limit, clk clock.Clock, cost int64) Decision {
	return l.describe(b.take(l, clk, readClock(clk), cost))
}

// TakeFrom is Take with the clock already read, as AllowFrom is Allow:
// now is clk's reading, taken by the caller just before (one that started
// the bucket with it need not read the clock again). A state further ahead
// of now than a fresh reading allows makes it read clk again.
func (b *Bucket) TakeFrom(l *Limit, clk clock.Clock, now time.Duration, cost int64) Decision {
	return l.describe(b.take(l, clk, now, cost))
}

// TakeAt takes cost tokens at an explicit time now, which should be a
// reading of the same clock the bucket is otherwise used with. An earlier
// now than a previous decision's makes this one stricter, never looser,
// while it is within the horizon of the state (see the package doc).
func (b *Bucket) TakeAt(l *Limit, now time.Duration, cost int64) Decision {
	return l.describe(b.take(l, nil, now, cost))
}

// readClock reads clk; the default and the coarse clock are called
// directly, not through the interface, the default one by TryNow, which
// inlines.
func readClock(clk clock.Clock) time.Duration {
	switch c := clk.(type) {
	case *clock.Counter:
		if now, ok := c.TryNow(); ok {
			return now
		}
		return c.Now()
	case *clock.Coarse:
		return c.Now()
	}
	return clk.Now()
}

// take is the CAS loop. now is an explicit time (clk nil), or a reading of
// clk that the caller took before the first load, so that the window
// between a load and its CAS is a few instructions: read between them, a
// 30ns clock read made two cores' CASes fail each other and lose to a
// mutex. A retry reuses now: older than the state by nanoseconds, it can
// only make the decision stricter. A state more than the burst ahead of now
// cannot have been written from a fresh time, so it means this goroutine
// stalled after reading the clock; it reads the clock again. Only a stall
// longer than the whole horizon (73 minutes at least, centuries at most
// rates) would go unseen.
func (b *Bucket) take(l *Limit, clk clock.Clock, now time.Duration, cost int64) (Status, int64, int64) {
	if st := l.checkCost(cost); st != Allowed {
		return st, 0, 0
	}
	reread := clk == nil // an explicit time is never re-read
	old := b.state.Load()
	for {
		if old&tombstone != 0 {
			return Evicted, 0, 0
		}
		next, ok, base, need := l.step(old, now, cost)
		if !ok {
			if base > l.tau && !reread {
				// Stalled since the clock read: read it again, once. A clock
				// that went backwards stays behind; deny on its reading.
				reread = true
				now = clk.Now()
				old = b.state.Load()
				continue
			}
			if mutant.Is(mutant.StateBackwards) && base > l.tau {
				// Deliberate bug: forgive the debt of a clock behind the state.
				if v := l.vnow(now); b.state.CompareAndSwap(old, v) {
					old = v
				} else {
					old = b.state.Load()
				}
				continue
			}
			return Denied, base, need // a denial writes nothing
		}
		if mutant.Is(mutant.CASAsStore) {
			b.state.Store(next) // deliberate bug: last writer wins
			return Allowed, base, need
		}
		if b.state.CompareAndSwap(old, next) {
			return Allowed, base, need
		}
		// Contended: another core wrote the state since it was read. Back
		// off before reading it again, so that the core that won keeps the
		// line for its next few decisions instead of losing it at once.
		// Then read it with Add(0), which fetches the line owned: a plain
		// load would fetch it shared, and the CAS would need a second
		// transfer to own it, which another core could win again.
		pause(8)
		old = b.state.Add(0)
	}
}

// Peek reports what Take would decide for cost at now, taking nothing.
func (b *Bucket) Peek(l *Limit, now time.Duration, cost int64) Decision {
	if st := l.checkCost(cost); st != Allowed {
		return Decision{Status: st}
	}
	old := b.state.Load()
	if old&tombstone != 0 {
		return Decision{Status: Evicted}
	}
	_, ok, base, need := l.step(old, now, cost)
	return l.describe(statusOf(ok), base, need)
}

// Refund gives back up to tokens at now (never beyond a full bucket), for a
// caller that took tokens and then did not use them. It returns Evicted if
// the bucket was evicted (it was full: there was nothing to give back),
// Invalid for tokens < 1, and Allowed otherwise.
func (b *Bucket) Refund(l *Limit, now time.Duration, tokens int64) Status {
	if tokens < 1 {
		return Invalid
	}
	for {
		old := b.state.Load()
		if old&tombstone != 0 {
			return Evicted
		}
		if b.state.CompareAndSwap(old, l.refund(old, now, tokens)) {
			return Allowed
		}
	}
}

// Evict marks the bucket evicted if it has been full for at least idle at
// now, a reading of clk, and at a reading of clk taken after the bucket's
// state was loaded, and reports whether it did. From then on every method
// returns Evicted, so a goroutine that still holds the pointer cannot
// spend tokens on an orphan while a new bucket is made for the key.
//
// now may be old, so that a sweeper reads the clock once for many
// buckets, and an older now only evicts less: a bucket full at now and
// taken from since is not in the state the CAS replaces. Unless the clock
// went back after now was read (a manual clock, a caller's own, or the
// counter clock stepping away a jump of the machine's counter): a
// request at its earlier time may have taken tokens that the bucket had
// back by now, and evicting it would let the key start again full at that
// earlier time, burst tokens more than one bucket gives at one instant
// (TestEvictionClockBack, in package sluice). So a bucket full at now is
// tested again at a reading taken after its state: on a clock that only
// goes forward that reading is no earlier and the test passes again, one
// clock read for each bucket found full.
func (b *Bucket) Evict(l *Limit, clk clock.Clock, now, idle time.Duration) bool {
	for {
		old := b.state.Load()
		if old&tombstone != 0 || !l.idle(old, now, idle) || !l.idle(old, clk.Now(), idle) {
			return false
		}
		if mutant.Is(mutant.SweepNoMark) {
			return true // deliberate bug: the caller deletes a live bucket
		}
		if b.state.CompareAndSwap(old, tombstone) {
			return true
		}
	}
}

func statusOf(ok bool) Status {
	if ok {
		return Allowed
	}
	return Denied
}
