package sluice

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/puzpuzpuz/xsync/v3"
	"github.com/seed997/sluice/atomicbucket"
	"github.com/seed997/sluice/clock"
	"github.com/seed997/sluice/internal/paired"
	"github.com/seed997/sluice/internal/shorthash"
	"github.com/seed997/sluice/stripes"
)

// Allow hashes a key of 9 to 16 bytes with shorthash.Sum under the table's
// seed, and every other with the table's Hash: both must give the hash the
// table files the key under, or Allow's lookup would miss every existing
// key of those lengths and take the slow path (deciding the same, slower).
func TestAllowHashIsTables(t *testing.T) {
	for _, seeded := range []int{1, 2} {
		l := newLimiter(t, Per(1, time.Second), 1)
		for n := 9; n <= 16; n++ {
			key := strings.Repeat(fmt.Sprint(seeded), n)
			if got, want := shorthash.Sum(key, l.table.Seed()), l.table.Hash(key); got != want {
				t.Fatalf("limiter %d, %d-byte key: shorthash.Sum under the table's seed %#x, the table's hash %#x", seeded, n, got, want)
			}
		}
	}
}

// The limiter keeps its own copy of a key, so a key sliced from a large
// request buffer does not keep the buffer alive. Short keys are copied into
// their slot, long ones cloned: the table never points into the caller's
// buffer.
func TestKeyCopied(t *testing.T) {
	l := newLimiter(t, Per(1, time.Second), 1)
	buf := strings.Repeat("x", 1<<16)
	for _, key := range []string{buf[:5], buf[:16], buf[:17], buf[:200]} {
		l.Allow(key)
		found := false
		for i := 0; i < l.table.Len(); i++ {
			l.table.At(i).Range(func(k string, _ *atomicbucket.Bucket) bool {
				if k == key {
					found = true
					start, end := uintptr(unsafe.Pointer(unsafe.StringData(buf))), uintptr(len(buf))
					if p := uintptr(unsafe.Pointer(unsafe.StringData(k))); p-start < end {
						t.Fatalf("the table holds the caller's buffer for a %d-byte key, not a copy", len(key))
					}
				}
				return true
			})
		}
		if !found {
			t.Fatalf("%d-byte key not in the table", len(key))
		}
	}
}

// BenchmarkMemoryTable reports the stripe tables' share of the heap per key
// at 1M keys (groups: control words, key lengths, slots with the buckets
// and the bytes of keys up to 16 bytes, here 12 a key), by the tables' own
// count, and their load; BenchmarkMemory measures the whole heap.
func BenchmarkMemoryTable(b *testing.B) {
	for i := 0; i < b.N; i++ {
		l, _ := New(Per(1_000_000_000, time.Second), 10, WithIdleTTL(time.Hour))
		for k := 0; k < 1_000_000; k++ {
			l.Allow(fmt.Sprintf("key-%08d", k))
		}
		var keys, slots, bytes int
		for s := 0; s < l.table.Len(); s++ {
			k, sl, by := l.table.At(s).Size()
			keys, slots, bytes = keys+k, slots+sl, bytes+by
		}
		b.ReportMetric(float64(bytes)/float64(keys), "table-B/key")
		b.ReportMetric(float64(keys)/float64(slots), "load")
		l.Close()
	}
}

