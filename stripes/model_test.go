package stripes

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// FuzzStripe drives one stripe through a sequence of operations that the
// input encodes, interleaving key creation, growth, table preparation,
// sweep steps, whole passes and shrinks in orders no hand-written test
// chooses, and holds it to a model (a map from key to the state its
// bucket was created with) after each operation:
//
//   - a key in the model is found, lock-free, with its state, however many
//     growths and shrinks moved it; a key not in it is not found;
//   - LoadOrInsert creates a key exactly once, and Range gives back each
//     live key once, as it was inserted;
//   - the live count, Evictions and the tables' limits hold, and a shrink
//     moves at most sweepStep groups a step;
//   - a pass of SweepStep offers every key live throughout it, and ends
//     with no move in progress.
//
// Each operation is a byte (its low three bits pick it) and the byte
// after it (its argument):
//
//	0, 1  create arg·4 new keys (a burst that grows the table), up to
//	      maxFresh in all, so that every input runs in milliseconds
//	2     create (or look up) the key numbered arg, one of the first 256
//	3     one SweepStep, evicting the keys whose number ≡ arg mod 4
//	      (arg < 64), every key (64 ≤ arg < 128), or none (arg ≥ 128)
//	4     whole passes of SweepStep, the same way, until one ends
//	5     make the table the stripe asked for, if it asked (Prepare)
//	6     check every key of the model and 64 that are not in it
//	7     Range
func FuzzStripe(f *testing.F) {
	f.Add([]byte{0, 255, 0, 255, 4, 1, 6, 0})
	f.Add([]byte{0, 200, 5, 0, 0, 200, 3, 0, 3, 0, 2, 7, 4, 200, 7, 0})
	// Two bursts, steps evicting a different quarter each, with keys
	// created between them, a third burst in the middle of the pass,
	// then a whole pass.
	f.Add([]byte{0, 255, 1, 255, 3, 1, 3, 2, 3, 3, 2, 1, 3, 128, 2, 9, 1, 40, 3, 128, 4, 128, 6, 0, 7, 0})
	f.Add([]byte{1, 250, 4, 0, 4, 1, 4, 2, 0, 30, 3, 128, 2, 4, 3, 3, 4, 3, 6, 0})
	// Bursts of 40 keys into tables of 128 groups and more, each followed
	// by a Prepare: the stripe asks, and its growth moves into the table
	// made for it, or drops one made too late.
	prep := []byte{0, 255, 0, 255}
	for range 40 {
		prep = append(prep, 0, 10, 5, 0)
	}
	f.Add(append(prep, 3, 0, 0, 60, 3, 1, 5, 0, 4, 2, 6, 0))
	// A burst emptied but for a few keys: the shrink's table is the
	// smallest that still takes a key for each of its steps.
	f.Add([]byte{0, 255, 0, 255, 1, 255, 1, 255, 2, 1, 2, 2, 3, 64, 2, 3, 3, 64, 4, 64, 2, 4, 2, 5, 3, 128, 2, 6, 4, 128, 6, 0})
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) > 512 {
			return
		}
		m := newModel(t)
		for i := 0; i+1 < len(ops); i += 2 {
			m.do(ops[i]&7, ops[i+1])
			m.check(fmt.Sprintf("op %d (%d %d)", i/2, ops[i]&7, ops[i+1]))
		}
		m.pass(128) // every input ends at the end of a pass
		m.check("the last pass")
		m.lookAll("the end")
	})
}

// model is a stripe beside what it should hold.
type model struct {
	t       *testing.T
	tb      *Table[ctr, *ctr]
	st      *Stripe[ctr, *ctr]
	live    map[int]bool // key numbers in the stripe
	fresh   int          // the next number a burst creates (past 255)
	evicted int64
	// The pass under way: the keys live when it began, and those offered.
	inPass          bool
	atStart, offers map[int]bool
}

func newModel(t *testing.T) *model {
	tb, err := New[ctr](1)
	if err != nil {
		t.Fatal(err)
	}
	return &model{t: t, tb: tb, st: tb.At(0), live: map[int]bool{}, fresh: 256}
}

// maxFresh bounds the keys an input's bursts create: enough for tables of
// over 1,000 groups, whose shrinks move in steps shorter than the table.
const maxFresh = 8192

// name is key number i's key: lengths on both sides of the inline limit.
func name(i int) string {
	return fmt.Sprintf("k%d-", i) + strings.Repeat("x", i%23)
}

// number is the key number a bucket was created with (its state).
func number(c *ctr) int { return int(c.v.Load() &^ dead) }

