package stress

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/seed997/sluice"
	"github.com/seed997/sluice/clock"
)

// heldWait bounds each wait of HeldBucket on the engine, so that an engine
// that never reaches a step fails the check instead of hanging it.
const heldWait = 10 * time.Second

// HeldBucket plays the eviction race step by step instead of leaving it to
// chance. A request finds its key's bucket and is held inside the clock
// read that follows; meanwhile the key cap makes the sweeper evict the key,
// a second request makes a new bucket for it and spends the whole burst,
// and then the held request goes on. It must meet the eviction mark and be
// denied by the new bucket: spending on the bucket it holds would admit
// burst+1 tokens at one instant. Run's workers meet this interleaving only
// when a sweep lands in the nanoseconds between a lookup and its CAS: with
// that bug switched on (internal/mutant's SweepNoMark), one-second runs on
// both manual clocks caught it for 4, then 6, seeds of 24 on 2 cores, and
// for 2 or 3 in three measurements since the key cap evicts only keys idle
// for the TTL (BenchmarkRandomCatch). Here it happens every time.
//
// Allow and AllowN read the clock before the lookup, so the only reading
// after it is the one the engine takes again when the state is further
// ahead of its reading than a fresh one allows (a goroutine that stalled
// after reading the clock). The request's first reading is made that
// stale, and the request is held in the second, between its lookup and
// its CAS. (While AllowN read the clock after the lookup, holding its
// first reading did; holding that one now would let the request look up
// after the eviction, and the race would pass unplayed: TestMutantsCaught
// failed on it.)
//
// The violations are what the engine got wrong; the error is for a race
// that could not be set up (the engine no longer reads the clock after
// finding the bucket, or the sweeper never evicted), which would leave the
// race unchecked rather than passed.
func HeldBucket() ([]Violation, error) {
	const key, burst = "held", 5
	g := &gateClock{m: clock.NewManual(time.Hour), held: make(chan struct{}), release: make(chan struct{})}
	// An hour's TTL keeps the sweeper's own ticks (a stripe every 112 s),
	// and their clock reads, out of the way: only the key cap's urgent
	// pass sweeps here, which evicts keys idle for the TTL.
	l, err := sluice.New(sluice.Per(1, time.Second), burst,
		sluice.WithClock(g), sluice.WithIdleTTL(time.Hour), sluice.WithMaxKeys(1))
	if err != nil {
		return nil, err
	}
	defer l.Close()
	// However the check ends, the held request is let go (a gate never
	// reached stays open for it).
	released := false
	release := func() {
		if !released {
			released = true
			close(g.release)
		}
	}
	defer release()
	var vs []Violation
	bad := func(detail string, a ...any) {
		vs = append(vs, Violation{Kind: "held bucket", Key: key, Detail: fmt.Sprintf(detail, a...)})
	}

	if d, err := l.AllowN(key, 1); err != nil || !d.OK() {
		return nil, fmt.Errorf("stress: held bucket: the key's first request got %v, %v", d.Status, err)
	}
	// The token back and the TTL: the bucket has been full for an hour,
	// so the key cap's urgent pass evicts it.
	g.m.Advance(time.Second + time.Hour)
	g.armed.Store(gateStale)
	got := make(chan sluice.Decision, 1)
	go func() {
		d, _ := l.AllowN(key, 1)
		got <- d
	}()
	select {
	case <-g.held:
	case d := <-got:
		return nil, fmt.Errorf("stress: held bucket: the request decided (%v) without reading the clock after finding its bucket: the race is not reached", d.Status)
	case <-time.After(heldWait):
		return nil, fmt.Errorf("stress: held bucket: the request never read the clock in %v", heldWait)
	}
	// The cap holds one key: a second key is refused and urges a pass that
	// evicts every key idle for the TTL.
	if d, _ := l.AllowN("other", 1); d.Status != sluice.OverCapacity {
		bad("a second key at a cap of one got %v, not %v", d.Status, sluice.OverCapacity)
	}
	for deadline := time.Now().Add(heldWait); l.Len() > 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			return vs, fmt.Errorf("stress: held bucket: the sweeper did not evict the full key in %v", heldWait)
		}
	}
	if d, _ := l.AllowN(key, burst); !d.OK() {
		bad("after the eviction the key's new bucket refused its burst of %d: %v", burst, d.Status)
	}
	release()
	select {
	case d := <-got:
		switch d.Status {
		case sluice.Allowed:
			bad("%d tokens admitted at one instant, bound %d: the request held across the eviction spent on the old bucket", burst+1, burst)
		case sluice.Denied:
		default:
			bad("the request held across the eviction got %v, not denied", d.Status)
		}
	case <-time.After(heldWait):
		return vs, fmt.Errorf("stress: held bucket: the released request did not return in %v", heldWait)
	}
	if ev := l.Stats().Evictions; ev != 1 {
		bad("%d evictions counted, 1 made", ev)
	}
	return vs, nil
}

// gateClock is a manual clock that, once armed, gives its first reading
// stale (gateStale: the reading a stalled goroutine holds), and makes the
// second wait, signalling held, until release is closed: it stops the one
// request that reads it, in the reading the engine takes again after the
// lookup, between the lookup and the decision.
type gateClock struct {
	m       *clock.Manual
	armed   atomic.Int32
	held    chan struct{}
	release chan struct{}
}

// The gate's steps once armed.
const (
	gateOff   = iota // readings are the manual clock's
	gateHold         // the next reading waits for release
	gateStale        // the next reading is staleReading
)

// staleReading is an hour and more before the key's state in HeldBucket
// (the manual clock starts at an hour): far further behind it than the
// burst, so the engine reads the clock again.
const staleReading = 0

func (g *gateClock) Now() time.Duration {
	if g.armed.CompareAndSwap(gateStale, gateHold) {
		return staleReading
	}
	if g.armed.CompareAndSwap(gateHold, gateOff) {
		close(g.held)
		<-g.release
	}
	return g.m.Now()
}
