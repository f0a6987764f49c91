package runtime

import (
	"math"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/kernels"
	"github.com/seam-rt/seam/kernels/gemm"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// Rewrites beside perf_fuse.go's, each a self-contained pattern matched at
// one step: the hard activations, and those that read constant weights.

// clampBounds reads a clamp step's literal bounds (NaN for None).
func clampBounds(st *step) (lo, hi float64, ok bool) {
	if len(st.args) != 3 || st.args[0].kind != tmplSlot {
		return 0, 0, false
	}
	b := [2]float64{math.NaN(), math.NaN()}
	for i, a := range st.args[1:] {
		if a.kind == tmplLit && a.lit.IsNone() {
			continue
		}
		v, ok := number(a)
		if !ok {
			return 0, 0, false
		}
		b[i] = v
	}
	return b[0], b[1], true
}

// hardActivation fuses, at the div step d, hardswish's decomposition
// x * clamp(clamp(x + 3, min=0), max=6) / 6 (or one clamp to [0, 6]) into
// aten.hardswish, and hardsigmoid's clamp(...)/6 into aten.hardsigmoid.
// Both kernels compute the same float32 steps, so results are unchanged.
func (f *fuser) hardActivation(d int) bool {
	steps := f.gp.steps
	v, c, ok := f.withConst(d)
	if !ok || c != 6 || steps[d].args[0].kind != tmplSlot || steps[d].args[0].slot != v || f.out(d) < 0 {
		return false
	}
	// v is clamp(...) (hardsigmoid) or x * clamp(...) (hardswish).
	var swish bool
	var pMul int
	x := int32(-1)
	clamped := v
	if pm, ok := f.single(v, "aten.mul.Tensor"); ok {
		a, b, ok := f.slots(pm)
		if !ok {
			return false
		}
		swish, pMul = true, pm
		clamped, x = b, a
		if _, ok := f.single(b, "aten.clamp.default"); !ok {
			clamped, x = a, b
		}
	}
	// One clamp to [0, 6], or a clamp to max 6 of a clamp to min 0.
	var gone []int
	pc, ok := f.single(clamped, "aten.clamp.default")
	if !ok {
		return false
	}
	lo, hi, ok := clampBounds(&steps[pc])
	if !ok || hi != 6 {
		return false
	}
	gone = append(gone, pc)
	in := steps[pc].args[0].slot
	if lo != 0 {
		if lo == lo {
			return false
		}
		p0, ok := f.single(in, "aten.clamp.default")
		if !ok {
			return false
		}
		lo0, hi0, ok := clampBounds(&steps[p0])
		if !ok || lo0 != 0 || hi0 == hi0 {
			return false
		}
		gone = append(gone, p0)
		in = steps[p0].args[0].slot
	}
	pAdd, ok := f.single(in, "aten.add.Tensor")
	if !ok {
		return false
	}
	y, three, ok := f.withConst(pAdd)
	if !ok || three != 3 || swish && y != x || !f.float32(y) {
		return false
	}
	target := "aten.hardsigmoid.default"
	if swish {
		target = "aten.hardswish.default"
		gone = append(gone, pMul)
	}
	k, ok := kernels.Lookup(target)
	if !ok {
		return false
	}
	st := &f.gp.steps[d]
	st.kernel = k
	st.args = []argTmpl{{kind: tmplSlot, slot: y}}
	st.runs = target
	if swish {
		f.uses[y]-- // read once now, where the add and the mul read it
	}
	for _, i := range append(gone, pAdd) {
		f.gone[i] = true
	}
	return true
}

// constF32 is slot s's constant weight when it is a float32 tensor.
func (f *fuser) constF32(t argTmpl) *tensor.Tensor {
	if t.kind != tmplSlot {
		return nil
	}
	w := f.consts[t.slot]
	if w == nil || w.DType() != tensor.Float32 {
		return nil
	}
	return w
}

// foldBatchNorm folds _native_batch_norm_legit_no_training of a
// convolution's result, all of whose parameters are constant, into the
// convolution's weight and bias (scale = weight/sqrt(var + eps) per
// channel, computed in float64), when only the normalised output is used.
func (f *fuser) foldBatchNorm(bn int) bool {
	st := &f.gp.steps[bn]
	if len(st.args) != 7 || st.args[0].kind != tmplSlot || len(st.outs) != 3 || st.outs[0].slot < 0 {
		return false
	}
	for _, o := range st.outs[1:] {
		if o.slot >= 0 && f.uses[o.slot] > 0 {
			return false
		}
	}
	pc, ok := f.single(st.args[0].slot, "aten.convolution.default")
	if !ok {
		return false
	}
	cv := &f.gp.steps[pc]
	if len(cv.args) != 9 || f.out(pc) < 0 {
		return false
	}
	if tr := cv.args[6]; tr.kind != tmplLit || tr.lit.Kind() != value.Bool || tr.lit.Bool() {
		return false
	}
	w := f.constF32(cv.args[1])
	if w == nil || w.Dim() < 3 {
		return false
	}
	o := w.Size(0)
	var bias *tensor.Tensor
	if b := cv.args[2]; b.kind != tmplLit || !b.lit.IsNone() {
		if bias = f.constF32(b); bias == nil {
			return false
		}
	}
	eps, ok := number(st.args[6])
	if !ok {
		return false
	}
	// weight, bias, running_mean, running_var: each f32[o] (weight and
	// bias may be None).
	key := foldKey{w: w, bias: bias, eps: eps}
	for i := range key.p {
		a := st.args[1+i]
		if i < 2 && a.kind == tmplLit && a.lit.IsNone() {
			continue
		}
		t := f.constF32(a)
		if t == nil || t.Dim() != 1 || t.Size(0) != o {
			return false
		}
		key.p[i] = t
	}
	if key.p[2] == nil || key.p[3] == nil || bias != nil && (bias.Dim() != 1 || bias.Size(0) != o) {
		return false
	}
	folded, err := once(f.shared, f.shared.folds, key, func() ([2]*tensor.Tensor, error) { return foldedWeights(key, o) })
	if err != nil {
		return false
	}
	wt, bt := folded[0], folded[1]
	cv.args[1], cv.args[2] = litTmpl(value.FromTensor(wt)), litTmpl(value.FromTensor(bt))
	// The convolution now defines the normalised value.
	cv.outs[0].slot = st.outs[0].slot
	f.prod[st.outs[0].slot] = pc
	f.gone[bn] = true
	return true
}

// foldedWeights computes key.w and key.bias with the batch norm of
// parameters key.p folded in, per output channel of o.
func foldedWeights(key foldKey, o int) ([2]*tensor.Tensor, error) {
	var p [4][]float64
	for i, t := range key.p {
		if t != nil {
			p[i] = t.Float64s()
		}
	}
	eps := key.eps
	wv := key.w.Float64s()
	per := len(wv) / o
	nw, nb := make([]float32, len(wv)), make([]float32, o)
	var bv []float64
	if key.bias != nil {
		bv = key.bias.Float64s()
	}
	for c := 0; c < o; c++ {
		scale := 1 / math.Sqrt(p[3][c]+eps)
		if p[0] != nil {
			scale *= p[0][c]
		}
		for j := c * per; j < (c+1)*per; j++ {
			nw[j] = float32(wv[j] * scale)
		}
		b := 0.0
		if bv != nil {
			b = bv[c]
		}
		b = (b - p[2][c]) * scale
		if p[1] != nil {
			b += p[1][c]
		}
		nb[c] = float32(b)
	}
	wt, err := tensor.FromSlice(nw, key.w.Sizes()...)
	if err != nil {
		return [2]*tensor.Tensor{}, err
	}
	bt, err := tensor.FromSlice(nb, o)
	return [2]*tensor.Tensor{wt, bt}, err
}

// packWeight runs mm(x, B) or addmm(bias, x, B) (beta = alpha = 1) with a
// constant float32 B, or B = permute(W, [1, 0]) of a constant W (a
// Linear's weight), as kernels.PackedMatmul on B packed once here: every
// run, and concurrent runs, share it. A convolution goes to
// packConvWeight.
func (f *fuser) packWeight(i int) bool {
	st := &f.gp.steps[i]
	if f.op(i) == "aten.convolution.default" {
		f.packConvWeight(i)
		return false
	}
	addmm := len(st.args) == 5
	xi, bi := 0, 1
	if addmm {
		xi, bi = 1, 2
		for _, a := range st.args[3:] {
			if v, ok := number(a); !ok || v != 1 {
				return false
			}
		}
	} else if len(st.args) != 2 {
		return false
	}
	if st.args[xi].kind != tmplSlot || st.args[bi].kind != tmplSlot || !f.float32(st.args[xi].slot) {
		return false
	}
	b := st.args[bi].slot
	var packed *gemm.PackedB
	pPerm := -1
	if w := f.constF32(st.args[bi]); w != nil && w.Dim() == 2 && w.IsContiguous() {
		packed, _ = once(f.shared, f.shared.packs, packKey{w: w}, func() (*gemm.PackedB, error) {
			return gemm.PackB(false, w.Size(0), w.Size(1), tensor.Contig[float32](w), max(w.Size(1), 1)), nil
		})
	} else if pp := f.prod[b]; f.target(pp) == "aten.permute.default" {
		pa := f.gp.steps[pp].args
		w := f.constF32(pa[0])
		if w == nil || w.Dim() != 2 || !w.IsContiguous() || pa[1].kind != tmplLit {
			return false
		}
		if d := pa[1].lit.Ints(); len(d) != 2 || d[0] != 1 || d[1] != 0 {
			return false
		}
		// B = W^T: W is [n, k].
		packed, _ = once(f.shared, f.shared.packs, packKey{w: w, trans: true}, func() (*gemm.PackedB, error) {
			return gemm.PackB(true, w.Size(1), w.Size(0), tensor.Contig[float32](w), max(w.Size(1), 1)), nil
		})
		if f.uses[b] == 1 {
			pPerm = pp
		}
	}
	if packed == nil {
		return false
	}
	x := st.args[xi]
	st.kernel = kernels.PackedMatmul(packed, addmm)
	if addmm {
		st.args = []argTmpl{st.args[0], x}
	} else {
		st.args = []argTmpl{x}
	}
	if pPerm >= 0 {
		f.gone[pPerm] = true
		return true
	}
	return false
}

// packConvWeight gives a convolution whose input has 1x1 planes (a
// squeeze-excite block's gates) and whose weight is a constant float32 1x1
// kernel (a graph constant, or foldbn's folded weight) that weight packed
// once (kernels.ConvolutionWith), instead of a transpose and a pack on
// every call. The kernel checks the rest of the geometry on each call and
// runs the ordinary path wherever the packed weight does not apply.
func (f *fuser) packConvWeight(i int) {
	st := &f.gp.steps[i]
	if len(st.args) != 9 || st.args[0].kind != tmplSlot {
		return
	}
	m := f.meta(st.args[0].slot)
	if m == nil || m.DType != ir.Float32 || len(m.Sizes) < 3 {
		return
	}
	for _, s := range m.Sizes[2:] {
		if !s.IsStatic() || s.Int != 1 {
			return
		}
	}
	w := f.constF32(st.args[1])
	if w == nil && st.args[1].kind == tmplLit && st.args[1].lit.Kind() == value.Tensor {
		w = st.args[1].lit.Tensor()
	}
	if w == nil {
		return
	}
	st.conv.weight, _ = once(f.shared, f.shared.convs, w, func() (*kernels.PackedConvWeight, error) {
		return kernels.PackConvWeight(w), nil
	})
	if st.conv.weight != nil {
		st.setConv()
	}
}
