//go:build !amd64

package stripes

import "unsafe"

// prefetch does nothing here; see prefetch_amd64.go.
func prefetch(unsafe.Pointer) {}
