package clock

import (
	"math"
	"math/bits"
	"sync"
	"sync/atomic"
	"time"

	"github.com/seed997/sluice/internal/clocktest"
)

// Counter reads the processor's time-stamp counter and scales it to the
// runtime's monotonic clock. The kernel's own monotonic clock is that
// counter scaled, but Go reaches it through the vDSO with a switch to the
// system stack: about 28 ns a read here, more than half of a hot decision
// that uses it. The counter itself is about 10 ns. Counter keeps the scale
// in one immutable record that a reading loads with one atomic load: a
// reading is the counter, a subtraction, a multiplication and a shift.
//
// # Calibration
//
// The scale is measured, not assumed: the first readings are the monotonic
// clock itself, while Counter pairs counter and clock samples; once the
// pairs span 64 ms, readings come from the counter. A scale holds for a
// span of at most half the calibration's length and at most 100 ms, after
// which one reader, under a lock that no other reader waits for, samples
// both clocks again. The rate is measured over the last one to two
// seconds, long enough to be exact to a fraction of a part per million,
// short enough to follow NTP's frequency corrections of the monotonic
// clock. The offset the counter has gathered against the monotonic clock
// is slewed away over the next span by a slightly changed rate, not
// stepped, so that readings stay monotonic.
//
// Two cases step: an offset larger than an eighth of a span (a suspended
// machine, a migrated VM) is stepped away at once, even backwards, and a
// counter that goes back (reset) starts calibration over; and where
// calibration ends, a caller that read the monotonic clock while the first
// scale was being made may next read the counter up to a sample's width
// (tens of nanoseconds) earlier. A limiter fed an earlier time only
// decides more strictly.
//
// Counter readings agree with the monotonic clock to within the sampling
// error, a few nanoseconds on the development machine
// (TestCounterTracksMono asserts 20 µs and logs what it saw).
//
// Counter exists where the processor has an invariant counter and the
// kernel keeps time by it (amd64 Linux with clocksource tsc); NewCounter
// says why not elsewhere, and Default falls back to Mono.
type Counter struct {
	p atomic.Pointer[scale]

	mu    sync.Mutex // held to calibrate; guards what follows
	count func() uint64
	mono  func() time.Duration
	// The rate is measured from the anchor to the latest sample. The next
	// anchor is a sample at least rateWindow later; it takes over once the
	// latest sample is rateWindow past it, so that the rate follows the
	// last one to two windows, long enough to be exact, short enough to
	// follow NTP's frequency changes.
	anchor, next sample
	have         int // how many of anchor and next are set
}

type sample struct {
	t uint64        // counter
	m time.Duration // monotonic reading at t
}

// scale maps a counter value to a reading: ns + (t − base)·mult/2^32, for
// t − base < span. The zero scale (span 0) sends every reading to the
// calibration path.
type scale struct {
	base uint64        // counter at the start of the span
	ns   time.Duration // the reading at base
	mult uint64        // nanoseconds per count, 32.32 fixed point
	span uint64        // counts the scale holds for
}

const (
	// minCalibration is how long the first samples must span before the
	// counter is trusted: a sample's error is typically a few tens of
	// nanoseconds, under a part per million of this; at worst badSample/2
	// counts (1.4 µs at 3 GHz), 21 parts per million.
	minCalibration = 64 * time.Millisecond
	// maxSpan is the longest a scale holds before the next calibration.
	maxSpan = 100 * time.Millisecond
	// rateWindow: the rate is measured over the last one to two of these.
	rateWindow = time.Second
	// badSample: a sample whose two counter reads around the monotonic read
	// are further apart than this (2.7 µs at 3 GHz, about fifty times a
	// clean sample) was interrupted; it is not used.
	badSample = 1 << 13
	// skew: a counter value this far behind the scale's base is another
	// core's counter read a hair earlier, not a reset counter.
	skew = 1 << 20
)

// NewCounter returns a counter clock, or an error that says why the
// counter cannot stand in for the monotonic clock here.
func NewCounter() (*Counter, error) {
	if err := counterUsable(); err != nil {
		return nil, err
	}
	return newCounter(rdtsc, NewMono().Now), nil
}

// The root package's tests decide on the counter clock where NewCounter
// refuses it but the counter is invariant, pinned to one CPU (see
// internal/clocktest); nothing outside the module can reach this.
func init() {
	clocktest.Unchecked = func() (any, error) {
		if err := counterInvariant(); err != nil {
			return nil, err
		}
		return newCounter(rdtsc, NewMono().Now), nil
	}
}

func newCounter(count func() uint64, mono func() time.Duration) *Counter {
	c := &Counter{count: count, mono: mono}
	c.p.Store(&scale{})
	return c
}

// Now returns the time since the clock's origin. It is at(rdtsc()) written
// out, so that the reading is one call (the counter) deep.
func (c *Counter) Now() time.Duration {
	t := rdtsc()
	if s := c.p.Load(); t-s.base < s.span {
		return s.read(t)
	}
	return c.calibrate(t)
}

