// Package stripes spreads keys over 2^k cache-line-padded stripes chosen by
// xxhash(key) & mask; each stripe owns a hash table from key to bucket and
// its own counters.
//
// Striping keeps one key's table operations and counter updates on lines
// that few other keys touch, bounds what one table rebuild or one sweep
// holds up to a single stripe, and lets the sweeper walk the keys one small
// stripe at a time. The table itself is in table.go.
package stripes

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/cespare/xxhash/v2"
	"golang.org/x/sys/cpu"
)

// cacheLineSize is the line size the platform's false-sharing pads use.
const cacheLineSize = unsafe.Sizeof(cpu.CacheLinePad{})

// MaxStripes bounds the stripe count; past a few per core more stripes only
// cost memory.
const MaxStripes = 1 << 16

// Bucket is what a stripe needs of its buckets, which it stores by value
// (B) and hands out by pointer (P). Freeze marks a bucket dead while
// keeping its state, so that a rebuild can move it: no goroutine can spend
// tokens on the old copy once its state has been read. Thaw gives a new,
// unpublished bucket that state. atomicbucket.Bucket and MutexBucket both
// satisfy it.
type Bucket[B any] interface {
	*B
	Freeze() (state uint64, ok bool)
	Thaw(state uint64)
}

// Stripe is one shard. The table pointer, read by every decision, sits
// alone on its line; the lock, the live count and the rare counters,
// written only when a key is created, refused or evicted, on the next, so
// that writes to them never evict the table pointer from other cores'
// caches. The decision counters are per P, in the Table (count.go).
type Stripe[B any, P Bucket[B]] struct {
	tab atomic.Pointer[table[B]]
	_   [cacheLineSize - unsafe.Sizeof(uintptr(0))]byte

	mu        sync.Mutex   // held to insert, sweep or rebuild; never by a decision on an existing key
	live      int          // keys in tab, under mu
	Evictions atomic.Int64 // keys evicted by the sweeper
	Refused   atomic.Int64 // new keys refused at the key cap
	_         [cacheLineSize - unsafe.Sizeof(sync.Mutex{}) - unsafe.Sizeof(int(0)) - 16]byte
}

// Table is the set of stripes and the one live-key count. The count is
// global, not per stripe, because the key cap needs it exact and summing
// the stripes on every new key would read every stripe's line; it is
// written only when a key is created or evicted, never by a decision.
type Table[B any, P Bucket[B]] struct {
	stripes []Stripe[B, P]
	mask    uint64
	_       [cacheLineSize - unsafe.Sizeof([]int{}) - 8]byte
	keys    atomic.Int64
	_       [cacheLineSize - 8]byte
	tallies tallies
}

// New returns a table of n stripes; n must be a power of two in
// [1, MaxStripes].
func New[B any, P Bucket[B]](n int) (*Table[B, P], error) {
	if n < 1 || n > MaxStripes || n&(n-1) != 0 {
		return nil, fmt.Errorf("stripes: stripe count %d: must be a power of two between 1 and %d", n, MaxStripes)
	}
	t := &Table[B, P]{stripes: make([]Stripe[B, P], n), mask: uint64(n - 1), tallies: newTallies()}
	for i := range t.stripes {
		t.stripes[i].tab.Store(newTable[B](1, newSeed()))
	}
	return t, nil
}

// Key is a key with its xxhash, computed once per decision: the low bits
// pick the stripe, the stripe's table mixes the whole hash with its seed.
type Key struct {
	Hash uint64
	S    string
}

