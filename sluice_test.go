package sluice

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed997/sluice/clock"
	"github.com/seed997/sluice/internal/countertest"
	"github.com/seed997/sluice/sweeper"
)

func newLimiter(t testing.TB, r Rate, burst int, opts ...Option) *Limiter {
	t.Helper()
	l, err := New(r, burst, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// waitFor polls cond for up to 10s: for effects of the background sweeper.
// It asserts an outcome, never a duration.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestNewErrors(t *testing.T) {
	cases := []struct {
		name  string
		r     Rate
		burst int
		opts  []Option
	}{
		{"zero count", Per(0, time.Second), 1, nil},
		{"negative count", Per(-3, time.Second), 1, nil},
		{"zero period", Per(1, 0), 1, nil},
		{"negative period", Per(1, -time.Second), 1, nil},
		{"zero burst", Per(1, time.Second), 0, nil},
		{"overflow", Per(1, 100*365*24*time.Hour), 1 << 30, nil}, // 1<<30: an int on every platform
		{"inexact count", Per(1048583, time.Second), 1, nil},
		{"nil clock", Per(1, time.Second), 1, []Option{WithClock(nil)}},
		{"zero ttl", Per(1, time.Second), 1, []Option{WithIdleTTL(0)}},
		{"zero max keys", Per(1, time.Second), 1, []Option{WithMaxKeys(0)}},
		{"stripes not power of two", Per(1, time.Second), 1, []Option{WithStripes(12)}},
		{"nil option", Per(1, time.Second), 1, []Option{nil}},
	}
	for _, c := range cases {
		l, err := New(c.r, c.burst, c.opts...)
		if !errors.Is(err, ErrInvalid) || l != nil {
			t.Errorf("%s: New = %v, %v; want ErrInvalid", c.name, l, err)
		}
	}
}

// TestTimeline walks a made-up timeline through the clock path and the
// explicit-time path alike.
func TestTimeline(t *testing.T) {
	const s = time.Second
	steps := []struct {
		at   time.Duration
		key  string
		n    int
		want Status
	}{
		{0, "a", 1, Allowed},
		{0, "a", 2, Allowed},
		{0, "a", 1, Denied},
		{0, "b", 3, Allowed}, // keys are independent
		{0, "b", 4, TooLarge},
		{s / 7, "a", 1, Denied}, // 7 per 2s: a token every 285714285.7ns
		{2*s/7 + 1, "a", 1, Allowed},
		{2*s/7 + 1, "a", 1, Denied},
		{10 * s, "a", 3, Allowed},
	}
	for _, explicit := range []bool{false, true} {
		clk := clock.NewManual(0)
		l := newLimiter(t, Per(7, 2*time.Second), 3, WithClock(clk))
		for i, st := range steps {
			clk.Set(st.at)
			var d Decision
			var err error
			if explicit {
				d, err = l.AllowAt(st.key, st.n, st.at)
			} else {
				d, err = l.AllowN(st.key, st.n)
			}
			if err != nil || d.Status != st.want {
				t.Fatalf("explicit=%v step %d: %s n=%d at %v: %v, %v; want %v", explicit, i, st.key, st.n, st.at, d.Status, err, st.want)
			}
		}
		if got := l.Stats(); got.Allowed != 5 || got.Denied != 4 || got.Keys != 2 || l.Len() != 2 {
			t.Fatalf("stats %+v", got)
		}
	}
}

// A Limiter that New did not make panics, as its doc comment says, on the
// decision path and off it, rather than deciding on a table it lacks; the
// zero value's Burst alone reports 0.
func TestUnmadeLimiterPanics(t *testing.T) {
	calls := map[string]func(l *Limiter){
		"Allow":   func(l *Limiter) { l.Allow("k") },
		"AllowN":  func(l *Limiter) { l.AllowN("k", 1) },
		"AllowAt": func(l *Limiter) { l.AllowAt("k", 1, 0) },
		"Wait":    func(l *Limiter) { l.Wait(context.Background(), "k", 1) },
		"Len":     func(l *Limiter) { l.Len() },
		"Stats":   func(l *Limiter) { l.Stats() },
		"Now":     func(l *Limiter) { l.Now() },
		"Close":   func(l *Limiter) { l.Close() },
		"Burst":   func(l *Limiter) { l.Burst() },
	}
	for _, made := range []struct {
		name string
		l    *Limiter
	}{{"nil", nil}, {"zero", new(Limiter)}} {
		for name, call := range calls {
			if made.l != nil && name == "Burst" {
				if b := made.l.Burst(); b != 0 {
					t.Errorf("Burst on a zero Limiter: %d, want 0", b)
				}
				continue
			}
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("%s on a %s Limiter returned", name, made.name)
					}
				}()
				call(made.l)
			}()
		}
	}
}

func TestInvalidCost(t *testing.T) {
	l := newLimiter(t, Per(1, time.Second), 1)
	for _, n := range []int{0, -1} {
		if _, err := l.AllowN("k", n); !errors.Is(err, ErrInvalid) {
			t.Errorf("AllowN(%d) error %v", n, err)
		}
		if _, err := l.AllowAt("k", n, 0); !errors.Is(err, ErrInvalid) {
			t.Errorf("AllowAt(%d) error %v", n, err)
		}
		if err := l.Wait(context.Background(), "k", n); !errors.Is(err, ErrInvalid) {
			t.Errorf("Wait(%d) error %v", n, err)
		}
	}
	// A nil context is an error too, not a panic.
	//lint:ignore SA1012 a nil context is what this checks
	if err := l.Wait(nil, "k", 1); !errors.Is(err, ErrInvalid) {
		t.Errorf("Wait(nil context) error %v", err)
	}
	if l.Len() != 0 {
		t.Fatal("an invalid request created a key")
	}
}

