package stripes

import (
	"encoding/binary"
	"math/bits"
	"unsafe"
)

// The key's hash is xxHash64 with a seed: the function of xxhash's Digest
// after ResetWithSeed(seed) (TestHashIsXXHash and FuzzHashIsXXHash check
// it against the package), written here because the package's one-shot
// Sum64 takes no seed. A seed chosen at random per Table keeps keys chosen
// by a client from aiming at one stripe or one group. Seeding the hash
// itself costs nothing (the seed is only the accumulators' start), where
// the tables once mixed a seed into an unseeded hash, a multiply more
// between the key and its group: a hot 13-byte key decides 5-12% faster
// without it (bench/BENCHMARKS.md, "The seeded hash"). From key to hash this takes as long as the
// package's assembly (BenchmarkHash, hash=seeded beside hash=xxhash); on
// keys of hundreds of bytes, rare for a limiter, the assembly's block loop
// is faster (BenchmarkHash keylen=1024, mode=throughput: 106 against 89
// ns, medians of 3 here).
const (
	prime1 uint64 = 11400714785074694791
	prime2 uint64 = 14029467366897019727
	prime3 uint64 = 1609587929392839161
	prime4 uint64 = 9650029242287828579
	prime5 uint64 = 2870177450012600261
)

// hashString returns xxHash64(s) under seed. It reads s at offsets from its
// start and never forms a pointer past its end (checkptr, under -race,
// rejects one).
func hashString(s string, seed uint64) uint64 {
	p := unsafe.Pointer(unsafe.StringData(s))
	n := uintptr(len(s))
	var i uintptr
	var h uint64
	if n >= 32 {
		v1 := seed + prime1 + prime2
		v2 := seed + prime2
		v3 := seed
		v4 := seed - prime1
		for ; i+32 <= n; i += 32 {
			v1 = round(v1, load64(p, i))
			v2 = round(v2, load64(p, i+8))
			v3 = round(v3, load64(p, i+16))
			v4 = round(v4, load64(p, i+24))
		}
		h = bits.RotateLeft64(v1, 1) + bits.RotateLeft64(v2, 7) +
			bits.RotateLeft64(v3, 12) + bits.RotateLeft64(v4, 18)
		h = merge(h, v1)
		h = merge(h, v2)
		h = merge(h, v3)
		h = merge(h, v4)
	} else {
		h = seed + prime5
	}
	h += uint64(n)
	for ; i+8 <= n; i += 8 {
		h ^= round(0, load64(p, i))
		h = bits.RotateLeft64(h, 27)*prime1 + prime4
	}
	if i+4 <= n {
		h ^= uint64(load32(p, i)) * prime1
		h = bits.RotateLeft64(h, 23)*prime2 + prime3
		i += 4
	}
	for ; i < n; i++ {
		h ^= uint64(*(*byte)(unsafe.Add(p, i))) * prime5
		h = bits.RotateLeft64(h, 11) * prime1
	}
	h ^= h >> 33
	h *= prime2
	h ^= h >> 29
	h *= prime3
	h ^= h >> 32
	return h
}

// load64 and load32 read little-endian words at p+off, within the string.
func load64(p unsafe.Pointer, off uintptr) uint64 {
	return binary.LittleEndian.Uint64(unsafe.Slice((*byte)(unsafe.Add(p, off)), 8))
}

func load32(p unsafe.Pointer, off uintptr) uint32 {
	return binary.LittleEndian.Uint32(unsafe.Slice((*byte)(unsafe.Add(p, off)), 4))
}

func round(acc, in uint64) uint64 {
	acc += in * prime2
	return bits.RotateLeft64(acc, 31) * prime1
}

func merge(acc, v uint64) uint64 {
	acc ^= round(0, v)
	return acc*prime1 + prime4
}
