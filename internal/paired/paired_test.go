package paired

import (
	"fmt"
	"testing"
	"time"
)

// Median takes the middle value of an odd count and the mean of the two
// middle values of an even one, whatever the order it is given.
func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{
		{[]float64{3}, 3},
		{[]float64{5, 1, 3}, 3},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{2.07, 2.08, 2.08, 2.07}, 2.075},
	} {
		if got := Median(append([]float64(nil), c.in...)); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

// split fills n decisions with whole pairs of blocks of at most Block,
// at least one pair of one decision each.
func TestSplit(t *testing.T) {
	for _, c := range []struct{ n, block, pairs int }{
		{1, 1, 1},
		{2, 1, 1},
		{3, 1, 1},
		{4, 2, 1},
		{1999, 999, 1},
		{2000, 1000, 1},
		{2999, 1000, 1},
		{4000, 1000, 2},
		{1_000_000, 1000, 500},
	} {
		block, pairs := split(c.n)
		if block != c.block || pairs != c.pairs {
			t.Errorf("split(%d) = %d blocks of %d, want %d of %d", c.n, pairs, block, c.pairs, c.block)
		}
	}
	// At every n: blocks of 1 to Block, and n rounded down to whole pairs
	// of them (2 decisions where n is 1).
	for n := 1; n <= 5*Block; n++ {
		block, pairs := split(n)
		made := 2 * block * pairs
		if block < 1 || block > Block || pairs < 1 || made > max(n, 2) || n-made >= 2*block {
			t.Fatalf("split(%d) = %d blocks of %d: %d decisions", n, pairs, block, made)
		}
	}
}

// medians divides each block's time by its decisions and takes each
// pair's ratio before the medians, so a pair's ratio is its own, not the
// ratio of the two sides' medians.
func TestMedians(t *testing.T) {
	const block = 10
	// Three pairs: c costs 3, 1.5 and 2.25 times a, at different speeds,
	// so that the medians of the two sides come from different pairs.
	da := []time.Duration{100, 200, 400}
	dc := []time.Duration{300, 300, 900}
	nsA, nsC, ratio := medians(da, dc, block)
	// The ratio of the medians would be 30÷20 = 1.5.
	if nsA != 20 || nsC != 30 || ratio != 2.25 {
		t.Errorf("medians = %v, %v, %v; want 20, 30, 2.25", nsA, nsC, ratio)
	}
}

// turns runs each pair's blocks in ABBA order, whole blocks, and times
// each block on its own side.
func TestTurns(t *testing.T) {
	var order []byte
	side := func(name byte) func(int) {
		return func(n int) {
			if n != 3 {
				t.Errorf("%c: a block of %d, want 3", name, n)
			}
			order = append(order, name)
			if name == 'c' {
				time.Sleep(time.Millisecond) // so that c's times cannot be 0
			}
		}
	}
	da, dc := make([]time.Duration, 5), make([]time.Duration, 5)
	turns(side('a'), side('c'), 3, da, dc)
	if got, want := string(order), "accaaccaac"; got != want {
		t.Errorf("order %q, want %q", got, want)
	}
	for p := range dc {
		if dc[p] < time.Millisecond {
			t.Errorf("pair %d: c's block timed %v, under the millisecond it slept: a block's time went to the other side", p, dc[p])
		}
	}
}

// Blocks, under the testing package at whatever b.N it is given, makes
// whole pairs of blocks, as split says.
func TestBlocks(t *testing.T) {
	var bad string
	testing.Benchmark(func(b *testing.B) {
		block, pairs := split(b.N)
		made := [2]int{}
		side := func(i int) func(int) {
			return func(n int) {
				if n != block {
					bad = fmt.Sprintf("b.N %d: a block of %d, want %d", b.N, n, block)
				}
				made[i]++
			}
		}
		Blocks(b, side(0), side(1))
		if made != [2]int{pairs, pairs} {
			bad = fmt.Sprintf("b.N %d: %v blocks, want %d each", b.N, made, pairs)
		}
	})
	if bad != "" {
		t.Fatal(bad)
	}
}
