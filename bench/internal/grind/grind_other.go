//go:build !amd64

package grind

// request: the client requests are written for amd64 only; elsewhere
// nothing answers them.
func request(def uintptr, _ *[6]uintptr) uintptr { return def }
