//go:build race || !(amd64 || arm64)

package stripes

import "sync/atomic"

// bump adds one to a counter of the pinned P's tally, which no other
// goroutine writes: an atomic load and store, which the race detector
// sees as synchronized with Counts' loads (see bump_plain.go).
func bump(c *atomic.Int64) { c.Store(c.Load() + 1) }
