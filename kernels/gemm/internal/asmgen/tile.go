package main

import "fmt"

// Registers: CX k count, AX/R11 A row bases (rows 0-3 / 4-7), R12 and R13
// the A row stride times 1 and 3, SI the A k stride, BX B, R8 ldb, DI C,
// R9 ldc, R10 loop counter, DX scratch and then the B prefetch distance.
// All strides are in bytes.
func aRow(i int) string {
	base := "AX"
	if i >= 4 {
		base = "R11"
	}
	return fmt.Sprintf([4]string{"(%s)", "(%s)(R12*1)", "(%s)(R12*2)", "(%s)(R13*1)"}[i%4], base)
}

// kernel emits the kernel for an mr x nv tile of family f.
func (f family) kernel(w *writer, mr, nv int) {
	R, vb, es := f.isa.reg, f.isa.bytes, f.elem.size
	sets := f.sets(mr, nv)
	reg := func(n int) string { return fmt.Sprintf("%s%d", R, n) }
	_, _, offMask, _, _, size := f.frame()

	w.p("// func %s%s", f.fn(mr, nv), f.goSig())
	w.p("TEXT ·%s(SB), NOSPLIT, $0-%d", f.fn(mr, nv), size)
	w.i("MOVQ k+0(FP), CX")
	w.i("MOVQ a+8(FP), AX")
	w.i("MOVQ rsa+16(FP), R12")
	w.i("SHLQ $%d, R12", log2(es))
	w.i("LEAQ (R12)(R12*2), R13")
	w.i("LEAQ (AX)(R12*4), R11")
	w.i("MOVQ ksa+24(FP), SI")
	w.i("SHLQ $%d, SI", log2(es))
	w.i("MOVQ b+32(FP), BX")
	w.i("MOVQ ldb+40(FP), R8")
	w.i("SHLQ $%d, R8", log2(es))
	w.i("MOVQ c+48(FP), DI")
	w.i("MOVQ ldc+56(FP), R9")
	w.i("SHLQ $%d, R9", log2(es))
	if f.isa.masked {
		// One mask bit per column: only the last vector, bits
		// [(nv-1)*lanes, nv*lanes), can be partial. Its bits go to K1,
		// and stay in R10 until the branch to the masked body below.
		w.i("MOVQ mask+%d(FP), DX", offMask)
		if nv > 1 {
			w.i("SHRQ $%d, DX", (nv-1)*f.lanes())
		}
		w.i("KMOVW DX, K1")
		w.i("MOVQ DX, R10")
	}
	for n := 0; n < sets*mr*nv; n++ {
		if f.isa.masked {
			w.i("VPXORD %s, %s, %s", reg(n), reg(n), reg(n))
		} else {
			w.i("VXORPS %s, %s, %s", reg(n), reg(n), reg(n))
		}
	}
	// Touch the C tile now so its lines arrive while the k loop runs.
	w.i("MOVQ DI, DX")
	for i := 0; i < mr; i++ {
		for off := 0; off < nv*vb; off += 64 {
			w.i("PREFETCHT0 %d(DX)", off)
		}
		if i < mr-1 {
			w.i("ADDQ R9, DX")
		}
	}

	if f.prefetch > 0 {
		w.i("IMUL3Q $%d, R8, DX", f.prefetch)
	}
	// Masked loads and stores cost Intel cores about an eighth of the
	// kernel's speed (measured on a Xeon with AVX-512), so a tile whose
	// columns fill its last vector runs a body without masks.
	if f.isa.masked {
		w.i("CMPQ R10, $%d", 1<<f.lanes()-1)
		w.i("JNE partial")
		f.body(w, mr, nv, false, "")
		w.p("partial:")
		f.body(w, mr, nv, true, "p")
	} else {
		f.body(w, mr, nv, false, "")
	}
	w.p("")
}

