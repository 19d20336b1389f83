package sluice

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/seed997/sluice/atomicbucket"
	"github.com/seed997/sluice/clock"
	"github.com/seed997/sluice/internal/mutant"
	"github.com/seed997/sluice/internal/shorthash"
	"github.com/seed997/sluice/stripes"
	"github.com/seed997/sluice/sweeper"
)

// Decision is the outcome of one request.
type Decision = atomicbucket.Decision

// Status says what became of a request.
type Status = atomicbucket.Status

// The statuses a Limiter returns.
const (
	Denied       = atomicbucket.Denied
	Allowed      = atomicbucket.Allowed
	TooLarge     = atomicbucket.TooLarge
	OverCapacity = atomicbucket.OverCapacity
)

// Errors returned by New, AllowN, AllowAt and Wait; test with errors.Is.
var (
	// ErrInvalid: a bad configuration, a cost below 1, or a nil context.
	ErrInvalid = atomicbucket.ErrInvalid
	// ErrNever: Wait was asked for more tokens than the burst.
	ErrNever = errors.New("sluice: cost exceeds the burst and can never be admitted")
	// ErrDeadline: Wait would need longer than the context's deadline allows.
	ErrDeadline = errors.New("sluice: wait would outlast the context deadline")
	// ErrOverCapacity: Wait met the key cap for a new key.
	ErrOverCapacity = errors.New("sluice: key cap reached; new key refused")
)

// Rate is n tokens per period.
type Rate struct {
	n   int64
	per time.Duration
}

// Per returns the rate of n tokens per period. It is exact: Per(7,
// time.Second) admits 7 per second forever, though a second is not a whole
// number of nanoseconds per token.
func Per(n int, period time.Duration) Rate { return Rate{n: int64(n), per: period} }

// DefaultIdleTTL is how long a bucket stays full before it is evicted,
// unless WithIdleTTL says otherwise.
const DefaultIdleTTL = time.Minute

// Option configures New.
type Option func(*config) error

type config struct {
	clock     clock.Clock
	ttl       time.Duration
	maxKeys   int64
	stripes   int
	uncounted bool
}

// WithClock sets the limiter's clock (default clock.Default(): the
// processor's counter scaled to the monotonic clock where it can stand in
// for it, clock.Mono elsewhere). The caller owns it: stop a clock.Coarse
// after Close.
func WithClock(c clock.Clock) Option {
	return func(cfg *config) error {
		if c == nil {
			return fmt.Errorf("%w: nil clock", ErrInvalid)
		}
		cfg.clock = c
		return nil
	}
}

// WithIdleTTL sets how long a key's bucket must stay full before the
// sweeper evicts it. Eviction never changes a decision; a short TTL trades
// memory for the cost of re-creating keys, and under WithMaxKeys it is how
// long a key counts as in use, and so how soon the cap has room again after
// a flood of forged keys. The TTL is capped at half the limit's exact
// horizon, 2^62/n' ns for the reduced count n' = n/gcd(n, period in ns):
// 146 years at most rates, 73 minutes at the largest n'.
func WithIdleTTL(d time.Duration) Option {
	return func(cfg *config) error {
		if d <= 0 {
			return fmt.Errorf("%w: idle TTL %v: must be positive", ErrInvalid, d)
		}
		cfg.ttl = d
		return nil
	}
}

// WithMaxKeys caps the number of keys held at once (default: no cap): a
// new key at the cap is refused, with OverCapacity, and keys idle for the
// TTL are evicted at once to make room; a key used within the TTL never is.
// See the package documentation.
func WithMaxKeys(n int) Option {
	return func(cfg *config) error {
		if n < 1 {
			return fmt.Errorf("%w: max keys %d: must be at least 1", ErrInvalid, n)
		}
		cfg.maxKeys = int64(n)
		return nil
	}
}

// WithStripes sets the number of stripes, a power of two (default: the
// smallest power of two at least 4·GOMAXPROCS, and at least 16).
//
// A new key is created under its stripe's lock, so where many goroutines
// create keys at once, more stripes make them wait less. Four times the
// default made new keys 1.11–1.24× faster on 4 to 16 cores of a Xeon, and
// drew them level with x/time/rate's sync.Map at 16 cores, where the
// default trails it; twice the default made them 1.16× faster on two
// goroutines of the 2-core machine (medians of processes in turns:
// BenchmarkAllowNewKey, and bench/'s sluice-stripes). Each stripe costs
// about 550 bytes while the limiter is empty (BenchmarkMemoryEmpty), and
// the sweeper visits every stripe. bench/BENCHMARKS.md has the runs.
func WithStripes(n int) Option {
	return func(cfg *config) error {
		cfg.stripes = n
		return nil
	}
}

