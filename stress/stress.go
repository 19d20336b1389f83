// Package stress checks a sluice.Limiter under concurrent load against the
// token bucket's invariants, through the public API only.
//
// A run drives one limiter with many goroutines over a few hot keys (every
// worker hammers them), a Zipf-distributed tail of keys (idle long enough
// to be evicted, and more of them than the key cap holds), and quiet keys
// that one goroutine each owns. Every call is bracketed by two readings of
// time, so the engine's own reading lies between them; afterwards it checks:
//
//   - Upper bound, every key, every window: the tokens admitted by calls that
//     began at or after A and returned by B never exceed
//     burst + floor(n·(B−A)/d). With a manual clock that moves backwards, B−A
//     is the clock's total movement (forward plus backward) over the window,
//     which is what the engine may legitimately spend.
//   - Lower bound, hot keys, monotone clocks: between two denials of one
//     token, a saturated key is admitted at least floor(n·t/d) tokens. It is
//     checked only where the run shows the demand saturating (see Report).
//   - Isolation: each quiet key's decisions, field by field, equal those of
//     an exact reference bucket (internal/oracle) fed the same times, while
//     the hot keys are hammered and the sweeper evicts.
//
// CheckLinear runs many short concurrent histories through porcupine for
// linearizability (see linear.go), and HeldBucket plays one eviction race
// step by step, the one the runs meet only by chance (see held.go).
package stress

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/seed997/sluice"
	"github.com/seed997/sluice/clock"
)

// ClockKind selects the limiter's clock in a run.
type ClockKind int

const (
	// Real is the default monotonic clock.
	Real ClockKind = iota
	// Coarse is clock.Coarse at 100µs.
	Coarse
	// Manual is a clock.Manual that a driver goroutine steps forward in small
	// steps, and now and then jumps far forward (so that every key goes idle
	// and the sweeper evicts keys that are being hammered).
	Manual
	// ManualBackwards is Manual that also steps backwards.
	ManualBackwards
)

func (c ClockKind) String() string {
	return [...]string{"real", "coarse", "manual", "manual-backwards"}[c]
}

// monotone reports whether the clock never goes backwards.
func (c ClockKind) monotone() bool { return c != ManualBackwards }

// Config describes one run. Zero fields take the defaults of Default.
type Config struct {
	Clock    ClockKind
	N        int           // rate: N tokens per Per
	Per      time.Duration //
	Burst    int
	Hot      int           // keys every worker hammers
	Tail     int           // Zipf-distributed keys
	Quiet    int           // keys owned by one quiet goroutine each
	Workers  int           // hammering goroutines
	Duration time.Duration // wall time of the run
	IdleTTL  time.Duration // the limiter's idle TTL: short, so the sweeper works
	MaxKeys  int           // the limiter's key cap: below Hot+Tail+Quiet
	Stripes  int
	Seed     uint64
}

// Default returns the configuration of a run on clock c. Real and coarse
// runs use 7 per second (a token every 142.857142…ms, not a whole number of
// nanoseconds), slow enough that a goroutine preempted mid-call rarely
// hides the saturation of a hot key; manual runs use 3 per 10ns, where a
// refill rounded to whole nanoseconds is 11% too fast.
func Default(c ClockKind) Config {
	cfg := Config{
		Clock: c, N: 7, Per: time.Second, Burst: 5,
		Hot: 4, Tail: 1 << 16, Quiet: 32, Workers: 8,
		Duration: 2 * time.Second, IdleTTL: 5 * time.Millisecond,
		MaxKeys: 1024, Stripes: 8, Seed: 1,
	}
	if c == Manual || c == ManualBackwards {
		cfg.N, cfg.Per, cfg.Burst = 3, 10*time.Nanosecond, 30
		// A TTL under the refill steps' overshoot (drive): the key cap's
		// urgent passes evict only keys idle for the TTL, and with one
		// this short they find the hot keys' refilled buckets idle for
		// it most of the time, and evict them while workers are on them.
		// At the microsecond these runs had before (ten bucket spans),
		// the urgent passes left most of those keys, and two 5 s runs
		// evicted 6k and 11k keys, against 135k and 126k when the passes
		// evicted every full bucket; at 10 ns, 63k to 78k in four runs.
		cfg.IdleTTL = 10 * time.Nanosecond
		// More hot keys, each touched less often: full buckets under fire
		// are what an eviction bug needs to show.
		cfg.Hot, cfg.Tail = 16, 4096
	}
	return cfg
}

