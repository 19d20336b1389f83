package bench

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/cpu"
)

// BenchmarkMachine measures the machine, not a limiter: the two things
// that decide the two-core target, measured in the same run as it, so
// that a reader can tell a limiter's shortfall from the machine's.
//
//   - scenario=compute: a chain of multiplies in registers, serial and
//     under RunParallel. Nothing is shared, so parallel over serial
//     throughput is what two cores can give at all here: about 2 where
//     they are two cores, less where the VM's two vCPUs share one (or a
//     neighbour takes one).
//   - scenario=handoff: two goroutines hand one cache line back and forth,
//     each waiting to see the other's write and then writing it; an op is
//     one handoff: a read that misses to the other core's cache, then a
//     write that takes the line back. That is what a decision pays when
//     its bucket's line was last written by the other core (a load, then
//     the CAS), as on 1,000 keys shared by two cores about half the time.
//     It needs two Ps and is skipped at GOMAXPROCS 1.
func BenchmarkMachine(b *testing.B) {
	// No limiter of the suite's may run meanwhile: a sweeper or a coarse
	// clock's goroutine waking would wait for a P that a spinning
	// goroutine holds, and stall the other one's turns.
	if cache.p != nil {
		cache.p.close()
		cache.p, cache.name = nil, ""
	}
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
	b.Run("scenario=handoff/impl=control/mode=parallel", func(b *testing.B) {
		if runtime.GOMAXPROCS(0) < 2 {
			// Skipped, it still prints a result line, "0 NaN ns/op",
			// which the report ignores.
			b.Skip("a handoff needs two Ps: GOMAXPROCS is 1")
		}
		handoff(b.N, b.ResetTimer)
	})
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

// handoff passes a turn n times between two goroutines through one cache
// line, calling start (the benchmark's ResetTimer) once both are ready and
// returning when the last pass is made. Each goroutine spins on the line until the
// turn is its own, then writes the next turn: every pass is one read that
// finds the line in the other core's cache and one write that takes it.
func handoff(n int, start func()) {
	var line struct {
		_    cpu.CacheLinePad
		turn atomic.Int64
		_    cpu.CacheLinePad
	}
	var ready, done sync.WaitGroup
	ready.Add(2)
	done.Add(2)
	go1 := make(chan struct{})
	for me := range int64(2) {
		go func() {
			defer done.Done()
			ready.Done()
			<-go1
			// Passes me, me+2, ...: the turn goes 0, 1, 2, ..., n.
			for t := me; t < int64(n); t += 2 {
				for line.turn.Load() != t {
				}
				line.turn.Store(t + 1)
			}
		}()
	}
	ready.Wait()
	start()
	close(go1)
	done.Wait()
}