// Of returns the stripe that owns key and the key to look it up with.
func (t *Table[B, P]) Of(key string) (*Stripe[B, P], Key) {
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
func (t *Table[B, P]) Len() int { return len(t.stripes) }

// Keys returns the number of live keys.
func (t *Table[B, P]) Keys() int64 { return t.keys.Load() }

// AddKey counts one more key unless that would exceed max (max <= 0: no
// cap), and reports whether it did.
func (t *Table[B, P]) AddKey(max int64) bool {
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

// DropKeys counts n keys fewer.
func (t *Table[B, P]) DropKeys(n int) { t.keys.Add(-int64(n)) }

// At returns stripe i, for walks over all stripes.
func (t *Table[B, P]) At(i int) *Stripe[B, P] { return &t.stripes[i] }

// Load returns the bucket stored under k, or nil. It takes no lock and
// writes nothing. The bucket may be dead (evicted, or frozen by a rebuild):
// a caller that finds it so calls LoadOrInsert, which waits for the rebuild.
func (s *Stripe[B, P]) Load(k Key) P {
	return P(s.tab.Load().find(k))
}

// LoadOrInsert returns the live bucket stored under k. If there is none and
// admit() allows it, it stores a copy of the key with a new bucket that
// start initializes, and returns that; if admit() refuses, it returns nil.
// It holds the stripe's lock, so a key's bucket is created exactly once
// however many goroutines race on it, and start runs before any other
// goroutine can see the bucket.
func (s *Stripe[B, P]) LoadOrInsert(k Key, admit func() bool, start func(P)) P {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tab.Load()
	if b := t.find(k); b != nil {
		return P(b)
	}
	if !admit() {
		return nil
	}
	if t.used >= t.limit {
		t = s.rebuild(s.live + 1)
	}
	// The copy: the table must never pin a caller's buffer (a request's
	// whole header block, say) for as long as the key lives. A short key
	// is copied into its slot; a long one is cloned here.
	key := k.S
	if len(key) > inlineKey {
		key = strings.Clone(key)
	}
	b := t.insert(k.Hash, key, func(b *B) { start(P(b)) })
	s.live++
	return P(b)
}

// Sweep offers every live bucket to evict, under the stripe's lock; a
// bucket for which evict returns true is removed (evict must have marked it
// dead). It returns how many were removed. A stripe left mostly deleted
// slots is rebuilt smaller, so that memory follows the live keys down.
func (s *Stripe[B, P]) Sweep(evict func(P) bool) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tab.Load()
	n := t.sweep(func(b *B) bool { return evict(P(b)) })
	s.live -= n
	if n > 0 && len(t.groups) > 4 && 4*s.live < t.used {
		s.rebuild(s.live)
	}
	return n
}

// Range calls f on every live key and its bucket, under the stripe's lock,
// until f returns false. A key of up to 16 bytes is a string pointing into
// the table, whose bytes never change; keeping it keeps that table's memory
// alive.
func (s *Stripe[B, P]) Range(f func(key string, b P) bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tab.Load().each(func(key string, b *B) bool { return f(key, P(b)) })
}

// Size returns the number of live keys in the stripe, the number of slots
// its table has, and the table's bytes (its groups, which hold the bytes of
// keys up to 16 bytes, and the arrays of longer keys' strings, not those
// keys' bytes), for memory accounting.
func (s *Stripe[B, P]) Size() (keys, slots, bytes int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tab.Load()
	return s.live, len(t.groups) * groupSize, t.bytes()
}

// rebuild moves every live bucket into a new table sized for need keys and
// publishes it. Each bucket is frozen as it is copied: a goroutine that
// meets a frozen bucket comes to LoadOrInsert, blocks on the lock until the
// new table is published, and finds the bucket there with every token it
// had. Deleted slots are dropped, so a slot's memory is reused only in a
// new table, never under a goroutine that may still hold a pointer to it.
func (s *Stripe[B, P]) rebuild(need int) *table[B] {
	old := s.tab.Load()
	nt := newTable[B](groupsFor(need), old.seed)
	live := 0
	old.each(func(key string, b *B) bool {
		state, ok := P(b).Freeze()
		if !ok {
			return true // dead, so not live: cannot happen under the lock, but never copy it
		}
		// A short key's string points into the old slot; insert copies it.
		nt.insert(xxhash.Sum64String(key), key, func(b *B) { P(b).Thaw(state) })
		live++
		return true
	})
	s.live = live
	s.tab.Store(nt)
	return nt
}
