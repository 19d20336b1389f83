package stripes

import (
	"math/bits"
	"math/rand/v2"
	"sync/atomic"
)

// table is one stripe's open-addressing hash table. Buckets live in the
// slots by value, beside their key, so that a decision on a key no cache
// holds costs two misses (the slot, then the key's bytes) where a map of
// pointers to entries to buckets costs four, and a key costs about 25 bytes
// of table (a 24-byte slot and a control byte) at a load between 7/12 and
// 7/8, where a map of pointers costs 74.
//
// The layout follows the SwissTable family: slots come in groups of eight,
// and one uint64 per group holds a control byte per slot: empty, deleted,
// or full with seven bits of the key's hash, so that a probe compares eight
// tags at once and reads a key only where its tag matches.
//
// Concurrency. Lookups take no lock: they load a group's control word
// atomically and read the slots it marks full. Everything else (insert,
// delete, rebuild) runs under the stripe's lock. A slot's key is written
// before its control byte is stored, and never written again, so a lookup
// that sees the byte full sees the key. A deleted slot is never reused in
// the same table: a goroutine that found the bucket before it was evicted
// may still hold a pointer to it, and must keep seeing it dead, not a new
// key's live bucket. Slots are reclaimed only by a rebuild into new memory;
// the old table stays valid (frozen) for whoever still reads it, until the
// garbage collector sees the last such reader go.
type table[B any] struct {
	ctrl   []atomic.Uint64 // a control word per group
	slots  []slot[B]
	groups uint64
	seed   uint64 // mixed into the key's hash: a flood of chosen keys cannot aim at one group
	used   int    // full and deleted slots; under the stripe's lock
	limit  int    // used never exceeds it (7/8 of the slots), so a probe always ends at an empty byte
}

type slot[B any] struct {
	key string
	b   B
}

const (
	groupSize = 8
	lsb       = 0x0101010101010101
	msb       = 0x8080808080808080

	// An empty slot's byte is 0, which matchEmpty looks for.
	ctrlDeleted = 0x01
	ctrlFull    = 0x80 // | seven bits of hash
)

func newSeed() uint64 { return rand.Uint64() }

func newTable[B any](groups int, seed uint64) *table[B] {
	return &table[B]{
		ctrl:   make([]atomic.Uint64, groups),
		slots:  make([]slot[B], groups*groupSize),
		groups: uint64(groups),
		seed:   seed,
		limit:  groups * groupSize * 7 / 8,
	}
}

// groupsFor returns the group count for a rebuild that must hold n keys:
// the load after it is 7/12, so that the table grows by half each time it
// fills to 7/8.
func groupsFor(n int) int {
	return max(1, (n*12/7+groupSize-1)/groupSize)
}

// mix turns the key's xxhash into this table's hash: the stripe chose the
// key by the hash's low bits, so they are constant here, and the seed
// keeps the group and tag unpredictable to whoever chooses the keys.
func mix(h, seed uint64) uint64 {
	h = (h ^ seed) * 0x9E3779B97F4A7C15
	return h ^ h>>32
}

// home returns the first group to probe and the control byte of a full slot
// for hash h. The group is the high half of h·groups, so that any group
// count works, not just powers of two.
func (t *table[B]) home(h uint64) (uint64, uint64) {
	m := mix(h, t.seed)
	g, _ := bits.Mul64(m, t.groups)
	return g, ctrlFull | m&0x7f
}

// match returns a mask with the high bit set in each byte of c equal to b,
// and possibly in a byte just above a match: callers check what they find.
func match(c, b uint64) uint64 {
	x := c ^ lsb*b
	return (x - lsb) &^ x & msb
}

// matchEmpty returns a mask that is nonzero iff c has an empty byte; its
// lowest set bit marks the lowest empty byte.
func matchEmpty(c uint64) uint64 { return (c - lsb) &^ c & msb }

// find returns the bucket stored under k, or nil. It takes no lock.
func (t *table[B]) find(k Key) *B {
	g, tag := t.home(k.Hash)
	for {
		c := t.ctrl[g].Load()
		for m := match(c, tag); m != 0; m &= m - 1 {
			sl := &t.slots[g*groupSize+uint64(bits.TrailingZeros64(m)>>3)]
			if sl.key == k.S {
				return &sl.b
			}
		}
		if matchEmpty(c) != 0 {
			return nil
		}
		if g++; g == t.groups {
			g = 0
		}
	}
}

// insert stores key in a new slot, which start initializes before the slot
// is published; the caller holds the lock, has checked that key is absent
// and that used < limit.
func (t *table[B]) insert(h uint64, key string, start func(*B)) *slot[B] {
	g, tag := t.home(h)
	for {
		c := t.ctrl[g].Load()
		if m := matchEmpty(c); m != 0 {
			i := uint64(bits.TrailingZeros64(m) >> 3)
			sl := &t.slots[g*groupSize+i]
			sl.key = key
			start(&sl.b)
			t.ctrl[g].Store(c&^(0xff<<(8*i)) | tag<<(8*i)) // publish
			t.used++
			return sl
		}
		if g++; g == t.groups {
			g = 0
		}
	}
}

// each calls f on every full slot until f returns false.
func (t *table[B]) each(f func(*slot[B]) bool) {
	for g := range t.ctrl {
		for m := t.ctrl[g].Load() & msb; m != 0; m &= m - 1 {
			if !f(&t.slots[g*groupSize+bits.TrailingZeros64(m)>>3]) {
				return
			}
		}
	}
}

// sweep marks deleted every full slot whose bucket evict removes, and
// returns how many it did; the caller holds the lock. The slot keeps its
// key and its dead bucket until a rebuild drops them.
func (t *table[B]) sweep(evict func(*B) bool) int {
	n := 0
	for g := range t.ctrl {
		c := t.ctrl[g].Load()
		next := c
		for m := c & msb; m != 0; m &= m - 1 {
			i := bits.TrailingZeros64(m) >> 3
			if evict(&t.slots[g*groupSize+i].b) {
				next = next&^(0xff<<(8*i)) | ctrlDeleted<<(8*i)
				n++
			}
		}
		if next != c {
			t.ctrl[g].Store(next)
		}
	}
	return n
}