// Decisions on an existing key allocate nothing. (AllocsPerRun counts, it
// does not time; the race detector's own allocations would blur it.)
// TestStatsExact: Allow's hot path counts each decision on its P's tally
// (stripes.Pin, Tally, Unpin); under four goroutines racing on eight keys,
// Stats must hold exactly the admissions and denials the callers saw. The
// clock stands still, so each key admits its burst and denies the rest,
// through TryOne and DeniesOne; the clock then moves once, so that the
// keys admit again while the others deny.
func TestStatsExact(t *testing.T) {
	const burst, keys, workers, calls = 50, 8, 4, 20_000
	clk := clock.NewManual(time.Hour)
	l := newLimiter(t, Per(1, time.Second), burst, WithClock(clk))
	var allowed, denied atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range calls {
				if i == calls/2 && w == 0 {
					clk.Advance(10 * time.Second)
				}
				if l.Allow(fmt.Sprintf("k%d", (i+w)%keys)) {
					allowed.Add(1)
				} else {
					denied.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	s := l.Stats()
	if s.Allowed != allowed.Load() || s.Denied != denied.Load() {
		t.Fatalf("Stats counted %d allowed, %d denied; the callers saw %d and %d", s.Allowed, s.Denied, allowed.Load(), denied.Load())
	}
	// Each key's burst, plus the ten tokens of the step, for each key.
	if want := int64(keys * (burst + 10)); allowed.Load() != want {
		t.Fatalf("%d admitted, want %d", allowed.Load(), want)
	}
}

// TestWithoutDecisionCounts runs one stream of requests through a limiter
// that counts its decisions and one made WithoutDecisionCounts, each on its
// own manual clock moved alike: every decision is the same (the option
// skips the count, nothing else), the uncounted one's Stats says Counted
// false with Allowed and Denied 0, and its keys, refusals and evictions are
// counted as the other's. The stream takes each path a decision can: Allow
// admitting and denying on an existing key, a new key, a key the sweeper
// evicted, AllowN and AllowAt, a cost past the burst, the key cap.
func TestWithoutDecisionCounts(t *testing.T) {
	type pair struct {
		clk *clock.Manual
		l   *Limiter
	}
	var ls [2]pair
	for i, opts := range [][]Option{nil, {WithoutDecisionCounts()}} {
		clk := clock.NewManual(time.Hour)
		opts = append(opts, WithClock(clk), WithMaxKeys(4), WithIdleTTL(time.Second))
		ls[i] = pair{clk, newLimiter(t, Per(3, 10*time.Second), 3, opts...)}
	}
	var allowed, denied int64
	step := 0
	same := func(what string, decide func(l *Limiter) Decision) {
		t.Helper()
		step++
		a, b := decide(ls[0].l), decide(ls[1].l)
		if a != b {
			t.Fatalf("step %d, %s: counted %+v, uncounted %+v", step, what, a, b)
		}
		switch a.Status {
		case Allowed:
			allowed++
		case Denied, TooLarge:
			denied++
		}
	}
	allow := func(key string) func(*Limiter) Decision {
		return func(l *Limiter) Decision {
			if l.Allow(key) {
				return Decision{Status: Allowed}
			}
			return Decision{Status: Denied}
		}
	}
	allowN := func(key string, n int) func(*Limiter) Decision {
		return func(l *Limiter) Decision {
			d, err := l.AllowN(key, n)
			if err != nil {
				t.Fatal(err)
			}
			return d
		}
	}
	advance := func(d time.Duration) {
		for _, p := range ls {
			p.clk.Advance(d)
		}
	}
	for i := range 5 {
		same("Allow on a hot key", allow("hot"))
		same("AllowN on a second key", allowN("user", 1+i%2))
		same("a cost past the burst", allowN("user", 4))
		advance(1500 * time.Millisecond)
	}
	for i := range 2 { // "hot" and "user" are two of the cap's four keys
		same("a new key up to the cap", allow(fmt.Sprint("new", i)))
	}
	same("a new key at the cap", allowN("forged", 1))
	same("AllowAt, explicit time", func(l *Limiter) Decision {
		d, err := l.AllowAt("hot", 2, l.Now())
		if err != nil {
			t.Fatal(err)
		}
		return d
	})
	// Every bucket fills and the sweeper evicts it; the next request
	// meets a new bucket.
	advance(time.Minute)
	for _, p := range ls {
		waitFor(t, "the sweeper to evict the full buckets", func() bool { return p.l.Len() == 0 })
	}
	same("Allow after an eviction", allow("hot"))
	same("AllowN after an eviction", allowN("user", 3))
	same("a denial after it", allow("user"))

	c, u := ls[0].l.Stats(), ls[1].l.Stats()
	if !c.Counted || c.Allowed != allowed || c.Denied != denied {
		t.Fatalf("the counting limiter's Stats %+v; the stream saw %d allowed, %d denied", c, allowed, denied)
	}
	if allowed == 0 || denied == 0 || c.Refused == 0 || c.Evictions == 0 {
		t.Fatalf("the stream missed a path: %d allowed, %d denied, Stats %+v", allowed, denied, c)
	}
	if want := (Stats{Keys: c.Keys, Evictions: c.Evictions, Refused: c.Refused}); u != want {
		t.Fatalf("the uncounted limiter's Stats %+v, want %+v", u, want)
	}
}

func TestNoAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are checked by the non-race run of make test")
	}
	for _, opt := range []Option{WithClock(clock.NewMono()), WithClock(clock.NewManual(0)), WithoutDecisionCounts()} {
		l := newLimiter(t, Per(1000, time.Second), 10, opt)
		l.Allow("hot")
		for name, f := range map[string]func(){
			"Allow":   func() { l.Allow("hot") },
			"AllowN":  func() { l.AllowN("hot", 1) },
			"AllowAt": func() { l.AllowAt("hot", 1, 0) },
		} {
			if a := testing.AllocsPerRun(1000, f); a != 0 {
				t.Errorf("%s allocates %v per call", name, a)
			}
		}
	}
}

