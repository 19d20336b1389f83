package clock

import (
	"sync"
	"testing"
	"time"

	"github.com/seed997/sluice/internal/cpupin"
)

// fakeCounter is a counter and a monotonic clock driven by the test: the
// counter runs at rate counts per nanosecond from base, and can jump, be
// reset, or be read with a gap between reads (an interrupted sample).
type fakeCounter struct {
	ns    time.Duration // the monotonic reading
	base  uint64        // counter at ns = from
	from  time.Duration
	rate  float64 // counts per ns since from
	noise uint64  // added to every other counter read
	reads int
}

// count is the counter as the clock's calibration reads it: every second
// read carries the noise, so that each sample's two reads are noise apart.
func (f *fakeCounter) count() uint64 {
	f.reads++
	if f.reads%2 == 0 {
		return f.now() + f.noise
	}
	return f.now()
}

// now is the counter without noise, as the clock's readers see it.
func (f *fakeCounter) now() uint64 { return f.base + uint64(float64(f.ns-f.from)*f.rate) }

func (f *fakeCounter) mono() time.Duration { return f.ns }

// setRate changes the counter's rate from now on, continuously.
func (f *fakeCounter) setRate(r float64) {
	f.base, f.from, f.rate = f.base+uint64(float64(f.ns-f.from)*f.rate), f.ns, r
}

// drive advances the fake time by step until d has passed, reading the
// counter clock at each step; it fails on a step back and returns the
// largest distance from the monotonic clock seen after skip has passed.
func drive(t *testing.T, c *Counter, f *fakeCounter, d, step, skip time.Duration) time.Duration {
	t.Helper()
	var worst time.Duration
	prev := c.at(f.now())
	for end, start := f.ns+d, f.ns; f.ns < end; {
		f.ns += step
		v := c.at(f.now())
		if v < prev {
			t.Fatalf("at %v the clock went back from %v to %v", f.ns, prev, v)
		}
		prev = v
		if f.ns-start >= skip {
			worst = max(worst, v-f.ns, f.ns-v)
		}
	}
	return worst
}

// Until the samples span minCalibration the counter clock is the monotonic
// clock; then it reads the counter, to the nanosecond on a steady counter.
func TestCounterCalibrates(t *testing.T) {
	f := &fakeCounter{ns: 5 * time.Second, base: 1 << 40, from: 5 * time.Second, rate: 2.9}
	c := newCounter(f.count, f.mono)
	for f.ns < 5*time.Second+minCalibration {
		if v := c.at(f.now()); v != f.ns {
			t.Fatalf("calibrating: read %v, monotonic %v", v, f.ns)
		}
		// The anchor's sample is the only one until minCalibration has
		// passed: a read while calibrating is one monotonic read.
		if f.reads != 8 {
			t.Fatalf("calibrating: %d counter reads at %v; want the anchor's 8", f.reads, f.ns-5*time.Second)
		}
		f.ns += time.Millisecond
	}
	if worst := drive(t, c, f, time.Second, 3*time.Microsecond, 0); worst > time.Nanosecond {
		t.Fatalf("calibrated on a steady counter, off by %v", worst)
	}
	if s := c.p.Load(); s.span == 0 || s.mult == 0 {
		t.Fatalf("never left calibration: %+v", s)
	}
}

// A counter whose rate drifts against the monotonic clock (as NTP slews
// the latter) is followed: readings stay monotonic, the offset is slewed
// away, never stepped, and stays within the drift over a span or so.
func TestCounterSlews(t *testing.T) {
	f := &fakeCounter{ns: time.Second, base: 7, from: time.Second, rate: 3}
	c := newCounter(f.count, f.mono)
	drive(t, c, f, time.Second, 10*time.Microsecond, 0)
	f.setRate(3 * (1 + 50e-6)) // 50 ppm fast
	// 50 ppm over a 100 ms span is 5 µs; the rate estimate catches up.
	if worst := drive(t, c, f, 5*time.Second, 7*time.Microsecond, 0); worst > 10*time.Microsecond {
		t.Fatalf("drifting counter: off by %v", worst)
	}
	f.setRate(3 * (1 - 80e-6))
	if worst := drive(t, c, f, 5*time.Second, 7*time.Microsecond, 0); worst > 20*time.Microsecond {
		t.Fatalf("drifting counter: off by %v", worst)
	}
	if worst := drive(t, c, f, 20*time.Second, 50*time.Microsecond, 18*time.Second); worst > 2*time.Microsecond {
		t.Fatalf("the offset was not slewed away: off by %v", worst)
	}
}

