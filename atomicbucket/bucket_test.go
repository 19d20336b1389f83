package atomicbucket

import (
	"errors"
	"math"
	"math/bits"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed997/sluice/clock"
	"github.com/seed997/sluice/internal/countertest"
	"github.com/seed997/sluice/internal/oracle"
)

// maxPrime is the largest prime below MaxUnit: per second it reduces to
// nothing, so its unit is 1/1048573 ns.
const maxPrime = 1048573

// impl is the contract both buckets keep; every test runs over both.
type impl interface {
	Allow(l *Limit, clk clock.Clock, cost int64) Status
	Take(l *Limit, clk clock.Clock, cost int64) Decision
	TakeAt(l *Limit, now time.Duration, cost int64) Decision
	Peek(l *Limit, now time.Duration, cost int64) Decision
	Refund(l *Limit, now time.Duration, tokens int64) Status
	Evict(l *Limit, clk clock.Clock, now, idle time.Duration) bool
	Dead() bool
}

var impls = []struct {
	name string
	make func(l *Limit, now time.Duration) impl
}{
	{"cas", func(l *Limit, now time.Duration) impl { return NewBucket(l, now) }},
	{"mutex", func(l *Limit, now time.Duration) impl { return NewMutexBucket(l, now) }},
}

func mustLimit(t testing.TB, n int64, per time.Duration, burst int64) *Limit {
	t.Helper()
	l, err := NewLimit(n, per, burst)
	if err != nil {
		t.Fatal(err)
	}
	return &l
}

// step is one row of a timeline: at t, ask for n tokens, expect the result.
type step struct {
	t         time.Duration
	n         int64
	want      Status
	remaining int64
}

func run(t *testing.T, b impl, l *Limit, steps []step) {
	t.Helper()
	for i, s := range steps {
		d := b.TakeAt(l, s.t, s.n)
		if d.Status != s.want || d.Remaining != s.remaining {
			t.Fatalf("step %d: TakeAt(%v, %d) = %v remaining %d; want %v remaining %d",
				i, s.t, s.n, d.Status, d.Remaining, s.want, s.remaining)
		}
	}
}

func TestSteps(t *testing.T) {
	const s = time.Second
	cases := []struct {
		name       string
		n          int64
		per        time.Duration
		burst      int64
		steps      []step
		reduceUnit uint64
	}{
		{"7 per second, burst 1", 7, s, 1, []step{
			{0, 1, Allowed, 0},
			{1, 1, Denied, 0},
			{s / 7, 1, Denied, 0}, // 142857142ns < 1s/7
			{s/7 + 1, 1, Allowed, 0},
			{2 * s / 7, 1, Denied, 0}, // 285714285ns < 2s/7 = 285714285.71ns
			{2*s/7 + 1, 1, Allowed, 0},
			{s, 1, Allowed, 0},
			{s, 1, Denied, 0},
		}, 7},
		{"3 per 10s, burst 3", 3, 10 * s, 3, []step{
			{0, 1, Allowed, 2},
			{0, 1, Allowed, 1},
			{0, 1, Allowed, 0},
			{0, 1, Denied, 0},
			{3 * s, 1, Denied, 0},
			{3333333333, 1, Denied, 0},
			{3333333334, 1, Allowed, 0},
			{10 * s, 2, Allowed, 0},
			{10 * s, 1, Denied, 0},
		}, 3},
		{"costs and burst", 10, s, 5, []step{
			{0, 5, Allowed, 0},
			{0, 6, TooLarge, 0},
			{0, 0, Invalid, 0},
			{0, -3, Invalid, 0},
			{300 * time.Millisecond, 4, Denied, 3},
			{400 * time.Millisecond, 4, Allowed, 0},
			{time.Hour, 1, Allowed, 4},
		}, 1},
	}
	for _, c := range cases {
		for _, im := range impls {
			t.Run(c.name+"/"+im.name, func(t *testing.T) {
				l := mustLimit(t, c.n, c.per, c.burst)
				if l.unit != c.reduceUnit {
					t.Fatalf("unit = %d, want %d", l.unit, c.reduceUnit)
				}
				run(t, im.make(l, 0), l, c.steps)
			})
		}
	}
}

func TestNewLimitErrors(t *testing.T) {
	cases := []struct {
		n     int64
		per   time.Duration
		burst int64
	}{
		{0, time.Second, 1}, {-1, time.Second, 1}, {1, 0, 1}, {1, -time.Second, 1},
		{1, time.Second, 0}, {1, time.Second, -5},
		{MaxUnit + 1, time.Nanosecond, 1},                // reduced count too large
		{1048583, time.Second, 1},                        // a prime just above 2^20
		{1, 100 * 365 * 24 * time.Hour, 1 << 40},         // burst·period too long
		{1, time.Duration(math.MaxInt64), math.MaxInt64}, // product overflows 64 bits
	}
	for _, c := range cases {
		_, err := NewLimit(c.n, c.per, c.burst)
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("NewLimit(%d, %v, %d) error = %v, want ErrInvalid", c.n, c.per, c.burst, err)
		}
	}
}