// Many goroutines racing on the first request of a key make exactly one
// bucket: together they get exactly burst tokens at one instant.
func TestRacingFirstRequest(t *testing.T) {
	clk := clock.NewManual(time.Hour)
	l := newLimiter(t, Per(1, time.Hour), 10, WithClock(clk))
	const keys, goroutines = 50, 32
	var admitted [keys]atomic.Int64
	var wg sync.WaitGroup
	start := make(chan struct{})
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for k := 0; k < keys; k++ {
				for i := 0; i < 2; i++ {
					if l.Allow(fmt.Sprint("key-", k)) {
						admitted[k].Add(1)
					}
				}
			}
		}()
	}
	close(start)
	wg.Wait()
	for k := range admitted {
		if got := admitted[k].Load(); got != 10 {
			t.Errorf("key %d: admitted %d, want exactly the burst 10", k, got)
		}
	}
	if l.Len() != keys {
		t.Fatalf("Len = %d, want %d", l.Len(), keys)
	}
}

// op is one request of a pre-generated per-key stream.
type op struct {
	key  string
	cost int
	at   time.Duration
}

// TestEvictionUnobservable runs the same concurrent request streams twice,
// once with no eviction and once with a goroutine evicting every full
// bucket as fast as it can, and requires identical decisions. Each worker
// owns its keys, so per-key order, and thus every decision, is fixed; the
// workers and the evictor still race on the shared maps and buckets.
func TestEvictionUnobservable(t *testing.T) {
	const workers, keysPer, opsPer = 4, 8, 3000
	streams := make([][]op, workers)
	rng := rand.New(rand.NewPCG(7, 7))
	for w := range streams {
		at := time.Duration(0)
		for i := 0; i < opsPer; i++ {
			at += time.Duration(rng.Int64N(int64(300 * time.Millisecond)))
			streams[w] = append(streams[w], op{
				key:  fmt.Sprintf("w%d-k%d", w, rng.IntN(keysPer)),
				cost: 1 + rng.IntN(4),
				at:   at,
			})
		}
	}
	play := func(evict bool) ([][]Decision, int) {
		// The sweeper's clock follows the slowest worker, so it never
		// judges a key at a time later than one a worker will still use.
		clk := clock.NewManual(0)
		l := newLimiter(t, Per(7, time.Second), 4, WithClock(clk), WithStripes(4), WithIdleTTL(time.Duration(1<<62)))
		progress := make([]atomic.Int64, workers)
		out := make([][]Decision, workers)
		var wg sync.WaitGroup
		var running atomic.Int64
		running.Store(workers)
		started := make(chan struct{})
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer running.Add(-1)
				<-started
				for i, o := range streams[w] {
					if i%4 == 0 {
						runtime.Gosched() // let the evictor in between requests
					}
					progress[w].Store(int64(o.at))
					d, err := l.AllowAt(o.key, o.cost, o.at)
					if err != nil {
						t.Error(err)
						return
					}
					out[w] = append(out[w], d)
				}
				progress[w].Store(1 << 62)
			}()
		}
		var evicted int
		if !evict {
			close(started)
		}
		for evict && running.Load() > 0 {
			slowest := int64(1 << 62)
			for w := range progress {
				slowest = min(slowest, progress[w].Load())
			}
			clk.Set(time.Duration(slowest))
			for i := 0; i < l.table.Len(); i++ {
				evicted += sweeper.Stripe(l.table, i, &l.limit, clk, 0)
			}
			// On one P (go test -cpu 1) the workers run only when this
			// loop yields: without it, each waited for preemption, 10 ms,
			// and the test took 20 s.
			runtime.Gosched()
			select {
			case <-started:
			default:
				close(started) // the workers start once the evictor runs
			}
		}
		wg.Wait()
		return out, evicted
	}
	want, _ := play(false)
	// A worker not yet scheduled holds the evictor's clock at its start, so
	// a run can end before anything was evictable; rerun until one evicts.
	for attempt := 1; ; attempt++ {
		got, evicted := play(true)
		for w := range want {
			for i := range want[w] {
				if got[w][i] != want[w][i] {
					t.Fatalf("worker %d op %d %+v: with eviction %+v, without %+v", w, i, streams[w][i], got[w][i], want[w][i])
				}
			}
		}
		if evicted > 0 {
			t.Logf("run %d evicted %d buckets; decisions identical", attempt, evicted)
			return
		}
		if attempt == 20 {
			t.Fatal("the evictor never evicted in 20 runs: the test proves nothing")
		}
	}
}