// body emits a kernel's k loop and its update of C, for an mr x nv tile
// whose last vector is partial (masked by K1) or full; pre prefixes its
// labels.
func (f family) body(w *writer, mr, nv int, partial bool, pre string) {
	R, s, vb, es := f.isa.reg, f.elem.sfx, f.isa.bytes, f.elem.size
	sets := f.sets(mr, nv)
	reg := func(n int) string { return fmt.Sprintf("%s%d", R, n) }
	acc := func(set, i, j int) string { return reg((set*mr+i)*nv + j) }
	// B vectors and the broadcast scratch sit at the top of the file.
	bReg := func(j int) string { return reg(f.isa.nregs - 2 - nv + j) }
	bc := reg(f.isa.nregs - 1)
	// After the k loop: alpha, beta and a C scratch reuse those registers.
	alpha, beta, cTmp := bReg(0), bc, reg(f.isa.nregs-2)
	if nv >= 2 {
		beta = bReg(1)
	}
	offAlpha, offBeta, _, offRowBias, offColBias, _ := f.frame()
	mov := "VMOVUP" + s[1:]
	// mask(j) and zmask mask vector j's loads and stores: only the last
	// vector of a partial tile.
	mask := func(j int) string {
		if partial && j == nv-1 {
			return "K1, "
		}
		return ""
	}
	zmask := func(j int) string {
		if partial && j == nv-1 {
			return ".Z"
		}
		return ""
	}
	step := func(set int) {
		for j := 0; j < nv; j++ {
			w.i("%s%s %d(BX), %s%s", mov, zmask(j), j*vb, mask(j), bReg(j))
		}
		if f.prefetch > 0 {
			for off := 0; off < nv*vb; off += 64 {
				w.i("PREFETCHT0 %d(BX)(DX*1)", off)
			}
		}
		w.i("ADDQ R8, BX")
		for i := 0; i < mr; i++ {
			w.i("%s %s, %s", f.elem.bcast, aRow(i), bc)
			for j := 0; j < nv; j++ {
				w.i("VFMADD231%s %s, %s, %s", s, bReg(j), bc, acc(set, i, j))
			}
		}
		w.i("ADDQ SI, AX")
		if mr > 4 {
			w.i("ADDQ SI, R11")
		}
	}
	U := f.unroll
	w.i("MOVQ CX, R10")
	w.i("SHRQ $%d, R10", log2(U))
	w.i("JZ " + pre + "tail")
	w.p(pre + "loop:")
	for u := 0; u < U; u++ {
		step(u % sets)
	}
	w.i("DECQ R10")
	w.i("JNZ " + pre + "loop")
	w.p(pre + "tail:")
	w.i("ANDQ $%d, CX", U-1)
	w.i("JZ " + pre + "update")
	w.p(pre + "tailloop:")
	step(0)
	w.i("DECQ CX")
	w.i("JNZ " + pre + "tailloop")

	w.p(pre + "update:")
	for set := sets - 1; set > 0; set-- {
		for n := 0; n < mr*nv; n++ {
			w.i("VADD%s %s, %s, %s", s, reg(set*mr*nv+n), reg(n), reg(n))
		}
	}
	// alpha*AB first, then the row bias, the column bias and beta*C, each
	// rounded: without a bias the arithmetic is alpha*AB + beta*C.
	w.i("%s alpha+%d(FP), %s", f.elem.bcast, offAlpha, alpha)
	for i := 0; i < mr; i++ {
		for j := 0; j < nv; j++ {
			w.i("VMUL%s %s, %s, %s", s, alpha, acc(0, i, j), acc(0, i, j))
		}
	}
	w.i("MOVQ rowBias+%d(FP), R10", offRowBias)
	w.i("TESTQ R10, R10")
	w.i("JZ " + pre + "norowbias")
	for i := 0; i < mr; i++ {
		w.i("%s %d(R10), %s", f.elem.bcast, i*es, cTmp)
		for j := 0; j < nv; j++ {
			w.i("VADD%s %s, %s, %s", s, cTmp, acc(0, i, j), acc(0, i, j))
		}
	}
	w.p(pre + "norowbias:")
	// A column bias (a linear layer's) is nv vectors, masked like B.
	w.i("MOVQ colBias+%d(FP), R10", offColBias)
	w.i("TESTQ R10, R10")
	w.i("JZ " + pre + "nocolbias")
	for j := 0; j < nv; j++ {
		w.i("%s%s %d(R10), %s%s", mov, zmask(j), j*vb, mask(j), cTmp)
		for i := 0; i < mr; i++ {
			w.i("VADD%s %s, %s, %s", s, cTmp, acc(0, i, j), acc(0, i, j))
		}
	}
	w.p(pre + "nocolbias:")
	// beta == 0 (either sign) means C must not be read: it may hold NaN.
	if es == 4 {
		w.i("MOVL beta+%d(FP), DX", offBeta)
		w.i("SHLL $1, DX")
	} else {
		w.i("MOVQ beta+%d(FP), DX", offBeta)
		w.i("SHLQ $1, DX")
	}
	w.i("JZ " + pre + "overwrite")
	w.i("%s beta+%d(FP), %s", f.elem.bcast, offBeta, beta)
	for i := 0; i < mr; i++ {
		for j := 0; j < nv; j++ {
			w.i("%s%s %d(DI), %s%s", mov, zmask(j), j*vb, mask(j), cTmp)
			w.i("VFMADD231%s %s, %s, %s", s, beta, cTmp, acc(0, i, j))
			w.i("%s %s, %s%d(DI)", mov, acc(0, i, j), mask(j), j*vb)
		}
		if i < mr-1 {
			w.i("ADDQ R9, DI")
		}
	}
	w.i("VZEROUPPER")
	w.i("RET")
	w.p(pre + "overwrite:")
	for i := 0; i < mr; i++ {
		for j := 0; j < nv; j++ {
			w.i("%s %s, %s%d(DI)", mov, acc(0, i, j), mask(j), j*vb)
		}
		if i < mr-1 {
			w.i("ADDQ R9, DI")
		}
	}
	w.i("VZEROUPPER")
	w.i("RET")
}