// TestOracle holds both buckets to the exact rational model on random
// streams: every field of every decision must match.
func TestOracle(t *testing.T) {
	rates := []struct {
		n   int64
		per time.Duration
	}{
		{7, time.Second}, {3, 10 * time.Second}, {1, 365 * 24 * time.Hour}, {1000003, time.Second},
		{5_000_000, time.Second}, {maxPrime, time.Second}, {MaxUnit, 1953125}, {13, 17 * time.Nanosecond}, {999, time.Minute},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, r := range rates {
		for _, im := range impls {
			burst := 1 + rng.Int64N(20)
			l := mustLimit(t, r.n, r.per, burst)
			for _, start := range []time.Duration{0, math.MaxInt64 - time.Duration(r.per)*50, -time.Hour} {
				b := im.make(l, start)
				o := oracle.New(r.n, r.per, burst, start)
				now := start
				for i := 0; i < 2000; i++ {
					next := now + time.Duration(rng.Int64N(int64(r.per)/r.n*3+2))
					if next < now {
						break // the oracle's times are plain int64 (TestSaturationExact crosses the wrap)
					}
					now = next
					cost := 1 + rng.Int64N(burst)
					got, want := b.TakeAt(l, now, cost), o.Take(now, cost)
					if got.OK() != want.OK || got.Remaining != want.Remaining ||
						got.RetryAfter != want.RetryAfter || got.ResetAfter != want.ResetAfter {
						t.Fatalf("%s %d/%v burst %d start %v, request %d at %v cost %d:\n got %+v\nwant %+v",
							im.name, r.n, r.per, burst, start, i, now, cost, got, want)
					}
				}
			}
		}
	}
}

// TestSaturationExact drives a bucket with requests at exactly the instants
// its RetryAfter names, over long simulated horizons, and checks that by
// time t it has admitted exactly floor((burst + floor(n·t/d))/cost) requests:
// no drift, and never one more. Costs near the burst make decades of
// simulated time cheap, and the start near the end of int64 makes the
// clock wrap half way. A per-token interval rounded to whole nanoseconds
// drifts by cost·(rounding) per request and fails the long cases.
//
// The cost stays below the burst: were they equal, the bucket would be full
// at each exact token instant and lose the fraction of a nanosecond until
// the next whole-nanosecond request, as any token bucket read at a 1ns
// resolution must (TestOracle covers that case exactly).
func TestSaturationExact(t *testing.T) {
	const year = 365 * 24 * time.Hour
	cases := []struct {
		n           int64
		per         time.Duration
		burst, cost int64
		span        time.Duration
	}{
		{7, time.Second, 3, 1, 10_000 * time.Second},
		{7, time.Second, 1_000_000, 999_999, 100 * year},
		{3, 10 * time.Second, 2, 1, 100_000 * time.Second},
		{3, 10 * time.Second, 5_000_000, 4_999_999, 200 * year},
		{1000003, time.Second, 1_000_000, 999_999, 100_000 * time.Second},
		{maxPrime, time.Second, 1 << 30, 1<<30 - 7, 1_000_000 * time.Second},
		{1, year, 2, 1, 100 * year},
	}
	for _, c := range cases {
		for _, im := range impls {
			l := mustLimit(t, c.n, c.per, c.burst)
			start := time.Duration(math.MaxInt64) - c.span/2 // wraps half way
			b := im.make(l, start)
			var admitted []time.Duration // offsets from start
			now := start
			for now-start <= c.span {
				d := b.TakeAt(l, now, c.cost)
				if d.OK() {
					admitted = append(admitted, now-start)
					continue
				}
				if d.RetryAfter <= 0 {
					t.Fatalf("%s: denied with RetryAfter %v", im.name, d.RetryAfter)
				}
				now += d.RetryAfter
			}
			want := (c.burst + mulDiv(c.n, int64(c.span), int64(c.per))) / c.cost
			if int64(len(admitted)) != want {
				t.Fatalf("%s %d/%v cost %d: admitted %d in %v, want %d", im.name, c.n, c.per, c.cost, len(admitted), c.span, want)
			}
			checkIntervals(t, admitted, c.n, c.per, c.burst, c.cost)
		}
	}
}

// checkIntervals checks intervals [t_i, t_j] of the admission times:
// (j-i+1)·cost <= burst + floor(n·(t_j-t_i)/per). Starts more than a few
// hundred admissions back have earned far more than they spent.
func checkIntervals(t *testing.T, at []time.Duration, n int64, per time.Duration, burst, cost int64) {
	t.Helper()
	for j := range at {
		for i := max(0, j-300); i <= j; i++ {
			if int64(j-i+1)*cost > burst+mulDiv(n, int64(at[j]-at[i]), int64(per)) {
				t.Fatalf("admissions %d..%d (cost %d) in %v exceed burst %d + %d/%v", i, j, cost, at[j]-at[i], burst, n, per)
			}
		}
	}
}

// mulDiv is floor(a·b/c) for non-negative a, b and positive c, in 128 bits.
func mulDiv(a, b, c int64) int64 {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	q, _ := bits.Div64(hi, lo, uint64(c))
	return int64(q)
}

// TestMonotone: an earlier time than the state has seen never loosens a
// decision and never moves the state backwards.
func TestMonotone(t *testing.T) {
	for _, im := range impls {
		l := mustLimit(t, 10, time.Second, 5)
		b := im.make(l, 0)
		for i := 0; i < 5; i++ {
			if !b.TakeAt(l, time.Second, 1).OK() {
				t.Fatal("full bucket denied")
			}
		}
		// Empty at 1s. A goroutine holding a stale time of 0, or one from
		// long ago, must not see tokens that 1s does not have.
		for _, stale := range []time.Duration{0, -time.Hour, 900 * time.Millisecond, -l.Horizon() / 2} {
			if d := b.TakeAt(l, stale, 1); d.OK() {
				t.Fatalf("%s: stale time %v admitted on an empty bucket: %+v", im.name, stale, d)
			}
		}
		if d := b.TakeAt(l, time.Second, 1); d.OK() || d.RetryAfter != 100*time.Millisecond {
			t.Fatalf("%s: state moved: %+v", im.name, d)
		}
	}
}

// An explicit time earlier than a key's state by more than the horizon is
// outside the exact range, and the package doc says what it gets: the
// offset wraps, the bucket may read as full at that time and admit,
// whatever was taken near that time before, and the state moves to it, so
// that at the key's present time the bucket reads as empty for most of a
// horizon. Within the horizon an earlier time only makes a decision
// stricter (TestMonotone); this holds the boundary, at a rate whose
// horizon is 73 minutes, and what lies past it.
func TestEarlierPastHorizon(t *testing.T) {
	for _, im := range impls {
		l := mustLimit(t, 1048573, time.Second, 5) // n' = 1048573
		h := l.Horizon()
		at := 3 * h
		b := im.make(l, at)
		if d := b.TakeAt(l, at, 5); !d.OK() {
			t.Fatalf("%s: full bucket denied its burst: %+v", im.name, d)
		}
		// The state is tau ahead of at. Earlier by up to the horizon less
		// tau and a unit, the offset is exact: denied, and nothing moves.
		for _, back := range []time.Duration{time.Hour, h / 2, h - l.duration(l.tau) - 1} {
			if d := b.TakeAt(l, at-back, 1); d.OK() || d.RetryAfter < back {
				t.Fatalf("%s: %v earlier: %+v, want denied for at least %v", im.name, back, d, back)
			}
		}
		if d := b.TakeAt(l, at, 1); d.OK() || d.RetryAfter > time.Microsecond {
			t.Fatalf("%s: state moved by an earlier time within the horizon: %+v", im.name, d)
		}
		// Earlier by more than the horizon: read as full, admitted.
		back := h + time.Second
		if d := b.TakeAt(l, at-back, 1); !d.OK() || d.Remaining != 4 {
			t.Fatalf("%s: %v earlier, past the horizon: %+v, want admitted from a full bucket", im.name, back, d)
		}
		// And the state is now that time's: at the key's present time the
		// offset wraps the other way, and the key is denied for the
		// horizon less the second it went past it.
		if d := b.TakeAt(l, at, 1); d.OK() || d.RetryAfter < h-2*time.Second {
			t.Fatalf("%s: after a time past the horizon, at the present: %+v, want denied for about %v", im.name, d, h-time.Second)
		}
		// Nor does the wrapped reading know what the key's decisions near
		// that time took: a key drained at 0, then decided on in steps
		// shorter than the horizon to past it, admits its whole burst
		// again at 1ns, 10 admissions in 1ns at a burst of 5.
		b = im.make(l, 0)
		for _, step := range []time.Duration{0, h / 2, h, h + 2*time.Second} {
			if d := b.TakeAt(l, step, 5); !d.OK() {
				t.Fatalf("%s: at %v, a full bucket denied its burst: %+v", im.name, step, d)
			}
		}
		if d := b.TakeAt(l, 1, 5); !d.OK() {
			t.Fatalf("%s: a time a horizon and 2s behind the state was not read as full: %+v", im.name, d)
		}
	}
}

// A new bucket is full at any time, not only from its creator's time on: a
// request with an older time (it read the clock before the creator did)
// gets what it would have got had it come first. Otherwise no sequential
// order explains the two decisions (the stress harness's porcupine check
// found the history).
func TestFreshFullAtEarlierTimes(t *testing.T) {
	for _, im := range impls {
		l := mustLimit(t, 7, time.Second, 5)
		late := im.make(l, 5*time.Second)
		early := im.make(l, 3*time.Second)
		got, want := late.TakeAt(l, 3*time.Second, 2), early.TakeAt(l, 3*time.Second, 2)
		if got != want {
			t.Fatalf("%s: a bucket made at 5s decides %+v at 3s; one made at 3s, %+v", im.name, got, want)
		}
		// And the creator, coming second, sees the token taken at 3s as
		// refilling from 3s: 2 tokens taken, 2/7s refilled by 5s... still
		// exact, and the same as the order early-then-late on one bucket.
		a := late.TakeAt(l, 5*time.Second, 1)
		b := early.TakeAt(l, 5*time.Second, 1)
		if a != b {
			t.Fatalf("%s: then at 5s: %+v vs %+v", im.name, a, b)
		}
	}
}

// TestLimits forces the arithmetic to its edges: the largest unit and
// tolerance, clock readings at both ends of int64, and keys idle for up to
// the horizon.
func TestLimits(t *testing.T) {
	// Largest tolerance: burst·d' = 2^61 exactly.
	l := mustLimit(t, 1, 1<<40, 1<<21)
	if l.tau != MaxTolerance {
		t.Fatalf("tau = %d", l.tau)
	}
	if _, err := NewLimit(1, 1<<40, 1<<21+1); err == nil {
		t.Fatal("tau above 2^61 accepted")
	}
	// Largest unit: 2^20 per 5^9 ns (coprime), a 1/2^20 ns unit.
	u := mustLimit(t, MaxUnit, 1953125, 1)
	if u.unit != MaxUnit || u.Horizon() != time.Duration(half/MaxUnit) {
		t.Fatalf("unit %d horizon %v", u.unit, u.Horizon())
	}
	for _, im := range impls {
		for _, lim := range []*Limit{l, u, mustLimit(t, 1, time.Nanosecond, 1), mustLimit(t, 999983, 7*time.Second, 1000)} {
			for _, start := range []time.Duration{math.MinInt64, -1, 0, math.MaxInt64} {
				b := im.make(lim, start)
				if !b.TakeAt(lim, start, lim.burst).OK() {
					t.Fatalf("%s: full bucket at %v denied its burst", im.name, start)
				}
				if b.TakeAt(lim, start, 1).OK() {
					t.Fatalf("%s: empty bucket at %v admitted", im.name, start)
				}
				// Idle for the whole horizon (minus a ns): exactly full again.
				later := start + lim.Horizon() - 1
				if d := b.TakeAt(lim, later, lim.burst); !d.OK() || d.Remaining != 0 {
					t.Fatalf("%s: after an idle horizon at %v: %+v", im.name, later, d)
				}
			}
		}
	}
}

func TestPeekRefund(t *testing.T) {
	for _, im := range impls {
		l := mustLimit(t, 1, time.Second, 4)
		b := im.make(l, 0)
		if d := b.Peek(l, 0, 4); !d.OK() || d.Remaining != 0 {
			t.Fatalf("%s: peek %+v", im.name, d)
		}
		if d := b.Peek(l, 0, 5); d.Status != TooLarge {
			t.Fatalf("%s: peek over burst %+v", im.name, d)
		}
		b.TakeAt(l, 0, 3)
		if d := b.Peek(l, 0, 2); d.OK() || d.Remaining != 1 || d.RetryAfter != time.Second {
			t.Fatalf("%s: peek after take %+v", im.name, d)
		}
		if st := b.Refund(l, 0, 2); st != Allowed {
			t.Fatalf("%s: refund %v", im.name, st)
		}
		if d := b.Peek(l, 0, 3); !d.OK() || d.Remaining != 0 {
			t.Fatalf("%s: after refund %+v", im.name, d)
		}
		if st := b.Refund(l, 0, 1<<40); st != Allowed {
			t.Fatalf("%s: large refund %v", im.name, st)
		}
		if st := b.Refund(l, 0, 1); st != Allowed { // on a full bucket: nothing to give
			t.Fatalf("%s: refund to a full bucket %v", im.name, st)
		}
		if d := b.TakeAt(l, 0, 4); !d.OK() || d.Remaining != 0 {
			t.Fatalf("%s: refund should fill to the burst, no further: %+v", im.name, d)
		}
		if b.TakeAt(l, 0, 1).OK() {
			t.Fatalf("%s: refund overfilled", im.name)
		}
		if st := b.Refund(l, 0, 0); st != Invalid {
			t.Fatalf("%s: refund 0 = %v", im.name, st)
		}
	}
}

// TestEvictClockBack: a bucket full at the reading Evict is given, but not
// at the clock's time when Evict runs, because the clock went back after
// that reading and a request took tokens at the earlier time, is not
// evicted; a clock that goes forward evicts it (TestEvictionClockBack, in
// package sluice, plays it through a sweep).
func TestEvictClockBack(t *testing.T) {
	for _, im := range impls {
		l := mustLimit(t, 3, 10*time.Nanosecond, 30)
		clk := clock.NewManual(time.Hour)
		b := im.make(l, clk.Now())
		ahead := clk.Now() + time.Microsecond // the sweeper's reading
		if !b.TakeAt(l, clk.Now(), 4).OK() {  // the clock went back, and 4 were taken
			t.Fatalf("%s: 4 tokens from a full bucket", im.name)
		}
		if b.Evict(l, clk, ahead, 10*time.Nanosecond) || b.Dead() {
			t.Fatalf("%s: evicted at a reading ahead of the clock, 4 tokens short at its time", im.name)
		}
		clk.Set(ahead)
		if !b.Evict(l, clk, ahead, 10*time.Nanosecond) || !b.Dead() {
			t.Fatalf("%s: not evicted with the clock at the reading, full and idle", im.name)
		}
	}
}

func TestEvict(t *testing.T) {
	for _, im := range impls {
		l := mustLimit(t, 1, time.Second, 2)
		clk := clock.NewManual(0)
		b := im.make(l, 0)
		b.TakeAt(l, 0, 1) // full again at 1s
		if b.Evict(l, clk, clk.Now(), 0) {
			t.Fatalf("%s: evicted a bucket that is not full", im.name)
		}
		clk.Set(time.Second)
		if b.Evict(l, clk, clk.Now(), time.Millisecond) {
			t.Fatalf("%s: evicted before the idle time", im.name)
		}
		clk.Set(time.Second + time.Millisecond)
		if !b.Evict(l, clk, clk.Now(), time.Millisecond) || !b.Dead() {
			t.Fatalf("%s: not evicted when full and idle", im.name)
		}
		checkDead(t, im.name+": evicted", b, l, clk)
	}
}

// checkDead asks a dead bucket (what says why it is) everything: each
// method answers Evicted, and Evict evicts it no more.
func checkDead(t *testing.T, what string, b impl, l *Limit, clk clock.Clock) {
	t.Helper()
	if b.Evict(l, clk, clk.Now(), 0) {
		t.Fatalf("%s bucket evicted again", what)
	}
	for _, st := range []Status{b.Allow(l, clk, 1), b.Take(l, clk, 1).Status, b.TakeAt(l, 0, 1).Status,
		b.Peek(l, 0, 1).Status, b.Refund(l, 0, 1)} {
		if st != Evicted {
			t.Fatalf("%s bucket answered %v", what, st)
		}
	}
}

// TestConcurrentTake hammers one bucket from many goroutines while another
// advances the clock, and checks the total against burst + floor(n·t/d).
func TestConcurrentTake(t *testing.T) {
	for _, im := range impls {
		t.Run(im.name, func(t *testing.T) {
			l := mustLimit(t, 7, time.Second, 5)
			clk := clock.NewManual(0)
			b := im.make(l, 0)
			var admitted atomic.Int64
			var wg sync.WaitGroup
			stop := make(chan struct{})
			for g := 0; g < 8; g++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						select {
						case <-stop:
							return
						default:
						}
						if b.Allow(l, clk, 1) == Allowed {
							admitted.Add(1)
						}
					}
				}()
			}
			for i := 0; i < 2000; i++ {
				clk.Advance(13 * time.Millisecond)
				if i%64 == 0 {
					time.Sleep(time.Microsecond)
				}
			}
			close(stop)
			wg.Wait()
			span := clk.Now()
			limit := 5 + mulDiv(7, int64(span), int64(time.Second))
			if got := admitted.Load(); got > limit {
				t.Fatalf("admitted %d in %v, limit %d", got, span, limit)
			}
		})
	}
}

