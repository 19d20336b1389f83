package sluice

import (
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"
	"unsafe"

	"github.com/seed997/sluice/clock"
	"github.com/seed997/sluice/internal/paired"
)

// BenchmarkAllowLayout shows how much a hot key's decision depends on where
// its lines fall in their 4 KB pages: an occasional process runs the
// counted decision up to 2.6 ns slower than the next (bench/HISTORY-27.md,
// "The count's slow processes"). Here only the goroutine's stack moves:
// the decision loop is called at layoutDepths depths, a frame apart, so
// that the stack crosses more than a page, with the goroutine locked to
// its thread (the same M throughout) and the buckets where they are. At
// each position it times a block of the counted and of the uncounted
// (WithoutDecisionCounts) decision on the coarse clock, taking turns;
// one b.N is one pass over the positions. It reports the median over the
// positions of each position's median over the passes, and the slowest
// position's (ns/op is the mean over every decision), and, given at
// least 3 passes, logs the positions more than 0.4 ns over the median.
// Run it a few times, with b.N given so that each run logs once, in one
// process (-count) or in several: the slow positions recur at the same
// stack offsets, whichever page offset the buckets take, and differ
// between the two decisions. The drift of a slow hour on a shared
// machine flags positions too, which do not recur.
//
//	go test -run '^$' -bench AllowLayout -benchtime 8x -count 3 .
func BenchmarkAllowLayout(b *testing.B) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	const hot = "user:12345678"
	clk := clock.NewCoarse(time.Millisecond)
	defer clk.Stop()
	var lims [2]*Limiter // counted, uncounted
	for i, opts := range [][]Option{{WithClock(clk)}, {WithClock(clk), WithoutDecisionCounts()}} {
		l, err := New(Per(1_000_000_000, time.Second), 1_000_000_000, opts...)
		if err != nil {
			b.Fatal(err)
		}
		defer l.Close()
		if !l.Allow(hot) {
			b.Fatal("setup broken: the admitting limiter refused the hot key")
		}
		lims[i] = l
	}
	r := &layoutRun{lims: lims, key: hot}
	for i := range r.times {
		for d := range r.times[i] {
			r.times[i][d] = make([]float64, 0, b.N)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for pass := range b.N {
		r.pass = pass
		for d := range layoutDepths {
			depth(d, d, r)
		}
	}
	b.StopTimer()
	if s := lims[0].Stats(); r.denied != 0 || s.Denied != 0 {
		b.Fatalf("setup broken: %d decisions denied uncounted, %d counted", r.denied, s.Denied)
	}
	if span := r.stack[0] - r.stack[layoutDepths-1]; span < 4096 {
		b.Fatalf("the stack moved %d bytes over the depths, less than a page", span)
	}
	var at [2][layoutDepths]float64
	var mid [2]float64
	sum := 0.0
	for i, name := range []string{"counted", "uncounted"} {
		for d := range layoutDepths {
			for _, t := range r.times[i][d] {
				sum += t
			}
			at[i][d] = paired.Median(r.times[i][d])
		}
		mid[i] = paired.Median(slices.Clone(at[i][:]))
		b.ReportMetric(mid[i], name+"-ns")
		b.ReportMetric(slices.Max(at[i][:]), name+"-worst-ns")
	}
	b.ReportMetric(sum/float64(2*layoutDepths*b.N), "ns/op")
	if b.N < 3 {
		return // too few passes for a position's median
	}
	// One line each: a benchmark's log is cut after ten lines.
	slow := ""
	for d := range layoutDepths {
		if at[0][d] > mid[0]+0.4 || at[1][d] > mid[1]+0.4 {
			slow += fmt.Sprintf(" %d: %.2f/%.2f", r.stack[d]%4096, at[0][d], at[1][d])
		}
	}
	st, k := lims[0].table.Of(hot)
	b.Logf("%d passes; medians: counted %.2f ns, uncounted %.2f; the counted bucket at page offset %d; %d stack positions %d bytes apart",
		b.N, mid[0], mid[1], uintptr(unsafe.Pointer(st.Load(k)))%4096, layoutDepths, (r.stack[0]-r.stack[layoutDepths-1])/(layoutDepths-1))
	b.Logf("stack page offsets where either is 0.4 ns over its median (counted/uncounted ns):%s", slow)
}

// layoutDepths positions, a frame of depth apart (88 bytes on amd64),
// cover more than a page.
const layoutDepths = 90

// layoutRun is BenchmarkAllowLayout's state, reached through a pointer so
// that no closure is made a position.
type layoutRun struct {
	lims   [2]*Limiter // counted, uncounted
	key    string
	pass   int
	denied int
	times  [2][layoutDepths][]float64
	stack  [layoutDepths]uintptr
}

// layoutBlock is how many decisions a position times at a time: about
// 0.3 ms of them.
const layoutBlock = 20_000

// at times each limiter's block at depth d, with the stack at sp.
func (r *layoutRun) at(d int, sp uintptr) {
	r.stack[d] = sp
	for j := range r.lims {
		i := j ^ r.pass&1 // each goes first in every other pass
		start := time.Now()
		if i == 0 {
			// The counting limiter's Stats show any denial.
			for range layoutBlock {
				r.lims[0].Allow(r.key)
			}
		} else {
			n := 0
			for range layoutBlock {
				if !r.lims[1].Allow(r.key) {
					n++
				}
			}
			r.denied += n
		}
		r.times[i][d] = append(r.times[i][d], float64(time.Since(start))/layoutBlock)
	}
}

// depth calls r.at for position d n frames deeper than itself, with the
// stack's position there (the address of a local of stackAt).
//
//go:noinline
func depth(n, d int, r *layoutRun) {
	var pad [48]byte // the frame's size: the step between positions
	pad[0] = byte(n)
	keep(pad[:])
	if n == 0 {
		r.at(d, stackAt())
		return
	}
	depth(n-1, d, r)
}

//go:noinline
func keep(p []byte) byte { return p[0] }

//go:noinline
func stackAt() uintptr {
	var x [8]byte
	return uintptr(unsafe.Pointer(&x[0]))
}
