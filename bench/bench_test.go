package bench

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed997/sluice/bench/internal/grind"
	"github.com/seed997/sluice/clock"
	"github.com/seed997/sluice/internal/machine"
)

// Scenarios. Every one runs serial (one goroutine) and parallel
// (RunParallel, GOMAXPROCS goroutines), with names benchstat can group:
// BenchmarkLimiters/scenario=keys-1M/impl=sluice/mode=parallel.
const (
	hotAllow = "hot-allow" // one key, always admitted
	hotDeny  = "hot-deny"  // one key, always denied
	keys1k   = "keys-1k"   // 1,000 keys, uniform
	keys1M   = "keys-1M"   // 1,000,000 keys, uniform, all present before timing
	zipf1M   = "zipf-1M"   // 1,000,000 keys drawn from Zipf(1.1): a few hot, a long tail
	newKey   = "new-key"   // every request a key never seen
)

var scenarios = []string{hotAllow, hotDeny, keys1k, keys1M, zipf1M, newKey}

// keyName is a 16-byte key, so that the allocator's size class is the key.
func keyName(i int) string { return fmt.Sprintf("user:%011d", i) }

// fits reports whether impl is measured in scenario, and why not.
func fits(im Impl, scenario string) (bool, string) {
	switch {
	case !im.PerKey && scenario != hotAllow && scenario != hotDeny:
		return false, "a single limiter has no keys"
	case im.HotOnly && scenario != hotAllow && scenario != hotDeny:
		return false, "a variant shown on the hot key only"
	case im.NewKeyOnly && scenario != newKey:
		return false, "a variant shown on new keys only"
	case im.GrindOnly && !counting:
		return false, "counted under make grind only"
	case im.Floor && scenario == hotDeny:
		return false, "the floor decides nothing, so it cannot deny"
	case !im.Deny && !im.Floor && scenario != hotAllow:
		return false, "it paces (sleeps) instead of denying"
	}
	return true, ""
}

// prepared is a limiter set up for one scenario, checked, and the keys a
// benchmark loop draws from.
type prepared struct {
	l      Limiter
	close  func()
	keys   []string // the names the limiter was filled with
	lookup []string // equal names in other memory, what the loop asks for
	order  []uint32 // indices into lookup, the sequence the loop walks
}

// cache keeps the last prepared limiter: go test calls a benchmark function
// several times while it finds b.N, and a 1M-key setup is seconds.
var cache struct {
	name string
	p    *prepared
}

func prepare(b *testing.B, im Impl, scenario string) *prepared {
	name := im.Name + "/" + scenario
	if cache.name == name {
		return cache.p
	}
	if cache.p != nil {
		cache.p.close()
		cache.p, cache.name = nil, ""
		runtime.GC()
	}
	p := build(b, im, scenario)
	cache.name, cache.p = name, p
	return p
}

// build makes the implementation's limiter for the scenario, checks it
// (verify) and fills it, uncached: the caller closes it.
func build(b *testing.B, im Impl, scenario string) *prepared {
	p := setup(b, im, scenario)
	l, n := p.l, len(p.keys)
	rng := rand.New(rand.NewPCG(1, 2))
	p.order = make([]uint32, 1<<20)
	switch scenario {
	case zipf1M:
		z := rand.NewZipf(rng, 1.1, 1, uint64(n-1))
		for i := range p.order {
			p.order[i] = uint32(z.Uint64())
		}
	case newKey:
		p.order = nil
	default:
		for i := range p.order {
			p.order[i] = uint32(rng.IntN(n))
		}
	}
	if err := verify(im, scenario, p); err != nil {
		p.close()
		b.Fatalf("%s in %s does not behave as configured: %v", im.Name, scenario, err)
	}
	// Keys present before timing (the new-key scenario times their creation).
	for _, k := range p.keys {
		l.Allow(k)
	}
	// A request's key is a new string each time, never the very string the
	// limiter stored: looking up the stored string itself would let a
	// limiter that keeps the caller's string skip reading its bytes.
	p.lookup = make([]string, len(p.keys))
	for i, k := range p.keys {
		p.lookup[i] = strings.Clone(k)
	}
	return p
}

// setup makes the implementation's limiter for the scenario (admitting, or
// denying for hot-deny) and the scenario's key names.
func setup(tb testing.TB, im Impl, scenario string) *prepared {
	cfg := Admitting
	if scenario == hotDeny {
		cfg = Denying
	}
	l, closeFn, err := im.New(cfg)
	if err != nil {
		tb.Fatalf("%s: %v", im.Name, err)
	}
	p := &prepared{l: l, close: closeFn}
	n := map[string]int{hotAllow: 1, hotDeny: 1, keys1k: 1000, keys1M: 1_000_000, zipf1M: 1_000_000}[scenario]
	for i := 0; i < n; i++ {
		p.keys = append(p.keys, keyName(i))
	}
	return p
}