// TestContendedDrain empties a full bucket from many goroutines at one
// instant, with costs of 1 to 3, so that admissions race for the same
// tokens and CASes are lost and retried. Each admission reports what it
// left; with the clock still, the tokens it took are (Remaining,
// Remaining+cost], and the admissions' spans must tile (0, burst] exactly:
// a token taken twice overlaps two spans, a token lost in a retry leaves a
// gap, an admission past the burst falls outside.
func TestContendedDrain(t *testing.T) {
	const burst, workers = 30_000, 8
	for _, im := range impls {
		t.Run(im.name, func(t *testing.T) {
			l := mustLimit(t, 1, time.Hour, burst)
			clk := clock.NewManual(time.Hour)
			b := im.make(l, clk.Now())
			spans := make([][][2]int64, workers)
			var wg sync.WaitGroup
			start := make(chan struct{})
			for w := range workers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					for cost := int64(w%3 + 1); ; {
						d := b.Take(l, clk, cost)
						switch d.Status {
						case Allowed:
							spans[w] = append(spans[w], [2]int64{d.Remaining, d.Remaining + cost})
						case Denied:
							if cost == 1 {
								return
							}
							cost = 1 // fewer than cost left: take the rest one by one
						default:
							t.Errorf("%s: %v", im.name, d.Status)
							return
						}
					}
				}()
			}
			close(start)
			wg.Wait()
			taken := make([]int, burst+1) // taken[i]: spans holding token i, 1..burst
			for _, ss := range spans {
				for _, s := range ss {
					if s[0] < 0 || s[1] > burst {
						t.Fatalf("%s: admission took tokens (%d, %d], outside (0, %d]", im.name, s[0], s[1], burst)
					}
					for i := s[0] + 1; i <= s[1]; i++ {
						taken[i]++
					}
				}
			}
			for i := 1; i <= burst; i++ {
				if taken[i] != 1 {
					t.Fatalf("%s: token %d taken %d times", im.name, i, taken[i])
				}
			}
			if d := b.Peek(l, clk.Now(), 1); d.Status != Denied || d.Remaining != 0 {
				t.Fatalf("%s: after the drain Peek says %v with %d left", im.name, d.Status, d.Remaining)
			}
		})
	}
}

