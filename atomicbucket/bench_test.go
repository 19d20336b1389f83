package atomicbucket

import (
	"testing"
	"time"

	"github.com/seed997/sluice/clock"
)

// BenchmarkHot compares the CAS bucket with the mutex baseline on one hot
// bucket: serially, and under RunParallel where they contend.
func BenchmarkHot(b *testing.B) {
	for _, im := range impls {
		for _, mode := range []string{"serial", "parallel"} {
			b.Run("impl="+im.name+"/mode="+mode, func(b *testing.B) {
				l := mustLimit(b, 1_000_000_000, time.Second, 1_000_000)
				clk := clock.NewMono()
				bk := im.make(l, clk.Now())
				b.ReportAllocs()
				if mode == "serial" {
					for i := 0; i < b.N; i++ {
						bk.Allow(l, clk, 1)
					}
					return
				}
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						bk.Allow(l, clk, 1)
					}
				})
			})
		}
	}
}
