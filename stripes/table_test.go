package stripes

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"
)

// ctr is a test bucket: a counter that a CAS loop increments, with the
// same dead bit as atomicbucket's tombstone.
type ctr struct{ v atomic.Uint64 }

const dead = 1 << 63

func (c *ctr) Freeze() (uint64, bool) {
	for {
		o := c.v.Load()
		if o&dead != 0 {
			return 0, false
		}
		if c.v.CompareAndSwap(o, o|dead) {
			return o, true
		}
	}
}

func (c *ctr) Thaw(s uint64) { c.v.Store(s) }

// inc adds one unless the counter is dead.
func (c *ctr) inc() bool {
	for {
		o := c.v.Load()
		if o&dead != 0 {
			return false
		}
		if c.v.CompareAndSwap(o, o+1) {
			return true
		}
	}
}

func (c *ctr) kill() bool {
	for {
		o := c.v.Load()
		if o&dead != 0 {
			return false
		}
		if c.v.CompareAndSwap(o, dead) {
			return true
		}
	}
}

func always() bool { return true }

func startAt(v uint64) func(*ctr) { return func(c *ctr) { c.v.Store(v) } }

// Keys of every length around the inline limit (16 bytes), keys that
// differ only past it, and prefixes of one another are told apart, before
// and after rebuilds, and Range gives each key back as it was inserted.
func TestKeyLengths(t *testing.T) {
	long := strings.Repeat("0123456789abcdef", 4)
	var keys []string
	for n := 0; n <= len(long); n++ {
		keys = append(keys, long[:n]) // each a prefix of the next
	}
	for n := 17; n <= len(long); n += 7 {
		keys = append(keys, long[:16]+strings.Repeat("z", n-16)) // shares 16 bytes with a prefix above
	}
	keys = append(keys, "\x00", "\x00\x00", strings.Repeat("\x00", 16), strings.Repeat("\x00", 17))
	// Many keys of one length: with seven bits of tag, a probe meets
	// same-length keys whose tag matches, which only the bytes tell apart.
	var absent []string
	for _, w := range []int{7, 8, 16, 17} {
		for i := range 300 {
			keys = append(keys, fmt.Sprintf("%0*d", w, i))
			absent = append(absent, fmt.Sprintf("%0*d", w, i+1000))
		}
	}
	const filler = 1 << 40
	tb, _ := New[ctr](1)
	st := tb.At(0)
	check := func(when string) {
		// The table holds a long key's copy only through a pointer in
		// its group's array: collect, and fill the heap's freed space
		// with other bytes, so that a copy the collector could not see
		// would read as another key.
		runtime.GC()
		junk := make([]string, 0, 4096)
		for i := range cap(junk) {
			junk = append(junk, strings.Repeat(string(rune('A'+i%26)), 17+i%48))
		}
		runtime.KeepAlive(junk)
		for i, key := range keys {
			_, k := tb.Of(strings.Clone(key))
			if b := st.Load(k); b == nil || b.v.Load() != uint64(i) {
				t.Fatalf("%s: key %q (%d bytes) found %v", when, key, len(key), b)
			}
		}
		seen := map[string]bool{}
		st.Range(func(key string, b *ctr) bool {
			if b.v.Load() == filler && strings.HasPrefix(key, "filler-") {
				return true
			}
			if i := int(b.v.Load()); i >= len(keys) || keys[i] != key || seen[key] {
				t.Fatalf("%s: Range gave %q with bucket %d", when, key, i)
			}
			seen[key] = true
			return true
		})
		if len(seen) != len(keys) {
			t.Fatalf("%s: Range gave %d keys of %d", when, len(seen), len(keys))
		}
	}
	for i, key := range keys {
		_, k := tb.Of(key)
		if st.LoadOrInsert(k, always, startAt(uint64(i))) == nil {
			t.Fatalf("insert %q", key)
		}
	}
	check("inserted")
	for i := range 1000 { // rebuilds move every key
		_, k := tb.Of(fmt.Sprint("filler-", i))
		st.LoadOrInsert(k, always, startAt(filler))
	}
	check("after rebuilds")
	absent = append(absent, long[:16]+"y", long+"0", "\x00\x00\x00")
	for _, key := range absent {
		if _, k := tb.Of(key); st.Load(k) != nil {
			t.Fatalf("absent key %q found", key)
		}
	}
}