// TestConcurrentBound hammers the public API from many goroutines on a
// few keys while a manual clock advances and an evictor runs, and checks
// every key's admitted total against burst + floor(n·t/d).
func TestConcurrentBound(t *testing.T) {
	const n, per, burst, keys = 5, time.Second, 3, 6
	clk := clock.NewManual(0)
	l := newLimiter(t, Per(n, per), burst, WithClock(clk), WithStripes(2))
	var admitted [keys]atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				k := (i + g) % keys
				// Each key rests one second in three, long enough to fill
				// up and be evicted, then is hammered again.
				if (int(clk.Now()/time.Second)+k)%3 == 0 {
					runtime.Gosched()
					continue
				}
				if l.Allow(fmt.Sprint("k", k)) {
					admitted[k].Add(1)
				}
				if i%64 == 63 {
					// On one P the clock's goroutine, asleep between
					// advances, runs only when the others yield: without
					// this, each advance waited for a preemption (10 ms)
					// and the test took 10 s under go test -cpu 1.
					runtime.Gosched()
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			for i := 0; i < l.table.Len(); i++ {
				sweeper.Stripe(l.table, i, &l.limit, clk, 0)
			}
			runtime.Gosched() // as the workers do
		}
	}()
	for i := 0; i < 500; i++ {
		clk.Advance(37 * time.Millisecond)
		time.Sleep(100 * time.Microsecond) // let the workers drain each refill
	}
	close(stop)
	wg.Wait()
	hi, lo := bits.Mul64(n, uint64(clk.Now()))
	q, _ := bits.Div64(hi, lo, uint64(per))
	limit := burst + int64(q)
	for k := range admitted {
		if got := admitted[k].Load(); got > limit {
			t.Errorf("key %d admitted %d in %v, limit %d", k, got, clk.Now(), limit)
		}
	}
	s := l.Stats()
	t.Logf("%+v", s)
	if s.Evictions == 0 || s.Allowed < 2*limit {
		t.Fatalf("the run exercised too little to prove the bound: %+v", s)
	}
}

func TestSweeperEvictsIdle(t *testing.T) {
	clk := clock.NewManual(0)
	l := newLimiter(t, Per(10, time.Second), 2, WithClock(clk), WithIdleTTL(time.Second), WithStripes(2))
	for i := 0; i < 100; i++ {
		l.Allow(fmt.Sprint("k", i))
	}
	if l.Len() != 100 {
		t.Fatalf("Len = %d", l.Len())
	}
	clk.Set(time.Second) // full since 100ms: idle 900ms, not yet the TTL
	time.Sleep(50 * time.Millisecond)
	if l.Len() != 100 {
		t.Fatalf("evicted before the TTL: Len = %d", l.Len())
	}
	clk.Set(2 * time.Second)
	waitFor(t, "idle keys to be evicted", func() bool { return l.Len() == 0 })
	if s := l.Stats(); s.Evictions != 100 || s.Keys != 0 {
		t.Fatalf("stats %+v", s)
	}
	if !l.Allow("k1") || l.Len() != 1 {
		t.Fatal("an evicted key did not come back full")
	}
}

func TestKeyCap(t *testing.T) {
	clk := clock.NewManual(0)
	l := newLimiter(t, Per(1, time.Second), 1, WithClock(clk), WithMaxKeys(3), WithIdleTTL(time.Hour))
	for i := 0; i < 3; i++ {
		if !l.Allow(fmt.Sprint("k", i)) {
			t.Fatalf("key %d refused under the cap", i)
		}
	}
	d, err := l.AllowN("forged", 1)
	if err != nil || d.Status != OverCapacity {
		t.Fatalf("4th key: %+v, %v", d, err)
	}
	if err := l.Wait(context.Background(), "forged", 1); !errors.Is(err, ErrOverCapacity) {
		t.Fatalf("Wait at the cap: %v", err)
	}
	if d, _ := l.AllowN("k0", 1); d.Status != Denied {
		t.Fatalf("existing key at the cap: %+v", d) // decided as usual: empty
	}
	if s := l.Stats(); s.Refused != 2 || s.Keys != 3 {
		t.Fatalf("stats %+v", s)
	}
	// The buckets fill, but a full bucket idle for less than the TTL is
	// a key in use: the cap's urgent pass leaves it (SweepNow is that
	// pass, known to start after the clock moved).
	clk.Set(time.Second)
	if l.Allow("forged-again") {
		t.Fatal("new key admitted at the cap")
	}
	l.sweeper.SweepNow()
	if s := l.Stats(); s.Keys != 3 || s.Evictions != 0 {
		t.Fatalf("the cap evicted keys idle for 1s of a TTL of 1h: %+v", s)
	}
	// Idle for the TTL, they are evicted at once, not when the sweeper's
	// walk (a stripe every 112s here) reaches them. The pass may be this
	// refusal's or one an earlier refusal urged and the spacing of passes
	// held back until now: then it can make room before this Allow, which
	// is admitted, and stays (in CI, a test that waited for no keys at all
	// timed out so). Either way the three keys go.
	clk.Set(time.Second + time.Hour)
	l.Allow("forged-again")
	waitFor(t, "the urgent pass to make room", func() bool { return l.Stats().Evictions == 3 })
	if !l.Allow("forged") {
		t.Fatal("new key refused after room was made")
	}
}

