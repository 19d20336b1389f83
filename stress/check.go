package stress

import (
	"cmp"
	"fmt"
	"math/big"
	"slices"
)

// check merges the workers' records and runs the upper- and lower-bound
// checks on every key.
func check(rep *Report, cfg Config, names []string, workers []*worker, slot, t0 int64, nslots int) {
	byKey := make([][]event, len(names))
	for _, w := range workers {
		rep.Decisions += w.calls.Load()
		rep.Refused += w.refuse
		for _, e := range w.events {
			byKey[e.key] = append(byKey[e.key], e)
			rep.Admitted += int64(e.cost)
		}
	}
	g := new(big.Int).GCD(nil, nil, big.NewInt(int64(cfg.N)), big.NewInt(int64(cfg.Per))).Int64()
	n, d, burst := int64(cfg.N)/g, int64(cfg.Per)/g, int64(cfg.Burst)
	for k, evs := range byKey {
		if len(evs) == 0 {
			continue
		}
		windows, v := upper(evs, n, d, burst)
		rep.WindowsChecked += windows
		if v != "" {
			rep.Violations = append(rep.Violations, Violation{Kind: "upper bound", Key: names[k], Detail: v})
		}
	}
	if nslots == 0 {
		return
	}
	rep.MinSaturation = -1
	for h := 0; h < cfg.Hot; h++ {
		lowerSpans(rep, names[h], mergeHot(h, workers, nslots), byKey[h], n, d, slot, t0, nslots)
	}
}

func epochs(nslots int) int { return (nslots + epochSlots - 1) / epochSlots }

// mergeHot merges the workers' observations of hot key h.
func mergeHot(h int, workers []*worker, nslots int) *hotStats {
	m := newHotStats(nslots)
	for _, w := range workers {
		s := &w.hot[h]
		for ep := range m.den {
			if e := &s.den[ep]; e.d1a < m.den[ep].d1a {
				m.den[ep].d1b, m.den[ep].d1a = e.d1b, e.d1a
			}
			if e := &s.den[ep]; e.d2b > m.den[ep].d2b {
				m.den[ep].d2b, m.den[ep].d2a = e.d2b, e.d2a
			}
		}
		for i := range m.maxEnd {
			m.maxEnd[i] = max(m.maxEnd[i], s.maxEnd[i])
			m.quickBeg[i] = max(m.quickBeg[i], s.quickBeg[i])
		}
	}
	return &m
}

// lowerSpans checks one hot key's window from every epoch's D1 to every
// later (or the same) epoch's D2, and counts the results in rep. The
// longest windows owe the most tokens and so catch the smallest shortfall
// in the rate; the short ones still check the key where a stall voids every
// window across it. A span without two denials (the tail of the slots,
// after the run ended) has no window and is not counted.
func lowerSpans(rep *Report, name string, m *hotStats, evs []event, n, d, slot, t0 int64, nslots int) {
	for i := range m.den {
		for j := i; j < len(m.den); j++ {
			res, ratio, v := lower(m, i, j, evs, n, d, slot, t0, nslots)
			count(rep, name, res, ratio, v)
		}
	}
}

// count adds one window's result to rep.
func count(rep *Report, name string, res lowerResult, ratio float64, v string) {
	switch res {
	case lowerViolated:
		rep.LowerChecked++
		rep.Violations = append(rep.Violations, Violation{Kind: "lower bound", Key: name, Detail: v})
	case lowerHeld:
		rep.LowerChecked++
		if rep.MinSaturation < 0 || ratio < rep.MinSaturation {
			rep.MinSaturation = ratio
		}
	case lowerNotShown:
		rep.LowerSkipped++
	}
}

// lowerResult is what lower found of one window.
type lowerResult int

const (
	lowerNoWindow lowerResult = iota // no denial to start or end the window
	lowerNotShown                    // saturation not shown: a call stalled for most of a token
	lowerHeld                        // checked, and enough was admitted
	lowerViolated                    // checked, and too little was admitted
)

// upper checks one key: for every window [A, B], with A a call's start and
// B a call's end, the tokens admitted by calls inside it are at most
// burst + floor(n·(B−A)/d). In integers: d·tokens + n·A <= d·burst + n·B.
// Sweeping B upwards, a segment tree over the distinct starts A holds
// d·tokens(A) + n·A, so each key costs O(k log k) for k admissions. It
// returns the number of window starts and the first violation found.
func upper(evs []event, n, d, burst int64) (int64, string) {
	starts := make([]int64, len(evs))
	for i, e := range evs {
		starts[i] = e.b
	}
	slices.Sort(starts)
	starts = slices.Compact(starts)
	t := newMaxTree(len(starts))
	for i, a := range starts {
		t.set(i, n*a)
	}
	slices.SortFunc(evs, func(x, y event) int { return cmp.Compare(x.a, y.a) })
	for i := 0; i < len(evs); {
		B := evs[i].a
		for ; i < len(evs) && evs[i].a == B; i++ {
			j, _ := slices.BinarySearch(starts, evs[i].b)
			t.add(0, j, d*int64(evs[i].cost)) // every window starting at or before b
		}
		last, found := slices.BinarySearch(starts, B)
		if !found {
			last--
		}
		if last < 0 {
			continue
		}
		if m, at := t.max(0, last); m > d*burst+n*B {
			A := starts[at]
			tokens := (m - n*A) / d
			return int64(len(starts)), fmt.Sprintf("%d tokens admitted in the window [%d, %d] (%dns), bound %d",
				tokens, A, B, B-A, burst+n*(B-A)/d)
		}
	}
	return int64(len(starts)), ""
}

