// Package stripes spreads keys over 2^k cache-line-padded stripes chosen by
// xxhash(key) & mask, the key's seeded XXH3-64 (hash.go); each stripe owns
// a hash table from key to bucket and its own counters.
//
// Striping keeps one key's table operations and counter updates on lines
// that few other keys touch, bounds what one table's growth or one sweep
// holds up to a single stripe, and lets the sweeper walk the keys one small
// stripe at a time. The table itself is in table.go; a full one grows a few
// groups per call (Stripe.grow).
package stripes

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/cpu"
)

// cacheLineSize is the line size the platform's false-sharing pads use:
// x/sys/cpu's, or 32 bytes where it gives none (wasm, which runs one
// thread and shares no line).
const cacheLineSize = max(unsafe.Sizeof(cpu.CacheLinePad{}), 32)

// MaxStripes bounds the stripe count; past a few per core more stripes only
// cost memory.
const MaxStripes = 1 << 16

// Bucket is what a stripe needs of its buckets, which it stores by value
// (B) and hands out by pointer (P). Freeze marks a bucket dead while
// keeping its state, so that a growth can move it: no goroutine can spend
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
// written only when a key is created, refused or evicted, on the lines
// before it, so that writes to them never evict the table pointer from
// other cores' caches. The decision counters are per P, in the Table
// (count.go).
//
// Each pad is computed from the size of what it pads, so that the layout
// holds for any line and word size (x/sys/cpu pads 32-byte lines on arm
// and mips, 128 on arm64 and ppc64, 256 on s390x). The table pointer's
// line comes last because its pad is never empty: a struct that ends in a
// field of size zero is padded past it by the compiler.
type Stripe[B any, P Bucket[B]] struct {
	stripeLocked[B]
	_    [(cacheLineSize - unsafe.Sizeof(stripeLocked[B]{})%cacheLineSize) % cacheLineSize]byte
	tab  atomic.Pointer[table[B]]
	asks chan<- *Stripe[B, P] // the Table's (Asks); set once, by New
	_    [cacheLineSize - 2*unsafe.Sizeof(uintptr(0))]byte
}

// stripeLocked is what a key's creation, refusal or eviction writes of a
// stripe.
type stripeLocked[B any] struct {
	mu        sync.Mutex   // held to insert, sweep or move groups; never by a decision on a live bucket
	live      atomic.Int64 // keys in tab and the table it grows into; written under mu
	moved     uint64       // groups of tab already moved into tab.into, under mu
	step      uint64       // groups each call under the lock moves while growing, under mu
	swept     uint64       // groups of tab the sweep's pass has offered, under mu
	shrunk    bool         // the pass ended in a shrink, which SweepStep finishes, under mu
	Evictions atomic.Int64 // keys evicted by Sweep
	Refused   atomic.Int64 // new keys refused at the key cap
	next      *table[B]    // made by Prepare for tab's growth, under mu; nil if none
	seen      uint32       // tab's used slots when next was made or last reviewed, mod 2^32, under mu
	asked     bool         // the stripe is on asks and next not yet made, under mu
	declined  bool         // review dropped next: no more asks until the growth, under mu
}

// Table is the set of stripes, the key cap and its count. Each stripe
// counts its own keys, which Keys sums; under a cap, a global count as
// well, because the cap needs it exact and summing the stripes on every
// new key would read every stripe's line. Without a cap nothing global is
// written when a key is created: on 16 cores creating keys, that one line
// took 8% of the time (bench/BENCHMARKS.md). Neither is written by a
// decision.
type Table[B any, P Bucket[B]] struct {
	tableIndex[B, P]
	_       [(cacheLineSize - unsafe.Sizeof(tableIndex[B, P]{})%cacheLineSize) % cacheLineSize]byte
	keys    atomic.Int64 // keys held, counted only under a cap
	max     int64        // the cap; 0: none
	_       [(cacheLineSize - 16%cacheLineSize) % cacheLineSize]byte
	tallies tallies
	secret  [secretSize]byte // the seed's secret for keys over 240 bytes (seedSecret)
}