// A counter that jumps (a suspended machine, a migrated VM) is stepped back
// onto the monotonic clock at the next calibration; one that goes back
// (reset) starts calibrating again and the monotonic clock answers.
func TestCounterJumpsAndResets(t *testing.T) {
	f := &fakeCounter{ns: time.Second, from: time.Second, rate: 3}
	c := newCounter(f.count, f.mono)
	drive(t, c, f, time.Second, 10*time.Microsecond, 0)

	f.base += 3e9 // one second of counts, with no time passing
	f.ns += maxSpan
	if v := c.at(f.now()); v-f.ns > time.Microsecond || f.ns-v > time.Microsecond {
		t.Fatalf("after a counter jump, read %v, monotonic %v", v, f.ns)
	}
	drive(t, c, f, time.Second, 10*time.Microsecond, 0)

	f.base, f.from = 0, f.ns // reset
	f.ns += time.Millisecond
	if v := c.at(f.now()); v != f.ns {
		t.Fatalf("after a counter reset, read %v, monotonic %v", v, f.ns)
	}
	if worst := drive(t, c, f, time.Second, 10*time.Microsecond, minCalibration); worst > time.Nanosecond {
		t.Fatalf("recalibrated after a reset, off by %v", worst)
	}
}

// Interrupted samples are not used: calibration waits for a clean one, and
// a calibrated clock carries on with its scale meanwhile.
func TestCounterBadSamples(t *testing.T) {
	f := &fakeCounter{ns: time.Second, from: time.Second, rate: 3, noise: 2 * badSample}
	c := newCounter(f.count, f.mono)
	drive(t, c, f, time.Second, 10*time.Microsecond, 0)
	if s := c.p.Load(); s.span != 0 {
		t.Fatalf("calibrated from interrupted samples: %+v", s)
	}
	f.noise = 0
	drive(t, c, f, time.Second, 10*time.Microsecond, 0)
	f.noise = 2 * badSample
	// The scale carries on past its span: the last slew and the rate's
	// 32-bit fraction add up to nanoseconds over a second.
	if worst := drive(t, c, f, time.Second, 10*time.Microsecond, 0); worst > 100*time.Nanosecond {
		t.Fatalf("carrying on with the scale, off by %v", worst)
	}
}

// A counter read on a core whose counter trails the base a little gets the
// base's reading, not a recalibration.
func TestCounterSkew(t *testing.T) {
	f := &fakeCounter{ns: time.Second, from: time.Second, rate: 3}
	c := newCounter(f.count, f.mono)
	drive(t, c, f, time.Second, 10*time.Microsecond, 0)
	s := c.p.Load()
	if v := c.at(s.base - 100); v != s.ns {
		t.Fatalf("a counter just behind the base read %v, want %v", v, s.ns)
	}
	if c.p.Load() != s {
		t.Fatal("a counter just behind the base recalibrated")
	}
}

// onRealCounter readies the calling goroutine to read the real counter,
// or skips t where it cannot be tested. Where the kernel keeps time by the
// counter, it has checked that every core's counter agrees, and nothing
// more is needed. Where the processor's counter is invariant but the
// kernel keeps time by another clock (a VM booted with the TSC marked
// unstable, keeping time by kvm-clock), one core's counter still ticks at
// one rate and only the cores' agreement is in doubt: the goroutine is
// locked to a thread pinned to one CPU, so that the counter code is tested
// on the real counter there too, rather than skipped. It returns that CPU,
// or -1, for the goroutines a test starts, and the unpin to defer.
func onRealCounter(t *testing.T) (cpu int, unpin func()) {
	t.Helper()
	why := counterUsable()
	if why == nil {
		return -1, func() {}
	}
	if err := counterInvariant(); err != nil {
		t.Skip(err)
	}
	cpu, unpin, err := cpupin.PinOne()
	if err != nil {
		t.Skipf("%v, and the test cannot pin itself to one CPU: %v", why, err)
	}
	t.Logf("%v: the counter is read on CPU %d alone", why, cpu)
	return cpu, unpin
}

