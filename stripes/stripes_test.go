package stripes

import (
	"fmt"
	"runtime"
	"testing"
	"unsafe"
)

// The pads are code: a stripe's table pointer has a line to itself, after
// the lines its lock and counters fill, and the table's key count has a
// line to itself. The pads are computed from sizes, for every line and
// word size; this holds them to it on the platform the test runs on.
func TestPadding(t *testing.T) {
	var s Stripe[ctr, *ctr]
	if got := unsafe.Sizeof(s); got%cacheLineSize != 0 {
		t.Fatalf("Sizeof(Stripe) = %d, not a whole number of %d-byte lines", got, cacheLineSize)
	}
	if off, size := unsafe.Offsetof(s.tab), unsafe.Sizeof(s); off%cacheLineSize != 0 || size-off != cacheLineSize {
		t.Fatalf("table pointer at %d of %d bytes, want the last %d-byte line to itself", off, size, cacheLineSize)
	}
	if end := unsafe.Offsetof(s.stripeLocked) + unsafe.Sizeof(s.stripeLocked); end > unsafe.Offsetof(s.tab) {
		t.Fatalf("the lock's part ends at %d, past the table pointer at %d", end, unsafe.Offsetof(s.tab))
	}
	if got := unsafe.Sizeof(tally{}); got != cacheLineSize {
		t.Fatalf("Sizeof(tally) = %d, want %d", got, cacheLineSize)
	}
	var tb Table[ctr, *ctr]
	if off := unsafe.Offsetof(tb.keys); off%cacheLineSize != 0 || off < unsafe.Sizeof(tb.tableIndex) {
		t.Fatalf("keys at offset %d, not on a line after the stripes' index (%d bytes)", off, unsafe.Sizeof(tb.tableIndex))
	}
	if off := unsafe.Offsetof(tb.tallies); off != unsafe.Offsetof(tb.keys)+cacheLineSize {
		t.Fatalf("tallies at offset %d, not on the line after the keys' line", off)
	}
	// The per-P tallies are a slice, each on a line of its own only if
	// the slice starts on a line, whatever the allocator gave: for any P
	// count up to 256.
	slices := [][]tally{newTallies().per}
	for n := 1; n <= 256; n++ {
		slices = append(slices, lineAligned(n))
	}
	for _, per := range slices {
		if a := uintptr(unsafe.Pointer(&per[0])); a%cacheLineSize != 0 {
			t.Fatalf("%d tallies start at %#x, not on a line", len(per), a)
		}
	}
}

func TestNew(t *testing.T) {
	for _, n := range []int{0, -1, 3, 6, MaxStripes + 1, MaxStripes * 2} {
		if _, err := New[ctr](n); err == nil {
			t.Errorf("New(%d) accepted", n)
		}
	}
	for _, n := range []int{1, 2, 64, MaxStripes} {
		tb, err := New[ctr](n)
		if err != nil || tb.Len() != n {
			t.Fatalf("New(%d) = %v, %v", n, tb, err)
		}
	}
}

// TestDefault: the default stripe count is the smallest power of two at
// least 4·GOMAXPROCS and at least 16, capped at MaxStripes, and New takes
// it. On a machine of a few cores the loop that doubles it never runs, so
// GOMAXPROCS is set here.
func TestDefault(t *testing.T) {
	was := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(was)
	for _, c := range []struct{ procs, want int }{
		{1, 16}, {2, 16}, {4, 16}, {5, 32}, {8, 32}, {9, 64}, {16, 64},
		{17, 128}, {1000, 4096}, {16384, MaxStripes},
	} {
		runtime.GOMAXPROCS(c.procs)
		n := Default()
		if n != c.want {
			t.Errorf("GOMAXPROCS %d: Default() = %d, want %d", c.procs, n, c.want)
		}
		if n > 128 {
			continue // New of the large counts is TestNew's
		}
		if _, err := New[ctr](n); err != nil {
			t.Errorf("GOMAXPROCS %d: New(Default()): %v", c.procs, err)
		}
	}
}

// Keys spread evenly: no stripe of 64 holds more than twice its share of
// 64k sequential keys, and the same key always lands on the same stripe.
func TestSpread(t *testing.T) {
	tb, _ := New[ctr](64)
	count := map[*Stripe[ctr, *ctr]]int{}
	for i := 0; i < 1<<16; i++ {
		k := fmt.Sprintf("user-%d", i)
		s, key := tb.Of(k)
		if s2, key2 := tb.Of(k); s2 != s || key2 != key || key.S != k {
			t.Fatal("stripe or key of a key changed")
		}
		count[s]++
	}
	if len(count) != 64 {
		t.Fatalf("%d stripes used", len(count))
	}
	for _, c := range count {
		if c > 2*(1<<16)/64 {
			t.Fatalf("stripe holds %d of %d keys", c, 1<<16)
		}
	}
}

func TestAddKey(t *testing.T) {
	tb, _ := New[ctr](4)
	tb.SetMaxKeys(3)
	for i := 0; i < 3; i++ {
		if !tb.AddKey() {
			t.Fatalf("key %d refused under the cap", i)
		}
	}
	if tb.AddKey() {
		t.Fatal("cap not enforced")
	}
	// Under a cap, Keys is the cap's count (no stripe holds these keys).
	if n := tb.Keys(); n != 3 {
		t.Fatalf("Keys = %d under a cap of 3, all taken", n)
	}
	tb.DropKeys(1)
	if !tb.AddKey() || tb.AddKey() {
		t.Fatal("an evicted key's place not given back, or given twice")
	}
	free, _ := New[ctr](4)
	for i := 0; i < 1000; i++ {
		if !free.AddKey() {
			t.Fatalf("key %d refused without a cap", i)
		}
	}
}

// Keys sums the stripes' own counts: every key created, less every key
// evicted, whichever stripe holds it.
func TestKeys(t *testing.T) {
	tb, _ := New[ctr](8)
	for i := range 1000 {
		st, k := tb.Of(fmt.Sprint("k", i))
		st.LoadOrInsert(k, tb.AddKey, startAt(uint64(i)))
	}
	if n := tb.Keys(); n != 1000 {
		t.Fatalf("Keys = %d after 1000 keys", n)
	}
	evicted := 0
	for i := range tb.Len() {
		evicted += tb.At(i).Sweep(func(c *ctr) bool { return c.v.Load()%2 == 0 && c.kill() })
	}
	if n := tb.Keys(); evicted != 500 || n != 500 {
		t.Fatalf("evicted %d; Keys = %d", evicted, n)
	}
}