// TestTable inserts enough keys into one stripe to rebuild it many times
// and checks that every key keeps its bucket's state, absent keys are not
// found, and the load stays between 7/12 and 7/8 after each rebuild.
func TestTable(t *testing.T) {
	tb, _ := New[ctr](1)
	st := tb.At(0)
	const n = 100_000
	for i := range n {
		k := keyOf(tb, i)
		if st.Load(k) != nil {
			t.Fatalf("key %d found before it was inserted", i)
		}
		if b := st.LoadOrInsert(k, always, startAt(uint64(i))); b == nil || b.v.Load() != uint64(i) {
			t.Fatalf("insert %d: %v", i, b)
		}
		keys, slots, _ := st.Size()
		if keys != i+1 || float64(keys) > float64(slots)*7/8 {
			t.Fatalf("after %d keys: keys %d, slots %d", i+1, keys, slots)
		}
	}
	for i := range n {
		k := keyOf(tb, i)
		b := st.Load(k)
		if b == nil || b.v.Load() != uint64(i) {
			t.Fatalf("key %d: %v", i, b)
		}
		if b2 := st.LoadOrInsert(k, func() bool { t.Fatal("admit called for an existing key"); return false }, nil); b2 != b {
			t.Fatalf("key %d: LoadOrInsert found another bucket", i)
		}
	}
	for i := range 1000 {
		if _, k := tb.Of(fmt.Sprint("other-", i)); st.Load(k) != nil {
			t.Fatalf("absent key other-%d found", i)
		}
	}
	if _, k := tb.Of(""); st.LoadOrInsert(k, always, startAt(7)).v.Load() != 7 || st.Load(k).v.Load() != 7 {
		t.Fatal("empty key")
	}
}

// TestRefused: a key that admit refuses is not stored.
func TestRefused(t *testing.T) {
	tb, _ := New[ctr](1)
	st := tb.At(0)
	_, k := tb.Of("k")
	if st.LoadOrInsert(k, func() bool { return false }, startAt(1)) != nil || st.Load(k) != nil {
		t.Fatal("refused key stored")
	}
	if keys, _, _ := st.Size(); keys != 0 {
		t.Fatalf("keys = %d", keys)
	}
}

// TestSweepNoReuse: a swept slot is never handed to another key while a
// goroutine may hold its pointer; the old pointer stays dead, and the key
// inserted again gets new memory with a fresh state.
func TestSweepNoReuse(t *testing.T) {
	tb, _ := New[ctr](1)
	st := tb.At(0)
	var held []*ctr
	for i := range 5 {
		_, k := tb.Of(fmt.Sprint("k", i))
		held = append(held, st.LoadOrInsert(k, always, startAt(1)))
	}
	if n := st.Sweep(func(c *ctr) bool { return c.kill() }); n != 5 {
		t.Fatalf("swept %d", n)
	}
	for i := range 5 {
		_, k := tb.Of(fmt.Sprint("k", i))
		if st.Load(k) != nil {
			t.Fatalf("swept key %d still found", i)
		}
		b := st.LoadOrInsert(k, always, startAt(2))
		for _, h := range held {
			if b == h {
				t.Fatalf("key %d reuses a swept slot", i)
			}
		}
	}
	for i, h := range held {
		if h.inc() {
			t.Fatalf("swept bucket %d came back to life", i)
		}
	}
	if keys, _, _ := st.Size(); keys != 5 {
		t.Fatalf("keys = %d", keys)
	}
}

// TestShrink: a stripe whose keys are mostly swept is rebuilt smaller.
func TestShrink(t *testing.T) {
	tb, _ := New[ctr](1)
	st := tb.At(0)
	for i := range 10_000 {
		_, k := tb.Of(fmt.Sprint("k", i))
		st.LoadOrInsert(k, always, startAt(uint64(i)))
	}
	_, before, _ := st.Size()
	st.Sweep(func(c *ctr) bool { return c.v.Load() >= 10 && c.kill() })
	keys, after, _ := st.Size()
	if keys != 10 || after >= before/8 {
		t.Fatalf("keys %d, slots %d -> %d", keys, before, after)
	}
	for i := range 10 {
		if _, k := tb.Of(fmt.Sprint("k", i)); st.Load(k).v.Load() != uint64(i) {
			t.Fatalf("key %d lost its state in the shrink", i)
		}
	}
}

