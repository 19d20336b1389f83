package stripes

import (
	"fmt"
	"hash/maphash"
	"testing"

	"github.com/cespare/xxhash/v2"
)

var hashSink uint64

// BenchmarkHash measures what hashing a key costs a decision: the key's
// xxhash, which picks the stripe, beside the runtime's AES hash through
// hash/maphash (what the benchmark floor's map and Go's own maps use).
// mode=throughput hashes the same key over and over, so the processor
// overlaps one hash with the next; mode=latency makes each hash's input
// depend on the previous result, as a decision's lookup depends on its
// hash, so ns/op is the time from a key to its hash (plus a shift, a mask
// and a slice of the loop's own).
func BenchmarkHash(b *testing.B) {
	seed := maphash.MakeSeed()
	hashes := []struct {
		name string
		f    func(string) uint64
	}{
		{"xxhash", xxhash.Sum64String},
		{"maphash", func(s string) uint64 { return maphash.String(seed, s) }},
	}
	for _, n := range []int{3, 13, 16, 32} {
		// One byte longer than n, so that the latency loop can start its
		// slice at 0 or 1 and keep n bytes.
		buf := make([]byte, n+1)
		for i := range buf {
			buf[i] = byte('a' + i%26)
		}
		s := string(buf)
		for _, h := range hashes {
			b.Run(fmt.Sprintf("hash=%s/keylen=%d/mode=throughput", h.name, n), func(b *testing.B) {
				var sum uint64
				for i := 0; i < b.N; i++ {
					sum += h.f(s[:n])
				}
				hashSink = sum
			})
			b.Run(fmt.Sprintf("hash=%s/keylen=%d/mode=latency", h.name, n), func(b *testing.B) {
				var x uint64
				for i := 0; i < b.N; i++ {
					o := x >> 63
					x = h.f(s[o : o+uint64(n)])
				}
				hashSink = x
			})
		}
	}
}
