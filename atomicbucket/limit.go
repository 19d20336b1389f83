// Package atomicbucket holds one key's token bucket as a single uint64 that
// a compare-and-swap loop updates, and a mutex implementation of the same
// contract as a baseline.
//
// # Exact rates
//
// A limit of n tokens per period d is reduced by g = gcd(n, d in ns) to
// n' = n/g and d' = d/g. Time is counted in units of 1/n' nanosecond, so one
// token is exactly d' units: Per(7, time.Second) is 1e9 units per token with
// a 1/7 ns unit, and no rounding ever happens. A cost c is c·d' units; the
// bucket holds burst·d' units (tau).
//
// # State
//
// The state is GCRA's theoretical arrival time (TAT): the instant, in units,
// at which the bucket will be full again. tokens(now) = (tau − (TAT − now))/d'.
// A request takes c tokens iff max(TAT−now, 0) + c·d' <= tau, and then
// TAT = max(TAT, now) + c·d'. TAT only grows, so an earlier or stale now can
// only make a decision stricter (within the horizon, below).
//
// Decades of uptime at 1/n' ns resolution do not fit in 64 bits, so TAT is
// kept modulo 2^63 and only the offset TAT−now is ever read, as a signed
// 63-bit number. That offset is exact while it stays within ±2^62 units:
// Horizon() = 2^62/n' ns, which is 146 years for n' = 1 and 73 minutes for
// the largest allowed n' (2^20). A fresh now sees an offset of at most tau
// (a larger one makes Take read the clock again); a full bucket's offset
// falls by the idle time, and the sweeper evicts full buckets long before it
// reaches -Horizon. A bucket left idle past the horizon reads as less full
// than it is: stricter, never looser. An explicit time earlier than the
// state by more than the horizon reads the offset wrapped, as if the time
// were a multiple of 2^63 units later, and may be admitted, whatever was
// taken near that time before; the state then moves to it
// (TestEarlierPastHorizon). Bit 63 marks an evicted bucket (the tombstone).
package atomicbucket

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"time"

	"github.com/seed997/sluice/internal/mutant"
)

const (
	tombstone uint64 = 1 << 63
	tatMask   uint64 = tombstone - 1 // TAT lives in the low 63 bits, modulo 2^63
	half      int64  = 1 << 62       // offsets are signed 63-bit: [-2^62, 2^62)
	quarter   uint64 = 1 << 60       // how far back a new bucket's TAT is set

	// MaxUnit is the largest reduced rate numerator n' = n/gcd(n, d): the
	// time unit is 1/n' ns and the horizon 2^62/n' ns, which this keeps
	// above 73 minutes, so that a stale time or an idle key is read exactly.
	MaxUnit = 1 << 20
	// MaxTolerance bounds burst·d' in units, leaving at least 2^61 units of
	// the signed offset range for staleness and idleness.
	MaxTolerance = 1 << 61
)

// ErrInvalid is wrapped by every configuration error.
var ErrInvalid = errors.New("sluice: invalid argument")

// Limit is a validated rate and burst in the bucket's exact units. It is
// immutable; one Limit is shared by every bucket of a limiter.
type Limit struct {
	unit  uint64 // units per nanosecond (n')
	token int64  // units per token (d')
	burst int64
	tau   int64 // burst·token: units the full bucket holds
	// slack is 2·(tau − token): one token is admitted iff twice the
	// offset TAT − now is at most this (see TryOne).
	slack int64
}

