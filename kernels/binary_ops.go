package kernels

import (
	"math"

	"github.com/seam-rt/seam/kernels/internal/vec"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

var one = value.FromInt(1)

// binaryKernel makes a kernel for op(self, other[, alpha]) (withAlpha).
// Either operand may be a scalar.
func binaryKernel(op binOp, withAlpha, swap bool) Kernel {
	return func(ctx *Context, args, out []value.Value) error {
		arg := readArgs(args)
		a, b, alpha := arg.Operand(), arg.Operand(), one
		if withAlpha {
			alpha = arg.Scalar()
		}
		if err := arg.Err(); err != nil {
			return err
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
	reg := func(op binOp, alpha bool, targets ...string) { register(binaryKernel(op, alpha, false), targets...) }
	reg(opAdd, true, "aten.add.Tensor", "aten.add.Scalar")
	reg(opSub, true, "aten.sub.Tensor", "aten.sub.Scalar")
	register(binaryKernel(opSub, true, true), "aten.rsub.Tensor", "aten.rsub.Scalar")
	reg(opMul, false, "aten.mul.Tensor", "aten.mul.Scalar")
	reg(opDiv, false, "aten.div.Tensor", "aten.div.Scalar")
	reg(opDivFloor, false, "aten.floor_divide.default")
	reg(opRemainder, false, "aten.remainder.Tensor", "aten.remainder.Scalar")
	reg(opFmod, false, "aten.fmod.Tensor", "aten.fmod.Scalar")
	reg(opPow, false, "aten.pow.Tensor_Tensor", "aten.pow.Scalar")
	reg(opMaximum, false, "aten.maximum.default")
	reg(opMinimum, false, "aten.minimum.default")
	reg(opAtan2, false, "aten.atan2.default")
	reg(opBitAnd, false, "aten.bitwise_and.Tensor", "aten.bitwise_and.Scalar")
	reg(opBitOr, false, "aten.bitwise_or.Tensor", "aten.bitwise_or.Scalar")
	reg(opBitXor, false, "aten.bitwise_xor.Tensor", "aten.bitwise_xor.Scalar")
	reg(opEq, false, "aten.eq.Tensor", "aten.eq.Scalar")
	reg(opNe, false, "aten.ne.Tensor", "aten.ne.Scalar")
	reg(opLt, false, "aten.lt.Tensor", "aten.lt.Scalar")
	reg(opLe, false, "aten.le.Tensor", "aten.le.Scalar")
	reg(opGt, false, "aten.gt.Tensor", "aten.gt.Scalar")
	reg(opGe, false, "aten.ge.Tensor", "aten.ge.Scalar")
	reg(opLogicalAnd, false, "aten.logical_and.default")
	reg(opLogicalOr, false, "aten.logical_or.default")
	reg(opLogicalXor, false, "aten.logical_xor.default")
	register(divModeKernel, "aten.div.Tensor_mode", "aten.div.Scalar_mode")
	register(powTensorScalar, "aten.pow.Tensor_Scalar")
	register(logicalNot, "aten.logical_not.default")
	register(bitwiseNot, "aten.bitwise_not.default")
	register(floatClass(func(f float64) bool { return f != f }), "aten.isnan.default")
	register(floatClass(func(f float64) bool { return math.IsInf(f, 0) }), "aten.isinf.default")
	register(floatClass(func(f float64) bool { return !math.IsInf(f, 0) && f == f }), "aten.isfinite.default")
}

func divModeKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	arg.Skip(2)
	mode := arg.Str("")
	if err := arg.Err(); err != nil {
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
	return binaryKernel(op, false, false)(ctx, args, out)
}

// powTensorScalar special-cases the exponents ATen's CPU kernel does
// (2 as x*x, 3 as x*x*x, 0.5 as sqrt, -0.5 as rsqrt, -1, -2) so results
// round as PyTorch's do.
func powTensorScalar(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	x, e := arg.Tensor(), arg.Scalar()
	if err := arg.Err(); err != nil {
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
	return binaryKernel(opPow, false, false)(ctx, args, out)
}

func logicalNot(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	x := arg.Tensor()
	if err := arg.Err(); err != nil {
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
	arg := readArgs(args)
	x := arg.Tensor()
	if err := arg.Err(); err != nil {
		return err
	}
	if x.DType() == tensor.Bool {
		return logicalNot(ctx, args, out)
	}
	if x.DType().IsFloat() {
		return dtypeErr("bitwise_not", x.DType())
	}
	return binaryKernel(opBitXor, false, false)(ctx, []value.Value{args[0], value.FromInt(-1)}, out)
}

func floatClass(pred func(float64) bool) Kernel {
	return func(ctx *Context, args, out []value.Value) error {
		arg := readArgs(args)
		x := arg.Tensor()
		if err := arg.Err(); err != nil {
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