// TestKeyCapFlood: a flood of forged keys at the cap never displaces a key
// in use. Users request once a second, the rate of their limit, so each
// bucket is full between two requests; the flood's refusals keep the
// sweeper's urgent passes coming, and the flood takes any room they make.
// A user's every request must be admitted: evicting a user between two of
// them (they are full) would make the next a new key at a full cap,
// refused, as the policy before this test did.
func TestKeyCapFlood(t *testing.T) {
	const users, capKeys = 8, 64
	clk := clock.NewManual(0)
	l := newLimiter(t, Per(1, time.Second), 1, WithClock(clk), WithMaxKeys(capKeys), WithIdleTTL(time.Hour))
	user := func(i int) string { return fmt.Sprint("user-", i) }
	for i := range users {
		l.Allow(user(i))
	}
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			l.Allow(fmt.Sprint("forged-", i))
		}
	}()
	defer func() { close(stop); <-done }()
	waitFor(t, "the flood to fill the cap", func() bool { return l.Stats().Refused > 0 })
	for round := range 200 {
		clk.Advance(time.Second) // every bucket full again, the forged ones too
		l.sweeper.SweepNow()     // the flood's refusals urge passes too
		for i := range users {
			if d, _ := l.AllowN(user(i), 1); d.Status != Allowed {
				t.Fatalf("round %d: %s, in use every second, got %v at the cap", round, user(i), d.Status)
			}
		}
	}
	if s := l.Stats(); s.Refused == 0 || s.Keys > capKeys {
		t.Fatalf("the flood was not at the cap: %+v", s)
	}
}

// settledGoroutines returns the goroutine count once the limiters earlier
// tests dropped without Close have been collected and their sweepers have
// ended (a collection runs their cleanups, each of which stops one): so
// that none ends during the caller's own count. It collects twice and
// waits for three equal readings in a row, 5 ms apart, 2 s at most.
func settledGoroutines() int {
	runtime.GC()
	runtime.GC()
	n, same := runtime.NumGoroutine(), 0
	for deadline := time.Now().Add(2 * time.Second); same < 3 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
		if m := runtime.NumGoroutine(); m == n {
			same++
		} else {
			n, same = m, 0
		}
	}
	return n
}

