//go:build !amd64

package clock

import (
	"errors"
	"time"
)

func rdtsc() uint64 { return 0 }

func counterUsable() error { return counterInvariant() }

func counterInvariant() error {
	return errors.New("clock: no counter clock on this architecture")
}

func scaled(s *scale) (time.Duration, bool) { return 0, false }
