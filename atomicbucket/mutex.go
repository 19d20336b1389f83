package atomicbucket

import (
	"sync"
	"time"

	"github.com/seed997/sluice/clock"
)

// MutexBucket is the baseline: the same contract and the same arithmetic
// as Bucket, with the state behind a mutex. It exists to be measured against
// (benchmarks) and checked against (every test runs over both); use Bucket.
type MutexBucket struct {
	mu    sync.Mutex
	state uint64
}

// NewMutexBucket returns a full bucket at time now.
func NewMutexBucket(l *Limit, now time.Duration) *MutexBucket {
	return &MutexBucket{state: l.fresh(now)}
}

// Start makes b, which nobody else can see yet, a full bucket at time now.
func (b *MutexBucket) Start(l *Limit, now time.Duration) { b.state = l.fresh(now) }

// Freeze marks the bucket dead and returns the state it had; see
// Bucket.Freeze.
func (b *MutexBucket) Freeze() (state uint64, ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.state&tombstone != 0 {
		return 0, false
	}
	state = b.state
	b.state |= tombstone
	return state, true
}

// Thaw gives b, which nobody else can see yet, a state returned by Freeze.
func (b *MutexBucket) Thaw(state uint64) { b.state = state &^ tombstone }

// Dead is Bucket.Dead.
func (b *MutexBucket) Dead() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.state&tombstone != 0
}

// Allow is Bucket.Allow.
func (b *MutexBucket) Allow(l *Limit, clk clock.Clock, cost int64) Status {
	st, _, _ := b.take(l, clk, 0, cost)
	return st
}

// Take is Bucket.Take.
func (b *MutexBucket) Take(l *Limit, clk clock.Clock, cost int64) Decision {
	return l.describe(b.take(l, clk, 0, cost))
}

// TakeAt is Bucket.TakeAt.
func (b *MutexBucket) TakeAt(l *Limit, now time.Duration, cost int64) Decision {
	return l.describe(b.take(l, nil, now, cost))
}

func (b *MutexBucket) take(l *Limit, clk clock.Clock, now time.Duration, cost int64) (Status, int64, int64) {
	if st := l.checkCost(cost); st != Allowed {
		return st, 0, 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.state&tombstone != 0 {
		return Evicted, 0, 0
	}
	if clk != nil {
		now = readClock(clk) // inside the lock: no other goroutine can make it stale
	}
	next, ok, base, need := l.step(b.state, now, cost)
	if ok {
		b.state = next
	}
	return statusOf(ok), base, need
}

// Peek is Bucket.Peek.
func (b *MutexBucket) Peek(l *Limit, now time.Duration, cost int64) Decision {
	if st := l.checkCost(cost); st != Allowed {
		return Decision{Status: st}
	}
	b.mu.Lock()
	state := b.state
	b.mu.Unlock()
	if state&tombstone != 0 {
		return Decision{Status: Evicted}
	}
	_, ok, base, need := l.step(state, now, cost)
	return l.describe(statusOf(ok), base, need)
}

// Refund is Bucket.Refund.
func (b *MutexBucket) Refund(l *Limit, now time.Duration, tokens int64) Status {
	if tokens < 1 {
		return Invalid
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.state&tombstone != 0 {
		return Evicted
	}
	b.state = l.refund(b.state, now, tokens)
	return Allowed
}

// Evict is Bucket.Evict.
func (b *MutexBucket) Evict(l *Limit, clk clock.Clock, now, idle time.Duration) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.state&tombstone != 0 || !l.idle(b.state, now, idle) || !l.idle(b.state, clk.Now(), idle) {
		return false
	}
	b.state = tombstone
	return true
}
