//go:build !purego

#include "textflag.h"

// func transpose8AVX(dst *float32, stride int, src *float32, ld int, n int)
//
// For p in [0, n), n a multiple of 8: dst[p*stride+r] = src[r*ld+p], r < 8.
// Each 8x8 block is transposed in registers: unpack pairs, shuffle quads,
// then swap 128-bit halves.
TEXT ·transpose8AVX(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ stride+8(FP), DX
	SHLQ $2, DX
	MOVQ src+16(FP), SI
	MOVQ ld+24(FP), R8
	SHLQ $2, R8
	MOVQ n+32(FP), CX
	SHRQ $3, CX
	JZ   done
	LEAQ (R8)(R8*2), R9
	LEAQ (SI)(R8*4), R10
	LEAQ (DX)(DX*2), R11

loop:
	VMOVUPS (SI), Y0
	VMOVUPS (SI)(R8*1), Y1
	VMOVUPS (SI)(R8*2), Y2
	VMOVUPS (SI)(R9*1), Y3
	VMOVUPS (R10), Y4
	VMOVUPS (R10)(R8*1), Y5
	VMOVUPS (R10)(R8*2), Y6
	VMOVUPS (R10)(R9*1), Y7

	VUNPCKLPS Y1, Y0, Y8
	VUNPCKHPS Y1, Y0, Y9
	VUNPCKLPS Y3, Y2, Y10
	VUNPCKHPS Y3, Y2, Y11
	VUNPCKLPS Y5, Y4, Y12
	VUNPCKHPS Y5, Y4, Y13
	VUNPCKLPS Y7, Y6, Y14
	VUNPCKHPS Y7, Y6, Y15

	VSHUFPS $0x44, Y10, Y8, Y0
	VSHUFPS $0xEE, Y10, Y8, Y1
	VSHUFPS $0x44, Y11, Y9, Y2
	VSHUFPS $0xEE, Y11, Y9, Y3
	VSHUFPS $0x44, Y14, Y12, Y4
	VSHUFPS $0xEE, Y14, Y12, Y5
	VSHUFPS $0x44, Y15, Y13, Y6
	VSHUFPS $0xEE, Y15, Y13, Y7

	VPERM2F128 $0x20, Y4, Y0, Y8
	VPERM2F128 $0x20, Y5, Y1, Y9
	VPERM2F128 $0x20, Y6, Y2, Y10
	VPERM2F128 $0x20, Y7, Y3, Y11
	VPERM2F128 $0x31, Y4, Y0, Y12
	VPERM2F128 $0x31, Y5, Y1, Y13
	VPERM2F128 $0x31, Y6, Y2, Y14
	VPERM2F128 $0x31, Y7, Y3, Y15

	LEAQ    (DI)(DX*4), R12
	VMOVUPS Y8, (DI)
	VMOVUPS Y9, (DI)(DX*1)
	VMOVUPS Y10, (DI)(DX*2)
	VMOVUPS Y11, (DI)(R11*1)
	VMOVUPS Y12, (R12)
	VMOVUPS Y13, (R12)(DX*1)
	VMOVUPS Y14, (R12)(DX*2)
	VMOVUPS Y15, (R12)(R11*1)

	ADDQ $32, SI
	ADDQ $32, R10
	LEAQ (DI)(DX*8), DI
	DECQ CX
	JNZ  loop
	VZEROUPPER

done:
	RET
