package atomicbucket

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/seed997/sluice/internal/oracle"
)

// FuzzStep checks the packing of the state: whatever the limit, state and
// time, an admitted request leaves the tombstone bit clear, moves TAT
// forward by exactly the backlog plus the cost, and a denial leaves it;
// for one token, TryOne and DeniesOne decide as step does.
func FuzzStep(f *testing.F) {
	f.Add(int64(7), int64(time.Second), int64(3), uint64(0), int64(0), int64(1))
	f.Add(int64(maxPrime), int64(time.Second), int64(1<<20), uint64(1<<62), int64(-1), int64(1<<19))
	f.Add(int64(1), int64(1<<40), int64(1<<21), tatMask, int64(1<<62), int64(1<<21))
	f.Fuzz(func(t *testing.T, n, per, burst int64, state uint64, now, cost int64) {
		l, err := NewLimit(n, time.Duration(per), burst)
		if err != nil {
			return
		}
		state &= tatMask
		if l.checkCost(cost) != Allowed {
			return
		}
		v := l.vnow(time.Duration(now))
		next, ok, base, need := l.step(state, time.Duration(now), cost)
		if cost == 1 {
			// The in-line forms rearrange step's arithmetic for one
			// token: they must reach its decision and its state.
			b := &Bucket{}
			b.state.Store(state)
			if b.DeniesOne(&l, time.Duration(now)) && ok {
				t.Fatalf("DeniesOne denied what step admits (state %#x)", state)
			}
			if took := b.TryOne(&l, time.Duration(now)); took != ok || b.state.Load() != next {
				t.Fatalf("TryOne took %v leaving %#x; step %v, %#x", took, b.state.Load(), ok, next)
			}
		}
		if base < 0 || need != base+cost*l.token {
			t.Fatalf("base %d need %d", base, need)
		}
		if !ok {
			if next != state || need <= l.tau {
				t.Fatalf("denial changed state or need %d <= tau %d", need, l.tau)
			}
			return
		}
		if next&tombstone != 0 || need > l.tau {
			t.Fatalf("next %#x need %d tau %d", next, need, l.tau)
		}
		if offset(next, v) != need {
			t.Fatalf("offset(next) = %d, want %d", offset(next, v), need)
		}
		// With a backlog TAT advances by exactly the cost; from a full
		// bucket it restarts at now plus the cost. Never backwards.
		if s := offset(state, v); s > 0 && (next-state)&tatMask != uint64(cost*l.token) {
			t.Fatalf("backlog %d: TAT advanced by %d, want %d", s, (next-state)&tatMask, cost*l.token)
		}
	})
}

// FuzzOracle replays a random stream, chosen by the fuzzer's limit and
// seed, against the exact rational model.
func FuzzOracle(f *testing.F) {
	f.Add(int64(7), int64(time.Second), int64(3), uint64(1))
	f.Add(int64(3), int64(10*time.Second), int64(1), uint64(2))
	f.Add(int64(1000003), int64(time.Second), int64(100), uint64(3))
	f.Fuzz(func(t *testing.T, n, per, burst int64, seed uint64) {
		l, err := NewLimit(n, time.Duration(per), burst)
		if err != nil || per/n > 1<<40 || burst > 1<<20 {
			return // keep the big.Rat model and the stream short
		}
		rng := rand.New(rand.NewPCG(seed, seed))
		b := NewBucket(&l, 0)
		o := oracle.New(n, time.Duration(per), burst, 0)
		now := time.Duration(0)
		for i := 0; i < 200; i++ {
			now += time.Duration(rng.Int64N(per/n*2 + 2))
			cost := 1 + rng.Int64N(burst)
			got, want := b.TakeAt(&l, now, cost), o.Take(now, cost)
			if got.OK() != want.OK || got.Remaining != want.Remaining ||
				got.RetryAfter != want.RetryAfter || got.ResetAfter != want.ResetAfter {
				t.Fatalf("request %d at %v cost %d: got %+v want %+v", i, now, cost, got, want)
			}
		}
	})
}
