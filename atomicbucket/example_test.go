package atomicbucket_test

import (
	"fmt"
	"time"

	"github.com/seed997/sluice/atomicbucket"
)

// One bucket used alone: a single limit shared by every caller, without
// the keys, stripes and sweeper of package sluice. The times are explicit
// here; Take reads a clock.Clock instead.
func Example() {
	lim, err := atomicbucket.NewLimit(2, time.Second, 4) // 2 a second, bursts of 4
	if err != nil {
		panic(err)
	}
	b := atomicbucket.NewBucket(&lim, 0) // full at time 0

	d := b.TakeAt(&lim, 0, 3)
	fmt.Println(d.Status, d.Remaining, d.ResetAfter)
	d = b.TakeAt(&lim, 0, 2)
	fmt.Println(d.Status, d.Remaining, d.RetryAfter)
	d = b.TakeAt(&lim, 0, 5)
	fmt.Println(d.Status)
	// Output:
	// allowed 1 1.5s
	// denied 1 500ms
	// too-large
}

// Peek tells what a request would get without taking anything, and Refund
// gives back tokens that a caller took and did not use: the pieces a
// composition of limits needs, taking from each only if all admit.
func ExampleBucket_Refund() {
	lim, _ := atomicbucket.NewLimit(1, time.Minute, 3)
	b := atomicbucket.NewBucket(&lim, 0)

	b.TakeAt(&lim, 0, 3) // the whole burst
	fmt.Println(b.Peek(&lim, 0, 1).Status, b.Peek(&lim, 0, 1).RetryAfter)

	b.Refund(&lim, 0, 2) // two of them not used after all
	d := b.Peek(&lim, 0, 1)
	fmt.Println(d.Status, d.Remaining)

	b.Refund(&lim, 0, 5) // never beyond a full bucket
	fmt.Println(b.Peek(&lim, 0, 3).Status, b.TakeAt(&lim, 0, 3).Remaining)
	// Output:
	// denied 1m0s
	// allowed 1
	// allowed 0
}