// seqClock returns its readings in order, then repeats the last one.
type seqClock struct {
	readings []time.Duration
	reads    int
}

func (c *seqClock) Now() time.Duration {
	i := min(c.reads, len(c.readings)-1)
	c.reads++
	return c.readings[i]
}

// TestStalledReader: a goroutine that read the clock, stalled, and then
// found the state written from later times reads the clock again rather
// than deciding on its stale reading, or worse, mistaking it for a full
// bucket. (Bucket only: the mutex reads the clock inside its lock.)
func TestStalledReader(t *testing.T) {
	l := mustLimit(t, 1, time.Second, 2)
	b := NewBucket(l, 0)
	b.TakeAt(l, 100*time.Second, 2) // others emptied it at 100s
	clk := &seqClock{readings: []time.Duration{time.Second, 101 * time.Second}}
	d := b.Take(l, clk, 1)
	if clk.reads != 2 || !d.OK() || d.Remaining != 0 {
		t.Fatalf("stale reading not refreshed: %d reads, %+v", clk.reads, d)
	}
	// A clock that went backwards stays behind after the re-read: one
	// re-read, then a denial, never a spin.
	clk = &seqClock{readings: []time.Duration{0}}
	if d := b.Take(l, clk, 1); clk.reads != 2 || d.OK() {
		t.Fatalf("backwards clock: %d reads, %+v", clk.reads, d)
	}
	// Not stale, merely empty: one reading, denied.
	clk = &seqClock{readings: []time.Duration{101 * time.Second}}
	if d := b.Take(l, clk, 1); clk.reads != 1 || d.OK() {
		t.Fatalf("fresh denial: %d reads, %+v", clk.reads, d)
	}
	// AllowFrom with a reading the caller took before it stalled: the
	// bucket reads the clock again, as Take does with its own reading.
	clk = &seqClock{readings: []time.Duration{103 * time.Second}}
	if st := b.AllowFrom(l, clk, 2*time.Second, 1); clk.reads != 1 || st != Allowed {
		t.Fatalf("AllowFrom with a stale reading: %d reads, %v", clk.reads, st)
	}
	clk = &seqClock{readings: []time.Duration{103 * time.Second}}
	if st := b.AllowFrom(l, clk, 103*time.Second, 2); clk.reads != 0 || st != Denied {
		t.Fatalf("AllowFrom with a fresh reading: %d reads, %v", clk.reads, st)
	}
	// TakeFrom, the same with a Decision.
	b = NewBucket(l, 0)
	b.TakeAt(l, 100*time.Second, 2) // emptied at 100s
	clk = &seqClock{readings: []time.Duration{101 * time.Second}}
	if d := b.TakeFrom(l, clk, time.Second, 1); clk.reads != 1 || !d.OK() || d.Remaining != 0 {
		t.Fatalf("TakeFrom with a stale reading: %d reads, %+v", clk.reads, d)
	}
	clk = &seqClock{readings: []time.Duration{101 * time.Second}}
	if d := b.TakeFrom(l, clk, 101*time.Second, 1); clk.reads != 0 || d.OK() || d.RetryAfter != time.Second {
		t.Fatalf("TakeFrom with a fresh reading: %d reads, %+v", clk.reads, d)
	}
}

