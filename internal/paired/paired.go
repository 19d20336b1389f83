// Package paired times two loops of the same work against each other in
// alternating blocks, for a ratio that a shared machine's drift moves
// little. The root package's BenchmarkAllowPaired (Allow against the
// floor) and bench's BenchmarkHotPaired (sluice against each per-key peer)
// both read their ratios this way.
package paired

import (
	"slices"
	"testing"
	"time"
)

// Block is how many decisions Blocks times at a time: about 20 µs of them
// at 20 ns each, long enough that the two clock reads around a block are
// under 0.5% of it.
const Block = 1000

// Blocks times a against c: each runs n decisions (written out in the loop,
// with no call per decision that the code measured does not make), a block
// of Block at a time, taking turns in ABBA order so that neither always
// goes first, for as many pairs of blocks as b.N decisions fill (at least
// one pair; see split). The two blocks of a pair run within about 50 µs of
// each other, where the machine's speed, which moves by 10–30% from second
// to second on the shared VMs measured, is the same for both; a ratio of
// two benchmarks run seconds apart takes in that movement. It returns the
// medians over the pairs of a's and c's ns a decision and of the ratio c÷a
// of each pair.
func Blocks(b *testing.B, a, c func(n int)) (nsA, nsC, ratio float64) {
	block, pairs := split(b.N)
	da, dc := make([]time.Duration, pairs), make([]time.Duration, pairs)
	b.ReportAllocs()
	b.ResetTimer()
	turns(a, c, block, da, dc)
	b.StopTimer()
	return medians(da, dc, block)
}

// turns runs len(da) pairs of blocks of a and c in ABBA order, and writes
// the time of each pair's blocks to da and dc.
func turns(a, c func(n int), block int, da, dc []time.Duration) {
	timed := func(f func(int)) time.Duration {
		start := time.Now()
		f(block)
		return time.Since(start)
	}
	for p := range da {
		if p%2 == 0 {
			da[p], dc[p] = timed(a), timed(c)
		} else {
			dc[p], da[p] = timed(c), timed(a)
		}
	}
}

// split returns the block size and the number of pairs of blocks for n
// decisions: blocks of Block, or of half of n where n is smaller, and as
// many whole pairs as n holds, at least one. So the two sides make
// 2·block·pairs decisions between them: n rounded down to whole pairs
// where n is at least 2, and 2 where n is 1.
func split(n int) (block, pairs int) {
	block = min(Block, max(1, n/2))
	return block, max(1, n/(2*block))
}

// medians returns the medians of a's and c's ns a decision over the pairs,
// each block's time divided by its block decisions, and of the ratio c÷a
// of each pair's two blocks.
func medians(da, dc []time.Duration, block int) (nsA, nsC, ratio float64) {
	ta, tc, r := make([]float64, len(da)), make([]float64, len(da)), make([]float64, len(da))
	for p := range da {
		ta[p], tc[p] = float64(da[p])/float64(block), float64(dc[p])/float64(block)
		r[p] = float64(dc[p]) / float64(da[p])
	}
	return Median(ta), Median(tc), Median(r)
}

// Median returns the median of v, which it sorts.
func Median(v []float64) float64 {
	slices.Sort(v)
	if n := len(v); n%2 == 0 {
		return (v[n/2-1] + v[n/2]) / 2
	}
	return v[len(v)/2]
}