// tableIndex is what every decision reads of a Table, never written after
// New.
type tableIndex[B any, P Bucket[B]] struct {
	stripes []Stripe[B, P]
	mask    uint64
	seed    uint64             // the key hash's seed: keys chosen by a client cannot aim at one stripe or group
	asks    chan *Stripe[B, P] // stripes whose next table should be made (Asks)
}

// New returns a table of n stripes; n must be a power of two in
// [1, MaxStripes].
func New[B any, P Bucket[B]](n int) (*Table[B, P], error) {
	if n < 1 || n > MaxStripes || n&(n-1) != 0 {
		return nil, fmt.Errorf("stripes: stripe count %d: must be a power of two between 1 and %d", n, MaxStripes)
	}
	t := &Table[B, P]{
		tableIndex: tableIndex[B, P]{
			stripes: make([]Stripe[B, P], n),
			mask:    uint64(n - 1),
			asks:    make(chan *Stripe[B, P], n),
			seed:    newSeed(),
		},
		tallies: newTallies(),
	}
	t.secret = seedSecret(t.seed)
	for i := range t.stripes {
		t.stripes[i].tab.Store(newTable[B](1, t.seed))
		t.stripes[i].asks = t.asks
	}
	return t, nil
}

// Asks delivers the stripes whose table is nearly full, so that whoever
// owns the table (the sweeper) serves each with a Server, off the request
// path. A stripe asks at most once per growth; an ask nobody serves costs
// nothing but the growth's page faults (see Prepare).
func (t *Table[B, P]) Asks() <-chan *Stripe[B, P] { return t.asks }

// Serve serves the table's asks with a Server until stop is closed: for a
// table used without the sweeper, which otherwise does it.
func (t *Table[B, P]) Serve(stop <-chan struct{}) {
	var v Server[B, P]
	for {
		select {
		case s := <-t.asks:
			v.Ask(s)
		case <-v.Due():
			v.Review()
		case <-stop:
			return
		}
	}
}

// Server makes the tables a Table's stripes ask for (Table.Asks), and
// reviews each table it made every reviewEvery, dropping those that keys
// come too slowly to (see prepareAt). Its zero value is ready; one
// goroutine uses it, selecting on Table.Asks and Due.
type Server[B any, P Bucket[B]] struct {
	held  []heldTable[B, P] // stripes holding a table it made, to review
	timer *time.Timer       // armed for the earliest due, while held is not empty
}

// heldTable is a stripe holding a table a Server made, and when the table
// is next due for review. Each table keeps its own time: a review projects
// the keys counted since the last one over four more, so it must come a
// whole reviewEvery after the last. A timer shared by every table, as
// Server had, reviewed a table made just before it fired after a fraction
// of that, and could drop it during a flood that would have filled it.
type heldTable[B any, P Bucket[B]] struct {
	s   *Stripe[B, P]
	due time.Time
}

// Ask makes the table stripe s asked for.
func (v *Server[B, P]) Ask(s *Stripe[B, P]) { v.askAt(s, time.Now()) }

func (v *Server[B, P]) askAt(s *Stripe[B, P], now time.Time) {
	if !s.Prepare() {
		return
	}
	due := now.Add(reviewEvery)
	// A stripe still held for a table its growth has taken since its last
	// review: the new table gets the whole reviewEvery, as any other. The
	// timer, armed for an earlier due, finds the stripe not due then.
	if i := slices.IndexFunc(v.held, func(h heldTable[B, P]) bool { return h.s == s }); i >= 0 {
		v.held[i].due = due
		return
	}
	v.held = append(v.held, heldTable[B, P]{s, due})
	// A table held before this one is due first, and the timer is armed
	// for it already.
	if v.timer == nil {
		v.timer = time.NewTimer(reviewEvery)
	} else if len(v.held) == 1 {
		v.timer.Reset(reviewEvery)
	}
}