// TestTryOne holds the inlined first attempt to the full decision: from
// the same state at the same time, with no other goroutine, TryOne takes
// the token exactly when TakeAt admits one, and leaves the same state; it
// never takes from a dead bucket, and a false writes nothing. The states
// are drawn around every boundary: full, one token short, a backlog just
// inside and just past the burst, a state ahead of a stalled reading, and
// each of those dead.
func TestTryOne(t *testing.T) {
	oneTokenCases(t, func(l *Limit, now time.Duration, off int64, state uint64) {
		a, b := &Bucket{}, &Bucket{}
		a.state.Store(state)
		b.state.Store(state)
		took := a.TryOne(l, now)
		d := b.TakeAt(l, now, 1)
		if took != d.OK() {
			t.Fatalf("limit %+v offset %d dead %v: TryOne %v, TakeAt %v", *l, off, state&tombstone != 0, took, d.Status)
		}
		if took && a.state.Load() != b.state.Load() {
			t.Fatalf("limit %+v offset %d: TryOne left %#x, TakeAt %#x", *l, off, a.state.Load(), b.state.Load())
		}
		if !took && a.state.Load() != state {
			t.Fatalf("limit %+v offset %d: a false TryOne wrote %#x over %#x", *l, off, a.state.Load(), state)
		}
	})
}

