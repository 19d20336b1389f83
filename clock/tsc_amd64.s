#include "go_asm.h"
#include "textflag.h"

// func rdtsc() uint64
// RDTSC without a fence: a reading a few instructions early is only a
// stale time, which a limiter takes as a stricter one.
TEXT ·rdtsc(SB), NOSPLIT|NOFRAME, $0-8
	RDTSC
	SHLQ	$32, DX
	ORQ	DX, AX
	MOVQ	AX, ret+0(FP)
	RET

// func cpuid(leaf uint32) (a, b, c, d uint32)
TEXT ·cpuid(SB), NOSPLIT|NOFRAME, $0-24
	MOVL	leaf+0(FP), AX
	XORL	CX, CX
	CPUID
	MOVL	AX, a+8(FP)
	MOVL	BX, b+12(FP)
	MOVL	CX, c+16(FP)
	MOVL	DX, d+20(FP)
	RET

// func scaled(s *scale) (time.Duration, bool)
// s.ns + (t-s.base)*s.mult>>32 for t = RDTSC, if t-s.base < s.span.
TEXT ·scaled(SB), NOSPLIT|NOFRAME, $0-17
	MOVQ	s+0(FP), CX
	RDTSC
	SHLQ	$32, DX
	ORQ	DX, AX
	SUBQ	scale_base(CX), AX
	CMPQ	AX, scale_span(CX)
	JAE	miss
	IMULQ	scale_mult(CX), AX
	SHRQ	$32, AX
	ADDQ	scale_ns(CX), AX
	MOVQ	AX, ret+8(FP)
	MOVB	$1, ret1+16(FP)
	RET
miss:
	MOVQ	$0, ret+8(FP)
	MOVB	$0, ret1+16(FP)
	RET
