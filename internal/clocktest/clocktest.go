// Package clocktest lets this module's tests run clock.Counter on the
// real processor counter where clock.NewCounter refuses it: a processor
// whose counter is invariant, under a kernel that keeps time by another
// clock (a VM booted with the TSC marked unstable, keeping time by
// kvm-clock). There one core's counter still ticks at one rate and only
// the cores' agreement is in doubt, so a test whose goroutines are pinned
// to one CPU (internal/cpupin) can read it. Without this, such a host,
// CI's among them, would test no decision on the counter clock, the
// default wherever the kernel keeps time by the TSC.
//
// Package clock imports this one to set Unchecked, so the library links
// it; it holds that variable alone. The pinning is internal/cpupin, which
// only tests import, so the library links neither it nor
// golang.org/x/sys/unix.
package clocktest

// Unchecked returns a *clock.Counter on the processor's counter, checked
// to be invariant but not to agree across cores, or the error that says
// why there is no invariant counter: read it from goroutines pinned to
// one CPU (cpupin.PinOne) unless clock.NewCounter succeeds here too.
// Package clock sets it; it returns any, not *clock.Counter, because
// package clock imports this one.
var Unchecked func() (any, error)
