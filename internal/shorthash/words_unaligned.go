//go:build amd64 || arm64

package shorthash

import "unsafe"

// words returns the first and the last 8 bytes of key, little-endian, as
// they lie: these processors are little-endian and load unaligned words at
// full speed (as stripes' load64).
func words(key string) (first, last uint64) {
	p := unsafe.Pointer(unsafe.StringData(key))
	return *(*uint64)(p), *(*uint64)(unsafe.Add(p, len(key)-8))
}
