package stripes

import "unsafe"

// prefetch asks the processor to bring p's cache line into its caches,
// without waiting for it (PREFETCHT0, part of SSE, which every amd64
// processor has). It is a hint: it changes no memory, and is not ordered
// with the locked instructions that follow it, so the line can arrive
// while a lock is taken.
func prefetch(p unsafe.Pointer)
