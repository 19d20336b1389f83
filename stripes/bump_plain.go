//go:build !race && (amd64 || arm64)

package stripes

import (
	"sync/atomic"
	"unsafe"
)

// bump adds one to a counter of the pinned P's tally, which no other
// goroutine writes. The add is a plain load and store: sync/atomic's Store
// is an XCHG on amd64, a locked instruction that waits for every earlier
// store to drain, right after the decision's CAS has drained them once.
// Counts reads the counter with atomic loads while it is written, a race
// the Go memory model bounds for a value no larger than a machine word:
// the read sees the value before the add or after it, never a mixture,
// and these processors store an aligned 8-byte word in one piece. The
// race detector would report it, so race builds, and 32-bit ones, use the
// atomic store (bump_atomic.go).
func bump(c *atomic.Int64) {
	p := (*int64)(unsafe.Pointer(c))
	*p++
}
