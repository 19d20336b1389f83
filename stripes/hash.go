package stripes

import (
	"encoding/binary"
	"math/bits"
	"unsafe"

	"github.com/seed997/sluice/internal/shorthash"
)

// The key's hash is XXH3-64 with a seed (XXH3_64bits_withSeed), the
// xxHash family's 64-bit function for short inputs. TestHashIsXXH3 checks it
// against vectors that the reference C library wrote (testdata/xxh3.txt).
// A seed chosen at random per Table keeps keys chosen by a client from
// aiming at one stripe or one group; seeding costs nothing, the seed only
// offsets the constants the key is mixed with.
//
// Until this hash, the key's hash was xxHash64 (what the xxhash package
// computes). For the keys a limiter sees, a few to a few dozen bytes,
// XXH64 is a chain of five to eight dependent multiplies from the key to
// the hash, where XXH3 mixes a key of up to 16 bytes with one 128-bit
// multiply and ends with one more: from key to hash (BenchmarkHash,
// mode=latency) a 13-byte key took 12 ns with XXH64 and takes 6 with
// XXH3, and a decision on a hot key is faster by about as much
// (bench/HISTORY.md, "XXH3").
const (
	prime32_1 uint64 = 0x9E3779B1
	prime32_2 uint64 = 0x85EBCA77
	prime32_3 uint64 = 0xC2B2AE3D
	prime64_1 uint64 = 0x9E3779B185EBCA87
	prime64_2 uint64 = 0xC2B2AE3D27D4EB4F
	prime64_3 uint64 = 0x165667B19E3779F9
	prime64_4 uint64 = 0x85EBCA77C2B2AE63
	prime64_5 uint64 = 0x27D4EB2F165667C5
	primeMx1  uint64 = 0x165667919E3779F9
	primeMx2  uint64 = 0x9FB21C651E98DF25
)

// kSecret is XXH3's default secret. The short paths use pairs of its words
// xored together, written below as constants (TestSecretWords checks them).
var kSecret = [secretSize]byte{
	0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c,
	0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb, 0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f,
	0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21,
	0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6, 0x81, 0x3a, 0x26, 0x4c,
	0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb, 0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53, 0x2e, 0xa3,
	0x71, 0x64, 0x48, 0x97, 0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8,
	0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9, 0xdc, 0xbb, 0xc7, 0xc7, 0x0b, 0x4f, 0x1d,
	0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31, 0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64,
	0xea, 0xc5, 0xac, 0x83, 0x34, 0xd3, 0xeb, 0xc3, 0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb,
	0x17, 0x0d, 0xdd, 0x51, 0xb7, 0xf0, 0xda, 0x49, 0xd3, 0x16, 0x55, 0x26, 0x29, 0xd4, 0x68, 0x9e,
	0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47, 0xa1, 0xfc, 0x8f, 0xf8, 0xb8, 0xd1, 0x7a, 0xd0, 0x31, 0xce,
	0x45, 0xcb, 0x3a, 0x8f, 0x95, 0x16, 0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb, 0x4b, 0x40, 0x7e,
}

const (
	secretSize = 192
	flip0      = 0x8726f9105dc21ddc // words 56 ^ 64: the empty key
	flip1to3   = 0x87275a9b         // 32-bit words 0 ^ 4: keys of 1 to 3 bytes
	flip4to8   = 0xc73ab174c5ecd5a2 // words 8 ^ 16: keys of 4 to 8 bytes
	// Keys of 9 to 16 bytes: shorthash.Flip9to16A and Flip9to16B.

	stripeLen    = 64 // bytes of input per stripe of the long loop
	stripesBlock = (secretSize - stripeLen) / 8
	blockLen     = stripeLen * stripesBlock

	// Offsets into the secret that the specification names.
	midStart   = 3                          // keys of 129 to 240 bytes: where the lanes past the eighth start
	midLast    = 136 - 17                   // and the last 16 bytes' (the minimum secret size less 17)
	lastStripe = secretSize - stripeLen - 7 // the long loop's last stripe
	mergeStart = 11                         // the long loop's final merge
)

