package kernels

import (
	"math"

	"github.com/seam-rt/seam/kernels/internal/vec"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// unaryOp is a one-input elementwise op.
type unaryOp uint8

const (
	uNeg unaryOp = iota
	uAbs
	uRelu
	uSign
	uCeil
	uFloor
	uRound
	uTrunc
	// Ops below promote integer inputs to the default float dtype.
	uExp
	uExp2
	uExpm1
	uLog
	uLog2
	uLog10
	uLog1p
	uSqrt
	uRsqrt
	uReciprocal
	uSin
	uCos
	uTan
	uAsin
	uAcos
	uAtan
	uSinh
	uCosh
	uTanh
	uAsinh
	uAcosh
	uAtanh
	uSigmoid
	uErf
	uErfinv
	// Ops below accept only float inputs.
	uSilu
	uGelu
	uGeluTanh
	uHardswish
	uHardsigmoid
	uMish
)

func (op unaryOp) intToFloat() bool { return op >= uExp }
func (op unaryOp) floatOnly() bool  { return op >= uSilu }

var unaryNames = map[unaryOp]string{uAbs: "abs", uRelu: "relu", uCeil: "ceil", uFloor: "floor", uRound: "round",
	uTrunc: "trunc", uSilu: "silu", uGelu: "gelu", uGeluTanh: "gelu", uHardswish: "hardswish", uHardsigmoid: "hardsigmoid", uMish: "mish"}

// f64Func is the float64 definition of each op, used for float64 tensors
// and for float32 ops without a hand-written loop.
func f64Func(op unaryOp) func(float64) float64 {
	switch op {
	case uNeg:
		return func(x float64) float64 { return -x }
	case uAbs:
		return math.Abs
	case uRelu:
		return func(x float64) float64 {
			if x > 0 || x != x {
				return x
			}
			return 0
		}
	case uSign:
		return func(x float64) float64 {
			switch {
			case x > 0:
				return 1
			case x < 0:
				return -1
			}
			return 0 // 0, -0 and NaN, as ATen's (0 < x) - (x < 0)
		}
	case uCeil:
		return math.Ceil
	case uFloor:
		return math.Floor
	case uRound:
		return math.RoundToEven
	case uTrunc:
		return math.Trunc
	case uExp:
		return math.Exp
	case uExp2:
		return math.Exp2
	case uExpm1:
		return math.Expm1
	case uLog:
		return math.Log
	case uLog2:
		return math.Log2
	case uLog10:
		return math.Log10
	case uLog1p:
		return math.Log1p
	case uSqrt:
		return math.Sqrt
	case uRsqrt:
		return func(x float64) float64 { return 1 / math.Sqrt(x) }
	case uReciprocal:
		return func(x float64) float64 { return 1 / x }
	case uSin:
		return math.Sin
	case uCos:
		return math.Cos
	case uTan:
		return math.Tan
	case uAsin:
		return math.Asin
	case uAcos:
		return math.Acos
	case uAtan:
		return math.Atan
	case uSinh:
		return math.Sinh
	case uCosh:
		return math.Cosh
	case uTanh:
		return math.Tanh
	case uAsinh:
		return math.Asinh
	case uAcosh:
		return math.Acosh
	case uAtanh:
		return math.Atanh
	case uSigmoid:
		return func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
	case uErf:
		return math.Erf
	case uErfinv:
		return math.Erfinv
	case uSilu:
		return func(x float64) float64 { return x / (1 + math.Exp(-x)) }
	case uGelu:
		return geluErf64
	case uGeluTanh:
		return geluTanh64
	case uHardswish:
		return func(x float64) float64 { return x * math.Min(math.Max(x+3, 0), 6) / 6 }
	case uHardsigmoid:
		return func(x float64) float64 { return math.Min(math.Max(x+3, 0), 6) / 6 }
	case uMish:
		return func(x float64) float64 { return x * math.Tanh(math.Log1p(math.Exp(x))) }
	}
	return func(x float64) float64 { return x }
}

// unary applies op to x with ATen's dtype rules: integer inputs of
// float-valued ops become the default float dtype; float16/bfloat16 compute
// in float32.
func unary(ctx *Context, op unaryOp, x *tensor.Tensor) (*tensor.Tensor, error) {
	defer ctx.releaseTemps()
	dt := x.DType()
	outDT := dt
	if !dt.IsFloat() {
		switch {
		case op.floatOnly():
			return nil, dtypeErr(unaryNames[op], dt)
		case op.intToFloat():
			outDT = DefaultFloat
		case dt == tensor.Bool && op == uNeg:
			return nil, dtypeErr("negation, the `-` operator, on a bool tensor", dt)
		case dt == tensor.Bool && op != uSign:
			return nil, dtypeErr(unaryNames[op], dt)
		}
	}
	out, err := ctx.empty(outDT, x.Sizes())
	if err != nil {
		return nil, err
	}
	if !dt.IsFloat() && !op.intToFloat() {
		err = unaryInt(op, out, x)
	} else {
		native := outDT
		if native == tensor.Float16 || native == tensor.BFloat16 {
			native = tensor.Float32
		}
		src, dst := x, out
		if src.DType() != native {
			if src, err = ctx.temp(native, x.Sizes()); err == nil {
				err = tensor.Copy(src, x)
			}
		}
		if err == nil && native != outDT {
			dst, err = ctx.temp(native, x.Sizes())
		}
		if err == nil {
			if native == tensor.Float32 {
				unaryF32(op, dst, src)
			} else {
				unaryF64(op, dst, src)
			}
			if dst != out {
				err = tensor.Copy(out, dst)
			}
		}
	}
	if err != nil {
		ctx.Pool.Release(out)
		return nil, err
	}
	return out, nil
}

func unaryWalk(out, x *tensor.Tensor) tensor.Walk {
	var w tensor.Walk
	w.Init(out.Sizes())
	w.Add(out.Strides(), 0)
	w.Add(x.Strides(), 0)
	w.Coalesce()
	return w
}

func unaryF32(op unaryOp, out, x *tensor.Tensor) {
	o, a := tensor.Data[float32](out), tensor.Data[float32](x)
	w := unaryWalk(out, x)
	var f func(float32) float32
	switch op {
	case uNeg:
		f = func(v float32) float32 { return -v }
	case uAbs:
		f = func(v float32) float32 { return float32(math.Abs(float64(v))) }
	case uExp:
		f = expf
	case uTanh:
		f = tanhf
	case uSigmoid:
		f = vec.Sigmoid1
	case uSilu:
		f = vec.Silu1
	case uHardswish:
		f = vec.Hardswish1
	case uHardsigmoid:
		f = vec.Hardsigmoid1
	case uGeluTanh:
		f = vec.GeluTanh1
	case uGelu:
		f = vec.GeluErf1
	case uSqrt:
		f = func(v float32) float32 { return float32(math.Sqrt(float64(v))) }
	case uRsqrt:
		f = func(v float32) float32 { return 1 / float32(math.Sqrt(float64(v))) }
	case uReciprocal:
		f = func(v float32) float32 { return 1 / v }
	default:
		g := f64Func(op)
		f = func(v float32) float32 { return float32(g(float64(v))) }
	}
	for w.Next() {
		n := w.Len
		oo, oa := w.Off[0], w.Off[1]
		if w.Step[0] == 1 && w.Step[1] == 1 {
			dst, src := o[oo:oo+n], a[oa:oa+n]
			switch op {
			case uRelu:
				vec.Relu(dst, src)
				continue
			case uNeg:
				vec.MulScalar(dst, src, -1)
				continue
			case uReciprocal:
				vec.ScalarDiv(dst, 1, src)
				continue
			case uTanh:
				vec.Tanh(dst, src)
				continue
			case uExp:
				vec.ExpShiftSum(dst, src, 0)
				continue
			case uGelu:
				vec.GeluErf(dst, src)
				continue
			case uGeluTanh:
				vec.GeluTanh(dst, src)
				continue
			case uSigmoid:
				vec.Sigmoid(dst, src)
				continue
			case uSilu:
				vec.Silu(dst, src)
				continue
			case uHardswish:
				vec.Hardswish(dst, src)
				continue
			case uHardsigmoid:
				vec.Hardsigmoid(dst, src)
				continue
			}
			for i, v := range src {
				dst[i] = f(v)
			}
			continue
		}
		so, sa := w.Step[0], w.Step[1]
		for k := 0; k < n; k++ {
			v := a[oa+k*sa]
			if op == uRelu {
				if v < 0 {
					v = 0
				}
				o[oo+k*so] = v
				continue
			}
			o[oo+k*so] = f(v)
		}
	}
}

func unaryF64(op unaryOp, out, x *tensor.Tensor) {
	o, a := tensor.Data[float64](out), tensor.Data[float64](x)
	f := f64Func(op)
	w := unaryWalk(out, x)
	for w.Next() {
		for k := 0; k < w.Len; k++ {
			o[w.Off[0]+k*w.Step[0]] = f(a[w.Off[1]+k*w.Step[1]])
		}
	}
}

// unaryInt handles integer and bool inputs of ops that keep the dtype.
func unaryInt(op unaryOp, out, x *tensor.Tensor) error {
	if op == uCeil || op == uFloor || op == uRound || op == uTrunc {
		return tensor.Copy(out, x)
	}
	// Rare path (integer neg/abs/relu/sign): go through int64.
	vals := x.Int64s()
	i := 0
	res := make([]int64, len(vals))
	for ; i < len(vals); i++ {
		v := vals[i]
		switch op {
		case uNeg:
			v = -v
		case uAbs:
			if v < 0 {
				v = -v
			}
		case uRelu:
			v = max(v, 0)
		case uSign:
			switch {
			case v > 0:
				v = 1
			case v < 0:
				v = -1
			}
		}
		res[i] = v
	}
	t, err := tensor.FromSlice(res, out.Sizes()...)
	if err != nil {
		return err
	}
	return tensor.Copy(out, t)
}

func unaryKernel(op unaryOp) Kernel {
	return func(ctx *Context, args, out []value.Value) error {
		arg := readArgs(args)
		x := arg.Tensor()
		if err := arg.Err(); err != nil {
			return err
		}
		r, err := unary(ctx, op, x)
		if err != nil {
			return err
		}
		out[0] = value.FromTensor(r)
		return nil
	}
}

func init() {
	for target, op := range map[string]unaryOp{
		"aten.neg.default": uNeg, "aten.abs.default": uAbs, "aten.relu.default": uRelu, "aten.sign.default": uSign,
		"aten.ceil.default": uCeil, "aten.floor.default": uFloor, "aten.round.default": uRound, "aten.trunc.default": uTrunc,
		"aten.exp.default": uExp, "aten.exp2.default": uExp2, "aten.expm1.default": uExpm1, "aten.log.default": uLog,
		"aten.log2.default": uLog2, "aten.log10.default": uLog10, "aten.log1p.default": uLog1p, "aten.sqrt.default": uSqrt,
		"aten.rsqrt.default": uRsqrt, "aten.reciprocal.default": uReciprocal, "aten.sin.default": uSin, "aten.cos.default": uCos,
		"aten.tan.default": uTan, "aten.asin.default": uAsin, "aten.acos.default": uAcos, "aten.atan.default": uAtan,
		"aten.sinh.default": uSinh, "aten.cosh.default": uCosh, "aten.tanh.default": uTanh, "aten.asinh.default": uAsinh,
		"aten.acosh.default": uAcosh, "aten.atanh.default": uAtanh, "aten.sigmoid.default": uSigmoid, "aten.erf.default": uErf,
		"aten.erfinv.default": uErfinv, "aten.silu.default": uSilu, "aten.hardswish.default": uHardswish,
		"aten.hardsigmoid.default": uHardsigmoid, "aten.mish.default": uMish,
	} {
		register(unaryKernel(op), target)
	}
	register(geluKernel, "aten.gelu.default")
}

func geluKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	x, approx := arg.Tensor(), arg.Str("none")
	if err := arg.Err(); err != nil {
		return err
	}
	op := uGelu
	switch approx {
	case "none":
	case "tanh":
		op = uGeluTanh
	default:
		return errorf("approximate must be 'none' or 'tanh', not %q", approx)
	}
	r, err := unary(ctx, op, x)
	if err != nil {
		return err
	}
	out[0] = value.FromTensor(r)
	return nil
}
