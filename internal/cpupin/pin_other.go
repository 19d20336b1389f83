//go:build !linux

package cpupin

import "errors"

var errNoPin = errors.New("pinning a thread to a CPU is written for Linux only")

// PinOne is written for Linux only.
func PinOne() (int, func(), error) { return -1, nil, errNoPin }

// PinTo is written for Linux only.
func PinTo(int) (func(), error) { return nil, errNoPin }
