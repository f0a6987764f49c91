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

// func transpose6AVX(dst *float32, src *float32, ld int, n int)
//
// For p in [0, n), n a multiple of 8: dst[p*6+r] = src[r*ld+p], r < 6 (a
// packed A micro-panel of six rows). The 8x8 transpose of transpose8AVX
// with two zero rows; each k step's 32-byte store overlaps the next step's
// first two values, which that store then rewrites, and the last step of
// each block stores exactly six values.
TEXT ·transpose6AVX(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ ld+16(FP), R8
	SHLQ $2, R8
	MOVQ n+24(FP), CX
	SHRQ $3, CX
	JZ   done6
	LEAQ (R8)(R8*2), R9
	LEAQ (SI)(R8*4), R10
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7

loop6:
	VMOVUPS (SI), Y0
	VMOVUPS (SI)(R8*1), Y1
	VMOVUPS (SI)(R8*2), Y2
	VMOVUPS (SI)(R9*1), Y3
	VMOVUPS (R10), Y4
	VMOVUPS (R10)(R8*1), Y5

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
	VSHUFPS $0x44, Y15, Y13, Y8
	VSHUFPS $0xEE, Y15, Y13, Y9

	VPERM2F128 $0x20, Y4, Y0, Y10
	VPERM2F128 $0x20, Y5, Y1, Y11
	VPERM2F128 $0x20, Y8, Y2, Y12
	VPERM2F128 $0x20, Y9, Y3, Y13
	VMOVUPS Y10, (DI)
	VMOVUPS Y11, 24(DI)
	VMOVUPS Y12, 48(DI)
	VMOVUPS Y13, 72(DI)
	VPERM2F128 $0x31, Y4, Y0, Y10
	VPERM2F128 $0x31, Y5, Y1, Y11
	VPERM2F128 $0x31, Y8, Y2, Y12
	VPERM2F128 $0x31, Y9, Y3, Y13
	VMOVUPS Y10, 96(DI)
	VMOVUPS Y11, 120(DI)
	VMOVUPS Y12, 144(DI)
	VMOVUPS X13, 168(DI)
	VEXTRACTF128 $1, Y13, X13
	VMOVQ X13, 184(DI)

	ADDQ $32, SI
	ADDQ $32, R10
	ADDQ $192, DI
	DECQ CX
	JNZ  loop6
	VZEROUPPER

done6:
	RET
