package sluice

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/seed997/sluice/atomicbucket"
	"github.com/seed997/sluice/clock"
	"github.com/seed997/sluice/stripes"
)

// The limiter keeps its own copy of a key, so a key sliced from a large
// request buffer does not keep the buffer alive.
// Short keys are copied into their slot, long ones cloned: the table
// never points into the caller's buffer.
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
// out in the loop as Allow has it, so that what lies between sluice and
// the floor in bench_test.go can be read part by part: part=lookup-cas is
// the clock read, the key's hash and the table's walk, and one CAS on the
// bucket's word (the floor, built of sluice's own table); part=decide
// puts the exact arithmetic and the limit checks in place of the bare CAS
// (TryOne); part=count adds the per-P count; part=allow is Allow itself,
// with its call and its clock switch.
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
		read := cc.read
		b.Run("clock="+cc.name+"/part=lookup-cas", func(b *testing.B) {
			for range b.N {
				read()
				st, k := l.table.Of(key)
				s := (*atomic.Uint64)(unsafe.Pointer(st.Load(k)))
				old := s.Load()
				s.CompareAndSwap(old, old)
			}
		})
		for _, part := range []string{"decide", "count"} {
			count := part == "count"
			b.Run("clock="+cc.name+"/part="+part, func(b *testing.B) {
				for range b.N {
					now := read()
					st, k := l.table.Of(key)
					if !st.Load(k).TryOne(&l.limit, now) {
						b.Fatal("the admitting setup denied")
					}
					if count {
						p := stripes.Pin()
						l.table.Tally(p, true)
						stripes.Unpin()
					}
				}
			})
		}
		b.Run("clock="+cc.name+"/part=allow", func(b *testing.B) {
			for range b.N {
				if !l.Allow(key) {
					b.Fatal("the admitting setup denied")
				}
			}
		})
		l.Close()
	}
}