// hashString returns XXH3-64 of s under seed; a key over 240 bytes derives
// the seed's secret on the stack. It reads s at offsets from its start and
// never forms a pointer past its end (checkptr, under -race, rejects one).
func hashString(s string, seed uint64) uint64 { return hashKey(s, seed, nil) }

// hashKey is hashString with the seed's secret (seedSecret) made once, by
// the Table, for the long loop; nil derives it on the stack.
func hashKey(s string, seed uint64, sec *[secretSize]byte) uint64 {
	p := unsafe.Pointer(unsafe.StringData(s))
	n := uintptr(len(s))
	switch {
	case n > 16:
		return hashMid(p, n, seed, sec)
	case n > 8:
		return shorthash.Sum(s, seed)
	case n >= 4:
		seed ^= uint64(bits.ReverseBytes32(uint32(seed))) << 32
		x := (uint64(load32(p, n-4)) | uint64(load32(p, 0))<<32) ^ (flip4to8 - seed)
		x ^= bits.RotateLeft64(x, 49) ^ bits.RotateLeft64(x, 24)
		x *= primeMx2
		x ^= (x >> 35) + uint64(n)
		x *= primeMx2
		return x ^ x>>28
	case n > 0:
		c := uint64(*(*byte)(p))<<16 | uint64(*(*byte)(unsafe.Add(p, n>>1)))<<24 |
			uint64(*(*byte)(unsafe.Add(p, n-1))) | uint64(n)<<8
		return avalanche64(c ^ (flip1to3 + seed))
	}
	return avalanche64(seed ^ flip0)
}

// hashMid hashes keys longer than 16 bytes: pairs of 16-byte lanes from
// both ends up to 128 bytes, every lane up to 240, the long loop past.
func hashMid(p unsafe.Pointer, n uintptr, seed uint64, sec *[secretSize]byte) uint64 {
	if n > 240 {
		if sec == nil {
			derived := seedSecret(seed)
			sec = &derived
		}
		return hashLong(p, n, sec)
	}
	acc := uint64(n) * prime64_1
	if n <= 128 {
		if n > 32 {
			if n > 64 {
				if n > 96 {
					acc += mix16(p, 48, 96, seed)
					acc += mix16(p, n-64, 112, seed)
				}
				acc += mix16(p, 32, 64, seed)
				acc += mix16(p, n-48, 80, seed)
			}
			acc += mix16(p, 16, 32, seed)
			acc += mix16(p, n-32, 48, seed)
		}
		acc += mix16(p, 0, 0, seed)
		acc += mix16(p, n-16, 16, seed)
		return avalanche(acc)
	}
	for i := uintptr(0); i < 8; i++ {
		acc += mix16(p, 16*i, int(16*i), seed)
	}
	acc = avalanche(acc)
	for i := uintptr(8); i < n/16; i++ {
		acc += mix16(p, 16*i, int(16*(i-8))+midStart, seed)
	}
	acc += mix16(p, n-16, midLast, seed)
	return avalanche(acc)
}

// seedSecret is the secret XXH3's long loop uses under seed: the default
// secret with the seed added to the first word of each 16 bytes and taken
// from the second (the default itself for seed 0).
func seedSecret(seed uint64) [secretSize]byte {
	secret := kSecret
	for i := 0; i < secretSize; i += 16 {
		binary.LittleEndian.PutUint64(secret[i:], secretWord(i)+seed)
		binary.LittleEndian.PutUint64(secret[i+8:], secretWord(i+8)-seed)
	}
	return secret
}

