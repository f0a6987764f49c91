package kernels

import (
	"math"

	"github.com/seam-rt/seam/kernels/internal/vec"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

func init() {
	register(whereKernel, "aten.where.self", "aten.where.ScalarSelf", "aten.where.ScalarOther", "aten.where.Scalar")
	register(maskedFillKernel, "aten.masked_fill.Scalar", "aten.masked_fill.Tensor")
	register(clampKernel, "aten.clamp.default", "aten.clamp.Tensor")
	register(clampOneKernel(true), "aten.clamp_min.default")
	register(clampOneKernel(false), "aten.clamp_max.default")
	register(hardtanhKernel, "aten.hardtanh.default")
	register(leakyReluKernel, "aten.leaky_relu.default")
	register(eluKernel, "aten.elu.default")
}

// where picks a where cond is true, else b, after promoting a and b together
// (either may be a scalar); the output dtype is outDT.
func where(ctx *Context, cond *tensor.Tensor, a, b value.Value, outDT tensor.DType) (*tensor.Tensor, error) {
	defer ctx.releaseTemps()
	if cond.DType() != tensor.Bool {
		return nil, errorf("where expected condition to be a boolean tensor, but got a tensor with dtype %v", cond.DType())
	}
	var sb, tb [8]int
	ab, err := broadcastShapes(sb[:0], cond.Sizes(), shapeOf(a))
	if err != nil {
		return nil, err
	}
	shape, err := broadcastShapes(tb[:0], ab, shapeOf(b))
	if err != nil {
		return nil, err
	}
	ops := [2]*tensor.Tensor{}
	for i, v := range []value.Value{a, b} {
		t := v.Tensor()
		if t == nil || t.DType() != outDT {
			c, err := ctx.temp(outDT, shapeOf(v))
			if err != nil {
				return nil, err
			}
			if t != nil {
				err = tensor.Copy(c, t)
			} else if err = checkFits(v, outDT); err == nil {
				fillScalar(c, v)
			}
			if err != nil {
				return nil, err
			}
			t = c
		}
		ops[i] = t
	}
	res, err := ctx.empty(outDT, shape)
	if err != nil {
		return nil, err
	}
	var w tensor.Walk
	w.Init(shape)
	w.Add(res.Strides(), 0)
	addOperand(&w, cond, shape)
	addOperand(&w, ops[0], shape)
	addOperand(&w, ops[1], shape)
	w.Coalesce()
	if err := w.Err(); err != nil {
		return nil, err
	}
	c := boolBytes(cond)
	switch outDT.Size() {
	case 4:
		whereRows(&w, c, words32(res), words32(ops[0]), words32(ops[1]))
	case 8:
		whereRows(&w, c, words64(res), words64(ops[0]), words64(ops[1]))
	case 2:
		whereRows(&w, c, words16(res), words16(ops[0]), words16(ops[1]))
	default:
		whereRows(&w, c, bytesOf(res), bytesOf(ops[0]), bytesOf(ops[1]))
	}
	return res, nil
}

func whereRows[T uint8 | uint16 | uint32 | uint64](w *tensor.Walk, c []uint8, o, a, b []T) {
	for w.Next() {
		if n := w.Len; w.Step[0] == 1 && w.Step[1] == 1 {
			oo, cc := o[w.Off[0]:w.Off[0]+n], c[w.Off[1]:w.Off[1]+n]
			switch {
			case w.Step[2] == 0 && w.Step[3] == 0:
				// where(mask, scalar, scalar): an attention mask.
				x, y := a[w.Off[2]], b[w.Off[3]]
				for i, m := range cc {
					v := y
					if m != 0 {
						v = x
					}
					oo[i] = v
				}
				continue
			case w.Step[2] == 1 && w.Step[3] == 1:
				aa, bb := a[w.Off[2]:w.Off[2]+n], b[w.Off[3]:w.Off[3]+n]
				for i, m := range cc {
					v := bb[i]
					if m != 0 {
						v = aa[i]
					}
					oo[i] = v
				}
				continue
			}
		}
		for k := 0; k < w.Len; k++ {
			if c[w.Off[1]+k*w.Step[1]] != 0 {
				o[w.Off[0]+k*w.Step[0]] = a[w.Off[2]+k*w.Step[2]]
			} else {
				o[w.Off[0]+k*w.Step[0]] = b[w.Off[3]+k*w.Step[3]]
			}
		}
	}
}

func whereKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	cond, a, b := arg.Tensor(), arg.Operand(), arg.Operand()
	if err := arg.Err(); err != nil {
		return err
	}
	r, err := where(ctx, cond, a, b, resultType2(a, b))
	if err != nil {
		return err
	}
	out[0] = value.FromTensor(r)
	return nil
}

func maskedFillKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	self, mask, v := arg.Tensor(), arg.Tensor(), arg.Operand()
	if err := arg.Err(); err != nil {
		return err
	}
	if t := v.Tensor(); t != nil && t.Dim() != 0 {
		return errorf("masked_fill only supports a 0-dimensional value tensor, but got tensor with %d dimension(s)", t.Dim())
	}
	if mask.DType() != tensor.Bool {
		return errorf("masked_fill only supports boolean masks, but got mask with dtype %v", mask.DType())
	}
	if err := checkFits(v, self.DType()); err != nil {
		return err
	}
	var sb [8]int
	if shape, err := broadcastShapes(sb[:0], self.Sizes(), mask.Sizes()); err != nil || !tensor.EqualInts(shape, self.Sizes()) {
		return errorf("mask %s cannot be broadcast to self %s", mask.Type(), self.Type())
	}
	r, err := where(ctx, mask, v, args[0], self.DType())
	if err != nil {
		return err
	}
	out[0] = value.FromTensor(r)
	return nil
}

