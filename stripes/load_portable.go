//go:build !(amd64 || arm64)

package stripes

import (
	"encoding/binary"
	"unsafe"
)

// load64 and load32 read little-endian words at p+off, within the string
// or the secret, on any byte order and alignment.
func load64(p unsafe.Pointer, off uintptr) uint64 {
	return binary.LittleEndian.Uint64(unsafe.Slice((*byte)(unsafe.Add(p, off)), 8))
}

func load32(p unsafe.Pointer, off uintptr) uint32 {
	return binary.LittleEndian.Uint32(unsafe.Slice((*byte)(unsafe.Add(p, off)), 4))
}
