// Package stripes spreads keys over 2^k cache-line-padded stripes chosen by
// xxhash(key) & mask; each stripe owns an xsync map from key to bucket and
// its own counters.
//
// Striping keeps one key's map operations and counter updates on lines that
// few other keys touch, and lets the sweeper walk the keys one small stripe
// at a time.
package stripes

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/cespare/xxhash/v2"
	"github.com/puzpuzpuz/xsync/v3"
	"golang.org/x/sys/cpu"
)

// cacheLineSize is the line size the platform's false-sharing pads use.
const cacheLineSize = unsafe.Sizeof(cpu.CacheLinePad{})

// MaxStripes bounds the stripe count; past a few per core more stripes only
// cost memory (each map starts with 32 buckets of 64 bytes).
const MaxStripes = 1 << 16

// Stripe is one shard. The map pointer, read by every decision, sits alone on
// its line; the counters, written by every decision, sit on the next one, so
// that writes to them never evict the map pointer from other cores' caches.
type Stripe[V any] struct {
	Map *xsync.MapOf[Key, V]
	_   [cacheLineSize - unsafe.Sizeof(uintptr(0))]byte

	Allowed   atomic.Int64 // admitted decisions
	Denied    atomic.Int64 // denied decisions (not enough tokens, cost too large)
	Evictions atomic.Int64 // keys evicted by the sweeper
	Refused   atomic.Int64 // new keys refused at the key cap
	_         [cacheLineSize - 4*8]byte
}

// Table is the set of stripes and the one live-key count. The count is
// global, not per stripe, because the key cap needs it exact and summing
// the stripes on every new key would read every stripe's line; it is
// written only when a key is created or evicted, never by a decision.
type Table[V any] struct {
	stripes []Stripe[V]
	mask    uint64
	_       [cacheLineSize - unsafe.Sizeof([]int{}) - 8]byte
	keys    atomic.Int64
	_       [cacheLineSize - 8]byte
}

// New returns a table of n stripes; n must be a power of two in
// [1, MaxStripes].
func New[V any](n int) (*Table[V], error) {
	if n < 1 || n > MaxStripes || n&(n-1) != 0 {
		return nil, fmt.Errorf("stripes: stripe count %d: must be a power of two between 1 and %d", n, MaxStripes)
	}
	t := &Table[V]{stripes: make([]Stripe[V], n), mask: uint64(n - 1)}
	for i := range t.stripes {
		t.stripes[i].Map = xsync.NewMapOfWithHasher[Key, V](rehash)
	}
	return t, nil
}

// Key is a map key that carries its xxhash, so that a decision hashes the
// key once: the low bits pick the stripe and the map's hasher only mixes the
// stored hash. Hashing the string a second time inside the map cost about
// as much as the whole rest of a decision; carrying the hash costs 8 bytes
// per key.
type Key struct {
	Hash uint64
	S    string
}

// rehash is the maps' hasher: a multiply-xorshift of the stored hash with
// the table's seed. It must spread the high bits (xsync's bucket index) and
// the low 7 (its in-bucket tag), which our stripe mask has made constant.
func rehash(k Key, seed uint64) uint64 {
	h := (k.Hash ^ seed) * 0x9E3779B97F4A7C15
	return h ^ h>>29
}

// Of returns the stripe that owns key and the key to look it up with.
func (t *Table[V]) Of(key string) (*Stripe[V], Key) {
	h := xxhash.Sum64String(key)
	return &t.stripes[h&t.mask], Key{Hash: h, S: key}
}

// Default is the stripe count a limiter uses unless told otherwise: the
// smallest power of two at least 4·GOMAXPROCS, and at least 16, so that
// goroutines on different cores rarely meet on one stripe's counters.
func Default() int {
	n := 16
	for n < 4*runtime.GOMAXPROCS(0) && n < MaxStripes {
		n <<= 1
	}
	return n
}

// Len returns the number of stripes.
func (t *Table[V]) Len() int { return len(t.stripes) }

// Keys returns the number of live keys.
func (t *Table[V]) Keys() int64 { return t.keys.Load() }

// AddKey counts one more key unless that would exceed max (max <= 0: no
// cap), and reports whether it did.
func (t *Table[V]) AddKey(max int64) bool {
	if max <= 0 {
		t.keys.Add(1)
		return true
	}
	// A CAS, not add-then-undo: an undone add would let Len read max+1 and
	// refuse a concurrent key while the real count is below the cap.
	for {
		n := t.keys.Load()
		if n >= max {
			return false
		}
		if t.keys.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

// DropKey counts one key fewer.
func (t *Table[V]) DropKey() { t.keys.Add(-1) }

// At returns stripe i, for walks over all stripes.
func (t *Table[V]) At(i int) *Stripe[V] { return &t.stripes[i] }
