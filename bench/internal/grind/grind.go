// Package grind asks callgrind, valgrind's tool, to count one stretch of a
// benchmark: the instructions a decision executes and the cache misses it
// takes in callgrind's simulated caches, figures that, unlike ns/op, do
// not move with the machine's speed (bench/cmd/grind says how much they
// moved between runs). Outside valgrind each call is a few register
// rotations that change nothing (valgrind's client-request preamble) and
// returns at once.
package grind

import (
	"runtime"
	"unsafe"
)

// Callgrind's client requests (valgrind/callgrind.h): VG_USERREQ_TOOL_BASE
// ('C','T') and those after it.
const (
	reqRunning       = 0x1001 // valgrind.h: RUNNING_ON_VALGRIND
	reqToggleCollect = 0x43540002
	reqDumpStatsAt   = 0x43540003
)

func do(def, req, arg uintptr) uintptr {
	args := [6]uintptr{req, arg}
	return request(def, &args)
}

// Running reports whether the program runs under valgrind.
func Running() bool { return do(0, reqRunning, 0) != 0 }

// Toggle turns callgrind's counting on or off for the calling thread
// (run with --collect-atstart=no, counting starts off).
func Toggle() { do(0, reqToggleCollect, 0) }

// Dump writes what was counted since the last dump to a file of its own,
// its description line naming what: callgrind's --dump-before/after.
func Dump(what string) {
	b := append([]byte(what), 0)
	do(0, reqDumpStatsAt, uintptr(unsafe.Pointer(&b[0])))
	runtime.KeepAlive(b)
}