// NewLimit validates n tokens per period per with the given burst.
func NewLimit(n int64, per time.Duration, burst int64) (Limit, error) {
	switch {
	case n < 1:
		return Limit{}, fmt.Errorf("%w: rate count %d: must be at least 1", ErrInvalid, n)
	case per < 1:
		return Limit{}, fmt.Errorf("%w: rate period %v: must be at least 1ns", ErrInvalid, per)
	case burst < 1:
		return Limit{}, fmt.Errorf("%w: burst %d: must be at least 1", ErrInvalid, burst)
	}
	g := gcd(n, int64(per))
	unit, step := n/g, int64(per)/g
	if mutant.Is(mutant.RoundedRefill) && int64(per) >= n {
		unit, step = 1, int64(per)/n // deliberate bug: whole nanoseconds per token
	}
	if unit > MaxUnit {
		return Limit{}, fmt.Errorf("%w: rate %d per %v reduces to %d per %dns; "+
			"the reduced count %d exceeds %d, beyond which 64-bit state cannot stay exact "+
			"(round the count, or express it over a shorter period)",
			ErrInvalid, n, per, unit, step, unit, MaxUnit)
	}
	hi, tau := bits.Mul64(uint64(burst), uint64(step))
	if hi != 0 || tau > MaxTolerance {
		return Limit{}, fmt.Errorf("%w: burst %d at %d per %v spans more than 2^61 time units "+
			"(burst × period / count is too long to track exactly)", ErrInvalid, burst, n, per)
	}
	return Limit{unit: uint64(unit), token: step, burst: burst, tau: int64(tau),
		slack: 2 * (int64(tau) - step)}, nil
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// Burst returns the bucket's capacity in tokens.
func (l *Limit) Burst() int64 { return l.burst }

// Horizon is how far TAT−now may stray, either way, and still be read
// exactly: an explicit time earlier than a key's last decision by more than
// this, or a key left full and unswept for longer, is outside the exact range.
func (l *Limit) Horizon() time.Duration { return time.Duration(half / int64(l.unit)) }

// vnow converts a clock reading to units modulo 2^63. The multiplication may
// wrap: only differences of these values are read, and they survive it.
func (l *Limit) vnow(now time.Duration) uint64 { return uint64(now) * l.unit & tatMask }

// fresh is the state of a bucket made at now: full, and full at any earlier
// time too (its TAT a quarter of the horizon back). A request whose now is
// older than its creator's (it read the clock first, or passed an older
// time to AllowAt) then meets a full bucket, as it would had it come first;
// a bucket full only from now on would charge it for the gap, a history no
// sequential order of the requests explains. The stress harness's
// linearizability check found this.
func (l *Limit) fresh(now time.Duration) uint64 { return (l.vnow(now) - quarter) & tatMask }

// offset returns TAT − now in units as a signed 63-bit number.
func offset(state, vnow uint64) int64 {
	return int64((state-vnow)<<1) >> 1 // sign-extend bit 62
}

// step is the whole decision, shared by both bucket implementations. It
// returns the new state when the request is admitted, and base (the backlog
// max(TAT−now, 0) before the request) and need (base + cost) for describe.
func (l *Limit) step(state uint64, now time.Duration, cost int64) (next uint64, ok bool, base, need int64) {
	v := l.vnow(now)
	base = max(offset(state, v), 0)
	need = base + cost*l.token // < 2^62 + 2^61: no overflow
	if need > l.tau {
		return state, false, base, need
	}
	return (v + uint64(need)) & tatMask, true, base, need
}

// checkCost classifies a cost before any state is touched.
func (l *Limit) checkCost(cost int64) Status {
	if uint64(cost-1) < uint64(l.burst) { // 1 <= cost <= burst in one compare
		return Allowed
	}
	if cost < 1 {
		return Invalid
	}
	return TooLarge
}

// describe turns the outcome of step into a Decision.
func (l *Limit) describe(st Status, base, need int64) Decision {
	d := Decision{Status: st}
	switch st {
	case Allowed:
		d.Remaining = (l.tau - need) / l.token
		d.ResetAfter = l.duration(need)
	case Denied:
		d.Remaining = max(l.tau-base, 0) / l.token
		d.RetryAfter = l.duration(need - l.tau)
		d.ResetAfter = l.duration(base)
	}
	return d
}

// duration converts units to nanoseconds, rounding up so that a caller who
// waits that long is never early.
func (l *Limit) duration(units int64) time.Duration {
	u := int64(l.unit)
	return time.Duration((units + u - 1) / u)
}

// idle reports whether a bucket in state has been full for at least d.
func (l *Limit) idle(state uint64, now, d time.Duration) bool {
	d = min(max(d, 0), l.Horizon())
	return offset(state, l.vnow(now)) <= -int64(d)*int64(l.unit)
}

// refund returns the state with up to tokens given back, never beyond full.
func (l *Limit) refund(state uint64, now time.Duration, tokens int64) uint64 {
	v := l.vnow(now)
	s := offset(state, v)
	if s <= 0 {
		return state // already full
	}
	give := int64(math.MaxInt64)
	if tokens <= l.burst {
		give = tokens * l.token
	}
	return (v + uint64(max(s-give, 0))) & tatMask
}