func (cfg *Config) fill() {
	d := Default(cfg.Clock)
	for _, f := range []struct {
		v *int
		d int
	}{
		{&cfg.N, d.N}, {&cfg.Burst, d.Burst}, {&cfg.Hot, d.Hot}, {&cfg.Tail, d.Tail},
		{&cfg.Quiet, d.Quiet}, {&cfg.Workers, d.Workers}, {&cfg.MaxKeys, d.MaxKeys}, {&cfg.Stripes, d.Stripes},
	} {
		if *f.v == 0 {
			*f.v = f.d
		}
	}
	for _, f := range []struct {
		v *time.Duration
		d time.Duration
	}{
		{&cfg.Per, d.Per}, {&cfg.Duration, d.Duration}, {&cfg.IdleTTL, d.IdleTTL},
	} {
		if *f.v == 0 {
			*f.v = f.d
		}
	}
}

// Validate reports the first field that a run cannot use, by name.
func (cfg Config) Validate() error {
	cfg.fill()
	switch {
	case cfg.Clock < Real || cfg.Clock > ManualBackwards:
		return fmt.Errorf("stress: clock %d: unknown", cfg.Clock)
	case cfg.Hot < 0 || cfg.Tail < 0 || cfg.Quiet < 0:
		return errors.New("stress: key counts must not be negative")
	case cfg.Hot+cfg.Tail < 1:
		return errors.New("stress: need at least one hot or tail key for the workers")
	case cfg.Workers < 1:
		return fmt.Errorf("stress: workers %d: must be at least 1", cfg.Workers)
	case cfg.Duration < 0:
		return fmt.Errorf("stress: duration %v: must not be negative", cfg.Duration)
	case cfg.Burst < maxCost+1:
		return fmt.Errorf("stress: burst %d: must be at least %d (the largest cost plus one)", cfg.Burst, maxCost+1)
	}
	// n·t must fit in int64 for every window of the run, with room.
	if span := cfg.Duration + time.Hour; int64(cfg.N) > (1<<62)/int64(span) {
		return fmt.Errorf("stress: rate count %d too large to check windows exactly", cfg.N)
	}
	l, err := sluice.New(sluice.Per(cfg.N, cfg.Per), cfg.Burst, cfg.options()...)
	if err != nil {
		return err
	}
	return l.Close()
}

func (cfg Config) options() []sluice.Option {
	return []sluice.Option{sluice.WithIdleTTL(cfg.IdleTTL), sluice.WithMaxKeys(cfg.MaxKeys), sluice.WithStripes(cfg.Stripes)}
}

// costs are the request costs workers draw from: mostly 1, some larger.
var costs = [...]int{1, 1, 1, 1, 2, 3}

const maxCost = 3

// Progress is a live view of a run, sent about every 100ms.
type Progress struct {
	Elapsed   time.Duration
	Decisions int64
	Keys      int
	Evictions int64
}

// Violation is one broken invariant.
type Violation struct {
	Kind   string // "upper bound", "lower bound", "isolation", "key cap", "stats", "linearizability", "held bucket"
	Key    string
	Detail string
}

func (v Violation) String() string { return fmt.Sprintf("%s: key %q: %s", v.Kind, v.Key, v.Detail) }

// Report is what a run measured and checked.
type Report struct {
	Config    Config
	Decisions int64 // every call made (each one is covered by the upper-bound check)
	Admitted  int64
	Refused   int64 // calls refused at the key cap
	Evictions int64
	MaxKeys   int // most keys held at once, sampled

	WindowsChecked int64 // (key, start) pairs whose every window was checked
	LowerChecked   int   // (hot key, span of epochs) windows whose lower bound was checked
	LowerSkipped   int   // windows where saturation could not be shown
	MinSaturation  float64
	QuietChecked   int64 // quiet-key decisions compared with the oracle
	QuietAhead     int64 // of those, answered by a new bucket after an eviction at a later clock reading

	Violations []Violation
}

// OK reports whether the run found no violation.
func (r Report) OK() bool { return len(r.Violations) == 0 }

