// Package bench measures sluice beside its own mutex baseline, a floor
// reference, and the Go rate limiters people use, through one small
// interface, in one run. The benchmarks are in bench_test.go; the report
// (table and SVG chart) is cmd/report.
package bench

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	juju "github.com/juju/ratelimit"
	"github.com/puzpuzpuz/xsync/v3"
	golimiter "github.com/sethvargo/go-limiter"
	"github.com/sethvargo/go-limiter/memorystore"
	"github.com/throttled/throttled/v2"
	"github.com/throttled/throttled/v2/store/memstore"
	ulule "github.com/ulule/limiter/v3"
	ulmemory "github.com/ulule/limiter/v3/drivers/store/memory"
	uber "go.uber.org/ratelimit"
	"golang.org/x/time/rate"

	"github.com/seed997/sluice"
	"github.com/seed997/sluice/atomicbucket"
	"github.com/seed997/sluice/clock"
	"github.com/seed997/sluice/stripes"
)

// Limiter is what every implementation is measured through: one decision
// for one key, cost 1.
type Limiter interface {
	Allow(key string) bool
}

// Config is a limit: N per Per, bursts of Burst.
type Config struct {
	N     int
	Per   time.Duration
	Burst int
}

var (
	// Admitting never runs out during a benchmark: 10^9 a second, bursts of 10^9.
	Admitting = Config{N: 1e9, Per: time.Second, Burst: 1e9}
	// Denying is one token an hour: after the first request a key is denied.
	Denying = Config{N: 1, Per: time.Hour, Burst: 1}
)

// Impl is one implementation under test.
type Impl struct {
	Name string
	// PerKey: keys are independent limiters. A single limiter ignores the
	// key and is measured only on one hot key.
	PerKey bool
	// Floor: a reference, not a limiter; it admits everything and is not
	// held to the behaviour checks.
	Floor bool
	// Deny: the implementation can deny without blocking (uber's limiter
	// only paces: it sleeps instead of denying).
	Deny bool
	// CopiesKey: it stores its own copy of the key's bytes (excluded from
	// heap per key).
	CopiesKey bool
	// HotOnly: a variant measured only on the hot key, where it shows what
	// one choice (here, the clock) costs.
	HotOnly bool
	// NewKeyOnly: a variant measured only on new keys, where it shows what
	// one choice (here, the stripe count) buys.
	NewKeyOnly bool
	// GrindOnly: counted under make grind only (cmd/grind), not timed.
	GrindOnly bool
	New       func(Config) (Limiter, func(), error)
}

// Impls is every implementation, sluice first.
var Impls = []Impl{
	{Name: "sluice", PerKey: true, Deny: true, CopiesKey: true, New: newSluice(nil)},
	{Name: "sluice-coarse", PerKey: true, Deny: true, CopiesKey: true, New: newSluice(func() (clock.Clock, func()) {
		c := clock.NewCoarse(100 * time.Microsecond)
		return c, c.Stop
	})},
	{Name: "sluice-mono", PerKey: true, Deny: true, CopiesKey: true, HotOnly: true, New: newSluice(func() (clock.Clock, func()) {
		return clock.NewMono(), func() {}
	})},
	{Name: "sluice-stripes", PerKey: true, Deny: true, CopiesKey: true, NewKeyOnly: true, New: newSluiceStripes},
	{Name: "sluice-mutex", PerKey: true, Deny: true, CopiesKey: true, New: newMutex},
	{Name: "floor", PerKey: true, Floor: true, New: newFloor(clock.Default)},
	{Name: "floor-mono", PerKey: true, Floor: true, HotOnly: true, New: newFloor(func() clock.Clock { return clock.NewMono() })},
	{Name: "harness", PerKey: true, Floor: true, GrindOnly: true, New: newHarness},
	{Name: "x-time-rate", PerKey: true, Deny: true, New: newXRate},
	{Name: "go-limiter", PerKey: true, Deny: true, New: newGoLimiter},
	{Name: "throttled", PerKey: true, Deny: true, New: newThrottled},
	{Name: "ulule", PerKey: true, Deny: true, New: newUlule},
	{Name: "x-time-rate-single", Deny: true, New: newXRateSingle},
	{Name: "juju", Deny: true, New: newJuju},
	{Name: "uber", New: newUber},
}

// Lookup returns the implementation called name.
func Lookup(name string) (Impl, bool) {
	for _, im := range Impls {
		if im.Name == name {
			return im, true
		}
	}
	return Impl{}, false
}

