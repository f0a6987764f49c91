package runtime

import (
	"math"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/kernels"
	"github.com/seam-rt/seam/value"
)

// Fusion: a few patterns that exported transformers spell out op by op run
// as one kernel each, which reads its input once instead of writing and
// re-reading every intermediate, and costs one step instead of several.
// A pattern is fused only when its intermediates have no other use, its
// constants are the ones the fused kernel uses, and its tensors are
// float32 by the graph's metadata; the fused kernels do the patterns'
// float32 arithmetic in the same order, so results do not change.
//
//   - GPT-2's gelu_new, 0.5*x*(1 + tanh(sqrt(2/pi)*(x + 0.044715*x^3)))
//     as mul, pow, mul, add, mul, tanh, add, mul: gelu(x, approximate='tanh').
//   - Attention's scores, _softmax(x*c + mask, -1) as mul, add, _softmax:
//     kernels.ScaledMaskedSoftmax.
//   - hardswish and hardsigmoid as their decomposition spells them (add 3,
//     clamp to [0, 6] in one or two clamps, mul by x, div by 6): the
//     aten kernels, which round the same steps (perf_fold.go).
//   - A max pool whose indices nothing reads: kernels.MaxPool2dValues.
//   - A convolution whose only use is relu, hardswish or hardsigmoid (once
//     batch norm is folded into it): kernels.ConvolutionWith, which
//     activates each output plane as soon as it is written.
//
// With the constant weights at hand (top-level graph inputs that are
// parameters, buffers no run changes, or tensor constants), perf_fold.go
// also folds batch norm into the convolution before it and packs the B
// operand of mm/addmm, and a 1x1 convolution's weight over 1x1 planes,
// once for the GEMM. Each pattern is one pass of
// passes.go's table, by the name given there.

// poolValues runs a max pool whose indices nothing reads (the usual
// export of nn.MaxPool2d: only getitem 0 of max_pool2d_with_indices) as
// kernels.MaxPool2dValues, which computes the same values without them:
// aten.max_pool2d.default's work.
func (f *fuser) poolValues(i int) bool {
	st := &f.gp.steps[i]
	if len(st.outs) != 2 || st.outs[1].list != nil {
		return false
	}
	if s := st.outs[1].slot; s >= 0 && f.uses[s] > 0 {
		return false
	}
	st.kernel, st.runs = kernels.MaxPool2dValues, "aten.max_pool2d.default"
	return true
}

// convActivation fuses the activation step a into the convolution that
// defines its input, when that is the convolution's only use.
func (f *fuser) convActivation(a int) bool {
	st := &f.gp.steps[a]
	if len(st.args) != 1 || st.args[0].kind != tmplSlot || f.out(a) < 0 {
		return false
	}
	v := st.args[0].slot
	pc, ok := f.single(v, "aten.convolution.default")
	if !ok || f.out(pc) != v || !f.float32(f.out(a)) {
		return false
	}
	cv := &f.gp.steps[pc]
	cv.conv.act = f.op(a)
	if !cv.setConv() {
		cv.conv.act = ""
		return false
	}
	cv.outs[0].slot = st.outs[0].slot
	f.prod[st.outs[0].slot] = pc
	f.gone[a] = true
	return true
}

// single returns the step that defines slot s with op target, when s has
// no other use than the one being matched.
func (f *fuser) single(s int32, target string) (int, bool) {
	i := f.prod[s]
	return i, i >= 0 && f.uses[s] == 1 && f.target(i) == target
}

// out is the slot of a step's single result.
func (f *fuser) out(i int) int32 {
	st := &f.gp.steps[i]
	if len(st.outs) != 1 || st.outs[0].list != nil {
		return -1
	}
	return st.outs[0].slot
}

// number reads a literal int or float argument.
func number(t argTmpl) (float64, bool) {
	if t.kind != tmplLit {
		return 0, false
	}
	switch t.lit.Kind() {
	case value.Double, value.Int:
		return t.lit.Double(), true
	}
	return 0, false
}

// withConst matches a binary step op(slot, c) or op(c, slot) (add with
// alpha 1) and returns the slot and c.
func (f *fuser) withConst(i int) (int32, float64, bool) {
	args := f.gp.steps[i].args
	if len(args) < 2 {
		return 0, 0, false
	}
	if len(args) > 2 {
		if a, ok := number(args[2]); !ok || a != 1 {
			return 0, 0, false
		}
	}
	if c, ok := number(args[1]); ok && args[0].kind == tmplSlot {
		return args[0].slot, c, true
	}
	if c, ok := number(args[0]); ok && args[1].kind == tmplSlot {
		return args[1].slot, c, true
	}
	return 0, 0, false
}

// slots matches a binary step op(a, b) of two values (add with alpha 1).
func (f *fuser) slots(i int) (int32, int32, bool) {
	args := f.gp.steps[i].args
	if len(args) < 2 || args[0].kind != tmplSlot || args[1].kind != tmplSlot {
		return 0, 0, false
	}
	if len(args) > 2 {
		if a, ok := number(args[2]); !ok || a != 1 {
			return 0, 0, false
		}
	}
	return args[0].slot, args[1].slot, true
}

// meta is a value's tensor metadata, nil when it has none.
func (f *fuser) meta(s int32) *ir.TensorMeta {
	if f.g.TensorValues == nil {
		return nil
	}
	return f.g.TensorValues[f.names[s]]
}

func (f *fuser) float32(s int32) bool {
	m := f.meta(s)
	return m != nil && m.DType == ir.Float32
}

// asF32 compares constants as the float32 kernels use them.
func asF32(a, b float64) bool { return float32(a) == float32(b) }

