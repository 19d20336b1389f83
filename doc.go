// Package sluice is a per-key rate limiter for the hot path: a token bucket
// per key, exact to the token at any rational rate, decided by one
// compare-and-swap on one uint64, with idle keys evicted in the background
// without ever changing a decision.
//
// # Model
//
// Each key has a bucket of burst tokens, refilled at exactly n tokens per
// period (Per(n, period)), starting full. A request of cost c is admitted iff
// the bucket holds at least c tokens, and then takes them. Over any interval
// of length t a key never gets more than burst + floor(n·t/period) tokens,
// and under saturating demand it gets that many, up to the clock's
// resolution (a full bucket cannot bank the fraction of a nanosecond until
// the next reading). Refill is computed at decision time; no timer runs per
// key.
//
// A request whose cost exceeds the burst can never succeed: it gets
// TooLarge at once. Bad configuration and costs below 1 are errors that
// start with "sluice:"; nothing on the call path panics.
//
// # Time
//
// Allow and AllowN read the limiter's clock: by default clock.Default(),
// the processor's time-stamp counter scaled to the runtime's monotonic
// clock where the counter can stand in for it (clock.Counter), clock.Mono
// elsewhere; or a clock.Mono, clock.Coarse or clock.Manual given with
// WithClock. AllowAt takes the time explicitly, for tests, replays and
// callers deciding many keys at one instant; the time must be a reading of
// the limiter's clock (Limiter.Now). An earlier time than a key has already
// seen makes a decision stricter, never looser, while it is within the
// limiter's exact horizon of the key's state (see Limiter.AllowAt).
//
// # Memory
//
// A key costs a slot of its stripe's table, which holds its uint64 state
// and, up to 16 bytes, the key itself: about 50 bytes a key at 1M keys, or
// 34 besides the key's own bytes (BenchmarkMemory); a longer key is
// copied beside the table, and costs about 64 besides its copy. A key
// whose bucket has been full for the idle TTL (WithIdleTTL) is evicted; it
// comes back full on its next request, exactly as if it had stayed.
// WithMaxKeys caps the number of keys against forged-key floods: at the
// cap, a request for a new key is refused with OverCapacity and counted in
// Stats.Refused, and the keys held are decided as usual. The cap makes
// the sweeper evict the keys idle for the TTL at once rather than on its
// walk, and nothing else: a key used within the TTL is never evicted to
// make room, so a flood can fill the room that idle keys leave, but never
// push out a user between two requests, whose next request would then be
// a new key at a full cap. Refusing, rather than evicting a key that still
// owes tokens, is the only policy that never admits more than the limit;
// the TTL says how soon room comes back after a flood.
//
// # Counts
//
// Stats reads exact counts of the decisions made, kept per P (the
// runtime's processor) so that cores never share a counter's line. A
// count costs a hot key's decision 0.4–2.7 ns here (two calls into the
// runtime to pin the P), up to 3.8 in an occasional process whose lines
// fall at unlucky offsets in their pages; a limiter made
// WithoutDecisionCounts skips it, and its Stats reports Counted false.
package sluice