// TestOnce: racing first inserts of one key create one bucket.
func TestOnce(t *testing.T) {
	tb, _ := New[ctr](1)
	st := tb.At(0)
	_, k := tb.Of("k")
	var admitted atomic.Int64
	var wg sync.WaitGroup
	got := make([]*ctr, 8)
	for g := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[g] = st.LoadOrInsert(k, func() bool { admitted.Add(1); return true }, startAt(0))
		}()
	}
	wg.Wait()
	for _, b := range got {
		if b != got[0] {
			t.Fatal("two buckets for one key")
		}
	}
	if admitted.Load() != 1 {
		t.Fatalf("admitted %d times", admitted.Load())
	}
}

// TestRebuildUnderLoad: goroutines increment hot counters through the
// lock-free Load while another inserts keys (so the stripe grows again and
// again, and the workers' slow paths take its steps) and sweeps (which
// finish a growth, and shrink). Every increment that succeeded must be in
// the final counts: a move that copied a state and then let an increment
// land on the old copy would lose it. Run it under -race.
func TestRebuildUnderLoad(t *testing.T) {
	tb, _ := New[ctr](1)
	st := tb.At(0)
	const hot, workers, per = 8, 4, 20_000
	keys := make([]Key, hot)
	for i := range keys {
		_, keys[i] = tb.Of(fmt.Sprint("hot", i))
		st.LoadOrInsert(keys[i], always, startAt(0))
	}
	stop := make(chan struct{})
	var churn sync.WaitGroup
	churn.Add(1)
	go func() {
		defer churn.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			_, k := tb.Of(fmt.Sprint("cold", i))
			st.LoadOrInsert(k, always, startAt(1<<40))
			if i%500 == 0 { // sweep the cold keys, never the hot ones
				st.Sweep(func(c *ctr) bool { return c.v.Load() >= 1<<40 && c.kill() })
			}
		}
	}()
	var wg sync.WaitGroup
	var done [hot]atomic.Int64
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range per {
				h := (i + w) % hot
				b := st.Load(keys[h])
				for b == nil || !b.inc() {
					b = st.LoadOrInsert(keys[h], always, startAt(0))
				}
				done[h].Add(1)
			}
		}()
	}
	wg.Wait()
	close(stop)
	churn.Wait()
	var total int64
	for h := range hot {
		got := st.Load(keys[h]).v.Load()
		if int64(got) != done[h].Load() {
			t.Errorf("hot key %d: counter %d, increments %d", h, got, done[h].Load())
		}
		total += int64(got)
	}
	if total != workers*per {
		t.Fatalf("total %d, want %d", total, workers*per)
	}
}

// TestCount: concurrent counts are exact, on the per-P lines and on the
// shared line that Ps past the table's tallies use, and a reading taken
// while they are counted (bump's plain store, in a build without -race)
// is never torn: the total never goes down or past what was counted.
func TestCount(t *testing.T) {
	for _, per := range []int{0, 1, 64} {
		tb, _ := New[ctr](1)
		tb.tallies.per = make([]tally, per)
		stop := make(chan struct{})
		read := make(chan error)
		go func() {
			last := int64(0)
			for {
				select {
				case <-stop:
					read <- nil
					return
				default:
				}
				a, d := tb.Counts()
				if a+d < last || a+d > 40_000 {
					read <- fmt.Errorf("a reading of %d after %d", a+d, last)
					return
				}
				last = a + d
			}
		}()
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range 10_000 {
					tb.Count((i+g)%3 != 0)
				}
			}()
		}
		wg.Wait()
		close(stop)
		if err := <-read; err != nil {
			t.Fatalf("%d tallies: %v", per, err)
		}
		a, d := tb.Counts()
		want := int64(0)
		for g := range 4 {
			for i := range 10_000 {
				if (i+g)%3 == 0 {
					want++
				}
			}
		}
		if a+d != 40_000 || d != want {
			t.Fatalf("%d tallies: allowed %d denied %d, want %d and %d", per, a, d, 40_000-want, want)
		}
	}
}