// TryNow is Now's common case in one call to the counter, small enough
// to inline into its caller: the reading and true when the current scale
// covers the counter's value, which is every reading but about one per
// span, and false when the caller must call Now (its first readings, a
// recalibration, a counter gone back).
func (c *Counter) TryNow() (time.Duration, bool) { return scaled(c.p.Load()) }

// at is the reading at counter value t.
func (c *Counter) at(t uint64) time.Duration {
	if s := c.p.Load(); t-s.base < s.span {
		return s.read(t)
	}
	return c.calibrate(t)
}

// read is the reading at t, for t within the span.
func (s *scale) read(t uint64) time.Duration {
	return s.ns + time.Duration((t-s.base)*s.mult>>32)
}

// extend is the reading s gives at t, past its span if need be; ok is
// false when t is behind s.base by more than skew or too far ahead to
// compute.
func (s *scale) extend(t uint64) (time.Duration, bool) {
	if d := int64(t - s.base); d < 0 {
		return s.ns, d > -skew
	}
	hi, lo := bits.Mul64(t-s.base, s.mult)
	if hi>>31 != 0 {
		return 0, false
	}
	return s.ns + time.Duration(hi<<32|lo>>32), true
}

// sample reads the counter on both sides of a monotonic reading and pairs
// the reading with their midpoint; ok is false if the reads were too far
// apart (an interrupt, a preemption) in each of four tries.
func (c *Counter) sample() (t uint64, m time.Duration, ok bool) {
	best := uint64(math.MaxUint64)
	for range 4 {
		t1 := c.count()
		mm := c.mono()
		t2 := c.count()
		if w := t2 - t1; t2 >= t1 && w < best {
			best, t, m = w, t1+w/2, mm
		}
	}
	return t, m, best <= badSample
}

// calibrate is the slow path: the scale's span is over (or the clock is
// not calibrated yet). One caller at a time samples both clocks and
// publishes the next scale.
func (c *Counter) calibrate(t uint64) time.Duration {
	s := c.p.Load()
	if !c.mu.TryLock() {
		// Another caller is calibrating: carry on with the old scale, or,
		// not yet calibrated, with the monotonic clock.
		if v, ok := s.extend(t); ok && s.span != 0 {
			return v
		}
		return c.mono()
	}
	defer c.mu.Unlock()
	s = c.p.Load()
	if t-s.base < s.span { // another caller just did it
		return s.read(t)
	}
	if s.span != 0 && int64(t-s.base) < 0 && int64(t-s.base) > -skew {
		return s.ns // a core whose counter reads a hair behind the base
	}
	if s.span == 0 && c.have == 1 {
		// Calibrating: only a sample minCalibration after the anchor makes
		// the first scale, so until then the monotonic clock answers
		// alone, without a sample's four paired reads (a read of the first
		// 64 ms took 218-245 ns here with them, 47-53 without).
		if m := c.mono(); m-c.anchor.m < minCalibration {
			return m
		}
	}
	st, m, ok := c.sample()
	if !ok {
		// No clean sample: keep the old scale a little longer, or, not yet
		// calibrated, answer from the monotonic clock.
		if v, ok := s.extend(t); ok && s.span != 0 {
			return v
		}
		return c.mono()
	}
	if c.have == 0 || st <= c.anchor.t || (s.span != 0 && int64(st-s.base) < -skew) {
		// The first sample, or a counter that went back (reset): start over.
		c.anchor, c.have = sample{st, m}, 1
		c.p.Store(&scale{})
		return m
	}
	switch {
	case c.have == 1 && m-c.anchor.m >= rateWindow:
		c.next, c.have = sample{st, m}, 2
	case c.have == 2 && m-c.next.m >= rateWindow:
		c.anchor, c.next = c.next, sample{st, m}
	}
	elapsed := m - c.anchor.m
	if elapsed < minCalibration {
		return m // still calibrating: the monotonic clock answers
	}
	rate := float64(elapsed) / float64(st-c.anchor.t) // ns per count
	span := min(elapsed/2, maxSpan)
	counts := uint64(float64(span) / rate)
	next := scale{base: st, ns: m, mult: uint64(rate * (1 << 32)), span: counts}
	if s.span != 0 {
		// Continue from where the old scale is now, and slew the offset
		// away over the new span, unless it is too large to slew.
		if v, ok := s.extend(st); ok {
			if off := m - v; off > -span/8 && off < span/8 {
				next.ns = v
				next.mult = uint64((rate + float64(off)/float64(counts)) * (1 << 32))
			}
		}
	}
	c.p.Store(&next)
	if v, ok := next.extend(t); ok {
		return v
	}
	return next.ns
}

var defaultClock = sync.OnceValue(func() Clock {
	if c, err := NewCounter(); err == nil {
		return c
	}
	return NewMono()
})

// Default returns the clock a limiter uses unless told otherwise: one
// Counter shared by the whole process where the counter can stand in for
// the monotonic clock (see Counter), and a Mono elsewhere. The shared
// Counter needs no goroutine and nothing to stop.
func Default() Clock { return defaultClock() }
