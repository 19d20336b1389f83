#include "textflag.h"

// func pause(n int)
TEXT ·pause(SB), NOSPLIT|NOFRAME, $0-8
	MOVQ	n+0(FP), AX
loop:
	PAUSE
	DECQ	AX
	JNZ	loop
	RET