func newSluice(mk func() (clock.Clock, func()), extra ...sluice.Option) func(Config) (Limiter, func(), error) {
	return func(c Config) (Limiter, func(), error) {
		opts := slices.Clone(extra)
		stop := func() {}
		if mk != nil {
			clk, s := mk()
			opts, stop = append(opts, sluice.WithClock(clk)), s
		}
		l, err := sluice.New(sluice.Per(c.N, c.Per), c.Burst, opts...)
		if err != nil {
			stop()
			return nil, nil, err
		}
		return l, func() { l.Close(); stop() }, nil
	}
}

// newSluiceStripes is sluice at 16·GOMAXPROCS stripes, four times the
// default from GOMAXPROCS 4 up (twice it at 2, where the default is its
// floor of 16): a new key is created under its stripe's lock, and more
// stripes make goroutines that create keys at once meet there less
// (sluice.WithStripes). GOMAXPROCS is read when the limiter is made, as
// the default's is.
func newSluiceStripes(c Config) (Limiter, func(), error) {
	n := 16
	for n < 16*runtime.GOMAXPROCS(0) && n < stripes.MaxStripes {
		n <<= 1
	}
	return newSluice(nil, sluice.WithStripes(n))(c)
}

// mutexLimiter is sluice with a mutex per bucket: the same stripes, the
// same tables, the same hot path as sluice.Limiter.Allow, with
// atomicbucket.MutexBucket (the engine's own baseline) stored in place of
// the CAS bucket. Eviction is left out: no benchmark runs long enough for it.
type mutexLimiter struct {
	limit atomicbucket.Limit
	clock clock.Clock
	table *stripes.Table[atomicbucket.MutexBucket, *atomicbucket.MutexBucket]
}

func newMutex(c Config) (Limiter, func(), error) {
	lim, err := atomicbucket.NewLimit(int64(c.N), c.Per, int64(c.Burst))
	if err != nil {
		return nil, nil, err
	}
	t, err := stripes.New[atomicbucket.MutexBucket](stripes.Default())
	if err != nil {
		return nil, nil, err
	}
	// sluice's sweeper makes the tables its stripes will grow into (see
	// stripes.Stripe.Prepare); the twin has no sweeper, so a goroutine
	// does that here, and the twin's tables grow as sluice's do.
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		t.Serve(stop)
	}()
	return &mutexLimiter{limit: lim, clock: clock.Default(), table: t}, func() { close(stop); <-done }, nil
}

func (m *mutexLimiter) Allow(key string) bool {
	// The key's stripe found as sluice's Allow finds it (stripes.Table.Hash).
	h := m.table.Hash(key)
	st, k := m.table.Stripe(h), stripes.Key{Hash: h, S: key}
	b := st.Load(k)
	for {
		if b == nil {
			b = st.LoadOrInsert(k, func() bool { return true }, func(b *atomicbucket.MutexBucket) {
				b.Start(&m.limit, m.clock.Now())
			})
		}
		// Counted as sluice's Allow counts, with Count's parts in line.
		ok := false
		switch b.Allow(&m.limit, m.clock, 1) {
		case atomicbucket.Allowed:
			ok = true
		case atomicbucket.Evicted: // moved by a growth of its stripe
			b = nil
			continue
		}
		p := stripes.Pin()
		m.table.Tally(p, ok)
		stripes.Unpin()
		return ok
	}
}

// floor is the least a per-key lock-free limiter can do: one map load, one
// clock reading, one CAS. It decides nothing.
type floor struct {
	m     *xsync.MapOf[string, *atomic.Uint64]
	clock clock.Clock
}

// newFloor makes a floor reading mk's clock: sluice's default clock, so
// that sluice's ratio to it is its own cost, or the runtime's monotonic
// clock, so that the floor's own ratio shows what the clock costs.
func newFloor(mk func() clock.Clock) func(Config) (Limiter, func(), error) {
	return func(Config) (Limiter, func(), error) {
		return &floor{m: xsync.NewMapOf[string, *atomic.Uint64](), clock: mk()}, func() {}, nil
	}
}

// harness is the benchmark's own work and nothing more: the loop, the
// interface call, and a read of the key's length and last byte, which any
// limiter must read. Counted beside the others (make grind), it is what
// their counts hold that is not theirs.
type harness struct{ sink *byte }

func newHarness(Config) (Limiter, func(), error) { return harness{new(byte)}, func() {}, nil }

func (h harness) Allow(key string) bool {
	if len(key) > 0 {
		*h.sink += key[len(key)-1]
	}
	return true
}

