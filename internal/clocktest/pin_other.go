//go:build !linux

package clocktest

import "errors"

var errNoPin = errors.New("pinning a thread to a CPU is written for Linux only")

// AllowedCPU is written for Linux only.
func AllowedCPU() (int, error) { return -1, errNoPin }

// PinTo is written for Linux only.
func PinTo(int) (func(), error) { return nil, errNoPin }