// oneTokenCases calls f on states of several limits, at random times, that
// sit where a one-token decision turns (empty, one token short, exactly
// full, ahead of now by more than the burst) or anywhere at random, a
// quarter of them dead.
func oneTokenCases(t *testing.T, f func(l *Limit, now time.Duration, off int64, state uint64)) {
	rng := rand.New(rand.NewPCG(7, 11))
	limits := []*Limit{
		mustLimit(t, 7, time.Second, 3),
		mustLimit(t, 3, 10*time.Second, 1),
		mustLimit(t, maxPrime, time.Second, 1<<20),
		mustLimit(t, 1, time.Hour, 5),
	}
	for _, l := range limits {
		for i := 0; i < 20000; i++ {
			now := time.Duration(rng.Int64N(1 << 50))
			offsets := []int64{-l.tau, -1, 0, 1, l.tau - l.token, l.tau - l.token + 1, l.tau - 1, l.tau, l.tau + 1, 2 * l.tau,
				rng.Int64N(2*l.tau+2) - l.tau}
			off := offsets[rng.IntN(len(offsets))]
			state := (l.vnow(now) + uint64(off)) & tatMask
			if rng.IntN(4) == 0 {
				state |= tombstone
			}
			f(l, now, off, state)
		}
	}
}

// TestDeniesOne holds the in-line denial to the CAS loop at every boundary:
// where DeniesOne says denied, AllowFrom with a fresh reading denies too and
// neither writes; and every denial AllowFrom makes of a live bucket without
// re-reading the clock (the state at most the burst ahead of now) DeniesOne
// makes as well, so that it is not a check that never fires.
func TestDeniesOne(t *testing.T) {
	fired := 0
	oneTokenCases(t, func(l *Limit, now time.Duration, off int64, state uint64) {
		a, b := &Bucket{}, &Bucket{}
		a.state.Store(state)
		b.state.Store(state)
		denies := a.DeniesOne(l, now)
		// The clock AllowFrom would re-read stands far enough past now for
		// any of these states to admit: where DeniesOne denies, no re-read
		// may be due.
		later := now + time.Duration(2*uint64(l.tau)/uint64(l.unit)+2)
		st := b.AllowFrom(l, clock.NewManual(later), now, 1)
		if a.state.Load() != state {
			t.Fatalf("limit %+v offset %d: DeniesOne wrote %#x over %#x", *l, off, a.state.Load(), state)
		}
		if denies && (st != Denied || b.state.Load() != state) {
			t.Fatalf("limit %+v offset %d dead %v: DeniesOne denied, AllowFrom %v", *l, off, state&tombstone != 0, st)
		}
		live, fresh := state&tombstone == 0, off <= l.tau
		if st == Denied && live && fresh && !denies {
			t.Fatalf("limit %+v offset %d: AllowFrom denied without a re-read, DeniesOne did not", *l, off)
		}
		if denies {
			fired++
		}
	})
	if fired == 0 {
		t.Fatal("DeniesOne never denied")
	}
}

