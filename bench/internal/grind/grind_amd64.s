#include "textflag.h"

// func request(def uintptr, args *[6]uintptr) uintptr
//
// valgrind.h's VALGRIND_DO_CLIENT_REQUEST_EXPR for amd64: the four
// rotations of DI sum to 128 bits, so they leave it as it was, and XCHGQ
// BX, BX does nothing; valgrind recognises the sequence and answers the
// request whose words AX points at in DX.
TEXT ·request(SB), NOSPLIT, $0-24
	MOVQ def+0(FP), DX
	MOVQ args+8(FP), AX
	ROLQ $3, DI
	ROLQ $13, DI
	ROLQ $61, DI
	ROLQ $51, DI
	XCHGQ BX, BX
	MOVQ DX, ret+16(FP)
	RET
