package stripes

import (
	"runtime"
	"sync/atomic"
	"unsafe"
)

// Every decision bumps a counter, so where the counters live decides
// whether two cores deciding different keys share a cache line. Counters
// per stripe did: with keys spread at random over 16 stripes, about half
// of the increments on two cores found the line last written by the other
// core. The counters are kept per P instead (the runtime's processor, one
// per running goroutine): a P's line is written only by the goroutine
// running on it, so it stays in that core's cache, and the increment needs
// no locked instruction: with the P pinned it is a plain increment (bump).

// procPin and procUnpin are the runtime's, as sync.Pool uses them. This is
// the one place sluice reaches into the runtime, a habit it otherwise
// avoids (xsync reaches in for its hash; sluice hashes keys itself); it is
// kept because no exact count outside the runtime keeps each core on lines
// of its own:
//   - counters per stripe (sluice's first): two cores on one hot key wrote
//     its bucket's line and the stripe's counter line both, 68 ns a
//     decision against 35–47 with counters per P (commit 07b73b0);
//   - counters chosen by the goroutine (its stack's address): a server's
//     many goroutines, each on whichever core is free, would bring every
//     counter line to every core;
//   - counters chosen by the processor's number (RDPID on amd64, getcpu
//     elsewhere on Linux): the goroutine may move between reading it and
//     adding, so the add must be a locked one, which alone costs more
//     than the pin, a plain add and the unpin (BenchmarkTally, a count
//     after a CAS: store=locked 4.7 ns, store=bump 4.2, the CAS alone 2.5;
//     medians of six processes), before the number is read.
//
// The runtime keeps both reachable by linkname for the packages that use
// them, and asks that they not be removed or their signatures changed
// (go.dev/issue/67401). The two calls are about half of the count's cost
// (see Pin). A per-P counter in the standard library would be the way
// past them: one is proposed, as sync.Counter (go.dev/issue/80645, after
// go.dev/issue/18802's sharded values), open in November 2026; if it
// lands, its Add is to be measured here against the pin.
//
//go:linkname procPin runtime.procPin
func procPin() int

//go:linkname procUnpin runtime.procUnpin
func procUnpin()

// tally is one P's decision counts, alone on its line.
type tally struct {
	allowed atomic.Int64
	denied  atomic.Int64
	_       [cacheLineSize - 16]byte
}

// tallies holds a tally per P, and a shared one for Ps past those there
// were when it was made (GOMAXPROCS raised later), which add atomically:
// a P with its own line is its line's only writer, and no shared line is
// written by a plain increment.
type tallies struct {
	per    []tally
	shared tally
}

func newTallies() tallies {
	return tallies{per: lineAligned(max(runtime.GOMAXPROCS(0), runtime.NumCPU()))}
}

// lineAligned returns n tallies, the first on a line boundary, so that each
// is alone on its line. Go's allocator aligns an object only as its size
// class allows: a multiple of 64 bytes for the classes of multiples of 64,
// not always of 128 or 256, x/sys/cpu's lines on arm64 and s390x. So the
// tallies are cut from a byte array one line longer, at its first line
// boundary; like a tally, the array holds no pointer.
func lineAligned(n int) []tally {
	buf := make([]byte, (n+1)*int(cacheLineSize))
	off := (cacheLineSize - uintptr(unsafe.Pointer(&buf[0]))%cacheLineSize) % cacheLineSize
	return unsafe.Slice((*tally)(unsafe.Pointer(&buf[off])), n)
}

// Count adds one decision, admitted or not, to the current P's tally.
func (t *Table[B, P]) Count(allowed bool) {
	t.Tally(procPin(), allowed)
	procUnpin()
}

// Counts returns the decisions counted so far: admitted and denied.
func (t *Table[B, P]) Counts() (allowed, denied int64) {
	allowed, denied = t.tallies.shared.allowed.Load(), t.tallies.shared.denied.Load()
	for i := range t.tallies.per {
		allowed += t.tallies.per[i].allowed.Load()
		denied += t.tallies.per[i].denied.Load()
	}
	return allowed, denied
}

// Pin pins the goroutine to its P and returns the P's id, for Tally; the
// caller must Unpin at once. While pinned the goroutine cannot be
// preempted, and a stop of the world (the garbage collector's) waits for
// it, so nothing but Tally belongs between the two. Pin, Tally and Unpin
// are Count taken apart: Count, with two calls in it, is too large to
// inline, so a decision that calls it makes three calls, where one that
// calls these makes the two to the runtime (a hot key's decision 1.3 ns
// faster with the coarse clock, 1.6 ns with the default one, six
// interleaved processes).
func Pin() int { return procPin() }

// Unpin undoes Pin.
func Unpin() { procUnpin() }

// Tally adds one decision to P p's tally; the caller holds p pinned.
func (t *Table[B, P]) Tally(p int, allowed bool) {
	// per is read once and p compared unsigned, so that the compiler's
	// own bounds check of per[p] is this one (read twice through t, the
	// slice could have changed between, and a signed test leaves p < 0).
	if per := t.tallies.per; uint(p) < uint(len(per)) {
		c := &per[p].denied
		if allowed {
			c = &per[p].allowed
		}
		// Pinned, no other goroutine runs on this P until Unpin, so
		// nothing writes c between bump's load and its store.
		bump(c)
		return
	}
	if allowed {
		t.tallies.shared.allowed.Add(1)
	} else {
		t.tallies.shared.denied.Add(1)
	}
}