// BenchmarkAllowParts takes a hot key's decision apart, each part written
// out in the loop as Allow has it, and times each step from one part to
// the next with paired.Blocks, the two in turns, so that a step of a nanosecond
// reads as one on this shared machine. The parts: lookup-cas is the clock
// read, the key's hash, the table's walk and one CAS on the bucket's word
// (a floor built of sluice's own table); decide puts the exact arithmetic
// and the limit checks in place of the bare CAS (TryOne); count adds the
// per-P count; allow is Allow itself, with its call and its clock switch.
// Each reads the clock after hashing the key, as Allow does; step=clock is
// decide with the clock read first, as Allow had it until this was
// measured. Two more steps measure the lookup: step=hash is lookup-cas with the
// key's hash computed once, outside the loop, against lookup-cas (what the
// hash adds), and step=xsync is bench_test.go's floor, an xsync map's load
// and one CAS, against lookup-cas. Each step reports both parts' ns a
// decision (from-ns/op, to-ns/op), what the step adds (added-ns, the
// difference of those medians) and the median ratio to÷from. Every part
// finds the bucket as Allow does, with LoadHome and then, should that
// miss, Load.
func BenchmarkAllowParts(b *testing.B) {
	coarse := clock.NewCoarse(time.Millisecond)
	defer coarse.Stop()
	clocks := []struct {
		name string
		clk  clock.Clock
		read func() time.Duration // as Allow reads it
	}{{"coarse", coarse, coarse.Now}}
	if c, ok := clock.Default().(*clock.Counter); ok {
		clocks = append(clocks, struct {
			name string
			clk  clock.Clock
			read func() time.Duration
		}{"default", c, func() time.Duration {
			if now, ok := c.TryNow(); ok {
				return now
			}
			return c.Now()
		}})
	}
	for _, cc := range clocks {
		l, err := New(Per(1_000_000_000, time.Second), 1_000_000_000, WithClock(cc.clk))
		if err != nil {
			b.Fatal(err)
		}
		const key = "user:12345678"
		l.Allow(key)
		m := xsync.NewMapOf[string, *atomic.Uint64]()
		m.Store(key, new(atomic.Uint64))
		st0, k0 := l.table.Of(key)
		read := cc.read
		parts := map[string]func(n int){
			"xsync": func(n int) { // as the floor orders it
				for range n {
					s, _ := m.Load(key)
					old := s.Load()
					s.CompareAndSwap(old, uint64(read()))
				}
			},
			"lookup-cas-hashed": func(n int) {
				for range n {
					now := read()
					b := st0.LoadHome(k0) // as Allow finds it
					if b == nil {
						b = st0.Load(k0)
					}
					s := (*atomic.Uint64)(unsafe.Pointer(b))
					old := s.Load()
					s.CompareAndSwap(old, uint64(now))
				}
			},
			"lookup-cas": func(n int) {
				for range n {
					h := shorthash.Sum(key, l.table.Seed())
					st, k := l.table.Stripe(h), stripes.Key{Hash: h, S: key}
					now := read()
					b := st.LoadHome(k)
					if b == nil {
						b = st.Load(k)
					}
					s := (*atomic.Uint64)(unsafe.Pointer(b))
					old := s.Load()
					s.CompareAndSwap(old, uint64(now))
				}
			},
			"decide": func(n int) {
				for range n {
					h := shorthash.Sum(key, l.table.Seed())
					st, k := l.table.Stripe(h), stripes.Key{Hash: h, S: key}
					now := read()
					b := st.LoadHome(k)
					if b == nil {
						b = st.Load(k)
					}
					if !b.TryOne(&l.limit, now) {
						panic("the admitting setup denied")
					}
				}
			},
			"decide-clock-first": func(n int) {
				for range n {
					now := read()
					h := shorthash.Sum(key, l.table.Seed())
					st, k := l.table.Stripe(h), stripes.Key{Hash: h, S: key}
					b := st.LoadHome(k)
					if b == nil {
						b = st.Load(k)
					}
					if !b.TryOne(&l.limit, now) {
						panic("the admitting setup denied")
					}
				}
			},
			"count": func(n int) {
				for range n {
					h := shorthash.Sum(key, l.table.Seed())
					st, k := l.table.Stripe(h), stripes.Key{Hash: h, S: key}
					now := read()
					b := st.LoadHome(k)
					if b == nil {
						b = st.Load(k)
					}
					if !b.TryOne(&l.limit, now) {
						panic("the admitting setup denied")
					}
					p := stripes.Pin()
					l.table.Tally(p, true)
					stripes.Unpin()
				}
			},
			"allow": func(n int) {
				for range n {
					if !l.Allow(key) {
						panic("the admitting setup denied")
					}
				}
			},
		}
		for _, step := range []struct{ name, from, to string }{
			{"hash", "lookup-cas-hashed", "lookup-cas"},
			{"xsync", "xsync", "lookup-cas"},
			{"decide", "lookup-cas", "decide"},
			{"clock", "decide", "decide-clock-first"},
			{"count", "decide", "count"},
			{"allow", "count", "allow"},
		} {
			b.Run("clock="+cc.name+"/step="+step.name, func(b *testing.B) {
				from, to, ratio := paired.Blocks(b, parts[step.from], parts[step.to])
				b.ReportMetric(to, "ns/op")
				b.ReportMetric(from, "from-ns/op")
				b.ReportMetric(to-from, "added-ns")
				b.ReportMetric(ratio, "to/from")
			})
		}
		l.Close()
	}
}