// The real counter against the real monotonic clock: every reading lies
// between monotonic readings taken just before and just after it, give or
// take the calibration error; a preemption only widens the bracket.
func TestCounterTracksMono(t *testing.T) {
	_, unpin := onRealCounter(t)
	defer unpin()
	m := NewMono()
	c := newCounter(rdtsc, m.Now)
	const slack = 20 * time.Microsecond
	var worst time.Duration
	prev := c.Now()
	for end := m.Now() + 400*time.Millisecond; m.Now() < end; {
		lo := m.Now()
		v := c.Now()
		hi := m.Now()
		if v < prev {
			t.Fatalf("went back from %v to %v", prev, v)
		}
		prev = v
		if v < lo-slack || v > hi+slack {
			t.Fatalf("counter read %v outside monotonic [%v, %v]", v, lo, hi)
		}
		worst = max(worst, lo-v, v-hi)
	}
	if c.p.Load().span == 0 {
		t.Fatal("never calibrated in 400ms")
	}
	t.Logf("worst distance outside the monotonic bracket: %v", worst)
}

// Many goroutines read while the clock calibrates and recalibrates (run it
// under -race). Each sees time go forward, save for steps back no longer
// than a sample's width where calibration ends. Where onRealCounter pins
// the test to one CPU, the goroutines share it: they still interleave,
// preempted, and the race detector sees their accesses as it does on many.
func TestCounterConcurrent(t *testing.T) {
	cpu, unpin := onRealCounter(t)
	defer unpin()
	c := newCounter(rdtsc, NewMono().Now)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if cpu >= 0 {
				unpin, err := cpupin.PinTo(cpu)
				if err != nil {
					t.Errorf("pinning a reader to CPU %d: %v", cpu, err)
					return
				}
				defer unpin()
			}
			prev := c.Now()
			for end := prev + 300*time.Millisecond; prev < end; {
				v := c.Now()
				if v < prev-time.Microsecond {
					t.Errorf("went back from %v to %v", prev, v)
					return
				}
				prev = max(prev, v)
			}
		}()
	}
	wg.Wait()
}

func TestDefault(t *testing.T) {
	d := Default()
	if Default() != d {
		t.Fatal("Default is not shared")
	}
	_, counter := d.(*Counter)
	if err := counterUsable(); (err == nil) != counter {
		t.Fatalf("Default is %T, counter usable: %v", d, err)
	}
}

// TryNow is Now's arithmetic on the real counter, bracketed by counter
// reads around it (give or take the slack that a move to another core,
// whose counter may trail by a few cycles, could need), and reports false
// wherever its scale does not cover the counter: the zero scale, a scale
// whose span has passed, and one based ahead of the counter (Now's
// calibration path handles all three).
func TestTryNow(t *testing.T) {
	_, unpin := onRealCounter(t)
	defer unpin()
	c := newCounter(rdtsc, NewMono().Now)
	if v, ok := c.TryNow(); ok {
		t.Fatalf("the zero scale read %v", v)
	}
	now := rdtsc()
	s := &scale{base: now - 1<<20, ns: time.Hour, mult: 3 << 31, span: 1 << 40} // 1.5 ns a count
	c.p.Store(s)
	const slack = 2 * time.Microsecond
	for range 1000 {
		lo := rdtsc()
		v, ok := c.TryNow()
		hi := rdtsc()
		if !ok || v < s.read(lo)-slack || v > s.read(hi)+slack {
			t.Fatalf("TryNow read %v, %v; the scale gives [%v, %v]", v, ok, s.read(lo), s.read(hi))
		}
	}
	for _, s := range []*scale{
		{base: now - 1<<20, mult: 1 << 32, span: 1 << 10}, // its span has passed
		{base: now + 1<<40, mult: 1 << 32, span: 1 << 50}, // based ahead of the counter
	} {
		c.p.Store(s)
		if v, ok := c.TryNow(); ok {
			t.Fatalf("scale %+v read %v at counter %d", *s, v, rdtsc())
		}
	}
}
