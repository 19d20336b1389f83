package clock_test

import (
	"fmt"
	"time"

	"github.com/seed997/sluice/clock"
)

// A manual clock moves only when told to, so that a test decides at times
// it chooses; sluice.WithClock gives it to a limiter.
func ExampleManual() {
	clk := clock.NewManual(time.Hour)
	fmt.Println(clk.Now())
	fmt.Println(clk.Advance(1500 * time.Millisecond))
	clk.Set(time.Minute) // backwards too, to test that nothing loosens
	fmt.Println(clk.Now())
	// Output:
	// 1h0m0s
	// 1h0m1.5s
	// 1m0s
}

// Readings are durations since the clock's own origin: only differences
// between two readings of one clock mean anything. (The default clock
// follows the monotonic clock to within microseconds, hence 9 ms, not 10.)
func ExampleDefault() {
	clk := clock.Default()
	start := clk.Now()
	time.Sleep(10 * time.Millisecond)
	elapsed := clk.Now() - start
	fmt.Println(elapsed >= 9*time.Millisecond)
	// Output:
	// true
}