// clampWith applies lower/upper bounds (either may be None) elementwise
// through maximum/minimum, which propagate NaN as ATen's clamp does.
func clampWith(ctx *Context, x value.Value, lo, hi value.Value) (*tensor.Tensor, error) {
	if r, ok, err := clampF32(ctx, x.Tensor(), lo, hi); ok {
		return r, err
	}
	rt := x.Tensor().DType()
	if !lo.IsNone() {
		rt = ResultType(x, lo)
	}
	if !hi.IsNone() {
		rt = PromoteTypes(rt, ResultType(x, hi))
	}
	if rt == tensor.Bool && !lo.IsNone() && !hi.IsNone() {
		return nil, dtypeErr("clamp", rt) // ATen's clamp kernel; one bound is maximum or minimum
	}
	cur := x
	var last *tensor.Tensor
	for i, bound := range []value.Value{lo, hi} {
		if bound.IsNone() {
			continue
		}
		op := opMaximum
		if i == 1 {
			op = opMinimum
		}
		if bound.Tensor() == nil {
			if err := checkFits(bound, rt); err != nil {
				return nil, err
			}
		}
		r, err := binary(ctx, op, cur, bound, one)
		if err != nil {
			return nil, err
		}
		if last != nil {
			ctx.Pool.Release(last)
		}
		last = r
		cur = value.FromTensor(r)
	}
	if last == nil {
		return copyOf(ctx, x.Tensor(), rt)
	}
	if last.DType() != rt {
		r, err := copyOf(ctx, last, rt)
		ctx.Pool.Release(last)
		return r, err
	}
	return last, nil
}

// clampF32 clamps a contiguous float32 tensor by number bounds (or None)
// in one pass; ok is false for anything else.
func clampF32(ctx *Context, x *tensor.Tensor, lo, hi value.Value) (*tensor.Tensor, bool, error) {
	if x.DType() != tensor.Float32 || !x.IsContiguous() {
		return nil, false, nil
	}
	b := [2]float32{float32(math.Inf(-1)), float32(math.Inf(1))}
	for i, v := range []value.Value{lo, hi} {
		switch v.Kind() {
		case value.None:
		case value.Int, value.Double:
			b[i] = float32(v.Double())
		default:
			return nil, false, nil
		}
	}
	r, err := ctx.empty(tensor.Float32, x.Sizes())
	if err != nil {
		return nil, true, err
	}
	vec.Clamp(tensor.Contig[float32](r), tensor.Contig[float32](x), b[0], b[1])
	return r, true, nil
}

func clampKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	if arg.Tensor(); arg.Err() != nil {
		return arg.Err()
	}
	if args[1].IsNone() && args[2].IsNone() {
		return errorf("at least one of 'min' or 'max' must not be None")
	}
	r, err := clampWith(ctx, args[0], args[1], args[2])
	if err != nil {
		return err
	}
	out[0] = value.FromTensor(r)
	return nil
}

func clampOneKernel(isMin bool) Kernel {
	return func(ctx *Context, args, out []value.Value) error {
		arg := readArgs(args)
		if arg.Tensor(); arg.Err() != nil {
			return arg.Err()
		}
		lo, hi := args[1], value.NoneValue()
		if !isMin {
			lo, hi = hi, lo
		}
		r, err := clampWith(ctx, args[0], lo, hi)
		if err != nil {
			return err
		}
		out[0] = value.FromTensor(r)
		return nil
	}
}

func hardtanhKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	x := arg.Tensor()
	if err := arg.Err(); err != nil {
		return err
	}
	if x.DType() == tensor.Bool {
		return dtypeErr("hardtanh", x.DType())
	}
	if x.DType() == tensor.Uint8 && (args[1].Double() < 0 || args[2].Double() < 0) {
		return errorf("cannot do hardtanh on an unsigned type with negative limits")
	}
	r, err := clampWith(ctx, args[0], args[1], args[2])
	if err != nil {
		return err
	}
	if r.DType() != x.DType() {
		c, err := copyOf(ctx, r, x.DType())
		ctx.Pool.Release(r)
		if err != nil {
			return err
		}
		r = c
	}
	out[0] = value.FromTensor(r)
	return nil
}

// mapFloat applies f to a float tensor elementwise into a new tensor.
func mapFloat(ctx *Context, x *tensor.Tensor, f func(float64) float64) (*tensor.Tensor, error) {
	if !x.DType().IsFloat() {
		return nil, dtypeErr("this activation", x.DType())
	}
	r, err := ctx.empty(x.DType(), x.Sizes())
	if err != nil {
		return nil, err
	}
	vals := x.Float64s()
	for i := range vals {
		vals[i] = f(vals[i])
	}
	writeFloats(r, vals)
	return r, nil
}

func leakyReluKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	x, slope := arg.Tensor(), arg.Scalar()
	if err := arg.Err(); err != nil {
		return err
	}
	s := slope.Double()
	f32 := x.DType() != tensor.Float64 // float32 opmath for f32, f16, bf16
	r, err := mapFloat(ctx, x, func(v float64) float64 {
		if v > 0 {
			return v
		}
		if f32 {
			return float64(float32(v) * float32(s))
		}
		return v * s
	})
	if err != nil {
		return err
	}
	out[0] = value.FromTensor(r)
	return nil
}

func eluKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	x, alpha, scale, inScale := arg.Tensor(), arg.ScalarFloat(), arg.ScalarFloat(), arg.ScalarFloat()
	if err := arg.Err(); err != nil {
		return err
	}
	r, err := mapFloat(ctx, x, func(v float64) float64 {
		if v > 0 {
			return v * scale
		}
		return alpha * scale * (expm1(v * inScale))
	})
	if err != nil {
		return err
	}
	out[0] = value.FromTensor(r)
	return nil
}
