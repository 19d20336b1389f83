package stripes

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"os"
	"strings"
	"testing"

	"github.com/cespare/xxhash/v2"

	"github.com/seed997/sluice/internal/shorthash"
)

var hashSink uint64

// xxh3Stream is the input of testdata/xxh3.txt: the top bytes of a 64-bit
// linear congruential generator, so that every byte of a key differs from
// its neighbours and a path that reads a wrong offset shows.
func xxh3Stream(n int) []byte {
	buf := make([]byte, n)
	var x uint64
	for i := range buf {
		x = x*6364136223846793005 + 1442695040888963407
		buf[i] = byte(x >> 56)
	}
	return buf
}

// TestHashIsXXH3 checks hashString against XXH3_64bits_withSeed as the
// reference C library computes it (testdata/xxh3.txt, written by libxxhash
// 0.8.1 through testdata/xxh3.py): every length up to 256, which takes
// each short and middle path and their edges, and lengths up to 3073 in
// the long loop, past one and two blocks of 1,024 bytes, under five seeds
// (0, 1, one with high bits set, all ones, the top bit alone), each key
// starting at a different offset of its buffer.
func TestHashIsXXH3(t *testing.T) {
	f, err := os.Open("testdata/xxh3.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := xxh3Stream(3200)
	lines, lens, seeds := 0, map[int]bool{}, map[uint64]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		var seed, want uint64
		var n int
		if _, err := fmt.Sscanf(sc.Text(), "%x %d %x", &seed, &n, &want); err != nil {
			t.Fatalf("testdata/xxh3.txt: %q: %v", sc.Text(), err)
		}
		o := n % 7
		if got := hashString(string(buf[o:o+n]), seed); got != want {
			t.Errorf("len %d seed %#x: %#x, the reference says %#x", n, seed, got, want)
		}
		// A Table passes the seed's secret, made once.
		sec := seedSecret(seed)
		if got := hashKey(string(buf[o:o+n]), seed, &sec); got != want {
			t.Errorf("len %d seed %#x, the secret made once: %#x, the reference says %#x", n, seed, got, want)
		}
		lines++
		lens[n], seeds[seed] = true, true
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for n := 0; n <= 256; n++ {
		if !lens[n] {
			t.Fatalf("testdata/xxh3.txt has no key of %d bytes", n)
		}
	}
	if !lens[3073] || len(seeds) != 5 || lines < 1500 {
		t.Fatalf("testdata/xxh3.txt: %d vectors, %d seeds, longest 3073 bytes: %v; the file is cut short", lines, len(seeds), lens[3073])
	}
}

// TestSecretWords checks the short paths' constants against the secret
// they are taken from.
func TestSecretWords(t *testing.T) {
	w := func(i int) uint64 { return binary.LittleEndian.Uint64(kSecret[i:]) }
	w32 := func(i int) uint64 { return uint64(binary.LittleEndian.Uint32(kSecret[i:])) }
	for _, c := range []struct {
		name      string
		got, want uint64
	}{
		{"flip0", flip0, w(56) ^ w(64)},
		{"flip1to3", flip1to3, w32(0) ^ w32(4)},
		{"flip4to8", flip4to8, w(8) ^ w(16)},
		{"shorthash.Flip9to16A", shorthash.Flip9to16A, w(24) ^ w(32)},
		{"shorthash.Flip9to16B", shorthash.Flip9to16B, w(40) ^ w(48)},
	} {
		if c.got != c.want {
			t.Errorf("%s = %#x, the secret gives %#x", c.name, c.got, c.want)
		}
	}
}

// FuzzHash feeds hashString any key under any seed: it must read only the
// key's bytes, so the key hashes the same wherever it lies and whatever
// bytes stand before and after it (and, run under -race, checkptr rejects
// a pointer past the end).
func FuzzHash(f *testing.F) {
	f.Add("user-1234567", uint64(0))
	f.Add("an API key much longer than one block of thirty-two bytes", uint64(1)<<63)
	f.Add(strings.Repeat("a long key past the long loop's first block ", 30), uint64(7))
	f.Fuzz(func(t *testing.T, s string, seed uint64) {
		h := hashString(s, seed)
		for _, pad := range []string{"\x00\x00\x00\x00\x00\x00\x00\x00", "\xff\xff\xff\xff\xff\xff\xff\xff"} {
			framed := pad + s + pad
			if got := hashString(framed[len(pad):len(pad)+len(s)], seed); got != h {
				t.Fatalf("%q seed %#x: %#x, and %#x between %q bytes", s, seed, h, got, pad[0])
			}
		}
	})
}

// BenchmarkHash measures what hashing a key costs a decision: the key's
// seeded XXH3 (hash=xxh3, hashKey as a Table calls it), the xxhash
// package's XXH64 (hash=xxh64, Sum64String, the key's hash until XXH3),
// and the runtime's AES hash through hash/maphash (what the benchmark
// floor's map and Go's own maps use).
// mode=throughput hashes the same key over and over, so the processor
// overlaps one hash with the next; mode=latency makes each hash's input
// depend on the previous result, as a decision's lookup depends on its
// hash, so ns/op is the time from a key to its hash (plus a shift, a mask
// and a slice of the loop's own).
func BenchmarkHash(b *testing.B) {
	seed := maphash.MakeSeed()
	sec := seedSecret(0x243F6A8885A308D3) // made once, as a Table makes it
	hashes := []struct {
		name string
		f    func(string) uint64
	}{
		{"xxh64", xxhash.Sum64String},
		{"xxh3", func(s string) uint64 { return hashKey(s, 0x243F6A8885A308D3, &sec) }},
		{"maphash", func(s string) uint64 { return maphash.String(seed, s) }},
	}
	for _, n := range []int{3, 13, 16, 32, 64, 200, 300, 1024} {
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
// key's hash is the seeded XXH3 of its bytes (what a growth recomputes).
func TestSeedPerTable(t *testing.T) {
	a, _ := New[ctr](MaxStripes)
	b, _ := New[ctr](MaxStripes)
	if a.seed == b.seed {
		t.Fatalf("two tables share the seed %#x", a.seed)
	}
	same := 0
	for i := 0; i < 64; i++ {
		k := fmt.Sprintf("user:%d", i)
		if i%8 == 0 { // past 240 bytes, where the hash uses the Table's secret
			k = fmt.Sprintf("%0300d", i)
		}
		sa, ka := a.Of(k)
		_, kb := b.Of(k)
		if ka.Hash != hashString(k, a.seed) || sa != &a.stripes[ka.Hash&a.mask] {
			t.Fatalf("Of(%q): hash %#x, want the seeded XXH3 %#x and its stripe", k, ka.Hash, hashString(k, a.seed))
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
