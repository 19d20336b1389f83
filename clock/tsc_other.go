//go:build !amd64

package clock

import "errors"

func rdtsc() uint64 { return 0 }

func counterUsable() error {
	return errors.New("clock: no counter clock on this architecture")
}
