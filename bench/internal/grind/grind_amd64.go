package grind

// request issues one client request; under valgrind it returns the
// request's answer, elsewhere def (grind_amd64.s).
//
//go:noescape
func request(def uintptr, args *[6]uintptr) uintptr