// WithoutDecisionCounts stops the limiter counting its decisions:
// Stats.Allowed and Stats.Denied then stay 0, and Stats.Counted is false
// (keys, evictions and refusals are still counted). Counting is a pinned
// per-P increment, two calls into the runtime: 0.4–2.7 ns of a hot key's
// decision here, by the clock, the hour and where the code lands, and up
// to 3.8 ns in an occasional process whose stack and buckets fall at
// unlucky offsets in their pages, which slows the uncounted decision too,
// less often (BenchmarkAllowPaired, counts=on and counts=off;
// BenchmarkAllowParts; BenchmarkAllowLayout; bench/HISTORY.md, the
// quick run at 152b3bb and the layout probes after it).
// A caller who does not read those two counts can leave them out.
func WithoutDecisionCounts() Option {
	return func(cfg *config) error {
		cfg.uncounted = true
		return nil
	}
}

// stripe is one shard of the limiter's keys, buckets stored by value.
type stripe = stripes.Stripe[atomicbucket.Bucket, *atomicbucket.Bucket]

// Limiter decides requests per key. It is safe for concurrent use. Create
// it with New and stop its sweeper with Close. A Limiter that New did not
// make (a nil pointer, or the zero value) has no table or clock, and its
// methods panic, but for the zero value's Burst, which reports 0: Allow
// is the hot path, and a check there for a limiter that was never made
// would be paid on every decision to catch a mistake the first call
// shows.
type Limiter struct {
	limit atomicbucket.Limit
	clock clock.Clock
	table *stripes.Table[atomicbucket.Bucket, *atomicbucket.Bucket]
	// uncounted is WithoutDecisionCounts: Allow and decide skip the count.
	uncounted bool
	sweeper   *sweeper.Sweeper[atomicbucket.Bucket, *atomicbucket.Bucket]
	// cleanup stops the sweeper of a limiter dropped without Close. Close
	// cancels it: a cleanup's argument, the sweeper and through it the
	// table, stays reachable until the cleanup has run, so a closed
	// limiter's keys would otherwise outlive it by a garbage collection.
	cleanup runtime.Cleanup
	closing sync.Once
}

