// Package shorthash is XXH3-64 with a seed for keys of 9 to 16 bytes, the
// lengths of most rate-limited keys (user IDs, IPv4 and IPv6 addresses,
// short API keys), written small enough to inline into a decision's path.
//
// stripes hashes every key with XXH3 (stripes/hash.go) and calls Sum for
// these lengths, so there is one implementation of them; stripes'
// TestHashIsXXH3 checks it against the reference library's vectors, and
// TestSecretWords its constants against XXH3's secret. sluice's Allow
// calls Sum directly: a call of stripes' hash, with the frame its longer
// paths need, cost a hot key's decision 0.65 ns on the default clock
// (BenchmarkAllowPaired, builds in turns). Sum does not check the length,
// which would put it past the inliner's budget: it is internal so that
// only callers that check it can reach it.
package shorthash

import "math/bits"

const (
	// Flip9to16A and Flip9to16B are XXH3's secret words 24 ^ 32 and
	// 40 ^ 48, which the first and the last 8 bytes of the key are mixed
	// with.
	Flip9to16A = 0x6782737bea4239b9
	Flip9to16B = 0xaf56bc3b0996523a

	primeMx1 = 0x165667919E3779F9
)

// Sum returns XXH3-64 of key under seed. key must be 9 to 16 bytes long:
// its first and last 8 bytes are read, which for a shorter key lie
// outside it.
func Sum(key string, seed uint64) uint64 {
	lo, hi := words(key)
	lo ^= Flip9to16A + seed
	hi ^= Flip9to16B - seed
	mh, ml := bits.Mul64(lo, hi)
	h := uint64(len(key)) + bits.ReverseBytes64(lo) + hi + (mh ^ ml)
	h = (h ^ h>>37) * primeMx1
	return h ^ h>>32
}