// geluTanh fuses the gelu_new chain around the tanh step t.
func (f *fuser) geluTanh(t int) bool {
	const beta, kappa = 0.7978845608028654, 0.044715 // sqrt(2/pi)
	steps := f.gp.steps
	th := f.out(t)
	if th < 0 || f.uses[th] != 1 || len(steps[t].args) != 1 || steps[t].args[0].kind != tmplSlot {
		return false
	}
	// Backwards: inner = (x + kappa*x^3) * beta.
	pInner, ok := f.single(steps[t].args[0].slot, "aten.mul.Tensor")
	if !ok {
		return false
	}
	sum, c, ok := f.withConst(pInner)
	if !ok || !asF32(c, beta) {
		return false
	}
	pSum, ok := f.single(sum, "aten.add.Tensor")
	if !ok {
		return false
	}
	a, b, ok := f.slots(pSum)
	if !ok {
		return false
	}
	// One of the addends is kappa*x^3, the other x.
	var x int32
	var pCube, pPow int
	found := false
	for _, try := range [2][2]int32{{a, b}, {b, a}} {
		pk, ok := f.single(try[1], "aten.mul.Tensor")
		if !ok {
			continue
		}
		cube, c, ok := f.withConst(pk)
		if !ok || !asF32(c, kappa) {
			continue
		}
		pp, ok := f.single(cube, "aten.pow.Tensor_Scalar")
		if !ok {
			continue
		}
		pa := steps[pp].args
		if len(pa) != 2 || pa[0].kind != tmplSlot || pa[0].slot != try[0] {
			continue
		}
		if e, ok := number(pa[1]); !ok || e != 3 {
			continue
		}
		x, pCube, pPow, found = try[0], pk, pp, true
		break
	}
	if !found || !f.float32(x) {
		return false
	}
	// Forwards: u = tanh + 1, out = (x*0.5) * u.
	pOne := f.users[th]
	if f.target(pOne) != "aten.add.Tensor" {
		return false
	}
	if v, c, ok := f.withConst(pOne); !ok || v != th || c != 1 {
		return false
	}
	u := f.out(pOne)
	if u < 0 || f.uses[u] != 1 {
		return false
	}
	pOut := f.users[u]
	if f.target(pOut) != "aten.mul.Tensor" {
		return false
	}
	m0, m1, ok := f.slots(pOut)
	if !ok {
		return false
	}
	half := m0
	if m0 == u {
		half = m1
	} else if m1 != u {
		return false
	}
	pHalf, ok := f.single(half, "aten.mul.Tensor")
	if !ok {
		return false
	}
	if v, c, ok := f.withConst(pHalf); !ok || v != x || c != 0.5 {
		return false
	}
	gelu, ok := kernels.Lookup("aten.gelu.default")
	if !ok {
		return false
	}
	st := &f.gp.steps[pOut]
	st.kernel = gelu
	st.args = []argTmpl{{kind: tmplSlot, slot: x}, litTmpl(value.FromString("tanh"))}
	for _, i := range []int{pHalf, pPow, pCube, pSum, pInner, t, pOne} {
		f.gone[i] = true
	}
	return true
}

// scaledMaskedSoftmax fuses _softmax(x*c + mask, -1) at the softmax step.
func (f *fuser) scaledMaskedSoftmax(sm int) bool {
	st := &f.gp.steps[sm]
	if len(st.args) != 3 || st.args[0].kind != tmplSlot || f.out(sm) < 0 {
		return false
	}
	if h := st.args[2]; h.kind != tmplLit || h.lit.Kind() != value.Bool || h.lit.Bool() {
		return false // half_to_float
	}
	pAdd, ok := f.single(st.args[0].slot, "aten.add.Tensor")
	if !ok {
		return false
	}
	a, b, ok := f.slots(pAdd)
	if !ok {
		return false
	}
	for _, try := range [2][2]int32{{a, b}, {b, a}} {
		pMul, ok := f.single(try[0], "aten.mul.Tensor")
		if !ok {
			continue
		}
		x, c, ok := f.withConst(pMul)
		mask := try[1]
		if !ok || !f.float32(x) || !f.float32(mask) || !f.lastDim(st.args[1], x) || !f.broadcastsTo(mask, x) {
			continue
		}
		st.kernel = kernels.ScaledMaskedSoftmax
		st.args = []argTmpl{{kind: tmplSlot, slot: x}, litTmpl(value.FromDouble(c)), {kind: tmplSlot, slot: mask}}
		f.gone[pMul], f.gone[pAdd] = true, true
		return true
	}
	return false
}

// lastDim reports whether a softmax dim argument names x's last dim.
func (f *fuser) lastDim(dim argTmpl, x int32) bool {
	d, ok := number(dim)
	if !ok || d != math.Trunc(d) {
		return false
	}
	m := f.meta(x)
	return m != nil && (d == -1 || int(d) == len(m.Sizes)-1)
}

// broadcastsTo reports whether, by the metadata, mask broadcasts to x's
// shape without growing it: each of its dims (aligned at the end) is 1 or
// the same size as x's.
func (f *fuser) broadcastsTo(mask, x int32) bool {
	mm, xm := f.meta(mask), f.meta(x)
	if mm == nil || xm == nil || len(mm.Sizes) > len(xm.Sizes) {
		return false
	}
	off := len(xm.Sizes) - len(mm.Sizes)
	for i, d := range mm.Sizes {
		xd := xm.Sizes[off+i]
		switch {
		case d.Expr == nil && d.Int == 1:
		case d.Expr == nil && xd.Expr == nil && d.Int == xd.Int:
		case d.Expr != nil && xd.Expr != nil && d.Expr.Expr == xd.Expr.Expr:
		default:
			return false
		}
	}
	return true
}