// TestStatusString: every status prints a name of its own (the stress
// harness's messages print them with %v), and a value past the last prints
// "unknown" rather than a neighbour's name.
func TestStatusString(t *testing.T) {
	want := map[Status]string{
		Denied:       "denied",
		Allowed:      "allowed",
		TooLarge:     "too-large",
		Invalid:      "invalid",
		Evicted:      "evicted",
		OverCapacity: "over-capacity",
	}
	for s := Denied; s <= OverCapacity; s++ {
		name, ok := want[s]
		if !ok {
			t.Fatalf("status %d has no name in this test: add it", s)
		}
		if got := s.String(); got != name {
			t.Errorf("Status(%d).String() = %q, want %q", s, got, name)
		}
	}
	if got := (OverCapacity + 1).String(); got != "unknown" {
		t.Errorf("a status past the last prints %q, want \"unknown\"", got)
	}
}

// frozen is the part of the contract a table's growth relies on: Freeze
// hands out the state once, and Thaw gives it to the copy.
type frozen interface {
	impl
	Freeze() (uint64, bool)
	Thaw(uint64)
}

// TestFreezeThaw: a frozen bucket answers Evicted to every method and
// cannot be frozen or evicted again; the bucket thawed from its state
// decides as the original would have, to the token. An evicted bucket
// cannot be frozen (stripes never meet one under their lock, but the
// method's contract says so).
func TestFreezeThaw(t *testing.T) {
	for _, im := range impls {
		l := mustLimit(t, 1, time.Second, 5)
		clk := clock.NewManual(0)
		b := im.make(l, 0).(frozen)
		run(t, b, l, []step{{0, 3, Allowed, 2}})
		state, ok := b.Freeze()
		if !ok || !b.Dead() {
			t.Fatalf("%s: Freeze of a live bucket: ok %v, dead %v", im.name, ok, b.Dead())
		}
		if _, ok := b.Freeze(); ok {
			t.Fatalf("%s: frozen twice", im.name)
		}
		clk.Set(time.Hour) // full and idle, were it alive
		checkDead(t, im.name+": frozen", b, l, clk)

		c := im.make(l, 0).(frozen) // full, until the thaw
		c.Thaw(state)
		if c.Dead() {
			t.Fatalf("%s: thawed bucket dead", im.name)
		}
		run(t, c, l, []step{{0, 3, Denied, 2}, {0, 2, Allowed, 0}, {time.Second, 1, Allowed, 0}, {time.Second, 1, Denied, 0}})

		d := im.make(l, 0).(frozen)
		if !d.Evict(l, clk, clk.Now(), 0) {
			t.Fatalf("%s: a full idle bucket not evicted", im.name)
		}
		if _, ok := d.Freeze(); ok {
			t.Fatalf("%s: an evicted bucket frozen", im.name)
		}
	}
}