// BenchmarkTally is a count after a CAS, as a decision makes it: bump's
// increment (store=bump, what Tally does in a build without -race) against
// sync/atomic's load and Store (store=atomic, an XCHG on amd64, which
// waits for the stores before it, as the CAS has just done), and the CAS
// alone (store=none). store=locked is what a count that does not pin the P
// would pay at least: with no P to own a line, two goroutines may add to
// the same counter at once, so the add must be a locked one (a LOCK XADD
// on amd64), here on a line of its own that no other core writes.
func BenchmarkTally(b *testing.B) {
	tb, _ := New[ctr](1)
	var word atomic.Uint64
	var locked tally
	cas := func() {
		old := word.Load()
		word.CompareAndSwap(old, old+1)
	}
	b.Run("store=none", func(b *testing.B) {
		for range b.N {
			cas()
		}
	})
	b.Run("store=atomic", func(b *testing.B) {
		for range b.N {
			cas()
			p := Pin()
			c := &tb.tallies.per[p].allowed
			c.Store(c.Load() + 1)
			Unpin()
		}
	})
	b.Run("store=bump", func(b *testing.B) {
		for range b.N {
			cas()
			p := Pin()
			tb.Tally(p, true)
			Unpin()
		}
	})
	b.Run("store=locked", func(b *testing.B) {
		for range b.N {
			cas()
			locked.allowed.Add(1)
		}
	})
}

// TestFindCompares holds find's key compare, and findHome's, to every
// length and every byte: a key differing from the stored one in any one
// byte, at any length, is a different key. Both keys are given the same
// hash, so that the probe reaches the stored key's slot and only its bytes
// can tell them apart. The lengths run past sameLongMax, so that both of
// sameLong's ways of comparing are held to it. The key is in its home
// group, where findHome must find one of 8 to 16 bytes, and no other.
func TestFindCompares(t *testing.T) {
	base := strings.Repeat("0123456789abcdef", 5)
	if len(base) < sameLongMax+16 {
		t.Fatalf("base of %d bytes: lengthen it past sameLongMax (%d)", len(base), sameLongMax)
	}
	for n := 0; n <= len(base); n++ {
		key := base[:n]
		tb := newTable[ctr](1, 1)
		tb.insert(0, strings.Clone(key), func(*ctr) {})
		b := tb.find(Key{S: strings.Clone(key)})
		if b == nil {
			t.Fatalf("%d bytes: %q not found", n, key)
		}
		want := b
		if n < 8 || n > inlineKey {
			want = nil
		}
		if h := tb.findHome(Key{S: strings.Clone(key)}); h != want {
			t.Fatalf("%d bytes: findHome gave %p, want %p", n, h, want)
		}
		for j := 0; j < n; j++ {
			other := []byte(key)
			other[j] ^= 0x20
			if tb.find(Key{S: string(other)}) != nil {
				t.Fatalf("%d bytes: %q found as %q (byte %d differs)", n, other, key, j)
			}
			if tb.findHome(Key{S: string(other)}) != nil {
				t.Fatalf("%d bytes: findHome found %q as %q (byte %d differs)", n, other, key, j)
			}
		}
	}
}

// The buckets, which decisions write, sit on cache lines of their own,
// apart from the control word and keys that every lookup reads: the group
// is a whole number of lines, its buckets start on a line boundary within
// it, and tables of every size the stripes make are allocated on a line
// boundary: the group holds no pointer, so the allocator puts no header
// in front of an array of them (a pointer in the group did, and shifted
// the 3-group table 8 bytes off its line), and its size classes for
// multiples of 256 bytes are multiples of 64.
func TestGroupLines(t *testing.T) {
	type bucket struct{ _ uint64 }
	var g group[bucket]
	if size := unsafe.Sizeof(g); size%groupLine != 0 {
		t.Fatalf("Sizeof(group) = %d, not a whole number of %d-byte lines", size, groupLine)
	}
	if off := unsafe.Offsetof(g.b); off != readOnly || off%groupLine != 0 {
		t.Fatalf("buckets at offset %d, want %d on a line boundary", off, readOnly)
	}
	if end := unsafe.Offsetof(g.keys) + unsafe.Sizeof(g.keys); end > readOnly {
		t.Fatalf("keys end at %d, past the buckets' line at %d", end, readOnly)
	}
	for n := 1; n <= 1<<14; n += 1 + n/8 {
		tab := newTable[bucket](n, 0)
		if a := uintptr(unsafe.Pointer(&tab.groups[0].b)); a%groupLine != 0 {
			t.Fatalf("a table of %d groups has its first buckets at %#x, not on a line", n, a)
		}
	}
}