// lower checks a hot key's merged record m in the window from epoch i's D1,
// the cost-1 denial that returned first among those that began in epoch i,
// to epoch j's D2, the one that began last in epoch j. At D1 the bucket held
// less than one token and its TAT was at most D1's end plus tau; at D2
// likewise less than one, so the TAT grew by more than (D2.begin − D1.end)
// − T, and only admissions make it grow while the bucket never fills. So at
// least floor(n·(D2.b − D1.a)/d) tokens were admitted by calls that overlap
// [D1.b, D2.a].
//
// The bucket never fills (no refill is wasted) if every call i on the key
// ends less than T after the latest start of a call that returned before i
// began: that call is linearized before i, so i's clock reading is less than
// T past the newest reading already applied, each step adds less than one
// token while each admission takes at least one, and the bucket stays below
// maxCost+1 <= burst tokens. The slots give a conservative test of that;
// where it fails (a goroutine preempted mid-call for most of a token), the
// window is skipped, not passed.
func lower(m *hotStats, i, j int, evs []event, n, d, slot, t0 int64, nslots int) (res lowerResult, ratio float64, violation string) {
	den := denials{d1b: m.den[i].d1b, d1a: m.den[i].d1a, d2b: m.den[j].d2b, d2a: m.den[j].d2a}
	if den.d1a >= den.d2b {
		return lowerNoWindow, 0, ""
	}
	last := (den.d2a - t0) / slot
	if last >= int64(nslots) {
		return lowerNotShown, 0, ""
	}
	token := d / n // whole ns are enough for a sufficient test
	var done int64 // latest start of a quick call two or more slots back
	for s := int64(0); s <= last; s++ {
		if s >= 2 {
			done = max(done, m.quickBeg[s-2])
		}
		if m.maxEnd[s] < den.d1b {
			continue // no call here ended after D1 began: all came before it
		}
		if done == 0 || m.maxEnd[s]-done >= token {
			return lowerNotShown, 0, ""
		}
	}
	var got int64
	for _, e := range evs {
		if e.a >= den.d1b && e.b <= den.d2a {
			got += int64(e.cost)
		}
	}
	want := n * (den.d2b - den.d1a) / d
	if got < want {
		return lowerViolated, 0, fmt.Sprintf("saturated for %dns between two denials, admitted %d tokens, at least %d due",
			den.d2b-den.d1a, got, want)
	}
	if want == 0 {
		return lowerHeld, 1, ""
	}
	return lowerHeld, float64(got) / float64(want), ""
}

func newHotStats(nslots int) hotStats {
	den := make([]denials, epochs(nslots))
	for i := range den {
		den[i] = denials{d1a: 1<<63 - 1, d2b: -1 << 63}
	}
	return hotStats{den: den, maxEnd: make([]int64, nslots), quickBeg: make([]int64, nslots)}
}

// maxTree is a segment tree with range add and range max (and its index).
type maxTree struct {
	size      int
	val, lazy []int64
	idx       []int
}

func newMaxTree(n int) *maxTree {
	size := 1
	for size < n {
		size <<= 1
	}
	t := &maxTree{size: size, val: make([]int64, 2*size), lazy: make([]int64, 2*size), idx: make([]int, 2*size)}
	for i := range t.val {
		t.val[i] = -1 << 62
	}
	for i := 0; i < size; i++ {
		t.idx[size+i] = i
	}
	for i := size - 1; i >= 1; i-- {
		t.idx[i] = t.idx[2*i]
	}
	return t
}

// set initialises leaf i; call before any add.
func (t *maxTree) set(i int, v int64) {
	p := t.size + i
	t.val[p] = v
	for p >>= 1; p >= 1; p >>= 1 {
		t.pull(p)
	}
}

func (t *maxTree) pull(p int) {
	l, r := 2*p, 2*p+1
	if t.val[l] >= t.val[r] {
		t.val[p], t.idx[p] = t.val[l]+t.lazy[p], t.idx[l]
	} else {
		t.val[p], t.idx[p] = t.val[r]+t.lazy[p], t.idx[r]
	}
}

func (t *maxTree) add(lo, hi int, v int64) { t.addRec(1, 0, t.size-1, lo, hi, v) }

func (t *maxTree) addRec(p, pl, pr, lo, hi int, v int64) {
	if hi < pl || pr < lo {
		return
	}
	if lo <= pl && pr <= hi {
		t.val[p] += v
		t.lazy[p] += v
		return
	}
	mid := (pl + pr) / 2
	t.addRec(2*p, pl, mid, lo, hi, v)
	t.addRec(2*p+1, mid+1, pr, lo, hi, v)
	t.pull(p)
}

func (t *maxTree) max(lo, hi int) (int64, int) { return t.maxRec(1, 0, t.size-1, lo, hi) }

func (t *maxTree) maxRec(p, pl, pr, lo, hi int) (int64, int) {
	if hi < pl || pr < lo {
		return -1 << 62, -1
	}
	if lo <= pl && pr <= hi {
		return t.val[p], t.idx[p]
	}
	mid := (pl + pr) / 2
	a, ai := t.maxRec(2*p, pl, mid, lo, hi)
	b, bi := t.maxRec(2*p+1, mid+1, pr, lo, hi)
	if b > a {
		a, ai = b, bi
	}
	return a + t.lazy[p], ai
}