func (f *floor) Allow(key string) bool {
	s, ok := f.m.Load(key)
	if !ok {
		s, _ = f.m.LoadOrCompute(strings.Clone(key), func() *atomic.Uint64 { return new(atomic.Uint64) })
	}
	now := uint64(f.clock.Now())
	old := s.Load()
	return s.CompareAndSwap(old, max(old, now)+1)
}

// xrate is golang.org/x/time/rate with a limiter per key in a sync.Map, the
// way its documentation and most services use it.
type xrate struct {
	m     sync.Map
	limit rate.Limit
	burst int
}

func perSecond(c Config) float64 { return float64(c.N) / c.Per.Seconds() }

func newXRate(c Config) (Limiter, func(), error) {
	return &xrate{limit: rate.Limit(perSecond(c)), burst: c.Burst}, func() {}, nil
}

func (x *xrate) Allow(key string) bool {
	l, ok := x.m.Load(key)
	if !ok {
		l, _ = x.m.LoadOrStore(key, rate.NewLimiter(x.limit, x.burst))
	}
	return l.(*rate.Limiter).Allow()
}

type xrateSingle struct{ l *rate.Limiter }

func newXRateSingle(c Config) (Limiter, func(), error) {
	return xrateSingle{rate.NewLimiter(rate.Limit(perSecond(c)), c.Burst)}, func() {}, nil
}

func (x xrateSingle) Allow(string) bool { return x.l.Allow() }

// goLimiter is sethvargo/go-limiter's memorystore. It has no burst apart
// from the rate: N tokens per interval.
type goLimiter struct{ s golimiter.Store }

func newGoLimiter(c Config) (Limiter, func(), error) {
	s, err := memorystore.New(&memorystore.Config{Tokens: uint64(c.N), Interval: c.Per})
	if err != nil {
		return nil, nil, err
	}
	return goLimiter{s}, func() { _ = s.Close(context.Background()) }, nil
}

func (g goLimiter) Allow(key string) bool {
	_, _, _, ok, err := g.s.Take(context.Background(), key)
	return ok && err == nil
}

// throttledGCRA is throttled/v2's GCRA over its memory store (no key cap).
type throttledGCRA struct{ l *throttled.GCRARateLimiterCtx }

func newThrottled(c Config) (Limiter, func(), error) {
	st, err := memstore.NewCtx(0)
	if err != nil {
		return nil, nil, err
	}
	// throttled's rate is a whole period per request: Per/N, at least 1ns.
	q := throttled.RateQuota{MaxRate: throttled.PerDuration(c.N, c.Per), MaxBurst: c.Burst - 1}
	l, err := throttled.NewGCRARateLimiterCtx(st, q)
	if err != nil {
		return nil, nil, err
	}
	return throttledGCRA{l}, func() {}, nil
}

func (t throttledGCRA) Allow(key string) bool {
	limited, _, err := t.l.RateLimitCtx(context.Background(), key, 1)
	return err == nil && !limited
}

// ululeLimiter is ulule/limiter/v3 over its memory store: a fixed window
// of N per Per (no burst apart from the rate).
type ululeLimiter struct{ l *ulule.Limiter }

func newUlule(c Config) (Limiter, func(), error) {
	return ululeLimiter{ulule.New(ulmemory.NewStore(), ulule.Rate{Period: c.Per, Limit: int64(c.N)})}, func() {}, nil
}

func (u ululeLimiter) Allow(key string) bool {
	ctx, err := u.l.Get(context.Background(), key)
	return err == nil && !ctx.Reached
}

type jujuBucket struct{ b *juju.Bucket }

func newJuju(c Config) (Limiter, func(), error) {
	return jujuBucket{juju.NewBucketWithRate(perSecond(c), int64(c.Burst))}, func() {}, nil
}

func (j jujuBucket) Allow(string) bool { return j.b.TakeAvailable(1) == 1 }

// uberPacer is go.uber.org/ratelimit: a pacer whose Take sleeps until the
// next slot instead of denying. It fits only the admitting hot key.
type uberPacer struct{ l uber.Limiter }

func newUber(c Config) (Limiter, func(), error) {
	if c.N < 1e6 {
		return nil, nil, errors.New("uber's limiter paces (it sleeps, never denies); measured only admitting")
	}
	return uberPacer{uber.New(int(perSecond(c)), uber.WithSlack(c.Burst))}, func() {}, nil
}

func (u uberPacer) Allow(string) bool { u.l.Take(); return true }