func TestCloseLeavesNoGoroutine(t *testing.T) {
	before := settledGoroutines()
	l, err := New(Per(1, time.Second), 1, WithIdleTTL(time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	l.Allow("x")
	if runtime.NumGoroutine() <= before {
		t.Fatal("no sweeper goroutine started")
	}
	l.Close()
	l.Close() // twice is fine
	// Close returns once the sweeper has closed its done channel, which is
	// the goroutine's last act, not its end: the runtime counts it until it
	// has returned, an instant later (this read failed once under -race).
	// A goroutine left behind never goes, and times the wait out.
	waitFor(t, "the sweeper's goroutine to end", func() bool { return runtime.NumGoroutine() <= before })
	if !l.Allow("y") {
		t.Fatal("a closed limiter must still decide")
	}
}

// TestClosedLimiterGrows: a closed limiter's stripes still grow, with no
// sweeper to make their next tables (a stripe asks once, and the ask is
// never served): every key of 50,000 in one stripe is created and decided
// exactly, two tokens and then a denial, and counted.
func TestClosedLimiterGrows(t *testing.T) {
	l, err := New(Per(1, time.Hour), 2, WithStripes(1))
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	const n = 50_000
	for pass, want := range []bool{true, true, false} {
		for i := range n {
			if got := l.Allow(fmt.Sprint("key-", i)); got != want {
				t.Fatalf("decision %d on key %d: %v, want %v", pass+1, i, got, want)
			}
		}
	}
	if s := l.Stats(); s.Keys != n || s.Allowed != 2*n || s.Denied != n || s.Evictions != 0 {
		t.Fatalf("stats %+v, want %d keys, %d allowed, %d denied", s, n, 2*n, n)
	}
}

// TestDroppedLimiterStopsSweeper: a limiter dropped without Close is
// collected, and its sweeper's goroutine ends, rather than keeping the
// goroutine, the table and its keys for the life of the process.
func TestDroppedLimiterStopsSweeper(t *testing.T) {
	before := settledGoroutines()
	collected := make(chan struct{})
	func() {
		l, err := New(Per(1, time.Second), 1, WithMaxKeys(10))
		if err != nil {
			t.Fatal(err)
		}
		l.Allow("x")
		runtime.AddCleanup(l, func(c chan struct{}) { close(c) }, collected)
	}()
	if runtime.NumGoroutine() <= before {
		t.Fatal("no sweeper goroutine started")
	}
	waitFor(t, "the dropped limiter to be collected, and its sweeper to end", func() bool {
		runtime.GC()
		select {
		case <-collected:
			return runtime.NumGoroutine() <= before
		default:
			return false
		}
	})
}

// TestClosedLimiterFreed: a closed limiter that is dropped is freed, table
// and keys, by the next garbage collection. Its cleanup (the one that
// stops the sweeper of a limiter dropped without Close) held the sweeper,
// and through it the table, until the cleanup ran after that collection,
// so they waited for a second one: the root BenchmarkMemory sometimes
// read a run's keys as freed during the next run's measurement (83.6 B a
// key, and -33.8 B of key bytes). One collection is forced here, and no
// other is: the wait bounds a hang and times nothing. A collection the
// runtime starts by itself during the wait could hide the fault, never
// fail the test.
func TestClosedLimiterFreed(t *testing.T) {
	freed := make(chan struct{})
	func() {
		l, err := New(Per(1, time.Second), 1)
		if err != nil {
			t.Fatal(err)
		}
		l.Allow("x")
		runtime.AddCleanup(l.table, func(c chan struct{}) { close(c) }, freed)
		l.Close()
	}()
	runtime.GC()
	select {
	case <-freed:
	case <-time.After(10 * time.Second):
		t.Fatal("a closed, dropped limiter's table outlived a garbage collection")
	}
}

func TestWait(t *testing.T) {
	l := newLimiter(t, Per(1, 20*time.Millisecond), 1)
	ctx := context.Background()
	if err := l.Wait(ctx, "k", 1); err != nil {
		t.Fatal(err)
	}
	if err := l.Wait(ctx, "k", 1); err != nil { // blocks about 20ms, then takes
		t.Fatal(err)
	}
	//lint:ignore SA4000 each Allow takes a token: two calls, two decisions
	if l.Allow("k") && l.Allow("k") {
		t.Fatal("Wait did not take its tokens")
	}
	if err := l.Wait(ctx, "k", 2); !errors.Is(err, ErrNever) {
		t.Fatalf("cost over burst: %v", err)
	}
	slow := newLimiter(t, Per(1, time.Hour), 1)
	const secret = "api-key-7f3a9c"
	slow.Allow(secret)
	dctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	// The error says what was asked and when it would come, and never
	// quotes the key: keys are often credentials.
	if err := slow.Wait(dctx, secret, 1); !errors.Is(err, ErrDeadline) || !strings.Contains(err.Error(), "cost 1 ready in 59m") || strings.Contains(err.Error(), secret) {
		t.Fatalf("wait beyond deadline: %v", err)
	}
	cctx, cancel2 := context.WithCancel(ctx)
	go func() { time.Sleep(5 * time.Millisecond); cancel2() }()
	if err := slow.Wait(cctx, secret, 1); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled wait: %v", err)
	}
}

// TestWaitEndedContext: a Wait whose context has already ended returns its
// error and takes nothing; a cost below 1 is an error even then.
func TestWaitEndedContext(t *testing.T) {
	l := newLimiter(t, Per(1, time.Hour), 1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := l.Wait(ctx, "k", 1); !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait on an ended context: %v", err)
	}
	if err := l.Wait(ctx, "k", 0); !errors.Is(err, ErrInvalid) {
		t.Fatalf("Wait for 0 tokens: %v", err)
	}
	if !l.Allow("k") {
		t.Fatal("Wait on an ended context took the token")
	}
}

// A manual clock moved backwards makes decisions stricter and never hangs.
func TestClockBackwards(t *testing.T) {
	clk := clock.NewManual(time.Hour)
	l := newLimiter(t, Per(1, time.Second), 2, WithClock(clk))
	//lint:ignore SA4000 each Allow takes a token: the calls are the test
	if !l.Allow("k") || !l.Allow("k") || l.Allow("k") {
		t.Fatal("burst")
	}
	clk.Set(0)
	for i := 0; i < 3; i++ {
		if l.Allow("k") {
			t.Fatal("an earlier time admitted on an empty bucket")
		}
	}
	clk.Set(time.Hour + time.Second)
	if !l.Allow("k") || l.Allow("k") {
		t.Fatal("state moved while the clock was behind")
	}
}

// TestClockBackPastHorizon: a clock set back further than the limiter's
// exact horizon is read as AllowAt reads such a time (see its doc): the
// key reads as full there, the request is admitted and moves the state
// back, and at the present the key is denied for about a horizon. Allow
// decides in line (TryOne), AllowN and AllowAt through the CAS loop; all
// three must agree with the documented reading.
func TestClockBackPastHorizon(t *testing.T) {
	const n = 1048573 // a reduced count near 2^20: a 73-minute horizon
	h := time.Duration((1 << 62) / n)
	present := 3 * h
	back := present - h - time.Second
	for _, tc := range []struct {
		name string
		take func(l *Limiter, clk *clock.Manual, at time.Duration) bool
	}{
		{"Allow", func(l *Limiter, clk *clock.Manual, at time.Duration) bool { clk.Set(at); return l.Allow("k") }},
		{"AllowN", func(l *Limiter, clk *clock.Manual, at time.Duration) bool {
			clk.Set(at)
			d, err := l.AllowN("k", 1)
			return err == nil && d.OK()
		}},
		{"AllowAt", func(l *Limiter, _ *clock.Manual, at time.Duration) bool {
			d, err := l.AllowAt("k", 1, at)
			return err == nil && d.OK()
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := clock.NewManual(present)
			l := newLimiter(t, Per(n, time.Second), 2, WithClock(clk))
			for i, want := range []bool{true, true, false} {
				if got := tc.take(l, clk, present); got != want {
					t.Fatalf("burst: decision %d was %v", i+1, got)
				}
			}
			if tc.take(l, clk, present-h+time.Second) {
				t.Fatal("an earlier time within the horizon admitted on an empty bucket")
			}
			if !tc.take(l, clk, back) {
				t.Fatal("a time past the horizon denied; the docs say it reads the key as full")
			}
			clk.Set(present)
			d, err := l.AllowAt("k", 1, present)
			if err != nil || d.OK() || d.RetryAfter < h-2*time.Second {
				t.Fatalf("at the present after it: %+v, %v; want denied for about %v", d, err, h-time.Second)
			}
		})
	}
}

// scriptClock returns its readings in order, then repeats the last: a
// goroutine that stalls between reading the clock and deciding.
type scriptClock struct {
	reads    atomic.Int64
	readings []time.Duration
}

func (c *scriptClock) Now() time.Duration {
	i := min(int(c.reads.Add(1))-1, len(c.readings)-1)
	return c.readings[i]
}

// TestAllowRereadsAfterStall: a state further ahead than a fresh reading
// could have put it means the decision's reading is stale (its goroutine
// stalled after the read); Allow, and AllowN, which reads the clock where
// Allow does, must read it again and decide on the new reading, not deny
// on the old one.
func TestAllowRereadsAfterStall(t *testing.T) {
	for _, tc := range []struct {
		name  string
		allow func(l *Limiter, key string) (bool, error)
	}{
		{"Allow", func(l *Limiter, key string) (bool, error) { return l.Allow(key), nil }},
		{"AllowN", func(l *Limiter, key string) (bool, error) {
			d, err := l.AllowN(key, 1)
			return d.OK(), err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := &scriptClock{readings: []time.Duration{0, time.Hour + time.Second}}
			l := newLimiter(t, Per(1, time.Second), 2, WithClock(clk))
			l.Close() // the sweeper reads no clock from here on
			if d, err := l.AllowAt("k", 2, time.Hour); err != nil || !d.OK() {
				t.Fatalf("draining at 1h: %+v, %v", d, err)
			}
			if ok, err := tc.allow(l, "k"); err != nil || !ok {
				t.Fatalf("denied on the stale reading (%v): one token has refilled by the second reading", err)
			}
			if n := clk.reads.Load(); n != 2 {
				t.Fatalf("%d clock reads, want 2 (the stale one and the re-read)", n)
			}
			if ok, err := tc.allow(l, "k"); err != nil || ok {
				t.Fatalf("a second token at 1h+1s (%v)", err)
			}
			if s := l.Stats(); s.Allowed != 2 || s.Denied != 1 {
				t.Fatalf("stats %+v, want 2 allowed, 1 denied", s)
			}
		})
	}
}

// TestNewKeyClockReads: a new key's first decision uses the reading its
// bucket was started at, taken under the stripe's lock, rather than
// reading the clock once more; Allow and AllowN each read it once before
// the lookup as well (an existing key's decision reads it only then).
func TestNewKeyClockReads(t *testing.T) {
	clk := &scriptClock{readings: []time.Duration{time.Second}}
	l := newLimiter(t, Per(1, time.Second), 3, WithClock(clk))
	l.Close() // the sweeper reads no clock from here on
	clk.reads.Store(0)
	d, err := l.AllowN("a", 1)
	if err != nil || !d.OK() || d.Remaining != 2 || d.ResetAfter != time.Second {
		t.Fatalf("new key: %+v, %v", d, err)
	}
	if n := clk.reads.Load(); n != 2 {
		t.Fatalf("AllowN on a new key: %d clock reads, want 2 (AllowN's own and the bucket's start)", n)
	}
	if _, err := l.AllowN("a", 1); err != nil || clk.reads.Load() != 3 {
		t.Fatalf("AllowN on an existing key: %d clock reads in all, want 3; %v", clk.reads.Load(), err)
	}
	if !l.Allow("b") || clk.reads.Load() != 5 {
		t.Fatalf("Allow on a new key: %d clock reads in all, want 5 (Allow's own, and the start's)", clk.reads.Load())
	}
}

func TestNowAndBurst(t *testing.T) {
	clk := clock.NewManual(42 * time.Second)
	l := newLimiter(t, Per(3, time.Second), 5, WithClock(clk))
	if l.Now() != 42*time.Second {
		t.Fatalf("Now = %v, want the clock's 42s", l.Now())
	}
	clk.Advance(time.Second)
	if l.Now() != 43*time.Second {
		t.Fatalf("Now = %v after 1s, want 43s", l.Now())
	}
	if l.Burst() != 5 {
		t.Fatalf("Burst = %d, want 5", l.Burst())
	}
}

// TestClockBranchesDecide: Allow and AllowN each have their own copy of a
// branch on the clock's type (the counter clock, whose common case is one
// call, the coarse clock, and any other). On each kind they admit a key of
// one token every 40ms no sooner than the clock itself, read just before
// and just after each call, says it has come, the counter's while it
// calibrates and after: two admissions are at least 40ms apart from the
// reading before the first to the one after the second, less 1µs for the
// counter's steps back where a calibration ends. Planted by hand, each of
// the six branches reading its clock at twice its rate failed it, and so
// did Allow's counter branch reading 50ms ahead where the scale sends it
// to Now.
func TestClockBranchesDecide(t *testing.T) {
	const every, slack = 40 * time.Millisecond, time.Microsecond
	counter := func(t *testing.T) (clock.Clock, func()) { return countertest.New(t) }
	coarse := func(*testing.T) (clock.Clock, func()) {
		c := clock.NewCoarse(time.Millisecond)
		return c, c.Stop
	}
	mono := func(*testing.T) (clock.Clock, func()) { return clock.NewMono(), func() {} }
	for _, kind := range []struct {
		name string
		make func(*testing.T) (clock.Clock, func())
	}{{"counter", counter}, {"coarse", coarse}, {"mono", mono}} {
		t.Run(kind.name, func(t *testing.T) {
			c, done := kind.make(t)
			defer done()
			for _, call := range []struct {
				name   string
				decide func(l *Limiter) bool
			}{
				{"Allow", func(l *Limiter) bool { return l.Allow("k") }},
				{"AllowN", func(l *Limiter) bool { d, err := l.AllowN("k", 1); return err == nil && d.OK() }},
			} {
				// A day's TTL: the sweeper, whose goroutine is not pinned,
				// reads the clock only at its ticks, half the TTL over the
				// stripes apart (42s with the 1,024 stripes of 256 cores),
				// and the first comes long after this test's half second.
				l := newLimiter(t, Per(1, every), 1, WithClock(c), WithIdleTTL(24*time.Hour))
				var admitted []struct{ lo, hi time.Duration }
				for deadline := time.Now().Add(10 * time.Second); len(admitted) < 6; {
					lo := c.Now()
					ok := call.decide(l)
					hi := c.Now()
					if ok {
						admitted = append(admitted, struct{ lo, hi time.Duration }{lo, hi})
					}
					if time.Now().After(deadline) {
						t.Fatalf("%s: %d admissions in 10s at one every %v", call.name, len(admitted), every)
					}
				}
				for i := 1; i < len(admitted); i++ {
					if gap := admitted[i].hi - admitted[i-1].lo; gap < every-slack {
						t.Errorf("%s: admissions %d and %d at most %v apart, want %v", call.name, i-1, i, gap, every)
					}
				}
			}
		})
	}
}

// TestWaitRedecides: Wait decides again after each sleep and keeps waiting
// while the clock has not brought the tokens (here a manual clock, moved
// only after Wait has been denied twice).
func TestWaitRedecides(t *testing.T) {
	clk := clock.NewManual(0)
	l := newLimiter(t, Per(1, 10*time.Millisecond), 1, WithClock(clk))
	if !l.Allow("k") {
		t.Fatal("first token")
	}
	done := make(chan error, 1)
	go func() { done <- l.Wait(context.Background(), "k", 1) }()
	waitFor(t, "Wait's second denial", func() bool { return l.Stats().Denied >= 2 })
	select {
	case err := <-done:
		t.Fatalf("Wait returned %v before the clock moved", err)
	default:
	}
	clk.Advance(10 * time.Millisecond)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if l.Allow("k") {
		t.Fatal("Wait did not take its token")
	}
}

// TestGrowthWithSweeper: goroutines flood two stripes with new keys while
// the sweeper, visiting a stripe every millisecond, sweeps and makes the
// tables the stripes ask for; every key is decided exactly through the
// growths (two tokens, then a denial: nothing refills in an hour, and no
// bucket that owes a token is evicted), and none is lost. Run it under
// -race.
func TestGrowthWithSweeper(t *testing.T) {
	l := newLimiter(t, Per(1, time.Hour), 2, WithIdleTTL(2*time.Millisecond), WithStripes(2))
	const workers, per = 4, 5_000
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range per {
				k := fmt.Sprintf("w%d-%d", w, i)
				//lint:ignore SA4000 each Allow takes a token: the calls are the test
				if !l.Allow(k) || !l.Allow(k) || l.Allow(k) {
					t.Errorf("key %s: not admitted twice and then denied", k)
					return
				}
			}
		}()
	}
	wg.Wait()
	if n := l.Len(); n != workers*per {
		t.Fatalf("Len = %d, want %d", n, workers*per)
	}
	for w := range workers {
		for i := range per {
			if k := fmt.Sprintf("w%d-%d", w, i); l.Allow(k) {
				t.Fatalf("key %s admitted a third time: its bucket was lost", k)
			}
		}
	}
}

