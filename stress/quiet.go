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
	ttl time.Duration
	id  int

	calls, checked, retired, refused int64
	violations                       []Violation
}

type quietKey struct {
	name string
	gen  int
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
		if now < high-q.ttl {
			// The sweeper may have read a time more than a TTL past now and
			// evicted a bucket that is full then but not at now: eviction is
			// unobservable only for times within a TTL of the sweeper's. This
			// key's state is unknown from here: give it a new name.
			k.gen++
			k.name = fmt.Sprintf("quiet-%d-%d-%d", q.id, i, k.gen)
			k.ref, k.last = nil, 0
			q.retired++
			continue
		}
		if k.ref == nil {
			k.ref = oracle.New(int64(q.cfg.N), q.cfg.Per, int64(q.cfg.Burst), now)
		}
		want := k.ref.Take(now, int64(c))
		k.last = now
		q.checked++
		if (d.Status == sluice.Allowed) != want.OK || d.Remaining != want.Remaining ||
			d.RetryAfter != want.RetryAfter || d.ResetAfter != want.ResetAfter {
			q.violate(k.name, fmt.Sprintf("cost %d at %v: got %+v, the reference says %+v", c, now, d, want))
		}
		if q.tb.manual == nil && rng.IntN(512) == 0 {
			time.Sleep(2 * q.ttl) // let the sweeper evict quiet keys too
		}
	}
}

func (q *quietWorker) violate(key, detail string) {
	if len(q.violations) < 100 {
		q.violations = append(q.violations, Violation{Kind: "isolation", Key: key, Detail: detail})
	}
}