// TestFreezeRace has eight goroutines drain a bucket at a still clock; the
// one whose admission is the burst's quarter freezes it, while the others
// are still taking. The copy thawed from that state is then drained: what
// the old bucket admitted and what the copy admits must add up to the burst
// exactly. An admission that landed on the old bucket after its state was
// read would make it more; a token lost in the move, less. The rounds are
// for a Freeze that loads the state and then stores it dead, without the
// CAS: a single round (of 20,000 tokens) caught it in 6 runs of 20 under
// -race and 5 of 200 without; forty rounds of 10,000 catch it in 10 of 10
// under -race, as make test runs this, and 6 of 20 without.
func TestFreezeRace(t *testing.T) {
	const burst, workers, rounds = 10_000, 8, 40
	for _, im := range impls {
		t.Run(im.name, func(t *testing.T) {
			for r := 0; r < rounds; r++ {
				freezeRound(t, im.make, burst, workers)
			}
		})
	}
}

func freezeRound(t *testing.T, newImpl func(*Limit, time.Duration) impl, burst int64, workers int) {
	l := mustLimit(t, 1, time.Hour, burst)
	b := newImpl(l, 0).(frozen)
	var admitted atomic.Int64
	var state uint64
	var froze bool
	var tried atomic.Bool // set after the freeze
	var wg sync.WaitGroup
	for g := 0; g < workers; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				after := tried.Load() // read first: a denial before the freeze is no fault
				switch st := b.TakeAt(l, 0, 1).Status; st {
				case Allowed:
					if admitted.Add(1) == burst/4 {
						state, froze = b.Freeze() // only this goroutine writes them
						tried.Store(true)
					}
				case Evicted:
					return
				case Denied:
					// Drained before the freeze (its goroutine was
					// preempted): ask until it is frozen.
					if after {
						t.Errorf("denied after the freeze: the bucket is not dead")
						return
					}
				default:
					t.Errorf("TakeAt: %v", st)
					return
				}
			}
		}()
	}
	wg.Wait()
	if !froze {
		t.Fatal("Freeze of a live bucket failed")
	}
	before := admitted.Load()
	c := newImpl(l, 0).(frozen)
	c.Thaw(state)
	after := int64(0)
	for c.TakeAt(l, 0, 1).Status == Allowed {
		after++
	}
	if before+after != burst {
		t.Fatalf("admitted %d before the freeze and %d from the copy: %d, want the burst %d",
			before, after, before+after, burst)
	}
}

// TestReadClock: readClock calls the counter and the coarse clock
// directly rather than through the interface, each in its own branch, and
// the counter's in two (TryNow's common case, and Now while the scale does
// not cover the counter). On each kind of clock its reading lies between
// the clock's own readings just before and just after it, give or take
// 1µs on the counter (its steps back where a calibration ends) and not a
// nanosecond on the others. Each is read for 100ms, so that a fresh
// counter is read past its 64ms of calibration, and both of its branches
// are taken. And both
// buckets decide at that reading: at one token an hour, a full bucket
// admits, and one emptied at a reading is denied for the hour less what
// passed since that reading (give or take the slack).
func TestReadClock(t *testing.T) {
	const hour = time.Hour
	for _, kind := range []struct {
		name  string
		make  func(t *testing.T) (clock.Clock, func())
		slack time.Duration
	}{
		{"counter", func(t *testing.T) (clock.Clock, func()) { return countertest.New(t) }, time.Microsecond},
		{"coarse", func(*testing.T) (clock.Clock, func()) {
			c := clock.NewCoarse(time.Millisecond)
			return c, c.Stop
		}, 0},
		{"mono", func(*testing.T) (clock.Clock, func()) { return clock.NewMono(), func() {} }, 0},
		{"manual", func(*testing.T) (clock.Clock, func()) { return clock.NewManual(42 * time.Second), func() {} }, 0},
	} {
		t.Run(kind.name, func(t *testing.T) {
			clk, done := kind.make(t)
			slack := kind.slack
			defer done()
			for reads, start := 0, time.Now(); time.Since(start) < 100*time.Millisecond; reads++ {
				lo := clk.Now()
				v := readClock(clk)
				hi := clk.Now()
				if v < lo-slack || v > hi+slack {
					t.Fatalf("read %d: readClock = %v, outside the clock's [%v, %v]", reads, v, lo, hi)
				}
			}
			l := mustLimit(t, 1, hour, 1)
			for _, im := range impls {
				lo := clk.Now()
				if st := im.make(l, lo).Allow(l, clk, 1); st != Allowed {
					t.Fatalf("%s: a full bucket: Allow %v", im.name, st)
				}
				b := im.make(l, lo)
				b.TakeAt(l, lo, 1) // empty from lo for an hour
				d := b.Take(l, clk, 1)
				hi := clk.Now()
				if d.Status != Denied || d.RetryAfter > hour+slack || d.RetryAfter < hour-(hi-lo)-slack {
					t.Errorf("%s: Take %v, for %v; want denied for the hour less at most %v", im.name, d.Status, d.RetryAfter, hi-lo)
				}
				if st := b.Allow(l, clk, 1); st != Denied {
					t.Errorf("%s: an empty bucket: Allow %v", im.name, st)
				}
			}
		})
	}
}