// firstThenClock returns ahead on its first reading, after running before,
// and clk's readings after that: a sweeper that read the clock just before
// it was set back, with a request decided in between (before).
type firstThenClock struct {
	read   bool
	ahead  time.Duration
	before func()
	clk    clock.Clock
}

func (c *firstThenClock) Now() time.Duration {
	if !c.read {
		c.read = true
		c.before()
		return c.ahead
	}
	return c.clk.Now()
}

// TestEvictionClockBack: a sweep step reads the clock once, before the
// states it tests; a clock that goes back after that reading (a manual
// clock, or a caller's own) leaves the reading ahead of it. A request then
// takes tokens at the earlier time, and the bucket, full at the step's
// reading though not at the clock's, must not be evicted: its key would
// start again full at the earlier time, and 4 + 30 tokens pass at one
// instant with a burst of 30 (the stress command's manual-backwards runs
// met it: 34 tokens in 9 ns of the clock's movement, against a bound of
// 32). Evict confirms a bucket full at the step's reading with a reading
// taken after the bucket's state.
func TestEvictionClockBack(t *testing.T) {
	clk := clock.NewManual(time.Hour)
	const key, idle = "k", 10 * time.Nanosecond
	l := newLimiter(t, Per(3, 10*time.Nanosecond), 30, WithClock(clk))
	l.Allow(key)
	st, _ := l.table.Of(key)
	i := 0
	for l.table.At(i) != st {
		i++
	}
	back := clk.Now() + 10*time.Nanosecond // the bucket is full again by then
	sweep := &firstThenClock{ahead: clk.Now() + time.Microsecond, clk: clk, before: func() {
		clk.Set(back)
		if d, _ := l.AllowN(key, 4); !d.OK() {
			t.Errorf("4 tokens from a full bucket: %v", d.Status)
		}
	}}
	if n := sweeper.Stripe(l.table, i, &l.limit, sweep, idle); n != 0 {
		t.Errorf("the sweep evicted %d keys: a bucket 4 tokens short at the clock's time", n)
	}
	if d, _ := l.AllowN(key, 30); d.OK() {
		t.Fatal("34 tokens admitted at one instant with a burst of 30: the key was evicted on a reading the clock had gone back from")
	}
	if d, _ := l.AllowN(key, 26); !d.OK() {
		t.Fatalf("the 26 tokens left were refused: %v", d.Status)
	}
}