func (r Report) String() string {
	var b strings.Builder
	c := r.Config
	fmt.Fprintf(&b, "clock=%s rate=%d/%v burst=%d workers=%d keys=%d hot+%d tail+%d quiet cap=%d ttl=%v\n",
		c.Clock, c.N, c.Per, c.Burst, c.Workers, c.Hot, c.Tail, c.Quiet, c.MaxKeys, c.IdleTTL)
	fmt.Fprintf(&b, "  decisions %d (admitted %d, refused at cap %d), evictions %d, most keys held %d\n",
		r.Decisions, r.Admitted, r.Refused, r.Evictions, r.MaxKeys)
	fmt.Fprintf(&b, "  upper bound: %d window starts checked\n", r.WindowsChecked)
	if c.Clock.monotone() {
		fmt.Fprintf(&b, "  lower bound: %d windows of hot keys checked, %d not shown saturated", r.LowerChecked, r.LowerSkipped)
		if r.LowerChecked > 0 {
			fmt.Fprintf(&b, "; lowest admitted/expected %.4f", r.MinSaturation)
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "  isolation: %d quiet decisions matched the oracle (%d of them after an eviction at a later clock reading)\n", r.QuietChecked, r.QuietAhead)
	fmt.Fprintf(&b, "  violations: %d\n", len(r.Violations))
	for i, v := range r.Violations {
		if i == 10 {
			fmt.Fprintf(&b, "    ... %d more\n", len(r.Violations)-10)
			break
		}
		fmt.Fprintf(&b, "    %s\n", v)
	}
	return b.String()
}

// timebase gives the two readings that bracket a call. For monotone clocks
// both are the limiter's own clock. For manual clocks they are odometers of
// the clock's total movement: start is bumped after the clock is set and
// end before, so the engine's reading always lies between them.
type timebase struct {
	l           *sluice.Limiter
	manual      *clock.Manual
	pre, post   atomic.Int64 // odometers: total |movement| before / after Set
	high        atomic.Int64 // highest clock value ever set
	manualValue int64        // driver-owned current value
}

func (tb *timebase) start() int64 {
	if tb.manual == nil {
		return int64(tb.l.Now())
	}
	return tb.post.Load()
}

func (tb *timebase) end() int64 {
	if tb.manual == nil {
		return int64(tb.l.Now())
	}
	return tb.pre.Load()
}

// highest returns the highest clock value the limiter (or its sweeper)
// can have read so far.
func (tb *timebase) highest() time.Duration {
	if tb.manual == nil {
		return tb.l.Now()
	}
	return time.Duration(tb.high.Load())
}

func (tb *timebase) move(to int64) {
	d := to - tb.manualValue
	if d < 0 {
		d = -d
	}
	tb.pre.Add(d)
	if to > tb.high.Load() {
		tb.high.Store(to)
	}
	tb.manual.Set(time.Duration(to))
	tb.manualValue = to
	tb.post.Add(d)
}

type event struct {
	key  int32
	cost int32
	b, a int64
}

// hotStats are one worker's observations of one hot key, merged at the end.
// Time is cut into slots of a quarter token; per slot it keeps the latest
// end of a call that began there and the latest start of a call that began
// and ended within one slot's length (so it ended before the slot after next
// began). Zero is "none": starts and ends are never 0 after t0.
//
// The slots are grouped into epochs of epochSlots, each with its own first
// and last denials, and the lower bound is checked in the window from every
// epoch's first denial to every later epoch's last. One check over the
// whole run was voided by a single stall: a goroutine (or, with the coarse
// clock, its refresher) descheduled for most of a token anywhere in the
// run, which the race detector and a loaded machine make likely in a run of
// seconds, and all hot keys went unchecked at once. A stall now voids only
// the windows across it.
type hotStats struct {
	den      []denials // per epoch
	maxEnd   []int64
	quickBeg []int64
}

// denials are the bounds of one epoch's lower-bound window on a hot key.
type denials struct {
	d1b, d1a int64 // the cost-1 denial that returned first
	d2b, d2a int64 // the cost-1 denial that began last
}

// epochSlots is an epoch's length in slots: 32 quarter tokens, about 1.1s
// at 7 per second, long enough for a few tokens' refill to be owed.
const epochSlots = 32

type worker struct {
	events []event
	hot    []hotStats
	calls  atomic.Int64
	refuse int64
}

// Run drives one limiter as cfg says and checks what it did. The error is
// for a configuration it cannot run; violations are in the Report.
func Run(cfg Config, progress func(Progress)) (Report, error) {
	cfg.fill()
	if err := cfg.Validate(); err != nil {
		return Report{}, err
	}
	rep := Report{Config: cfg}
	opts := cfg.options()
	tb := &timebase{}
	switch cfg.Clock {
	case Coarse:
		c := clock.NewCoarse(100 * time.Microsecond)
		defer c.Stop()
		opts = append(opts, sluice.WithClock(c))
	case Manual, ManualBackwards:
		tb.manualValue = int64(time.Hour) // far from zero: backward steps stay positive
		tb.high.Store(tb.manualValue)
		tb.manual = clock.NewManual(time.Duration(tb.manualValue))
		opts = append(opts, sluice.WithClock(tb.manual))
	}
	l, err := sluice.New(sluice.Per(cfg.N, cfg.Per), cfg.Burst, opts...)
	if err != nil {
		return rep, err
	}
	defer l.Close()
	tb.l = l

	names := keyNames(cfg)
	ttl := cfg.IdleTTL                         // the limiter caps it at half the horizon, decades for these rates
	token := float64(cfg.Per) / float64(cfg.N) // ns per token, for slot sizing only
	slot := max(int64(token/4), 1)
	t0 := tb.start() - 1 // every start and end is after t0
	nslots := int((int64(cfg.Duration)+int64(time.Second))/slot) + 1
	if cfg.Clock == Manual || cfg.Clock == ManualBackwards {
		nslots = 0 // the lower bound is for the real clocks only
	}

	var stop atomic.Bool
	var wg sync.WaitGroup
	workers := make([]*worker, cfg.Workers)
	for i := range workers {
		w := &worker{hot: make([]hotStats, cfg.Hot)}
		for h := range w.hot {
			w.hot[h] = newHotStats(nslots)
		}
		workers[i] = w
		wg.Add(1)
		go func(seed uint64) {
			defer wg.Done()
			w.run(cfg, l, tb, names, &stop, seed, t0, slot, nslots)
		}(cfg.Seed*1000 + uint64(i))
	}
	quiet := make([]*quietWorker, 0, 2)
	for i := 0; i < min(cfg.Quiet, 2); i++ {
		q := &quietWorker{cfg: cfg, l: l, tb: tb, id: i}
		quiet = append(quiet, q)
		wg.Add(1)
		go func(seed uint64) {
			defer wg.Done()
			q.run(&stop, seed)
		}(cfg.Seed*1000 + 500 + uint64(i))
	}
	if tb.manual != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			drive(cfg, tb, ttl, &stop)
		}()
	}

	began := time.Now()
	tick := time.NewTicker(20 * time.Millisecond)
	last := began
	for time.Since(began) < cfg.Duration {
		<-tick.C
		rep.MaxKeys = max(rep.MaxKeys, l.Len())
		if progress != nil && time.Since(last) >= 100*time.Millisecond {
			last = time.Now()
			var n int64
			for _, w := range workers {
				n += w.calls.Load()
			}
			progress(Progress{Elapsed: time.Since(began), Decisions: n, Keys: l.Len(), Evictions: l.Stats().Evictions})
		}
	}
	tick.Stop()
	stop.Store(true)
	wg.Wait()
	st := l.Stats()
	rep.Evictions = st.Evictions

	check(&rep, cfg, names, workers, slot, t0, nslots)
	for _, q := range quiet {
		rep.Decisions += q.calls
		rep.QuietChecked += q.checked
		rep.QuietAhead += q.evictedAhead
		rep.Refused += q.refused
		rep.Violations = append(rep.Violations, q.violations...)
	}
	if rep.MaxKeys > cfg.MaxKeys {
		rep.Violations = append(rep.Violations, Violation{Kind: "key cap", Detail: fmt.Sprintf(
			"%d keys held at once, cap %d", rep.MaxKeys, cfg.MaxKeys)})
	}
	// Every call made was counted by the limiter too.
	if st.Allowed+st.Denied+st.Refused != rep.Decisions {
		rep.Violations = append(rep.Violations, Violation{Kind: "stats", Detail: fmt.Sprintf(
			"limiter counted %d allowed + %d denied + %d refused, harness made %d calls",
			st.Allowed, st.Denied, st.Refused, rep.Decisions)})
	}
	return rep, nil
}

