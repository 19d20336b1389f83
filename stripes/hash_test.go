package stripes

import (
	"fmt"
	"hash/maphash"
	"testing"

	"github.com/cespare/xxhash/v2"
)

var hashSink uint64

// TestHashIsXXHash checks hashString against the xxhash package, every
// length up to three blocks and a tail, seed 0 (Sum64) and seeds that set
// high bits and wrap the accumulators' starting values.
func TestHashIsXXHash(t *testing.T) {
	buf := make([]byte, 100)
	for i := range buf {
		buf[i] = byte(i*131 + 7)
	}
	for _, seed := range []uint64{0, 1, 0x243F6A8885A308D3, ^uint64(0), prime1} {
		for n := 0; n <= len(buf); n++ {
			s := string(buf[:n])
			want := xxhash.NewWithSeed(seed)
			want.WriteString(s)
			if got := hashString(s, seed); got != want.Sum64() {
				t.Fatalf("len %d seed %#x: %#x, xxhash says %#x", n, seed, got, want.Sum64())
			}
			if seed == 0 && hashString(s, 0) != xxhash.Sum64String(s) {
				t.Fatalf("len %d: differs from Sum64String", n)
			}
		}
	}
}

// FuzzHashIsXXHash checks hashString against the xxhash package on any
// key and seed.
func FuzzHashIsXXHash(f *testing.F) {
	f.Add("user-1234567", uint64(0))
	f.Add("an API key much longer than one block of thirty-two bytes", uint64(1)<<63)
	f.Fuzz(func(t *testing.T, s string, seed uint64) {
		want := xxhash.NewWithSeed(seed)
		want.WriteString(s)
		if got := hashString(s, seed); got != want.Sum64() {
			t.Fatalf("%q seed %#x: %#x, xxhash says %#x", s, seed, got, want.Sum64())
		}
	})
}

// BenchmarkHash measures what hashing a key costs a decision: the key's
// seeded xxhash (hash=seeded, hashString, which picks the stripe), the
// xxhash package's unseeded Sum64String, and the runtime's AES hash
// through hash/maphash (what the benchmark floor's map and Go's own maps
// use).
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
		{"seeded", func(s string) uint64 { return hashString(s, 0x243F6A8885A308D3) }},
		{"maphash", func(s string) uint64 { return maphash.String(seed, s) }},
	}
	for _, n := range []int{3, 13, 16, 32, 1024} {
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

// TestSeedPerTable: each Table hashes with a seed of its own, so a set of
// keys that one limiter sends to one stripe is spread by another, and the
// key's hash is the seeded xxhash of its bytes (what a growth recomputes).
func TestSeedPerTable(t *testing.T) {
	a, _ := New[ctr](MaxStripes)
	b, _ := New[ctr](MaxStripes)
	if a.seed == b.seed {
		t.Fatalf("two tables share the seed %#x", a.seed)
	}
	same := 0
	for i := 0; i < 64; i++ {
		k := fmt.Sprintf("user:%d", i)
		sa, ka := a.Of(k)
		_, kb := b.Of(k)
		if ka.Hash != hashString(k, a.seed) || sa != &a.stripes[ka.Hash&a.mask] {
			t.Fatalf("Of(%q): hash %#x, want the seeded xxhash %#x and its stripe", k, ka.Hash, hashString(k, a.seed))
		}
		// The same stripe in both tables by chance: 1 in 65536.
		if ka.Hash&a.mask == kb.Hash&b.mask {
			same++
		}
	}
	if same > 2 {
		t.Fatalf("%d of 64 keys in the same stripe of two tables", same)
	}
}
