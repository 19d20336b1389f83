// Package countertest gives tests outside package clock a clock.Counter on
// the real processor counter wherever the processor's counter is
// invariant, the kernel's clocksource aside (see internal/clocktest).
// Only tests import it, so the library links neither it nor
// internal/cpupin.
package countertest

import (
	"testing"

	"github.com/seed997/sluice/clock"
	"github.com/seed997/sluice/internal/clocktest"
	"github.com/seed997/sluice/internal/cpupin"
)

// New returns a new, uncalibrated counter clock, the kind clock.Default
// gives wherever the kernel keeps time by the TSC, and with it the unpin
// to defer. Where clock.NewCounter refuses because the kernel keeps time
// by another clock but the counter is invariant (a VM under kvm-clock,
// where CI may run), it is built without that check, and the calling
// goroutine is locked to a thread pinned to one CPU, whose counter ticks
// at one rate: otherwise the code written for the counter clock would go
// untested there. It skips t where there is no invariant counter.
func New(t testing.TB) (*clock.Counter, func()) {
	t.Helper()
	c, why := clock.NewCounter()
	if why == nil {
		return c, func() {}
	}
	v, err := clocktest.Unchecked()
	if err != nil {
		t.Skip(err)
	}
	cpu, unpin, err := cpupin.PinOne()
	if err != nil {
		t.Skipf("%v, and the test cannot pin itself to one CPU: %v", why, err)
	}
	t.Logf("%v: the counter is read on CPU %d alone", why, cpu)
	return v.(*clock.Counter), unpin
}
