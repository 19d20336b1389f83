package clock

import (
	"errors"
	"os"
	"strings"
	"time"
)

func rdtsc() uint64

func cpuid(leaf uint32) (a, b, c, d uint32)

// counterUsable reports whether the time-stamp counter can stand in for
// the monotonic clock: the processor says it ticks at a constant rate in
// every power state (invariant TSC), and the kernel itself keeps time by it
// (its clocksource is "tsc"), which it only does after checking that the
// counters of all cores agree, and stops doing if they drift apart.
func counterUsable() error {
	if err := counterInvariant(); err != nil {
		return err
	}
	src, err := os.ReadFile("/sys/devices/system/clocksource/clocksource0/current_clocksource")
	if err != nil {
		return errors.New("clock: cannot read the kernel's clocksource: " + err.Error())
	}
	if s := strings.TrimSpace(string(src)); s != "tsc" {
		return errors.New("clock: the kernel keeps time by " + s + ", not the TSC")
	}
	return nil
}

// counterInvariant reports whether the processor says its time-stamp
// counter ticks at a constant rate in every power state. Alone it says
// nothing of whether the counters of different cores agree: that is what
// the kernel's clocksource adds.
func counterInvariant() error {
	if max, _, _, _ := cpuid(0x80000000); max < 0x80000007 {
		return errors.New("clock: the processor does not report an invariant TSC")
	}
	if _, _, _, d := cpuid(0x80000007); d&(1<<8) == 0 {
		return errors.New("clock: the processor's TSC is not invariant")
	}
	return nil
}

// scaled reads the counter and returns s's reading at it, and false where
// s does not cover it: Counter.Now's fast path, s.read(rdtsc()) when
// rdtsc()-s.base < s.span, in one assembly function.
func scaled(s *scale) (time.Duration, bool)
