package stripes

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"sync/atomic"
	"unsafe"
)

// table is one stripe's open-addressing hash table. Buckets live in the
// slots by value, beside the key's bytes: a key of up to 16 bytes (a user
// ID, an IPv6 address, a short API key) is stored in the slot itself, a
// longer one as a string beside its group. A decision on a short key no
// cache holds then reads one group, on one page: its control word and its
// slot, where a map of pointers to entries to buckets reads four places. A
// key costs 27 bytes of table (a 24-byte slot and three bytes of its
// group's header), its bytes included, at a load between 7/12 and 7/8.
//
// The layout follows the SwissTable family: slots come in groups of eight,
// and one uint64 per group holds a control byte per slot: empty, deleted,
// or full with seven bits of the key's hash, so that a probe compares eight
// tags at once and reads a key only where its tag matches. The control word
// heads its group's slots in memory (216 bytes a group), as in Go's own
// maps: a separate array of control words put the word and the slot on
// different pages, and a key's bytes outside the slot were a third place,
// so a cold lookup touched three pages where it now touches one.
//
// Concurrency. Lookups take no lock: they load a group's control word
// atomically and read the slots it marks full. Everything else (insert,
// delete, rebuild) runs under the stripe's lock. A slot's key is written
// before its control byte is stored, and never written again, so a lookup
// that sees the byte full sees the key (and a string handed out for it,
// pointing into the table, never changes). A deleted slot is never reused in
// the same table: a goroutine that found the bucket before it was evicted
// may still hold a pointer to it, and must keep seeing it dead, not a new
// key's live bucket. Slots are reclaimed only by a rebuild into new memory;
// the old table stays valid (frozen) for whoever still reads it, until the
// garbage collector sees the last such reader go.
type table[B any] struct {
	groups []group[B]
	ng     uint64 // len(groups)
	seed   uint64 // mixed into the key's hash: a flood of chosen keys cannot aim at one group
	used   int    // full and deleted slots; under the stripe's lock
	limit  int    // used never exceeds it (7/8 of the slots), so a probe always ends at an empty byte
}

// group is a control word and the eight slots it describes.
type group[B any] struct {
	ctrl  atomic.Uint64
	lens  [groupSize]uint8   // each slot's key length, or longKey
	long  *[groupSize]string // keys longer than inlineKey; made for the first
	slots [groupSize]slot[B]
}

type slot[B any] struct {
	kb [inlineKey]byte // the key's bytes, when it has at most inlineKey
	b  B
}

const (
	inlineKey = 16   // keys up to this long are stored in their slot
	longKey   = 0xff // the length byte of a key kept in the group's long array

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
		groups: make([]group[B], groups),
		ng:     uint64(groups),
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
	g, _ := bits.Mul64(m, t.ng)
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

// slotOf is the slot marked by the lowest set bit of a nonzero mask.
func slotOf(m uint64) uint64 { return uint64(bits.TrailingZeros64(m)>>3) & (groupSize - 1) }

// find returns the bucket stored under k, or nil. It takes no lock.
func (t *table[B]) find(k Key) *B {
	g, tag := t.home(k.Hash)
	for {
		gr := &t.groups[g]
		c := gr.ctrl.Load()
		for m := match(c, tag); m != 0; m &= m - 1 {
			if i := slotOf(m); gr.holds(i, k.S) {
				return &gr.slots[i].b
			}
		}
		if matchEmpty(c) != 0 {
			return nil
		}
		if g++; g == t.ng {
			g = 0
		}
	}
}

// holds reports whether slot i, marked full, holds key s.
func (gr *group[B]) holds(i uint64, s string) bool {
	n := gr.lens[i]
	if len(s) > inlineKey {
		return n == longKey && gr.long[i] == s
	}
	return int(n) == len(s) && sameShort(&gr.slots[i].kb, s)
}

// sameShort reports whether the first len(s) bytes of kb are s, for
// len(s) <= inlineKey. A key of 8 bytes or more is compared as two
// overlapping words, in line: the string comparison calls the runtime's
// memequal, a call on every decision's path that costs more than the
// compare itself.
func sameShort(kb *[inlineKey]byte, s string) bool {
	n := len(s)
	if n < 8 {
		return string(kb[:n]) == s
	}
	b := unsafe.Slice(unsafe.StringData(s), n)
	return binary.LittleEndian.Uint64(b) == binary.LittleEndian.Uint64(kb[:8]) &&
		binary.LittleEndian.Uint64(b[n-8:]) == binary.LittleEndian.Uint64(kb[n-8:])
}

// key returns slot i's key. A short key's string points into the slot,
// whose bytes never change while the table lives.
func (gr *group[B]) key(i uint64) string {
	n := gr.lens[i]
	if n == longKey {
		return gr.long[i]
	}
	return unsafe.String(&gr.slots[i].kb[0], int(n))
}

// insert stores key in a new slot, which start initializes before the slot
// is published; the caller holds the lock, has checked that key is absent
// and that used < limit. A short key's bytes are copied into the slot; a
// long key is kept as given, so the caller passes a string it owns.
func (t *table[B]) insert(h uint64, key string, start func(*B)) *B {
	g, tag := t.home(h)
	for {
		gr := &t.groups[g]
		c := gr.ctrl.Load()
		if m := matchEmpty(c); m != 0 {
			i := slotOf(m)
			sl := &gr.slots[i]
			if len(key) <= inlineKey {
				copy(sl.kb[:], key)
				gr.lens[i] = uint8(len(key))
			} else {
				if gr.long == nil {
					gr.long = new([groupSize]string)
				}
				gr.long[i] = key
				gr.lens[i] = longKey
			}
			start(&sl.b)
			gr.ctrl.Store(c&^(0xff<<(8*i)) | tag<<(8*i)) // publish
			t.used++
			return &sl.b
		}
		if g++; g == t.ng {
			g = 0
		}
	}
}

// each calls f on every full slot's key and bucket until f returns false.
func (t *table[B]) each(f func(key string, b *B) bool) {
	for g := range t.groups {
		gr := &t.groups[g]
		for m := gr.ctrl.Load() & msb; m != 0; m &= m - 1 {
			i := slotOf(m)
			if !f(gr.key(i), &gr.slots[i].b) {
				return
			}
		}
	}
}

// bytes is the table's memory: its groups, and the arrays of long keys
// (not the long keys' own bytes).
func (t *table[B]) bytes() int {
	n := len(t.groups) * int(unsafe.Sizeof(group[B]{}))
	for g := range t.groups {
		if t.groups[g].long != nil {
			n += int(unsafe.Sizeof(*t.groups[g].long))
		}
	}
	return n
}

// sweep marks deleted every full slot whose bucket evict removes, and
// returns how many it did; the caller holds the lock. The slot keeps its
// key and its dead bucket until a rebuild drops them.
func (t *table[B]) sweep(evict func(*B) bool) int {
	n := 0
	for g := range t.groups {
		gr := &t.groups[g]
		c := gr.ctrl.Load()
		next := c
		for m := c & msb; m != 0; m &= m - 1 {
			i := slotOf(m)
			if evict(&gr.slots[i].b) {
				next = next&^(0xff<<(8*i)) | ctrlDeleted<<(8*i)
				n++
			}
		}
		if next != c {
			gr.ctrl.Store(next)
		}
	}
	return n
}
