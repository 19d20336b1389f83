//go:build linux

// Package cpupin pins the calling goroutine's thread to one CPU, for
// tests that read a processor counter the kernel does not vouch for
// across cores (see internal/clocktest). Only tests import it, so the
// library links neither it nor golang.org/x/sys/unix.
package cpupin

import (
	"errors"
	"runtime"

	"golang.org/x/sys/unix"
)

// PinOne locks the calling goroutine to its thread and the thread to the
// first CPU it may run on: that CPU, for the goroutines a test starts
// (PinTo), and the unpin to defer.
func PinOne() (cpu int, unpin func(), err error) {
	if cpu, err = allowedCPU(); err == nil {
		unpin, err = PinTo(cpu)
	}
	return cpu, unpin, err
}

// allowedCPU is the first CPU the calling thread may run on.
func allowedCPU() (int, error) {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return -1, err
	}
	for cpu := range 1 << 10 { // CPU_SETSIZE, unix.CPUSet's size
		if set.IsSet(cpu) {
			return cpu, nil
		}
	}
	return -1, errors.New("no CPU in the thread's affinity mask")
}

// PinTo locks the calling goroutine to its thread and the thread to cpu.
// unpin gives the thread its mask back and unlocks it; where the mask
// cannot be given back, the thread stays locked, and the runtime ends it
// with its goroutine rather than run others on one CPU.
func PinTo(cpu int) (unpin func(), err error) {
	runtime.LockOSThread()
	var old, one unix.CPUSet
	if err := unix.SchedGetaffinity(0, &old); err != nil {
		runtime.UnlockOSThread()
		return nil, err
	}
	one.Set(cpu)
	if err := unix.SchedSetaffinity(0, &one); err != nil {
		runtime.UnlockOSThread()
		return nil, err
	}
	return func() {
		if unix.SchedSetaffinity(0, &old) == nil {
			runtime.UnlockOSThread()
		}
	}, nil
}
