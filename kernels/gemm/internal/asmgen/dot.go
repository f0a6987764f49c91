package main

import "fmt"

// dotRows is the most A rows one dot-product kernel handles.
const dotRows = 4

// dotKernel emits sdotAVX512M<ma>: out[i*4+j] = dot(A row i, B row j) for
// i < ma, j < 4, rows of length k; A rows lda apart, B rows ldb apart. It
// serves C = A*B^T when A has too few rows to make packing B worthwhile:
// both operands are then read along their contiguous rows.
func dotKernel(w *writer, ma int) {
	sets := 1
	if ma <= 2 {
		sets = 2 // 8+ independent FMA chains
	}
	z := func(n int) string { return fmt.Sprintf("Z%d", n) }
	acc := func(set, i, j int) string { return z((set*ma+i)*4 + j) }
	aReg := func(i int) string { return z(16 + i) }
	bReg := func(j int) string { return z(20 + j) }
	// Row r of an operand: base register plus 0, 1, 2 or 3 strides.
	row := func(base, ld, ld3 string, r int, off int) string {
		return fmt.Sprintf([4]string{"%d(%s)", "%d(%s)(" + ld + "*1)", "%d(%s)(" + ld + "*2)", "%d(%s)(" + ld3 + "*1)"}[r], off, base)
	}
	name := fmt.Sprintf("sdotAVX512M%d", ma)
	w.p("// func %s(k int, a *float32, lda int, b *float32, ldb int, out *float32)", name)
	w.p("TEXT ·%s(SB), NOSPLIT, $0-48", name)
	w.i("MOVQ k+0(FP), CX")
	w.i("MOVQ a+8(FP), AX")
	w.i("MOVQ lda+16(FP), R9")
	w.i("SHLQ $2, R9")
	w.i("LEAQ (R9)(R9*2), R10")
	w.i("MOVQ b+24(FP), BX")
	w.i("MOVQ ldb+32(FP), R8")
	w.i("SHLQ $2, R8")
	w.i("LEAQ (R8)(R8*2), R11")
	w.i("MOVQ out+40(FP), DI")
	for n := 0; n < sets*ma*4; n++ {
		w.i("VPXORD %s, %s, %s", z(n), z(n), z(n))
	}
	step := func(set, off int, masked bool) {
		sfx, k := "", ""
		if masked {
			sfx, k = ".Z", "K1, "
		}
		for i := 0; i < ma; i++ {
			w.i("VMOVUPS%s %s, %s%s", sfx, row("AX", "R9", "R10", i, off), k, aReg(i))
		}
		for j := 0; j < 4; j++ {
			w.i("VMOVUPS%s %s, %s%s", sfx, row("BX", "R8", "R11", j, off), k, bReg(j))
			for i := 0; i < ma; i++ {
				w.i("VFMADD231PS %s, %s, %s", bReg(j), aReg(i), acc(set, i, j))
			}
		}
	}
	w.i("MOVQ CX, DX")
	w.i("SHRQ $5, DX")
	w.i("JZ one")
	w.p("loop:")
	step(0, 0, false)
	step(sets-1, 64, false)
	w.i("ADDQ $128, AX")
	w.i("ADDQ $128, BX")
	w.i("DECQ DX")
	w.i("JNZ loop")
	w.p("one:")
	w.i("TESTQ $16, CX")
	w.i("JZ partial")
	step(0, 0, false)
	w.i("ADDQ $64, AX")
	w.i("ADDQ $64, BX")
	w.p("partial:")
	// The last k%16 columns load under a mask so nothing past a row is read.
	w.i("ANDQ $15, CX")
	w.i("JZ reduce")
	w.i("MOVL $1, DX")
	w.i("SHLL CX, DX")
	w.i("DECL DX")
	w.i("KMOVW DX, K1")
	step(0, 0, true)
	w.p("reduce:")
	if sets == 2 {
		for n := 0; n < ma*4; n++ {
			w.i("VADDPS %s, %s, %s", z(ma*4+n), z(n), z(n))
		}
	}
	for i := 0; i < ma; i++ {
		r := func(j int) int { return (i*4 + j) }
		// Fold 512 to 256 bits in EVEX, then finish with VEX horizontal adds
		// (registers below 16, so AVX512VL is not needed).
		for j := 0; j < 4; j++ {
			w.i("VEXTRACTF64X4 $1, Z%d, Y24", r(j))
			w.i("VADDPS Z24, Z%d, Z%d", r(j), r(j))
		}
		w.i("VHADDPS Y%d, Y%d, Y%d", r(1), r(0), r(0))
		w.i("VHADDPS Y%d, Y%d, Y%d", r(3), r(2), r(2))
		w.i("VHADDPS Y%d, Y%d, Y%d", r(2), r(0), r(0))
		w.i("VEXTRACTF128 $1, Y%d, X%d", r(0), r(1))
		w.i("VADDPS X%d, X%d, X%d", r(1), r(0), r(0))
		w.i("VMOVUPS X%d, %d(DI)", r(0), 16*i)
	}
	w.i("VZEROUPPER")
	w.i("RET")
	w.p("")
}