// verify holds the implementation to its configuration before anything is
// timed: a broken setup must fail loudly, not report a fast number.
func verify(im Impl, scenario string, p *prepared) error {
	if im.Floor {
		return nil // a reference, not a limiter
	}
	switch scenario {
	case hotDeny:
		p.l.Allow(p.keys[0]) // the one token
		for i := 0; i < 100; i++ {
			if p.l.Allow(p.keys[0]) {
				return fmt.Errorf("the denying setup admitted request %d after the burst", i+1)
			}
		}
		return nil
	case newKey:
		if !im.NewKeyOnly {
			return nil // distinct keys are checked by keys-1k with the same code
		}
		// A variant shown on new keys only meets no other scenario: it is
		// checked here, on a limiter of its own, so that the one timed
		// starts empty as every other implementation's does.
		return distinct(im)
	}
	for i := 0; i < 1000; i++ {
		if !p.l.Allow(p.keys[i%len(p.keys)]) {
			return fmt.Errorf("the admitting setup denied request %d", i+1)
		}
	}
	if !im.PerKey || len(p.keys) < 2 {
		return nil
	}
	return distinct(im)
}

// distinct checks that im's keys are really distinct limiters: with one
// token an hour per key, 1,000 distinct keys admit exactly 1,000 requests
// in two passes.
func distinct(im Impl) error {
	d, closeFn, err := im.New(Denying)
	if err != nil {
		return err
	}
	defer closeFn()
	admitted := 0
	for pass := 0; pass < 2; pass++ {
		for i := 0; i < 1000; i++ {
			if d.Allow(keyName(i)) {
				admitted++
			}
		}
	}
	if admitted != 1000 {
		return fmt.Errorf("1,000 keys at one token each admitted %d", admitted)
	}
	return nil
}

func BenchmarkLimiters(b *testing.B) {
	for _, sc := range scenarios {
		for _, im := range Impls {
			if ok, _ := fits(im, sc); !ok {
				continue
			}
			for _, mode := range []string{"serial", "parallel"} {
				b.Run(fmt.Sprintf("scenario=%s/impl=%s/mode=%s", sc, im.Name, mode), func(b *testing.B) {
					p := prepare(b, im, sc)
					b.ReportAllocs()
					if mode == "serial" {
						loopSerial(b, p, sc)
					} else {
						// The machine's state around this benchmark
						// (machine_test.go, internal/machine).
						machine.Around(b, func() { loopParallel(b, p, sc) })
					}
					// The timed span, as ns/op's: new-key makes its key names
					// with the timer stopped, which a wall clock would count.
					b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ops/s")
				})
			}
		}
	}
}

// newKeys is a shared supply of never-seen key names, made outside the
// timer: a counter picks the next one, or under RunParallel the next block
// of newKeyBlock, so that the counter's cache line moves between cores
// once a block and not once a key. Taken a key at a time, its line was
// 19% of sluice's CPU samples (flat) on new keys at 16 cores, a cost every
// implementation paid (BENCHMARKS.md, "A second 16-core session").
var (
	newKeys   []string
	newKeyPos atomic.Int64
)

const newKeyBlock = 64

func takeNewKeys(b *testing.B) {
	b.StopTimer()
	// Room for each goroutine's last block to run past its share.
	if n := b.N + newKeyBlock*runtime.GOMAXPROCS(0); len(newKeys) < n {
		newKeys = make([]string, n)
		for i := range newKeys {
			newKeys[i] = fmt.Sprintf("new:%012d", i)
		}
	}
	newKeyPos.Store(0)
	cache.name = "" // the limiter now holds these keys: the next run needs a fresh one
	b.StartTimer()
}

func loopSerial(b *testing.B, p *prepared, sc string) {
	if sc == newKey {
		takeNewKeys(b)
		b.ResetTimer()
		countFrom()
		for i := 0; i < b.N; i++ {
			p.l.Allow(newKeys[i])
		}
		countTo(b)
		return
	}
	keys, order, mask := p.lookup, p.order, len(p.order)-1
	b.ResetTimer()
	countFrom()
	for i := 0; i < b.N; i++ {
		p.l.Allow(keys[order[i&mask]])
	}
	countTo(b)
}

// counting: the binary runs under callgrind (make grind, cmd/grind), which
// then counts the serial loop's instructions and simulated cache misses,
// and nothing outside it. Elsewhere countFrom and countTo test this and
// return, outside the loop.
var counting = grind.Running()

func init() {
	if counting {
		settleClock()
	}
}

// settleClock waits until the default clock has its first scale. The
// counter clock answers from the monotonic clock for its first 64 ms of
// wall time (clock.Counter's calibration); under callgrind a decision
// takes about a hundred times as long as it does natively, so those 64 ms
// would fall on the first tens of thousands of counted decisions, a cost
// that in a real process falls on its first few million.
func settleClock() {
	c, ok := clock.Default().(*clock.Counter)
	if !ok {
		return
	}
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(time.Millisecond) {
		if _, ok := c.TryNow(); ok {
			return
		}
		c.Now()
	}
}

