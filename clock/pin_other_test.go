//go:build !linux

package clock

import "errors"

var errNoPin = errors.New("pinning a thread to a CPU is written for Linux only")

func allowedCPU() (int, error) { return -1, errNoPin }

func pinTo(int) (func(), error) { return nil, errNoPin }