// Due delivers when a table made is due for review; it is nil, and never
// delivers, while no stripe holds one.
func (v *Server[B, P]) Due() <-chan time.Time {
	if len(v.held) == 0 {
		return nil
	}
	return v.timer.C
}

// Review reviews each table made that is due, dropping those that keys
// come to too slowly, and forgets those a growth has taken.
func (v *Server[B, P]) Review() { v.reviewAt(time.Now()) }

func (v *Server[B, P]) reviewAt(now time.Time) {
	keep := v.held[:0]
	var next time.Time
	for _, h := range v.held {
		if !now.Before(h.due) {
			if !h.s.review() {
				continue
			}
			h.due = now.Add(reviewEvery)
		}
		keep = append(keep, h)
		if next.IsZero() || h.due.Before(next) {
			next = h.due
		}
	}
	clear(v.held[len(keep):])
	v.held = keep
	if len(keep) > 0 {
		v.timer.Reset(next.Sub(now))
	}
}

// reviewEvery is how often a Server reviews the tables it made: a table
// keys stopped coming to is held for at most two reviews.
const reviewEvery = 100 * time.Millisecond

// review reports whether the stripe still holds the table Prepare made for
// its growth: it drops it unless keys were created since the last review
// (or since the table was made) and as many again would fill tab within
// four more reviews, and the stripe then asks no more until its growth.
// A table full to its limit needs no key to be filled, but one that no key
// came to is dropped all the same: otherwise a table made just after the
// last key filled tab would be held until the next key, forever if none
// came (TestPrepareDroppedFull).
func (s *Stripe[B, P]) review() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.next == nil {
		return false
	}
	t := s.tab.Load() // not growing: a growth takes next
	come := uint64(uint32(t.used) - s.seen)
	s.seen = uint32(t.used)
	if come == 0 || 4*come < uint64(t.limit-t.used) {
		s.next, s.declined = nil, true
		return false
	}
	return true
}

// Key is a key with its seeded XXH3 (hash.go), computed once per
// decision: the low bits pick the stripe, the high ones the group and tag.
type Key struct {
	Hash uint64
	S    string
}

// Of returns the stripe that owns key and the key to look it up with.
func (t *Table[B, P]) Of(key string) (*Stripe[B, P], Key) {
	h := t.Hash(key)
	return t.Stripe(h), Key{Hash: h, S: key}
}

// Hash is key's seeded XXH3, the Key.Hash that Of computes, and Stripe
// the stripe of a key of hash h: Of in two parts, for the decision's path.
// Of is too large to inline, so a caller of Of makes two calls to hash a
// key (Of, which calls hashKey) and spills what Of returns; Hash inlines
// to the one call of hashKey. A hot key's decision took 1.1 ns less on
// the default clock, 1.0 on the coarse one (BenchmarkAllowPaired, builds
// with and without it in turns).
func (t *Table[B, P]) Hash(key string) uint64 { return hashKey(key, t.seed, &t.secret) }

// Seed is the seed of the table's key hash: Hash(key) is
// shorthash.Sum(key, Seed()) for a key of 9 to 16 bytes.
func (t *Table[B, P]) Seed() uint64 { return t.seed }

// Stripe returns the stripe of a key whose hash is h (see Hash).
func (t *Table[B, P]) Stripe(h uint64) *Stripe[B, P] { return &t.stripes[h&t.mask] }

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

// SetMaxKeys caps the keys AddKey admits (max <= 0: no cap, the default).
// It is set once, before the table is used.
func (t *Table[B, P]) SetMaxKeys(max int64) { t.max = max }

// Keys returns the number of live keys. Under a cap it is the cap's own
// count, which never exceeds the cap; without one, the stripes' counts
// summed, exact when no key is being created or evicted, and a read of
// every stripe. A sum under a cap could read cap+1: a stripe read before
// an eviction in it, another after a key that eviction made room for.
func (t *Table[B, P]) Keys() int64 {
	if t.max > 0 {
		return t.keys.Load()
	}
	var n int64
	for i := range t.stripes {
		n += t.stripes[i].live.Load()
	}
	return n
}

