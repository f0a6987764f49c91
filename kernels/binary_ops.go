package kernels

import (
	"math"

	"github.com/seam-rt/seam/kernels/internal/vec"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

var one = value.FromInt(1)

// binaryKernel makes a kernel for op(self, other[, alpha]); alphaArg is the
// index of alpha or -1. Either operand may be a scalar.
func binaryKernel(op binOp, alphaArg int, swap bool) Kernel {
	return func(ctx *Context, args, out []value.Value) error {
		a, b := args[0], args[1]
		if a.Tensor() == nil && !a.IsScalar() {
			return errorf("argument %q must be a Tensor or Scalar, not %s", "self", a.Describe())
		}
		if b.Tensor() == nil && !b.IsScalar() {
			return errorf("argument %q must be a Tensor or Scalar, not %s", "other", b.Describe())
		}
		alpha := one
		if alphaArg >= 0 {
			if !args[alphaArg].IsScalar() {
				return errorf("argument %q must be a Scalar, not %s", "alpha", args[alphaArg].Describe())
			}
			alpha = args[alphaArg]
		}
		if swap {
			a, b = b, a
		}
		r, err := binary(ctx, op, a, b, alpha)
		if err != nil {
			return err
		}
		out[0] = value.FromTensor(r)
		return nil
	}
}

func init() {
	reg := func(op binOp, alpha int, targets ...string) { register(binaryKernel(op, alpha, false), targets...) }
	reg(opAdd, 2, "aten.add.Tensor", "aten.add.Scalar")
	reg(opSub, 2, "aten.sub.Tensor", "aten.sub.Scalar")
	register(binaryKernel(opSub, 2, true), "aten.rsub.Tensor", "aten.rsub.Scalar")
	reg(opMul, -1, "aten.mul.Tensor", "aten.mul.Scalar")
	reg(opDiv, -1, "aten.div.Tensor", "aten.div.Scalar")
	reg(opDivFloor, -1, "aten.floor_divide.default")
	reg(opRemainder, -1, "aten.remainder.Tensor", "aten.remainder.Scalar")
	reg(opFmod, -1, "aten.fmod.Tensor", "aten.fmod.Scalar")
	reg(opPow, -1, "aten.pow.Tensor_Tensor", "aten.pow.Scalar")
	reg(opMaximum, -1, "aten.maximum.default")
	reg(opMinimum, -1, "aten.minimum.default")
	reg(opAtan2, -1, "aten.atan2.default")
	reg(opBitAnd, -1, "aten.bitwise_and.Tensor", "aten.bitwise_and.Scalar")
	reg(opBitOr, -1, "aten.bitwise_or.Tensor", "aten.bitwise_or.Scalar")
	reg(opBitXor, -1, "aten.bitwise_xor.Tensor", "aten.bitwise_xor.Scalar")
	reg(opEq, -1, "aten.eq.Tensor", "aten.eq.Scalar")
	reg(opNe, -1, "aten.ne.Tensor", "aten.ne.Scalar")
	reg(opLt, -1, "aten.lt.Tensor", "aten.lt.Scalar")
	reg(opLe, -1, "aten.le.Tensor", "aten.le.Scalar")
	reg(opGt, -1, "aten.gt.Tensor", "aten.gt.Scalar")
	reg(opGe, -1, "aten.ge.Tensor", "aten.ge.Scalar")
	reg(opLogicalAnd, -1, "aten.logical_and.default")
	reg(opLogicalOr, -1, "aten.logical_or.default")
	reg(opLogicalXor, -1, "aten.logical_xor.default")
	register(divModeKernel, "aten.div.Tensor_mode", "aten.div.Scalar_mode")
	register(powTensorScalar, "aten.pow.Tensor_Scalar")
	register(logicalNot, "aten.logical_not.default")
	register(bitwiseNot, "aten.bitwise_not.default")
	register(floatClass(func(f float64) bool { return f != f }), "aten.isnan.default")
	register(floatClass(func(f float64) bool { return math.IsInf(f, 0) }), "aten.isinf.default")
	register(floatClass(func(f float64) bool { return !math.IsInf(f, 0) && f == f }), "aten.isfinite.default")
}

func divModeKernel(ctx *Context, args, out []value.Value) error {
	mode, err := argStr(args, 2, "rounding_mode", "")
	if err != nil {
		return err
	}
	op := opDiv
	switch mode {
	case "":
	case "trunc":
		op = opDivTrunc
	case "floor":
		op = opDivFloor
	default:
		return errorf("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found %q", mode)
	}
	return binaryKernel(op, -1, false)(ctx, args, out)
}

// powTensorScalar special-cases the exponents ATen's CPU kernel does
// (2 as x*x, 3 as x*x*x, 0.5 as sqrt, -0.5 as rsqrt, -1, -2) so results
// round as PyTorch's do.
func powTensorScalar(ctx *Context, args, out []value.Value) error {
	x, err := argTensor(args, 0, "self")
	if err != nil {
		return err
	}
	e, err := argScalar(args, 1, "exponent")
	if err != nil {
		return err
	}
	rt := resultType2(args[0], e)
	if x.DType() == tensor.Float32 && rt == tensor.Float32 {
		var f func(float32) float32
		switch e.Double() {
		case 2:
			f = func(v float32) float32 { return v * v }
		case 3:
			f = func(v float32) float32 { return v * v * v }
		case 0.5:
			f = func(v float32) float32 { return float32(math.Sqrt(float64(v))) }
		case -0.5:
			f = func(v float32) float32 { return 1 / float32(math.Sqrt(float64(v))) }
		case -1:
			f = func(v float32) float32 { return 1 / v }
		case -2:
			f = func(v float32) float32 { return 1 / (v * v) }
		case 1:
			f = func(v float32) float32 { return v }
		}
		if f != nil {
			r, err := ctx.empty(tensor.Float32, x.Sizes())
			if err != nil {
				return err
			}
			if e := e.Double(); (e == 2 || e == 3) && x.IsContiguous() {
				o, a := tensor.Contig[float32](r), tensor.Contig[float32](x)
				vec.Mul(o, a, a)
				if e == 3 {
					vec.Mul(o, o, a)
				}
				out[0] = value.FromTensor(r)
				return nil
			}
			o, a := tensor.Data[float32](r), tensor.Data[float32](x)
			w := unaryWalk(r, x)
			for w.Next() {
				for k := 0; k < w.Len; k++ {
					o[w.Off[0]+k*w.Step[0]] = f(a[w.Off[1]+k*w.Step[1]])
				}
			}
			out[0] = value.FromTensor(r)
			return nil
		}
	}
	return binaryKernel(opPow, -1, false)(ctx, args, out)
}

func logicalNot(ctx *Context, args, out []value.Value) error {
	x, err := argTensor(args, 0, "self")
	if err != nil {
		return err
	}
	r, err := ctx.empty(tensor.Bool, x.Sizes())
	if err != nil {
		return err
	}
	if err := tensor.Copy(r, x); err != nil {
		return err
	}
	b := tensor.Contig[bool](r)
	for i := range b {
		b[i] = !b[i]
	}
	out[0] = value.FromTensor(r)
	return nil
}

func bitwiseNot(ctx *Context, args, out []value.Value) error {
	x, err := argTensor(args, 0, "self")
	if err != nil {
		return err
	}
	if x.DType() == tensor.Bool {
		return logicalNot(ctx, args, out)
	}
	if x.DType().IsFloat() {
		return dtypeErr("bitwise_not", x.DType())
	}
	return binaryKernel(opBitXor, -1, false)(ctx, []value.Value{args[0], value.FromInt(-1)}, out)
}

func floatClass(pred func(float64) bool) Kernel {
	return func(ctx *Context, args, out []value.Value) error {
		x, err := argTensor(args, 0, "self")
		if err != nil {
			return err
		}
		r, err := ctx.Pool.Zeros(tensor.Bool, x.Sizes())
		if err != nil {
			return err
		}
		if x.DType().IsFloat() {
			b := tensor.Contig[bool](r)
			for i, v := range x.Float64s() {
				b[i] = pred(v)
			}
		} else if pred(0) { // isfinite of an integer tensor
			b := tensor.Contig[bool](r)
			for i := range b {
				b[i] = true
			}
		}
		out[0] = value.FromTensor(r)
		return nil
	}
}
