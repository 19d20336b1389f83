package stress

import (
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/seed997/sluice"
	"github.com/seed997/sluice/internal/oracle"
)

// quietWorker owns a few keys that no other goroutine touches, and holds
// each decision on them to the exact reference bucket fed the same times.
// Whatever the hammered keys, the sweeper and the key cap do, these
// decisions must not change.
type quietWorker struct {
	cfg Config
	l   *sluice.Limiter
	tb  *timebase
	id  int

	calls, checked, evictedAhead, refused int64
	violations                            []Violation
}

type quietKey struct {
	name string
	ref  *oracle.Bucket
	last time.Duration
}

func (q *quietWorker) run(stop *atomic.Bool, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 11))
	n := max(q.cfg.Quiet/min(q.cfg.Quiet, 2), 1)
	keys := make([]quietKey, n)
	for i := range keys {
		keys[i].name = fmt.Sprintf("quiet-%d-%d-0", q.id, i)
	}
	for !stop.Load() {
		i := rng.IntN(n)
		k := &keys[i]
		c := 1 + rng.IntN(2)
		// Times per key never decrease: the reference needs that, and a
		// stale time is the hammered keys' business, not this check's.
		now := max(q.l.Now(), k.last)
		d, err := q.l.AllowAt(k.name, c, now)
		high := q.tb.highest()
		q.calls++
		if err != nil {
			q.violate(k.name, fmt.Sprintf("AllowAt(%d, %v): %v", c, now, err))
			continue
		}
		if d.Status == sluice.OverCapacity {
			q.refused++ // nothing was taken, and the reference takes nothing
			continue
		}
		if k.ref == nil {
			k.ref = oracle.New(int64(q.cfg.N), q.cfg.Per, int64(q.cfg.Burst), now)
		}
		// The sweeper evicts a bucket that is full at its own clock
		// reading, which may be later than now (up to high); the request
		// then meets a new full bucket. That is the one way the answer may
		// differ from the reference's, and only if the reference bucket is
		// full by high. Anything else is a violation.
		fullByHigh := k.ref.FullAt(high)
		want := k.ref.Take(now, int64(c))
		k.last = now
		q.checked++
		if !same(d, want) {
			fresh := oracle.New(int64(q.cfg.N), q.cfg.Per, int64(q.cfg.Burst), now)
			if fw := fresh.Take(now, int64(c)); fullByHigh && same(d, fw) {
				k.ref = fresh
				q.evictedAhead++
			} else {
				q.violate(k.name, fmt.Sprintf("cost %d at %v: got %+v, the reference says %+v", c, now, d, want))
			}
		}
		if q.tb.manual == nil && rng.IntN(512) == 0 {
			time.Sleep(2 * q.cfg.IdleTTL) // let the sweeper evict quiet keys too
		}
	}
}

func same(d sluice.Decision, r oracle.Result) bool {
	return (d.Status == sluice.Allowed) == r.OK && d.Remaining == r.Remaining &&
		d.RetryAfter == r.RetryAfter && d.ResetAfter == r.ResetAfter
}

func (q *quietWorker) violate(key, detail string) {
	if len(q.violations) < 100 {
		q.violations = append(q.violations, Violation{Kind: "isolation", Key: key, Detail: detail})
	}
}
