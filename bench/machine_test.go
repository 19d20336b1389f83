package bench

import (
	"sync/atomic"
	"testing"
)

// The two-core targets depend on the machine as much as on the limiter,
// so the suite measures the machine too, in the same run:
//
//   - BenchmarkMachine, scenario=compute: a chain of multiplies in
//     registers, serial and under RunParallel. Nothing is shared, so its
//     parallel over serial throughput is what the cores can give at all:
//     about 2 on two cores, less where a VM's two vCPUs take turns on one
//     CPU, or a neighbour takes one. It is no proof of two cores: a
//     dependent chain leaves a core room for a second hardware thread, so
//     one core's two threads may read near 2 too (not measured here: no
//     machine this suite ran on exposed such a pair).
//   - handoff-ns, a metric of every parallel benchmark of the suite: the
//     time to hand a cache line from one core to the other
//     (internal/machine's Handoff, which the root package's
//     BenchmarkAllowKeysSharing reports too), measured just
//     before and just after that benchmark's timed loop, the slower of the
//     two (the machine can change mode within a benchmark). A decision
//     whose bucket's line the other core wrote last pays about that (a
//     load that misses to the other core's cache, then the CAS), as on
//     1,000 keys shared by two cores about half the time. On the
//     development VM it is 23-34 ns most of the time and 159-207 ns in
//     stretches of seconds, within one run (bench/BENCHMARKS.md).

// BenchmarkMachine measures the machine's arithmetic alone, serial and
// parallel (see above).
func BenchmarkMachine(b *testing.B) {
	for _, mode := range []string{"serial", "parallel"} {
		b.Run("scenario=compute/impl=control/mode="+mode, func(b *testing.B) {
			if mode == "serial" {
				x := uint64(1)
				for i := 0; i < b.N; i++ {
					x = compute(x)
				}
				machineSink.Add(x)
				return
			}
			b.RunParallel(func(pb *testing.PB) {
				x := uint64(1)
				for pb.Next() {
					x = compute(x)
				}
				machineSink.Add(x)
			})
		})
	}
}

// machineSink keeps the compute loops' results alive.
var machineSink atomic.Uint64

// compute is a dependent chain of eight multiply-xorshift steps, a few ns.
func compute(x uint64) uint64 {
	for range 8 {
		x = x*0x9E3779B97F4A7C15 + 1
		x ^= x >> 29
	}
	return x
}