// keyNames builds hot, tail and quiet key names of varied lengths and bytes:
// empty, binary, long.
func keyNames(cfg Config) []string {
	names := make([]string, 0, cfg.Hot+cfg.Tail)
	for i := 0; i < cfg.Hot; i++ {
		names = append(names, fmt.Sprintf("hot-%d", i))
	}
	for i := 0; i < cfg.Tail; i++ {
		switch i % 7 {
		case 0:
			names = append(names, fmt.Sprintf("t%d", i))
		case 1:
			names = append(names, fmt.Sprintf("tail/\x00\xff%d", i))
		case 2:
			names = append(names, strings.Repeat("k", 100)+fmt.Sprint(i))
		default:
			names = append(names, fmt.Sprintf("user:%08d", i))
		}
	}
	if cfg.Tail > 0 {
		names[cfg.Hot] = "" // the empty key is a key like any other
	}
	return names
}

func (w *worker) run(cfg Config, l *sluice.Limiter, tb *timebase, names []string, stop *atomic.Bool, seed uint64, t0, slot int64, nslots int) {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var zipf *rand.Zipf
	if cfg.Tail > 1 {
		zipf = rand.NewZipf(rng, 1.1, 1, uint64(cfg.Tail-1))
	}
	for !stop.Load() {
		var k int
		if cfg.Hot > 0 && (cfg.Tail == 0 || rng.IntN(2) == 0) {
			k = rng.IntN(cfg.Hot)
		} else if zipf != nil {
			k = cfg.Hot + int(zipf.Uint64())
		} else {
			k = cfg.Hot
		}
		c := costs[rng.IntN(len(costs))]
		name := names[k]
		b := tb.start()
		var st sluice.Status
		if c == 1 && k >= cfg.Hot && rng.IntN(2) == 0 {
			// The hot path; a false is a denial or a refusal, and only
			// admissions matter for a tail key.
			if l.Allow(name) {
				st = sluice.Allowed
			} else {
				st = sluice.Denied
			}
		} else {
			d, err := l.AllowN(name, c)
			if err != nil {
				panic(err) // costs are valid: an error here is a bug in the harness
			}
			st = d.Status
		}
		a := tb.end()
		w.calls.Add(1)
		switch st {
		case sluice.Allowed:
			w.events = append(w.events, event{key: int32(k), cost: int32(c), b: b, a: a})
		case sluice.OverCapacity:
			w.refuse++
		}
		if k < cfg.Hot && nslots > 0 {
			h := &w.hot[k]
			if s := (b - t0) / slot; s >= 0 && s < int64(nslots) {
				h.maxEnd[s] = max(h.maxEnd[s], a)
				if a-b < slot {
					h.quickBeg[s] = max(h.quickBeg[s], b)
				}
			}
			if s := (b - t0) / slot; st == sluice.Denied && c == 1 && s < int64(nslots) {
				// D1 is looked for after a warm-up of four slots into the
				// epoch, so that calls that returned before it are on record.
				e := &h.den[s/epochSlots]
				if a < e.d1a && s%epochSlots >= 4 {
					e.d1b, e.d1a = b, a
				}
				if b > e.d2b {
					e.d2b, e.d2a = b, a
				}
			}
		}
		if k >= cfg.Hot && rng.IntN(64) == 0 {
			runtime.Gosched() // let tail keys go idle now and then
		}
	}
}