// countFrom starts the count, on this goroutine's thread only: callgrind
// counts per thread, so the goroutine keeps its thread until countTo.
func countFrom() {
	if counting {
		runtime.LockOSThread()
		grind.Toggle()
	}
}

// countTo stops the count and has callgrind write it to a file of its own,
// named by the benchmark and its b.N: cmd/grind takes the run at b.N=1
// from the run at b.N=n, leaving n−1 decisions and no setup.
func countTo(b *testing.B) {
	if counting {
		grind.Toggle()
		grind.Dump(fmt.Sprintf("%s N=%d", b.Name(), b.N))
		runtime.UnlockOSThread()
	}
}

func loopParallel(b *testing.B, p *prepared, sc string) {
	if sc == newKey {
		takeNewKeys(b)
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			var i, end int64
			for pb.Next() {
				if i == end {
					end = newKeyPos.Add(newKeyBlock)
					i = end - newKeyBlock
				}
				p.l.Allow(newKeys[i])
				i++
			}
		})
		return
	}
	var seed atomic.Uint32
	keys, order, mask := p.lookup, p.order, len(p.order)-1
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		// Each goroutine walks the sequence from its own offset.
		i := int(seed.Add(1)) * 7919 * 131
		for pb.Next() {
			p.l.Allow(keys[order[i&mask]])
			i++
		}
	})
}

// BenchmarkMemory reports the heap each per-key implementation holds for
// 1M keys, per key, after a GC. The key names are made and kept before the
// first reading; a copy an implementation makes of a key's bytes (sluice
// does, so as never to pin a request buffer) is subtracted: 16 bytes here.
func BenchmarkMemory(b *testing.B) {
	const n = 1_000_000
	keys := make([]string, n)
	for i := range keys {
		keys[i] = keyName(i)
	}
	for _, im := range Impls {
		if !im.PerKey || im.HotOnly || im.NewKeyOnly || im.GrindOnly {
			continue
		}
		b.Run(fmt.Sprintf("scenario=heap-1M/impl=%s", im.Name), func(b *testing.B) {
			if cache.p != nil {
				cache.p.close()
				cache.p, cache.name = nil, ""
			}
			var perKey float64
			for i := 0; i < b.N; i++ {
				before := heap()
				l, closeFn, err := im.New(Admitting)
				if err != nil {
					b.Fatal(err)
				}
				for _, k := range keys {
					if !l.Allow(k) {
						b.Fatalf("%s denied a new key", im.Name)
					}
				}
				after := heap()
				perKey = float64(after-before) / n
				if im.CopiesKey {
					perKey -= float64(len(keys[0]))
				}
				runtime.KeepAlive(l)
				closeFn()
			}
			b.ReportMetric(perKey, "B/key")
			runtime.KeepAlive(keys)
		})
	}
}

func heap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestImpls runs every implementation's behaviour checks, so that go test
// alone shows a broken setup.
func TestImpls(t *testing.T) {
	for _, im := range Impls {
		for _, sc := range []string{hotAllow, hotDeny, keys1k, newKey} {
			if ok, _ := fits(im, sc); !ok {
				continue
			}
			p := setup(t, im, sc)
			if err := verify(im, sc, p); err != nil {
				t.Errorf("%s in %s: %v", im.Name, sc, err)
			}
			p.close()
		}
	}
}

// alwaysAdmit is a broken limiter: it never denies.
type alwaysAdmit struct{}

func (alwaysAdmit) Allow(string) bool { return true }

// oneKey is a broken per-key limiter: every key shares one bucket.
type oneKey struct{ n int }

func (o *oneKey) Allow(string) bool { o.n++; return o.n <= 1 }

// The behaviour checks fail loudly on broken setups.
func TestVerifyCatchesBrokenSetups(t *testing.T) {
	broken := Impl{Name: "broken", PerKey: true, Deny: true,
		New: func(Config) (Limiter, func(), error) { return alwaysAdmit{}, func() {}, nil }}
	if err := verify(broken, hotDeny, &prepared{l: alwaysAdmit{}, keys: []string{"k"}}); err == nil {
		t.Error("a limiter that never denies passed the denying check")
	}
	shared := Impl{Name: "shared", PerKey: true, Deny: true,
		New: func(Config) (Limiter, func(), error) { return &oneKey{}, func() {}, nil }}
	keys := make([]string, 1000)
	for i := range keys {
		keys[i] = keyName(i)
	}
	if err := verify(shared, keys1k, &prepared{l: alwaysAdmit{}, keys: keys}); err == nil {
		t.Error("a limiter whose keys share one bucket passed the distinct-keys check")
	}
	// A variant shown on new keys only is checked in that scenario.
	for _, im := range []Impl{broken, shared} {
		im.NewKeyOnly = true
		if err := verify(im, newKey, &prepared{l: alwaysAdmit{}}); err == nil {
			t.Errorf("%s, shown on new keys only, passed the new-key check", im.Name)
		}
	}
}