func (m *model) create(i int) {
	_, k := m.tb.Of(name(i))
	made := false
	b := m.st.LoadOrInsert(k, always, func(c *ctr) { made = true; c.v.Store(uint64(i)) })
	if b == nil || number(b) != i {
		m.t.Fatalf("LoadOrInsert(%q) gave %v", name(i), b)
	}
	if made == m.live[i] {
		m.t.Fatalf("LoadOrInsert(%q): created %v, but the key was live: %v", name(i), made, m.live[i])
	}
	m.live[i] = true
}

// step takes one SweepStep, evicting the keys whose number is r mod 4
// (r < 64), every key (64 ≤ r < 128) or none (r ≥ 128), and reports
// whether the pass ended.
func (m *model) step(r byte) bool {
	if !m.inPass {
		m.inPass, m.atStart, m.offers = true, map[int]bool{}, map[int]bool{}
		for i := range m.live {
			m.atStart[i] = true
		}
	}
	var gone []int
	n, done := m.st.SweepStep(func(c *ctr) bool {
		i := number(c)
		if !m.live[i] {
			m.t.Fatalf("SweepStep offered key %d, which is not live", i)
		}
		m.offers[i] = true
		if r >= 128 || r < 64 && i%4 != int(r%4) {
			return false
		}
		if !c.kill() {
			m.t.Fatalf("SweepStep offered key %d dead", i)
		}
		gone = append(gone, i)
		return true
	})
	if n != len(gone) {
		m.t.Fatalf("SweepStep evicted %d keys and reported %d", len(gone), n)
	}
	if m.st.shrunk && m.st.step > sweepStep {
		m.t.Fatalf("a shrink moves %d groups a step", m.st.step)
	}
	for _, i := range gone {
		delete(m.live, i)
	}
	m.evicted += int64(n)
	if done {
		for i := range m.atStart {
			if !m.offers[i] {
				m.t.Fatalf("a pass ended without offering key %d, live throughout it", i)
			}
		}
		if growing(m.st) != nil {
			m.t.Fatal("a pass ended with a move in progress")
		}
		m.inPass = false
	}
	return done
}

// pass takes steps until a pass ends: the one under way, or a whole one.
func (m *model) pass(r byte) {
	for steps := 0; !m.step(r); steps++ {
		if steps > 1<<20 {
			m.t.Fatal("a pass that does not end")
		}
	}
}

func (m *model) do(op, arg byte) {
	switch op {
	case 0, 1:
		for range min(int(arg)*4, 256+maxFresh-m.fresh) {
			m.create(m.fresh)
			m.fresh++
		}
	case 2:
		m.create(int(arg))
	case 3:
		m.step(arg)
	case 4:
		m.pass(arg)
	case 5:
		select {
		case s := <-m.tb.Asks():
			s.Prepare()
		default:
		}
	case 6:
		m.lookAll("look")
	case 7:
		var got []int
		m.st.Range(func(key string, b *ctr) bool {
			i := number(b)
			if key != name(i) {
				m.t.Fatalf("Range gave key %q with the bucket of %q", key, name(i))
			}
			got = append(got, i)
			return true
		})
		slices.Sort(got)
		want := make([]int, 0, len(m.live))
		for i := range m.live {
			want = append(want, i)
		}
		slices.Sort(want)
		if !slices.Equal(got, want) {
			m.t.Fatalf("Range gave %d keys, the model holds %d", len(got), len(want))
		}
	}
}

// lookAll finds every key of the model with its state, and none of 64
// numbers that are not in it; LoadHome, where it finds a key, finds the
// bucket Load does.
func (m *model) lookAll(when string) {
	for i := range m.live {
		_, k := m.tb.Of(name(i))
		b := m.st.Load(k)
		if b == nil || number(b) != i || b.v.Load()&dead != 0 {
			m.t.Fatalf("%s: key %d: %v", when, i, b)
		}
		if h := m.st.LoadHome(k); h != nil && h != b {
			m.t.Fatalf("%s: key %d: LoadHome gave %v, Load %v", when, i, h, b)
		}
	}
	for i := range 64 {
		if !m.live[i] {
			_, k := m.tb.Of(name(i))
			if b := m.st.Load(k); b != nil && b.v.Load()&dead == 0 {
				m.t.Fatalf("%s: key %d, not in the stripe, found live", when, i)
			}
			if b := m.st.LoadHome(k); b != nil && b.v.Load()&dead == 0 {
				m.t.Fatalf("%s: key %d, not in the stripe, found live by LoadHome", when, i)
			}
		}
	}
}

// check holds the stripe's counts and limits to the model.
func (m *model) check(when string) {
	checkRoom(m.t, m.st, when)
	if keys, _, _ := m.st.Size(); keys != len(m.live) {
		m.t.Fatalf("%s: the stripe counts %d live keys, the model %d", when, keys, len(m.live))
	}
	if got := m.st.Evictions.Load(); got != m.evicted {
		m.t.Fatalf("%s: Evictions %d, want %d", when, got, m.evicted)
	}
}