// drive moves the manual clock: small steps forward (a quarter of the
// bucket's span at most), steps that refill every bucket, now and then a
// jump of 30 spans and 3 TTLs (every key full, and idle for the sweeper;
// 3 µs, as the jump of 3 TTLs was at the TTL of a microsecond these runs
// had before), and for ManualBackwards steps back of up to half the span.
func drive(cfg Config, tb *timebase, ttl time.Duration, stop *atomic.Bool) {
	rng := rand.New(rand.NewPCG(cfg.Seed, 7))
	tau := int64(cfg.Per) * int64(cfg.Burst) / int64(cfg.N)
	for !stop.Load() {
		v := tb.manualValue
		switch r := rng.IntN(1000); {
		case r < 5:
			v += 30*tau + 3*int64(ttl)
		case r < 80 && cfg.Clock == ManualBackwards:
			v -= rng.Int64N(tau/2 + 1)
		case r < 500:
			// Refill the hot keys (a bucket's span or more, the excess
			// mostly past the manual runs' 10 ns TTL): the key cap's
			// urgent passes evict them while workers are on them.
			v += tau + rng.Int64N(tau/2+1)
		default:
			v += rng.Int64N(tau/4 + 1)
		}
		tb.move(v)
		// Give the workers time to drain the buckets between steps.
		for i := 0; i < 20; i++ {
			runtime.Gosched()
		}
	}
}
