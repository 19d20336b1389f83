// Package oracle is the reference token bucket that tests hold the engine
// to: a token count in exact rationals (math/big), written in the obvious
// way and sharing nothing with the engine's GCRA arithmetic.
package oracle

import (
	"math/big"
	"time"
)

// Bucket is one key's exact bucket. Times passed to Take must not decrease.
type Bucket struct {
	rate   *big.Rat // tokens per nanosecond
	burst  *big.Rat
	tokens *big.Rat
	last   time.Duration
}

// New returns a full bucket at time start.
func New(n int64, per time.Duration, burst int64, start time.Duration) *Bucket {
	b := big.NewRat(burst, 1)
	return &Bucket{rate: big.NewRat(n, int64(per)), burst: b, tokens: new(big.Rat).Set(b), last: start}
}

// Result is what the engine must report for one request.
type Result struct {
	OK         bool
	Remaining  int64
	RetryAfter time.Duration
	ResetAfter time.Duration
}

// FullAt reports whether the bucket, left alone, is full at t (not before
// the last Take).
func (b *Bucket) FullAt(t time.Duration) bool {
	if b.tokens.Cmp(b.burst) >= 0 {
		return true
	}
	dt := new(big.Rat).SetInt64(int64(t - b.last))
	dt.Mul(dt, b.rate)
	return dt.Add(dt, b.tokens).Cmp(b.burst) >= 0
}

// Take refills to now, then takes cost tokens if they are there.
func (b *Bucket) Take(now time.Duration, cost int64) Result {
	if now > b.last {
		dt := new(big.Rat).SetInt64(int64(now - b.last))
		b.tokens.Add(b.tokens, dt.Mul(dt, b.rate))
		if b.tokens.Cmp(b.burst) > 0 {
			b.tokens.Set(b.burst)
		}
		b.last = now
	}
	c := big.NewRat(cost, 1)
	var r Result
	if b.tokens.Cmp(c) >= 0 {
		b.tokens.Sub(b.tokens, c)
		r.OK = true
	} else {
		r.RetryAfter = b.until(new(big.Rat).Sub(c, b.tokens))
	}
	r.Remaining = floor(b.tokens)
	r.ResetAfter = b.until(new(big.Rat).Sub(b.burst, b.tokens))
	return r
}

// until is the time, rounded up to whole nanoseconds, to gain x tokens.
func (b *Bucket) until(x *big.Rat) time.Duration {
	t := new(big.Rat).Quo(x, b.rate)
	q, m := new(big.Int).QuoRem(t.Num(), t.Denom(), new(big.Int))
	if m.Sign() > 0 {
		q.Add(q, big.NewInt(1))
	}
	return time.Duration(q.Int64())
}

func floor(x *big.Rat) int64 {
	return new(big.Int).Quo(x.Num(), x.Denom()).Int64() // x >= 0 here
}
