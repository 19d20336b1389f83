package stripes

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"sync/atomic"
	"unsafe"
)

// table is one stripe's open-addressing hash table. Buckets live in the
// table by value, in the key's group: a key of up to 16 bytes (a user ID,
// an IPv6 address, a short API key) is stored in the group itself; of a
// longer one, the slot keeps the length and an array beside the group a
// pointer to the bytes. A decision on a short key no cache holds then reads
// one group, on one page: its control word, the key's bytes and its bucket,
// where a map of pointers to entries to buckets reads four places. A slot
// is 32 bytes of table (its 16 key bytes, its bucket, its share of the
// group's header and padding), so a key costs 37 to 55 bytes, its bytes
// included, as the load moves between 7/8 and 7/12.
//
// The layout follows the SwissTable family: slots come in groups of eight,
// and one uint64 per group holds a control byte per slot: empty, deleted,
// or full with seven bits of the key's hash, so that a probe compares eight
// tags at once and reads a key only where its tag matches. The control word
// heads its group in memory, as in Go's own maps: a separate array of
// control words put the word and the slot on different pages, and a key's
// bytes outside the slot were a third place, so a cold lookup touched three
// pages where it now touches one.
//
// Within the group, what decisions only read (the control word, the
// lengths, the keys: 144 bytes, padded to 192) comes first and the buckets,
// which every admitted decision writes, last, on a cache line of their own
// (the group is 256 bytes and holds no pointer, and the allocator places
// pointer-free arrays of it on 64-byte boundaries). With keys and buckets
// interleaved, each decision on two cores also missed on the control word
// and key bytes that shared a line with a bucket the other core had just
// written; apart, those lines stay in both cores' caches and only the
// bucket's line moves. Measured on 1,000 keys under RunParallel on two
// cores: 71 ns to 50 ns a decision in the slow phases of the development
// VM (medians of 10 interleaved processes), for 8 bytes more per key at 1M
// keys (33.8 against 25.9).
//
// Concurrency. Lookups take no lock: they load a group's control word
// atomically and read the slots it marks full. Everything else (insert,
// delete, moving groups into a bigger table) runs under the stripe's lock.
// A slot's key is written before its control byte is stored, and never
// written again, so a lookup that sees the byte full sees the key (and a
// string handed out for it, pointing into the table, never changes). A
// deleted slot is never reused in the same table: a goroutine that found
// the bucket before it was evicted may still hold a pointer to it, and must
// keep seeing it dead, not a new key's live bucket. Slots are reclaimed
// only by moving the table into new memory (Stripe.grow), a few groups per
// call; the old table stays valid for whoever still reads it, its moved
// buckets frozen and their slots deleted, and a lookup that misses in it
// follows into the new one, until the garbage collector sees the last such
// reader go.
type table[B any] struct {
	groups []group[B]
	// long holds, per group, where the bytes of each key longer than
	// inlineKey lie (its length is in its slot's key bytes, see longLen);
	// nil until the table's first long key, and each group's array made
	// for its first. Kept out of the groups so that they hold no pointer:
	// the garbage collector then never scans them, and the allocator puts
	// no header in front of them, which would shift every group off its
	// line boundary. A pointer a slot rather than a string header: 64
	// bytes a group rather than 128, 76.1 → 63.8 B a key besides their
	// bytes at 1M 36-byte keys (BenchmarkMemory, keylen=36).
	long []*[groupSize]*byte
	// into is the table this one grows into, from the growth's start on
	// (nil before): a key moved there, or created there during the
	// growth, is looked up there, lock-free as here, when a probe here
	// misses (see Stripe.grow). It is never cleared: a lookup that loaded
	// this table before the new one was published still finds its key.
	into  atomic.Pointer[table[B]]
	ng    uint64 // len(groups)
	seed  uint64 // the Table's hash seed, for the keys a growth moves here
	used  int    // full and deleted slots; under the stripe's lock
	limit int    // used never exceeds it (7/8 of the slots), so a probe always ends at an empty byte
}