// hashLong is XXH3's loop for keys over 240 bytes, rare for a limiter,
// under the seed's secret.
func hashLong(p unsafe.Pointer, n uintptr, secret *[secretSize]byte) uint64 {
	sp := unsafe.Pointer(secret)
	acc := [8]uint64{prime32_3, prime64_1, prime64_2, prime64_3, prime64_4, prime32_2, prime64_5, prime32_1}
	blocks := (n - 1) / blockLen
	for b := uintptr(0); b < blocks; b++ {
		accumulate(&acc, p, b*blockLen, sp, stripesBlock)
		// Scramble the accumulators with the secret's last stripe.
		for i := range acc {
			a := acc[i]
			a ^= a >> 47
			a ^= load64(sp, secretSize-stripeLen+8*uintptr(i))
			acc[i] = a * prime32_1
		}
	}
	accumulate(&acc, p, blocks*blockLen, sp, ((n-1)-blocks*blockLen)/stripeLen)
	accumulate(&acc, p, n-stripeLen, unsafe.Add(sp, lastStripe), 1)
	h := uint64(n) * prime64_1
	for i := uintptr(0); i < 4; i++ {
		h += fold(acc[2*i]^load64(sp, mergeStart+16*i), acc[2*i+1]^load64(sp, mergeStart+16*i+8))
	}
	return avalanche(h)
}

// accumulate adds the stripes of 64 bytes from p+off on to acc, the s-th
// keyed by the secret's bytes from sec+8s. The accumulators are held in
// locals, so that the loop keeps them in registers (an offset past the
// end is formed, never a pointer: checkptr rejects one).
func accumulate(acc *[8]uint64, p unsafe.Pointer, off uintptr, sec unsafe.Pointer, stripes uintptr) {
	a0, a1, a2, a3, a4, a5, a6, a7 := acc[0], acc[1], acc[2], acc[3], acc[4], acc[5], acc[6], acc[7]
	for ko := uintptr(0); ko < 8*stripes; ko += 8 {
		v, w := load64(p, off+0), load64(p, off+8)
		x, y := v^load64(sec, ko+0), w^load64(sec, ko+8)
		a1 += v + (y&0xffffffff)*(y>>32)
		a0 += w + (x&0xffffffff)*(x>>32)
		v, w = load64(p, off+16), load64(p, off+24)
		x, y = v^load64(sec, ko+16), w^load64(sec, ko+24)
		a3 += v + (y&0xffffffff)*(y>>32)
		a2 += w + (x&0xffffffff)*(x>>32)
		v, w = load64(p, off+32), load64(p, off+40)
		x, y = v^load64(sec, ko+32), w^load64(sec, ko+40)
		a5 += v + (y&0xffffffff)*(y>>32)
		a4 += w + (x&0xffffffff)*(x>>32)
		v, w = load64(p, off+48), load64(p, off+56)
		x, y = v^load64(sec, ko+48), w^load64(sec, ko+56)
		a7 += v + (y&0xffffffff)*(y>>32)
		a6 += w + (x&0xffffffff)*(x>>32)
		off += stripeLen
	}
	acc[0], acc[1], acc[2], acc[3], acc[4], acc[5], acc[6], acc[7] = a0, a1, a2, a3, a4, a5, a6, a7
}

// mix16 mixes the 16 bytes at p+off with the secret's at so and the seed.
func mix16(p unsafe.Pointer, off uintptr, so int, seed uint64) uint64 {
	return fold(load64(p, off)^(secretWord(so)+seed), load64(p, off+8)^(secretWord(so+8)-seed))
}

func secretWord(i int) uint64 { return binary.LittleEndian.Uint64(kSecret[i:]) }

// fold is the 128-bit product of a and b, its halves xored together.
func fold(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

func avalanche(h uint64) uint64 {
	h ^= h >> 37
	h *= primeMx1
	return h ^ h>>32
}

// avalanche64 is XXH64's final mix, which XXH3 keeps for keys of 0 to 3
// bytes.
func avalanche64(h uint64) uint64 {
	h ^= h >> 33
	h *= prime64_2
	h ^= h >> 29
	h *= prime64_3
	return h ^ h>>32
}
