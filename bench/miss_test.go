package bench

import (
	"math/rand/v2"
	"testing"
)

// missBytes is the memory BenchmarkMiss walks: more than the last-level
// cache of the machines measured here, and about what the 1M-key tables
// and key names take.
const missBytes = 64 << 20

// lineWords is the uint64s in a 64-byte cache line: the walk visits one
// word per line, so that every step is a line of its own.
const lineWords = 8

var (
	missCycle []uint64
	missSink  uint64
)

// cycle returns the walk: missCycle[i] is the index of the word to load
// after word i, one word per line, all lines in one random cycle
// (Sattolo's shuffle makes a single cycle), so that no prefetcher can
// guess the next line. It checks that the cycle goes through every line
// before anything is timed.
func cycle(b *testing.B) []uint64 {
	if missCycle != nil {
		return missCycle
	}
	lines := missBytes / 64
	perm := make([]uint32, lines)
	for i := range perm {
		perm[i] = uint32(i)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := lines - 1; i > 0; i-- {
		j := rng.IntN(i) // j < i: Sattolo, one cycle
		perm[i], perm[j] = perm[j], perm[i]
	}
	c := make([]uint64, lines*lineWords)
	for i := range lines {
		c[i*lineWords] = uint64(perm[i]) * lineWords
	}
	p, n := uint64(0), 0
	for {
		p = c[p]
		n++
		if p == 0 {
			break
		}
	}
	if n != lines {
		b.Fatalf("the walk is a cycle of %d lines, not all %d", n, lines)
	}
	missCycle = c
	return c
}

// BenchmarkMiss is the cost of one dependent cache miss here, the unit in
// which the report counts the 1M-key decisions: each op is a load whose
// address is the value the previous load returned, to a line no cache
// holds and, on 4 KiB pages, no TLB entry covers, as a decision's first
// read of its key's group or its key's bytes.
func BenchmarkMiss(b *testing.B) {
	b.Run("scenario=miss/impl=chase", func(b *testing.B) {
		c := cycle(b)
		p := uint64(0)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			p = c[p]
		}
		missSink = p
	})
}