// group is a control word and the eight slots it describes.
type group[B any] struct {
	ctrl atomic.Uint64
	lens [groupSize]uint8           // each slot's key length, or longKey (in table.long)
	keys [groupSize][inlineKey]byte // each key's bytes, when it has at most inlineKey
	_    [readOnly - 16 - groupSize*inlineKey]byte
	b    [groupSize]B // written by decisions: on their own line
}

// groupLine is the line size a group is laid out for: 64 bytes, the
// coherence unit of amd64 processors and of arm64's server cores, whatever
// larger pad x/sys/cpu uses (128 bytes on arm64, for Apple's cores). The
// groups are most of a key's memory: laid out for 128-byte lines they
// would hold 48 bytes a slot rather than 32. On a 128-byte line the
// buckets share theirs with the group's last key bytes, which can make a
// lookup on two cores pay a transfer more often (not measured: there is
// no such machine here) and never makes it decide differently (make cross
// runs the suite for arm64).
const groupLine = 64

const (
	inlineKey = 16   // keys up to this long are stored in their group
	readOnly  = 192  // bytes of a group before its buckets: a multiple of groupLine
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

// home returns the first group to probe and the control byte of a full slot
// for hash h. The stripe chose the key by the hash's low bits, so they
// are constant here: the group is the high half of (bits 0-56 of h, shifted
// to the top)·groups, so that any group count works, not just powers of
// two, and the tag is bits 57-63, independent of both.
func (t *table[B]) home(h uint64) (uint64, uint64) {
	g, _ := bits.Mul64(h<<7, t.ng)
	return g, ctrlFull | h>>57
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
//
// Every caller has tested m != 0, from which the compiler proves the slot
// below groupSize, so indexing with it needs no bounds check and no mask
// (-d=ssa/check_bce). A mask, & (groupSize−1), which Go 1.27 drops, Go
// 1.26 kept on every lookup's dependent chain: without it a hot key's
// decision is 0.3–1.4 ns faster there (BenchmarkAllowPaired, both builds in
// turns; bench/HISTORY.md, "Go 1.27").
func slotOf(m uint64) uint64 { return uint64(bits.TrailingZeros64(m) >> 3) }

// findHome is find's first step, restricted to hits: the bucket of a key
// of 8 to 16 bytes stored in its home group, or nil for any other key,
// found or not, which the caller then looks up with find (from the start:
// a key found past its home group, or absent, so probes the home group
// twice, the second time on a line already in cache).
//
// It is written to be a leaf that cannot panic, so that the compiler gives
// it no frame and no stack check (amd64, Go 1.26 and 1.27, go tool
// objdump): the group is reached by address rather than by index, since
// g < t.ng = len(t.groups) (home; newTable makes both), and the key's
// words are compared by sameMid, with load64, which checks no bounds.
// find, which calls itself through into and the long key compares, has a
// 120-byte frame and spills six registers on entry. A decision calls this
// first (Stripe.LoadHome): a hot key's took 1.3 ns less on the default
// clock (24.2 → 22.9 ns), 1.0 on the coarse one (16.8 → 15.8), than with
// the first step inside find's frame (BenchmarkAllowPaired, builds of both
// run in turns; bench/HISTORY.md, "The lookup's first step as a leaf").
func (t *table[B]) findHome(k Key) *B {
	n := len(k.S)
	if n < 8 || n > inlineKey {
		return nil
	}
	g, tag := t.home(k.Hash)
	gr := (*group[B])(unsafe.Add(unsafe.Pointer(unsafe.SliceData(t.groups)), uintptr(g)*unsafe.Sizeof(t.groups[0])))
	for m := match(gr.ctrl.Load(), tag); m != 0; m &= m - 1 {
		i := slotOf(m)
		if int(gr.lens[i]) == n && sameMid(&gr.keys[i], k.S) {
			return &gr.b[i]
		}
	}
	return nil
}

// find returns the bucket stored under k, or nil. It takes no lock. It
// probes every group from the key's home to the first with an empty slot,
// then the table this one grows into.
func (t *table[B]) find(k Key) *B {
	g, tag := t.home(k.Hash)
	for {
		gr := &t.groups[g]
		c := gr.ctrl.Load()
		for m := match(c, tag); m != 0; m &= m - 1 {
			// The key compare is written out here, not called, so that
			// a short key's lookup makes no call (no difference was
			// measurable in the benchmarks; the profile lost the call).
			// A long key's makes one, to sameWords or memequal.
			i := slotOf(m)
			if len(k.S) <= inlineKey {
				if int(gr.lens[i]) == len(k.S) && sameShort(&gr.keys[i], k.S) {
					return &gr.b[i]
				}
			} else if gr.lens[i] == longKey && longLen(&gr.keys[i]) == len(k.S) && sameLong(t.long[g][i], k.S) {
				return &gr.b[i]
			}
		}
		if matchEmpty(c) != 0 {
			if nt := t.into.Load(); nt != nil {
				return nt.find(k)
			}
			return nil
		}
		if g++; g == t.ng {
			g = 0
		}
	}
}

// sameShort reports whether the first len(s) bytes of kb are s, for
// len(s) <= inlineKey. A key of 8 bytes or more is compared by sameMid, in
// line: the string comparison calls the runtime's memequal, a call on
// every decision's path that costs more than the compare itself.
func sameShort(kb *[inlineKey]byte, s string) bool {
	if len(s) < 8 {
		return string(kb[:len(s)]) == s
	}
	return sameMid(kb, s)
}

// sameMid reports whether the first len(s) bytes of kb are s, for 8 <=
// len(s) <= inlineKey: two overlapping words, the first eight bytes and
// the last eight. It reads them with load64, which checks no bounds, so
// that findHome, which calls it, stays a leaf that cannot panic.
func sameMid(kb *[inlineKey]byte, s string) bool {
	p, q, n := unsafe.Pointer(unsafe.StringData(s)), unsafe.Pointer(kb), uintptr(len(s))
	return load64(p, 0) == load64(q, 0) && load64(p, n-8) == load64(q, n-8)
}

// longLen is the length of a long key, kept in its slot's key bytes.
func longLen(kb *[inlineKey]byte) int { return int(binary.LittleEndian.Uint64(kb[:8])) }

// sameLong reports whether the len(s) bytes at p are s, for a key s longer
// than inlineKey whose length find has found equal to the stored key's, and
// inlines into find. Up to sameLongMax bytes it calls sameWords, not the
// runtime's memequal, which a string comparison calls: for the keys of 17
// to 48 bytes that APIs use (32-byte API keys, 36-byte UUIDs), a decision
// took 0.7 to 2.7 ns less (see sameLongMax); longer keys are left to
// memequal's wide compares, which the word loop does not match.
func sameLong(p *byte, s string) bool {
	if len(s) > sameLongMax {
		return unsafe.String(p, len(s)) == s
	}
	return sameWords(unsafe.String(p, len(s)), s)
}

// sameLongMax is the longest key sameWords compares. A hot key's decision
// on the coarse clock, serial, medians of 12 alternating processes
// (README, The engine alone): 17 bytes 23.9 → 22.9 ns, 36 bytes 27.5 →
// 25.2, 48 bytes 28.0 → 25.4 with the word loop instead of memequal; at
// 64 bytes the loop took 27.6 against memequal's 25.6 (5 processes).
const sameLongMax = 48

// sameWords reports whether a and b, of one length n, inlineKey < n <=
// sameLongMax, hold the same bytes, a word at a time: every word read lies
// inside both strings, the last one overlapping the one before. It is
// kept out of line: inlined into sameLong, it would keep sameLong out of
// find, and put a second call on the path of the keys past sameLongMax.
//
//go:noinline
func sameWords(a, b string) bool {
	n := uintptr(len(b))
	pa, pb := unsafe.Pointer(unsafe.StringData(a)), unsafe.Pointer(unsafe.StringData(b))
	for off := uintptr(0); off < n-8; off += 8 {
		if load64(pa, off) != load64(pb, off) {
			return false
		}
	}
	return load64(pa, n-8) == load64(pb, n-8)
}

// key returns the key of slot i of group g. A short key's string points
// into the group, whose key bytes never change while the table lives.
func (t *table[B]) key(g int, i uint64) string {
	gr := &t.groups[g]
	n := gr.lens[i]
	if n == longKey {
		return unsafe.String(t.long[g][i], longLen(&gr.keys[i]))
	}
	return unsafe.String(&gr.keys[i][0], int(n))
}

// insert stores key in a new slot, which start initializes before the slot
// is published; the caller holds the lock, has checked that key is absent
// and that used < limit. A short key's bytes are copied into the slot; a
// long key is kept as given, so the caller passes a string it owns.
func (t *table[B]) insert(h uint64, key string, start func(*B)) *B {
	g, i := t.free(h)
	_, tag := t.home(h)
	gr := &t.groups[g]
	if len(key) <= inlineKey {
		copy(gr.keys[i][:], key)
		gr.lens[i] = uint8(len(key))
	} else {
		if t.long == nil {
			t.long = make([]*[groupSize]*byte, t.ng)
		}
		if t.long[g] == nil {
			t.long[g] = new([groupSize]*byte)
		}
		t.long[g][i] = unsafe.StringData(key)
		binary.LittleEndian.PutUint64(gr.keys[i][:8], uint64(len(key)))
		gr.lens[i] = longKey
	}
	start(&gr.b[i])
	c := gr.ctrl.Load()
	gr.ctrl.Store(c&^(0xff<<(8*i)) | tag<<(8*i)) // publish
	t.used++
	return &gr.b[i]
}

// free returns the group and slot insert fills for a key of hash h: the
// first empty slot on the hash's probe sequence. There is one, since used
// never exceeds limit.
func (t *table[B]) free(h uint64) (g, i uint64) {
	g, _ = t.home(h)
	for {
		if m := matchEmpty(t.groups[g].ctrl.Load()); m != 0 {
			return g, slotOf(m)
		}
		if g++; g == t.ng {
			g = 0
		}
	}
}

// prefetchSlot asks for the lines insert would write for a key of hash h,
// the key's bytes and its bucket, without the lock: the stripe calls it
// just before it takes the lock to create a key, so that those lines,
// which no cache holds in a large table, arrive while the lock is taken
// rather than one after the other under it. Another goroutine's insert
// may take the slot first; the hint is then only wasted.
func (t *table[B]) prefetchSlot(h uint64) {
	g, i := t.free(h)
	gr := &t.groups[g]
	prefetch(unsafe.Pointer(&gr.keys[i]))
	prefetch(unsafe.Pointer(&gr.b[i]))
}

// each calls f on every full slot's key and bucket until f returns false,
// and reports whether it went through every slot.
func (t *table[B]) each(f func(key string, b *B) bool) bool {
	for g := range t.groups {
		gr := &t.groups[g]
		for m := gr.ctrl.Load() & msb; m != 0; m &= m - 1 {
			i := slotOf(m)
			if !f(t.key(g, i), &gr.b[i]) {
				return false
			}
		}
	}
	return true
}

// bytes is the table's memory: its groups, and the arrays of long keys
// (not the long keys' own bytes).
func (t *table[B]) bytes() int {
	n := len(t.groups)*int(unsafe.Sizeof(group[B]{})) + len(t.long)*int(unsafe.Sizeof(t.long[0]))
	for _, l := range t.long {
		if l != nil {
			n += int(unsafe.Sizeof(*l))
		}
	}
	return n
}

// sweep marks deleted every full slot of groups [from, to) whose bucket
// evict removes, and returns how many it did; the caller holds the lock.
// The slot keeps its key and its dead bucket until a rebuild drops them.
func (t *table[B]) sweep(from, to uint64, evict func(*B) bool) int {
	n := 0
	for g := from; g < to; g++ {
		gr := &t.groups[g]
		c := gr.ctrl.Load()
		next := c
		for m := c & msb; m != 0; m &= m - 1 {
			i := slotOf(m)
			if evict(&gr.b[i]) {
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
