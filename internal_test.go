package sluice

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/seed997/sluice/atomicbucket"
)

// The limiter keeps its own copy of a key, so a key sliced from a large
// request buffer does not keep the buffer alive.
func TestKeyCopied(t *testing.T) {
	l := newLimiter(t, Per(1, time.Second), 1)
	buf := strings.Repeat("x", 1<<16)
	key := buf[:5]
	l.Allow(key)
	found := false
	for i := 0; i < l.table.Len(); i++ {
		l.table.At(i).Range(func(k string, _ *atomicbucket.Bucket) bool {
			if k == key {
				found = true
				if unsafe.StringData(k) == unsafe.StringData(key) {
					t.Fatal("the map holds the caller's string, not a copy")
				}
			}
			return true
		})
	}
	if !found {
		t.Fatal("key not in the map")
	}
}

// BenchmarkMemoryTable reports the stripe tables' share of the heap per key
// at 1M keys (slots with their buckets, and control words; not the keys'
// bytes), by the tables' own count, and their load; BenchmarkMemory
// measures the whole heap.
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