// New returns a limiter of rate r with the given burst, its sweeper started.
func New(r Rate, burst int, opts ...Option) (*Limiter, error) {
	limit, err := atomicbucket.NewLimit(r.n, r.per, int64(burst))
	if err != nil {
		return nil, err
	}
	cfg := config{ttl: DefaultIdleTTL, stripes: stripes.Default()}
	for _, o := range opts {
		if o == nil {
			return nil, fmt.Errorf("%w: nil option", ErrInvalid)
		}
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	if cfg.clock == nil {
		cfg.clock = clock.Default()
	}
	table, err := stripes.New[atomicbucket.Bucket](cfg.stripes)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	table.SetMaxKeys(cfg.maxKeys)
	l := &Limiter{limit: limit, clock: cfg.clock, table: table, uncounted: cfg.uncounted}
	// The sweeper gets a copy of the limit, never a pointer into l, so
	// that its goroutine does not keep l reachable: a limiter dropped
	// without Close is collected, and its cleanup stops the sweeper
	// (asynchronously: a cleanup must not block), where otherwise the
	// goroutine, the table and every key would stay for the life of the
	// process.
	own := limit
	l.sweeper = sweeper.Start(table, &own, cfg.clock, cfg.ttl)
	l.cleanup = runtime.AddCleanup(l, func(s *sweeper.Sweeper[atomicbucket.Bucket, *atomicbucket.Bucket]) { go s.Close() }, l.sweeper)
	return l, nil
}

// Allow reports whether one token may be taken for key now, and takes it.
// A new key refused at the key cap is reported as false.
func (l *Limiter) Allow(key string) bool {
	// The key is hashed first and the clock read after, before the
	// bucket's load, which must follow the reading (see TryOne). With
	// the read first, a hot key's decision took 21.9 ns on the default
	// clock against 20.9 now, 40.1 on the runtime's monotonic one against
	// 37.9, and the same on the coarse one (BenchmarkAllowParts'
	// step=allow and BenchmarkAllowPaired, builds of either order run in
	// turns; step=clock shows it on the decision written out).
	// The default and the coarse clock are called directly, not through
	// the interface (the coarse clock's read, one atomic load, then
	// inlines, and the default clock's TryNow inlines to one call of its
	// assembly). This is atomicbucket's readClock written out: readClock
	// is too large to inline, so calling it would put one more call on
	// this path. The key is hashed with Table.Hash and its stripe found
	// with Table.Stripe rather than with Of, which would be one more call
	// (see Hash), and a key of 9 to 16 bytes, most keys, with
	// shorthash.Sum, which inlines here, rather than with Hash, a call.
	// locate is these first steps as one call, for AllowN.
	var h uint64
	if n := len(key); n > 8 && n <= 16 {
		h = shorthash.Sum(key, l.table.Seed())
	} else {
		h = l.table.Hash(key)
	}
	var now time.Duration
	switch c := l.clock.(type) {
	case *clock.Counter:
		var ok bool
		if now, ok = c.TryNow(); !ok {
			now = c.Now()
		}
	case *clock.Coarse:
		now = c.Now()
	default:
		now = l.clock.Now()
	}
	st, k := l.table.Stripe(h), stripes.Key{Hash: h, S: key}
	// A key of 8 to 16 bytes in its home group, most decisions' keys, is
	// found by LoadHome, one call with no frame; any other key by Load
	// after it (see stripes' findHome). Testing the key's length here, to
	// send other keys to Load alone, made a hot key's decision 0.4 ns
	// slower (BenchmarkAllowPaired, builds of both in turns), and other
	// keys gain little by it: LoadHome returns at its length test.
	b := st.LoadHome(k)
	if b == nil {
		b = st.Load(k)
	}
	if b != nil {
		// The hot path: an existing key, cost 1, no Decision to fill.
		// TryOne inlines here and admits in the common case, DeniesOne
		// denies on an empty bucket; the rest (a lost CAS, a dead bucket,
		// a stall since the clock read) goes to AllowFrom. Both count
		// the decision with the parts of Count, which inline (count.go),
		// unless the limiter was made WithoutDecisionCounts: one test of
		// a field, which measured nothing on the counting path.
		// The CASAsStore mutant must reach its broken store in take, so
		// that the stress harness still sees every admission go through it.
		if !mutant.Is(mutant.CASAsStore) && b.TryOne(&l.limit, now) {
			if !l.uncounted {
				p := stripes.Pin()
				l.table.Tally(p, true)
				stripes.Unpin()
			}
			return true
		}
		if b.DeniesOne(&l.limit, now) {
			if !l.uncounted {
				p := stripes.Pin()
				l.table.Tally(p, false)
				stripes.Unpin()
			}
			return false
		}
		switch b.AllowFrom(&l.limit, l.clock, now, 1) {
		case atomicbucket.Allowed:
			l.count(true)
			return true
		case atomicbucket.Denied:
			l.count(false)
			return false
		}
	}
	return l.decide(st, k, 1, now, true).OK()
}

// AllowN takes n tokens for key now if it holds them. n > burst gets
// TooLarge; n < 1 is an error.
func (l *Limiter) AllowN(key string, n int) (Decision, error) {
	if n < 1 {
		return Decision{Status: atomicbucket.Invalid}, costError(n)
	}
	st, k, now := l.locate(key)
	return l.decide(st, k, int64(n), now, true), nil
}

// locate is Allow's first steps as one call, for AllowN: the key's hash (a
// key of 9 to 16 bytes in line), its stripe, and a reading of the clock,
// taken before the bucket's load as Allow takes it. Allow writes them out:
// calling locate made its hot key 0.7 ns slower on the default and the
// coarse clock, 18.40 → 19.09 and 12.75 → 13.49 ns, the floor ratio
// 1.09 → 1.15 and 1.05 → 1.13 (BenchmarkAllowPaired, eight processes of
// each build in turns; bench/runs/allow-via-locate.txt). AllowN called Of
// (and through it the hash) and then read the clock inside Take, through
// atomicbucket's readClock: with locate it took 27.9 ns against 30.8 on the
// default clock and 24.4 against 25.6 on the coarse one (BenchmarkAllowN,
// eight processes of each build in turns, 2026-11-26), for one more clock
// read on a new key (decide).
func (l *Limiter) locate(key string) (*stripe, stripes.Key, time.Duration) {
	var h uint64
	if n := len(key); n > 8 && n <= 16 {
		h = shorthash.Sum(key, l.table.Seed())
	} else {
		h = l.table.Hash(key)
	}
	var now time.Duration
	switch c := l.clock.(type) {
	case *clock.Counter:
		var ok bool
		if now, ok = c.TryNow(); !ok {
			now = c.Now()
		}
	case *clock.Coarse:
		now = c.Now()
	default:
		now = l.clock.Now()
	}
	return l.table.Stripe(h), stripes.Key{Hash: h, S: key}, now
}

// AllowAt is AllowN at an explicit time now, a reading of the limiter's
// clock (see Now). A now earlier than one the key has already seen makes
// the decision stricter, never looser, with two exceptions. The sweeper
// evicts a bucket when it is full at the sweeper's own clock reading, so a
// request whose now is older than that reading meets a new, full bucket, as
// if its now were the sweeper's. And a now earlier than the key's state by
// more than the exact horizon (see WithIdleTTL) is outside the range the
// state holds exactly: it is read as if it were later by twice the horizon,
// or a multiple of that, so the request may be admitted, whatever the key's
// decisions near that time took, and an admission moves the key's state to
// it, after which the key reads as empty at its present time for up to a
// horizon. The sweeper runs in real time: times that leap ahead of it by
// more than the horizon meet keys idle past it, which read as less full
// than they are, stricter and never looser (cmd/sluice's replay, whose
// clock leaps, moves such keys aside).
func (l *Limiter) AllowAt(key string, n int, now time.Duration) (Decision, error) {
	if n < 1 {
		return Decision{Status: atomicbucket.Invalid}, costError(n)
	}
	st, k := l.table.Of(key)
	return l.decide(st, k, int64(n), now, false), nil
}

func costError(n int) error {
	return fmt.Errorf("%w: cost %d: must be at least 1", ErrInvalid, n)
}

// decide is the full path: it creates the key's bucket when there is none
// and replaces one the sweeper evicted, or a growth moved, under it. With
// useClock, now is the caller's reading of the clock, taken just before
// this call; without, the explicit time of AllowAt.
func (l *Limiter) decide(st *stripe, key stripes.Key, cost int64, now time.Duration, useClock bool) Decision {
	b := st.LoadHome(key) // as in Allow
	if b == nil {
		b = st.Load(key)
	}
	// fresh: now was read before the bucket's load, as Allow reads it.
	fresh := b != nil
	for {
		if b == nil {
			if b, now, fresh = l.create(st, key, now, useClock); b == nil {
				st.Refused.Add(1)
				l.sweeper.Urge()
				return Decision{Status: OverCapacity}
			}
		}
		var d Decision
		switch {
		case !useClock:
			d = b.TakeAt(&l.limit, now, cost)
		case fresh:
			// The caller's reading, taken just before the bucket's load,
			// or the one the bucket was started at, taken under the
			// stripe's lock after any eviction of the key: Take's own
			// reading would add only a clock read (a stale one can only
			// be stricter, and one stale past the burst is read again).
			d = b.TakeFrom(&l.limit, l.clock, now, cost)
		default:
			// Another request made the bucket while this one waited for
			// the stripe's lock: the caller's reading is older than that
			// wait, so read the clock again.
			d = b.Take(&l.limit, l.clock, cost)
		}
		if d.Status == atomicbucket.Evicted {
			// Evicted, it was full: a new full bucket decides the same.
			// Frozen by a growth, its state is in the new table, where
			// create finds it.
			b = nil
			continue
		}
		// Count's parts in line, as in Allow: one call fewer.
		if !l.uncounted {
			p := stripes.Pin()
			l.table.Tally(p, d.Status == Allowed)
			stripes.Unpin()
		}
		return d
	}
}

// count counts a decision off Allow's fast path, unless the limiter was
// made WithoutDecisionCounts.
func (l *Limiter) count(allowed bool) {
	if !l.uncounted {
		l.table.Count(allowed)
	}
}

// create returns the key's live bucket, making it if there is none. The
// stripe runs it under its lock, so racing first requests make exactly one
// bucket, and it copies the key. It returns nil at the key cap. started
// reports whether this call made the bucket, and at is the time it was
// started at (now, unless this call made it with useClock: then a reading
// of the clock taken under the lock, after any eviction of the key, so
// that the new bucket is full no earlier than the one it replaces was).
func (l *Limiter) create(st *stripe, key stripes.Key, now time.Duration, useClock bool) (b *atomicbucket.Bucket, at time.Duration, started bool) {
	b = st.LoadOrInsert(key,
		l.table.AddKey,
		func(b *atomicbucket.Bucket) {
			if useClock {
				now = l.clock.Now()
			}
			b.Start(&l.limit, now)
			started = true
		})
	return b, now, started
}

// Wait blocks until n tokens are taken for key, or returns an error: at
// once when the context has already ended (its error; nothing is taken),
// when n is below 1 or ctx is nil (ErrInvalid), when n exceeds the burst
// (ErrNever), when the tokens would come after the context's deadline
// (ErrDeadline), or at the key cap (ErrOverCapacity); otherwise when the
// context ends.
// Wait sleeps in real time, re-deciding after each RetryAfter; waiters are
// not queued, so under contention a waiter may be overtaken. Stats counts
// each of its decisions (unless WithoutDecisionCounts): a Wait that sleeps
// once counts a denial, then an admission. Its errors never quote the key,
// which is often a credential or a user's address, and so stays out of the
// logs the errors are written to; the caller has it.
func (l *Limiter) Wait(ctx context.Context, key string, n int) error {
	if n < 1 {
		return costError(n)
	}
	if ctx == nil {
		return fmt.Errorf("%w: nil context", ErrInvalid)
	}
	var timer *time.Timer
	for {
		// A context that has ended takes nothing: not before the first
		// decision, nor when its end and the timer come together.
		if err := ctx.Err(); err != nil {
			return err
		}
		d, err := l.AllowN(key, n)
		if err != nil {
			return err
		}
		switch d.Status {
		case Allowed:
			return nil
		case TooLarge:
			return fmt.Errorf("%w: cost %d, burst %d", ErrNever, n, l.limit.Burst())
		case OverCapacity:
			return ErrOverCapacity
		}
		if dl, ok := ctx.Deadline(); ok {
			if left := time.Until(dl); left < d.RetryAfter {
				return fmt.Errorf("%w: cost %d ready in %v, the deadline in %v", ErrDeadline, n, d.RetryAfter, left)
			}
		}
		if timer == nil {
			timer = time.NewTimer(d.RetryAfter)
			defer timer.Stop()
		} else {
			timer.Reset(d.RetryAfter)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timer.C:
		}
	}
}

// Now returns the limiter's clock reading, the time base of AllowAt.
func (l *Limiter) Now() time.Duration { return l.clock.Now() }

// Burst returns the bucket capacity.
func (l *Limiter) Burst() int { return int(l.limit.Burst()) }

// Len returns the number of keys held, summed over the stripes (a read of
// each stripe's count: not for every request).
func (l *Limiter) Len() int { return int(l.table.Keys()) }

// Stats are the limiter's counters, summed over its stripes.
type Stats struct {
	Allowed   int64 // requests admitted
	Denied    int64 // requests denied (not enough tokens, or cost over burst)
	Keys      int64 // keys held now
	Evictions int64 // keys evicted by the sweeper
	Refused   int64 // requests for new keys refused at the key cap
	// Counted reports whether Allowed and Denied are kept: false for a
	// limiter made WithoutDecisionCounts, whose two read 0.
	Counted bool
}

// Stats reads the counters. Each is exact (Allowed and Denied where
// Counted); they are read one after another, so under load they describe
// slightly different instants.
func (l *Limiter) Stats() Stats {
	s := Stats{Keys: l.table.Keys(), Counted: !l.uncounted}
	s.Allowed, s.Denied = l.table.Counts()
	for i := 0; i < l.table.Len(); i++ {
		st := l.table.At(i)
		s.Evictions += st.Evictions.Load()
		s.Refused += st.Refused.Load()
	}
	return s
}

// Close stops the sweeper and waits for it. The limiter still decides
// afterwards, but no longer evicts. Close may be called more than once. A
// limiter that becomes unreachable without Close has its sweeper stopped
// once the garbage collector finds it so, but Close says when.
func (l *Limiter) Close() error {
	l.closing.Do(func() {
		l.cleanup.Stop()
		l.sweeper.Close()
	})
	return nil
}