// AddKey admits one more key, unless the table holds its cap of keys
// already, and reports whether it did. A stripe calls it under its lock,
// as admit, just before it inserts the key.
func (t *Table[B, P]) AddKey() bool {
	if t.max <= 0 {
		return true
	}
	// A CAS, not add-then-undo: an undone add would let a concurrent new
	// key read max+1 and be refused while the real count is below the cap.
	for {
		n := t.keys.Load()
		if n >= t.max {
			return false
		}
		if t.keys.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

// DropKeys counts n keys fewer against the cap, after an eviction.
func (t *Table[B, P]) DropKeys(n int) {
	if t.max > 0 {
		t.keys.Add(-int64(n))
	}
}

// At returns stripe i, for walks over all stripes.
func (t *Table[B, P]) At(i int) *Stripe[B, P] { return &t.stripes[i] }

// Load returns the bucket stored under k, or nil. It takes no lock and
// writes nothing. The bucket may be dead (evicted, or frozen as a growth
// moved it): a caller that finds it so calls LoadOrInsert.
func (s *Stripe[B, P]) Load(k Key) P {
	return P(s.tab.Load().find(k))
}

// LoadHome is Load's common case alone, a key of 8 to 16 bytes found in
// its home group, in one call with no frame (see findHome); it returns nil
// for any other key, found or not, which the caller then looks up with
// Load. A decision calls LoadHome and then, where it returns nil, Load:
// the two are not one method, since a function with two calls in it is
// too large to inline, and its frame gave back part of the gain (a build
// whose find called findHome first: a hot key's decision 23.4–23.5 ns on
// the default clock, against 22.9 calling LoadHome directly, and 24.2
// before either; BenchmarkAllowPaired, builds in turns). It takes no lock
// and writes nothing.
func (s *Stripe[B, P]) LoadHome(k Key) P {
	return P(s.tab.Load().findHome(k))
}

// LoadOrInsert returns the live bucket stored under k. If there is none and
// admit() allows it, it stores a copy of the key with a new bucket that
// start initializes, and returns that; if admit() refuses, it returns nil.
// It holds the stripe's lock, so a key's bucket is created exactly once
// however many goroutines race on it, and start runs before any other
// goroutine can see the bucket. While the stripe grows, each call first
// moves the next few groups (see grow).
func (s *Stripe[B, P]) LoadOrInsert(k Key, admit func() bool, start func(P)) P {
	// The new key's slot, fetched while the lock is taken (prefetchSlot),
	// in the table room will choose unless this key starts a growth.
	aim := s.tab.Load()
	if nt := aim.into.Load(); nt != nil {
		aim = nt
	}
	aim.prefetchSlot(k.Hash)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tab.Load().into.Load() != nil {
		s.grow(s.step)
	}
	// While tab grows, find looks in the table it grows into as well (see
	// table.into); a key is in one of them, never both.
	if b := s.tab.Load().find(k); b != nil {
		return P(b)
	}
	if !admit() {
		return nil
	}
	t := s.room()
	// The copy: the table must never pin a caller's buffer (a request's
	// whole header block, say) for as long as the key lives. A short key
	// is copied into its slot; a long one is cloned here.
	key := k.S
	if len(key) > inlineKey {
		key = strings.Clone(key)
	}
	b := t.insert(k.Hash, key, func(b *B) { start(P(b)) })
	s.live.Add(1)
	if t.used >= t.limit-t.limit/prepareAt && t.ng >= prepareMin && s.next == nil && !s.asked && !s.declined && t.into.Load() == nil {
		select {
		case s.asks <- s:
			s.asked = true
		default:
		}
	}
	return P(b)
}

// A stripe asks for its next table (Table.Asks) when its table, of at
// least prepareMin groups, has room for only 1/prepareAt of its limit
// more: for the last 3/8 of a growth cycle, which runs from 2/3 of the
// limit to all of it. The next table is half again the size of the old
// one, and it is held until the growth only while keys come fast: every
// reviewEvery, the Server drops it unless keys were created since its last
// review and as many would fill the table within four more, and the stripe
// then asks no more until its growth. So a flood holds it for as long as
// the flood takes to fill the table, and a stripe whose keys trickle in,
// or stopped, for at most two reviews.
//
// The window must leave the sweeper time to make the table during a flood
// of new keys into one stripe: on the development machine, making a table
// of fresh memory took 0.1 µs per group alone (BenchmarkMakeTable's first
// op; mostly the kernel's page faults), up to 0.3 during a flood, and
// creating the window's keys, 7/8 of a key per group, about 0.45 µs per
// group; windows of 1/16 and 1/32 were too short as often as not, and a
// late table, abandoned, still cost the flood's longest calls. A table
// made too late is dropped, and the growth makes its own, as without an
// ask. Smaller tables are not worth an ask: their growths are cheap, and
// their memory comes from the runtime's size classes rather than straight
// from the operating system.
const (
	prepareAt  = 8
	prepareMin = 128 // groups: 32 KiB, the runtime's largest size class
)

// Prepare makes the table the stripe's next growth moves into, if the
// stripe asked for one (Table.Asks), and writes one byte of each of its
// pages; it holds the lock only to read the size and to store the table.
// It reports whether it stored one; Server.Ask calls it.
//
// Why: a large allocation comes from the operating system unmapped, and
// the runtime does not zero it. A growth's first access to a page of the
// new table is then often a read (a probe, or a lookup following into),
// which maps the kernel's shared zero page, and the write that follows
// faults again to replace it and flushes the old mapping from every other
// core running the process, with an interrupt to each. Creating keys on
// two goroutines, those flushes took 16% of the time; written first, each
// page faults once, and no other core holds a stale mapping. Writing them
// at the growth's start, under the lock, would hold the stripe for 2 to
// 5 ms per 4 MiB of table on the development machine (a table of 55 MB
// took 23 ms alone, BenchmarkMakeTable, and up to 64 ms during a flood of
// creations, timed in a test not kept). Made here, off the lock, it holds
// up no caller.
func (s *Stripe[B, P]) Prepare() bool {
	s.mu.Lock()
	t := s.tab.Load()
	if !s.asked || s.next != nil || t.into.Load() != nil {
		s.asked = false
		s.mu.Unlock()
		return false
	}
	// Every key created before the growth takes a slot, and live counts
	// at most every slot taken: a table for them all is never too small.
	groups := groupsFor(int(s.live.Load()) + t.limit - t.used + 1)
	s.mu.Unlock()

	nt := newTable[B](groups, t.seed)
	// touch stops early once tab began growing into a table of its own.
	made := touch(nt.groups, func() bool { return t.into.Load() == nil })
	if testHookMade != nil {
		testHookMade()
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	// Only for the growth it was made for: a growth or a shrink that
	// began meanwhile has a table of its own.
	s.asked = false
	if !made || s.tab.Load() != t || t.into.Load() != nil {
		return false
	}
	s.next, s.seen = nt, uint32(t.used)
	return true
}

// testHookMade, set by tests only, runs in Prepare between making the
// table and taking the lock again: the window in which the growth the
// table was made for can begin without it.
var testHookMade func()

// touch writes one byte of each page of a new table's groups, before the
// table is published (so the write races with no lookup). Every 64 pages
// it asks still() whether the table is still wanted, and it stops and
// reports false when not: a table made too late is dropped, and the pages
// it did not write then cost the process nothing.
func touch[B any](gs []group[B], still func() bool) bool {
	perPage := max(pageSize/int(unsafe.Sizeof(group[B]{})), 1)
	for i := 0; i < len(gs); i += perPage {
		if i%(64*perPage) == 0 && !still() {
			return false
		}
		gs[i].lens[0] = 0
	}
	return true
}

var pageSize = os.Getpagesize()

// room returns the table a new key goes into: the one tab grows into while
// it grows, else tab, unless tab is full: then it starts growing tab into
// a table sized for the live keys and this one, at the load of a rebuild
// (7/12).
func (s *Stripe[B, P]) room() *table[B] {
	t := s.tab.Load()
	if nt := t.into.Load(); nt != nil {
		return nt
	}
	if t.used < t.limit {
		return t
	}
	live := int(s.live.Load())
	nt := s.next
	if nt == nil || nt.limit <= live {
		nt = newTable[B](groupsFor(live+1), t.seed)
	}
	s.next, s.asked, s.declined = nil, false, false
	// Each key created during the growth takes a slot of nt, and each
	// creation moves step groups first, so at most ng/step keys are
	// created before the move ends: step is chosen so that they and every
	// live key fit under nt's limit. A table of mostly deleted slots (few
	// live keys, many groups) moves in long steps, which are cheap, since
	// they find few keys to move.
	room := uint64(nt.limit - live)
	s.step = max(growStep, (t.ng+room-1)/room)
	s.moved = 0
	t.into.Store(nt)
	s.grow(s.step)
	return nt
}

// growStep is the fewest groups (of up to eight keys) a call moves while
// the stripe grows: a few microseconds under the lock, so that a growth
// never holds up the stripe's other callers for long. The step trades
// throughput on few cores for throughput on many (bench/BENCHMARKS.md):
// creating keys on 16 cores, steps of 64 groups took 254 ns a key against
// 186 with 8 (medians of 4 alternating processes, p=0.029); on the 2-core
// development machine 498 against 582 (medians of 10, p=0.015), where the
// one-call rebuild took 464.
const growStep = 8

// Sweep offers every live bucket to evict, a pass of SweepStep's steps,
// and returns how many were removed (see SweepStep).
func (s *Stripe[B, P]) Sweep(evict func(P) bool) int {
	n := 0
	for {
		k, done := s.SweepStep(evict)
		n += k
		if done {
			return n
		}
		// Let a goroutine that waited for the lock have it: the unlock
		// woke it onto this P, to run next.
		runtime.Gosched()
	}
}

// sweepStep is how many groups (of up to eight keys) a SweepStep offers
// under one hold of the lock. At 1M keys on the development machine, one
// stripe's whole sweep, which held the lock until sluice swept in steps,
// took milliseconds (sweeper.BenchmarkSweep).
const sweepStep = 64

// SweepStep takes one step of a pass over the stripe's keys, under the
// lock: it offers each live bucket of the next sweepStep groups to evict,
// and removes those for which evict returns true (evict must have marked
// them dead). It returns how many it removed, counted in Evictions, and
// whether the pass is done: every key live throughout the pass has been
// offered. Between steps the lock is free, so a new key in the stripe
// waits for a step (the sweeper yields between them), not for a pass.
//
// A growth in progress is finished first, a step of it per call, so that
// it ends even when no new key comes to take its steps; a growth that
// ends during the pass starts the pass over on the new table, where the
// keys are in new places. A pass that leaves the table mostly deleted
// slots shrinks it, so that memory follows the live keys down, and the
// pass is done once the steps that follow have moved it.
//
// The stripe keeps the pass's place, so passes on two goroutines at once
// share it, each key offered to one of them; a limiter's stripes are swept
// by its sweeper alone.
func (s *Stripe[B, P]) SweepStep(evict func(P) bool) (int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tab.Load()
	if t.into.Load() != nil {
		s.grow(s.step)
		if !s.shrunk || s.tab.Load().into.Load() != nil {
			return 0, false
		}
	}
	if s.shrunk {
		// The pass ended in a shrink, and the move is over (finished
		// here, or by the steps of new keys).
		s.shrunk = false
		return 0, true
	}
	end := min(s.swept+sweepStep, t.ng)
	n := t.sweep(s.swept, end, func(b *B) bool { return evict(P(b)) })
	s.swept = end
	// Evictions first: a reader that sees the keys gone (Keys, Len) then
	// sees them counted as evicted.
	s.Evictions.Add(int64(n))
	live := int(s.live.Add(-int64(n)))
	if end < t.ng {
		return n, false
	}
	s.swept = 0
	if len(t.groups) > 4 && 4*live < t.used {
		s.shrink(live)
		if s.tab.Load() == t { // steps of it left
			s.shrunk = true
			return n, false
		}
	}
	return n, true
}

// Range calls f on every live key and its bucket, under the stripe's lock,
// until f returns false. A key of up to 16 bytes is a string pointing into
// the table, whose bytes never change; keeping it keeps that table's memory
// alive.
func (s *Stripe[B, P]) Range(f func(key string, b P) bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := func(key string, b *B) bool { return f(key, P(b)) }
	t := s.tab.Load()
	if t.each(g) {
		if nt := t.into.Load(); nt != nil {
			nt.each(g)
		}
	}
}

// Size returns the number of live keys in the stripe, the number of slots
// of the table they are going into (the one tab grows into, while it
// grows), and the bytes of its tables (their groups, which hold the bytes
// of keys up to 16 bytes, and the arrays of longer keys' strings, not
// those keys' bytes), for memory accounting.
func (s *Stripe[B, P]) Size() (keys, slots, bytes int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tab.Load()
	bytes = t.bytes()
	if nt := t.into.Load(); nt != nil {
		t = nt
		bytes += t.bytes()
	}
	if s.next != nil {
		bytes += s.next.bytes()
	}
	return int(s.live.Load()), len(t.groups) * groupSize, bytes
}

// grow moves the next n groups of tab into tab.into, and publishes that
// table as tab once every group is moved; the caller holds the lock. Each
// live bucket is frozen as it is copied, and its slot in tab marked
// deleted: a lookup that reaches the slot afterwards misses here and finds
// the key in tab.into, lock-free (table.find), and a goroutine that took
// the bucket's pointer before meets it frozen and comes to LoadOrInsert,
// which finds the copy with every token it had. The growth runs in steps
// of a few groups, taken by each LoadOrInsert and by the sweeper, so that
// no caller waits on the lock for the whole move, as every caller
// creating a key in the stripe did when a full table was rebuilt at once.
// A slot's memory is reused only in a new table, never under a goroutine
// that may still hold a pointer to it.
func (s *Stripe[B, P]) grow(n uint64) {
	old := s.tab.Load()
	nt := old.into.Load()
	end := old.ng
	if n < end-s.moved {
		end = s.moved + n
	}
	for ; s.moved < end; s.moved++ {
		gr := &old.groups[s.moved]
		c := gr.ctrl.Load()
		left := c
		for m := c & msb; m != 0; m &= m - 1 {
			i := slotOf(m)
			// A dead bucket (which cannot be met under the lock) is not
			// copied. A short key's string points into the old slot;
			// insert copies it.
			if state, ok := P(&gr.b[i]).Freeze(); ok {
				key := old.key(int(s.moved), i)
				nt.insert(hashString(key, old.seed), key, func(b *B) { P(b).Thaw(state) })
			}
			left = left&^(0xff<<(8*i)) | ctrlDeleted<<(8*i)
		}
		if left != c {
			gr.ctrl.Store(left)
		}
	}
	if s.moved == old.ng {
		// old.into stays: a lookup still in old follows it to the keys.
		s.tab.Store(nt)
		s.moved, s.swept = 0, 0
	}
}

// shrink starts moving the stripe's live buckets into a smaller table, for
// the sweep, and takes the move's first step; deleted slots are dropped.
// It is a growth into a smaller table, in steps of at most sweepStep
// groups: the new table has room for a key created at each step (see
// room).
func (s *Stripe[B, P]) shrink(live int) {
	old := s.tab.Load()
	nt := newTable[B](groupsFor(live+int(old.ng/sweepStep)+1), old.seed)
	room := uint64(nt.limit - live)
	s.step = max(growStep, (old.ng+room-1)/room)
	s.moved = 0
	s.next, s.asked, s.declined = nil, false, false // for a growth of old
	old.into.Store(nt)
	s.grow(s.step)
}
