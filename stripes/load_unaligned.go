//go:build amd64 || arm64

package stripes

import "unsafe"

// load64 and load32 read little-endian words at p+off, within the string
// or the secret. These processors are little-endian and load unaligned
// words at full speed, so a word is read as it lies: the portable form
// (load_portable.go) makes unsafe.Slice check each address for overflow,
// two instructions and a branch a word, most of what the long loop spends.
func load64(p unsafe.Pointer, off uintptr) uint64 { return *(*uint64)(unsafe.Add(p, off)) }

func load32(p unsafe.Pointer, off uintptr) uint32 { return *(*uint32)(unsafe.Add(p, off)) }
