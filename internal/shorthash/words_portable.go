//go:build !(amd64 || arm64)

package shorthash

import (
	"encoding/binary"
	"unsafe"
)

// words returns the first and the last 8 bytes of key, little-endian, on
// any byte order and alignment.
func words(key string) (first, last uint64) {
	b := unsafe.Slice(unsafe.StringData(key), len(key))
	return binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[len(b)-8:])
}
