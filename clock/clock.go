// Package clock provides the time sources of a sluice limiter: the process's
// monotonic clock (Mono), the processor's counter scaled to it (Counter, the
// default where it is usable), a coarse cached reading (Coarse), and a
// manual clock for deterministic tests.
//
// A reading is a time.Duration elapsed since the clock's own origin. Only
// differences between readings of one clock mean anything; they are never
// wall-clock instants.
package clock

import (
	"sync"
	"sync/atomic"
	"time"
)

// Clock is a monotonic time source. Now must be safe for concurrent use and
// should not go backwards for a single caller. A limiter tolerates one that
// does (a Manual clock set back, a Counter stepping away a counter jump):
// an earlier reading only makes a decision stricter, while it is within
// the limiter's exact horizon of a key's state (see sluice.Limiter.AllowAt,
// whose explicit times are read the same way).
type Clock interface {
	Now() time.Duration
}

// Mono reads the runtime's monotonic clock. time.Since on a Time that carries
// a monotonic reading reads only the monotonic clock (no wall-clock read), so
// it costs about half of time.Now.
type Mono struct{ origin time.Time }

// NewMono returns a monotonic clock whose origin is now.
func NewMono() *Mono { return &Mono{origin: time.Now()} }

// Now returns the time elapsed since the clock was created.
func (m *Mono) Now() time.Duration { return time.Since(m.origin) }

// Coarse serves a cached monotonic reading that one background goroutine
// refreshes every resolution. A read is one atomic load. The reading lags
// the true time by up to one resolution plus the refresher's scheduling
// delay; a limiter fed a lagging time only decides more strictly.
type Coarse struct {
	now  atomic.Int64
	mono *Mono
	stop chan struct{}
	done chan struct{}
	once sync.Once
}

// NewCoarse starts a coarse clock refreshed every resolution (at least one
// microsecond). Call Stop to end its goroutine.
func NewCoarse(resolution time.Duration) *Coarse {
	if resolution < time.Microsecond {
		resolution = time.Microsecond
	}
	c := &Coarse{mono: NewMono(), stop: make(chan struct{}), done: make(chan struct{})}
	go c.run(resolution)
	return c
}

func (c *Coarse) run(resolution time.Duration) {
	defer close(c.done)
	t := time.NewTicker(resolution)
	defer t.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-t.C:
			c.now.Store(int64(c.mono.Now()))
		}
	}
}

// Now returns the last cached reading.
func (c *Coarse) Now() time.Duration { return time.Duration(c.now.Load()) }

// Stop ends the refresher goroutine and waits for it; the clock then stands
// still. Stop may be called more than once.
func (c *Coarse) Stop() {
	c.once.Do(func() { close(c.stop) })
	<-c.done
}

// Manual is a clock that moves only when told to. The zero value reads 0.
// A limiter's sweeper runs in real time, so a manual clock moved further
// than the limiter's exact horizon (2^62/n' ns, see sluice.WithIdleTTL)
// before the sweeper has passed over the keys leaves idle keys outside it,
// where they read less full than they are: see sluice.Limiter.AllowAt.
type Manual struct{ now atomic.Int64 }

// NewManual returns a manual clock reading start.
func NewManual(start time.Duration) *Manual {
	m := &Manual{}
	m.now.Store(int64(start))
	return m
}

// Now returns the current manual reading.
func (m *Manual) Now() time.Duration { return time.Duration(m.now.Load()) }

// Set moves the clock to t, in either direction (tests use a backwards move
// to check that a limiter never loosens on an earlier time).
func (m *Manual) Set(t time.Duration) { m.now.Store(int64(t)) }

// Advance moves the clock forward by d and returns the new reading.
func (m *Manual) Advance(d time.Duration) time.Duration {
	return time.Duration(m.now.Add(int64(d)))
}
