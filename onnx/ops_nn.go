package onnx

import (
	"fmt"
)

// Matrix products, convolution, normalisation, softmax and pooling.

func init() {
	register(matmul, "aten.mm.default", "aten.bmm.default", "aten.matmul.default")
	register(addmm, "aten.addmm.default")
	register(baddbmm, "aten.baddbmm.default")
	register(linear, "aten.linear.default")
	register(convolution, "aten.convolution.default")
	register(batchNorm, "aten._native_batch_norm_legit_no_training.default", "aten._native_batch_norm_legit.default")
	register(layerNorm, "aten.native_layer_norm.default", "aten.layer_norm.default")
	register(groupNorm, "aten.native_group_norm.default")
	register(softmax("Softmax"), "aten._softmax.default", "aten.softmax.int", "aten._safe_softmax.default")
	register(softmax("LogSoftmax"), "aten._log_softmax.default", "aten.log_softmax.int")
	register(maxPool, "aten.max_pool2d_with_indices.default")
	register(avgPool, "aten.avg_pool2d.default", "aten.avg_pool1d.default")
	register(adaptiveAvgPool, "aten._adaptive_avg_pool2d.default", "aten.adaptive_avg_pool2d.default")
}

// sameType reads tensor arguments cast to the output's type.
func sameType(c *call, names ...string) ([]string, DataType, error) { return c.inOutType(names...) }

func matmul(c *call) error {
	other := "mat2"
	if c.n.OpName() == "aten.matmul.default" {
		other = "other"
	}
	xs, _, err := sameType(c, "self", other)
	if err != nil {
		return err
	}
	return c.to(c.out(0), "MatMul", xs)
}

// scaled multiplies x by a Scalar argument unless it is the constant 1.
func scaled(c *call, x, name string, dt DataType) (string, error) {
	o, err := c.operand(name)
	if err != nil {
		return "", err
	}
	if o.name == "" && o.lit == 1 {
		return x, nil
	}
	return c.op("Mul", []string{x, c.as(o, dt)}), nil
}

// addmm is Gemm for floats (beta·self + alpha·mat1·mat2); otherwise, or
// when beta is 0 (torch then ignores self, NaNs and all), MatMul and Add.
func addmm(c *call) error {
	xs, dt, err := sameType(c, "self", "mat1", "mat2")
	if err != nil {
		return err
	}
	alpha, errA := c.float("alpha")
	beta, errB := c.float("beta")
	if errA == nil && errB == nil && beta != 0 && (dt == Float || dt == Double) {
		return c.to(c.out(0), "Gemm", []string{xs[1], xs[2], xs[0]}, attrFloat("alpha", alpha), attrFloat("beta", beta))
	}
	prod, err := scaled(c, c.op("MatMul", []string{xs[1], xs[2]}), "alpha", dt)
	if err != nil {
		return err
	}
	if errB == nil && beta == 0 {
		return c.to(c.out(0), "Identity", []string{prod})
	}
	bias, err := scaled(c, xs[0], "beta", dt)
	if err != nil {
		return err
	}
	return c.to(c.out(0), "Add", []string{bias, prod})
}

func baddbmm(c *call) error {
	xs, dt, err := sameType(c, "self", "batch1", "batch2")
	if err != nil {
		return err
	}
	prod, err := scaled(c, c.op("MatMul", []string{xs[1], xs[2]}), "alpha", dt)
	if err != nil {
		return err
	}
	if beta, err := c.float("beta"); err == nil && beta == 0 {
		return c.to(c.out(0), "Identity", []string{prod})
	}
	bias, err := scaled(c, xs[0], "beta", dt)
	if err != nil {
		return err
	}
	return c.to(c.out(0), "Add", []string{bias, prod})
}

// linear is x·Wᵀ + b: Gemm for a 2-d float input, else MatMul.
func linear(c *call) error {
	xs, dt, err := sameType(c, "input", "weight")
	if err != nil {
		return err
	}
	r, err := c.rank("input")
	if err != nil {
		return err
	}
	hasBias := !c.isNone("bias")
	var bias string
	if hasBias {
		b, err := c.operand("bias")
		if err != nil {
			return err
		}
		bias = c.as(b, dt)
	}
	if r == 2 && hasBias && (dt == Float || dt == Double) {
		return c.to(c.out(0), "Gemm", []string{xs[0], xs[1], bias}, attrInt("transB", 1))
	}
	wr, err := c.rank("weight")
	if err != nil {
		return err
	}
	w := xs[1]
	if wr == 2 {
		w = c.op("Transpose", []string{w}, attrInts("perm", 1, 0))
	}
	y := c.op("MatMul", []string{xs[0], w})
	if hasBias {
		y = c.op("Add", []string{y, bias})
	}
	return c.to(c.out(0), "Identity", []string{y})
}

// spatial expands a per-dim list (given once for all dims, or per dim) to k dims.
func spatial(c *call, name string, k int, def int64) ([]int64, error) {
	if c.isNone(name) {
		out := make([]int64, k)
		for i := range out {
			out[i] = def
		}
		return out, nil
	}
	v, err := c.ints(name)
	if err != nil {
		return nil, err
	}
	switch len(v) {
	case k:
		return v, nil
	case 1:
		out := make([]int64, k)
		for i := range out {
			out[i] = v[0]
		}
		return out, nil
	case 0:
		return nil, nil
	}
	return nil, fmt.Errorf("argument %s has %d values for %d spatial dims", name, len(v), k)
}

func convolution(c *call) error {
	xs, dt, err := sameType(c, "input", "weight")
	if err != nil {
		return err
	}
	r, err := c.rank("input")
	if err != nil {
		return err
	}
	k := r - 2
	if k < 1 {
		return fmt.Errorf("convolution of a %d-d input", r)
	}
	if r != 1+k+1 {
		return fmt.Errorf("unbatched convolution")
	}
	stride, err := spatial(c, "stride", k, 1)
	if err != nil {
		return err
	}
	padding, err := spatial(c, "padding", k, 0)
	if err != nil {
		if _, isStr := c.str("padding"); isStr {
			return fmt.Errorf("string padding")
		}
		return err
	}
	dilation, err := spatial(c, "dilation", k, 1)
	if err != nil {
		return err
	}
	groups, err := c.int("groups")
	if err != nil {
		return err
	}
	transposed, _ := c.bool("transposed")
	ins := xs
	if !c.isNone("bias") {
		b, err := c.operand("bias")
		if err != nil {
			return err
		}
		ins = append(ins, c.as(b, dt))
	}
	pads := append(append([]int64{}, padding...), padding...)
	attrs := []*Attribute{attrInts("strides", stride...), attrInts("pads", pads...), attrInts("dilations", dilation...), attrInt("group", groups)}
	if transposed {
		outPad, err := spatial(c, "output_padding", k, 0)
		if err != nil {
			return err
		}
		if len(outPad) == k {
			attrs = append(attrs, attrInts("output_padding", outPad...))
		}
		return c.to(c.out(0), "ConvTranspose", ins, attrs...)
	}
	return c.to(c.out(0), "Conv", ins, attrs...)
}

// channelParam is a per-channel weight, or the constant v when it is None
// (the channel count must then be static).
func channelParam(c *call, name string, dt DataType, channels int64, v float64) (string, error) {
	if !c.isNone(name) {
		o, err := c.operand(name)
		if err != nil {
			return "", err
		}
		return c.as(o, dt), nil
	}
	if channels < 0 {
		return "", fmt.Errorf("%s is None and the channel count is symbolic", name)
	}
	return c.op("Expand", []string{c.t.scalar(dt, v, int64(v)), c.t.i64s(channels)}), nil
}

// batchNorm is BatchNormalization with the running statistics (inference).
// The saved mean and inverse deviation of the no-training form are empty
// tensors, as ATen returns them.
func batchNorm(c *call) error {
	if train, err := c.bool("training"); err == nil && train {
		return fmt.Errorf("batch norm in training mode")
	}
	xs, dt, err := sameType(c, "input", "running_mean", "running_var")
	if err != nil {
		return err
	}
	m, err := c.meta("input")
	if err != nil {
		return err
	}
	channels := int64(-1)
	if len(m.Sizes) > 1 && m.Sizes[1].Expr == nil {
		channels = m.Sizes[1].Int
	}
	scale, err := channelParam(c, "weight", dt, channels, 1)
	if err != nil {
		return err
	}
	bias, err := channelParam(c, "bias", dt, channels, 0)
	if err != nil {
		return err
	}
	eps, err := c.float("eps")
	if err != nil {
		return err
	}
	if err := c.to(c.out(0), "BatchNormalization", []string{xs[0], scale, bias, xs[1], xs[2]}, attrFloat("epsilon", eps)); err != nil {
		return err
	}
	for j := 1; j < 3; j++ {
		if !c.used(j) {
			continue
		}
		om, err := c.outMeta(j)
		if err != nil || len(om.Sizes) != 1 || om.Sizes[0].Expr != nil || om.Sizes[0].Int != 0 {
			return fmt.Errorf("output %d (the batch statistics) is used", j)
		}
		odt, err := c.outType(j)
		if err != nil {
			return err
		}
		c.emit("Identity", []string{c.t.constant(odt, []int64{0}, nil)}, []string{c.out(j)})
	}
	return nil
}

// layerNorm is LayerNormalization over the trailing normalized_shape dims;
// its Mean and InvStdDev outputs have torch's shapes (size 1 in the
// normalised dims).
func layerNorm(c *call) error {
	xs, dt, err := sameType(c, "input")
	if err != nil {
		return err
	}
	r, err := c.rank("input")
	if err != nil {
		return err
	}
	shape, err := c.ints("normalized_shape")
	if err != nil {
		return err
	}
	k := len(shape)
	if k == 0 || k > r {
		return fmt.Errorf("normalized_shape %v for a %d-d input", shape, r)
	}
	ones := func(v float64) string {
		return c.op("Expand", []string{c.t.scalar(dt, v, int64(v)), c.t.i64s(shape...)})
	}
	scale := ""
	if c.isNone("weight") {
		scale = ones(1)
	} else if o, err := c.operand("weight"); err != nil {
		return err
	} else {
		scale = c.as(o, dt)
	}
	ins := []string{xs[0], scale}
	if !c.isNone("bias") {
		o, err := c.operand("bias")
		if err != nil {
			return err
		}
		ins = append(ins, c.as(o, dt))
	}
	eps, err := c.float("eps")
	if err != nil {
		return err
	}
	outs := []string{c.out(0)}
	if c.n.OpName() == "aten.native_layer_norm.default" {
		for j := 1; j < 3; j++ {
			if c.used(j) {
				outs = append(outs, c.out(j))
			} else {
				outs = append(outs, "")
			}
		}
		for len(outs) > 1 && outs[len(outs)-1] == "" {
			outs = outs[:len(outs)-1]
		}
		for i := range outs {
			if outs[i] == "" {
				outs[i] = c.t.fresh(c.n.Name + "_unused")
			}
		}
	}
	c.emit("LayerNormalization", ins, outs, attrInt("axis", int64(r-k)), attrFloat("epsilon", eps))
	return nil
}

// groupNorm normalises each group of channels over the group and the
// spatial dims: x reshaped to [N, G, -1], then per-channel scale and shift.
func groupNorm(c *call) error {
	xs, dt, err := sameType(c, "input")
	if err != nil {
		return err
	}
	r, err := c.rank("input")
	if err != nil {
		return err
	}
	g, err := c.int("group")
	if err != nil {
		return err
	}
	eps, err := c.float("eps")
	if err != nil {
		return err
	}
	x := xs[0]
	shape := c.op("Shape", []string{x})
	grouped := c.op("Reshape", []string{x, c.t.i64s(0, g, -1)})
	axes := c.t.i64s(2)
	mean := c.op("ReduceMean", []string{grouped, axes}, attrInt("keepdims", 1))
	centered := c.op("Sub", []string{grouped, mean})
	variance := c.op("ReduceMean", []string{c.op("Mul", []string{centered, centered}), axes}, attrInt("keepdims", 1))
	rstd := c.op("Reciprocal", []string{c.op("Sqrt", []string{c.op("Add", []string{variance, c.t.scalar(dt, eps, 0)})})})
	y := c.op("Reshape", []string{c.op("Mul", []string{centered, rstd}), shape})
	// Per-channel parameters broadcast as [C, 1, ..., 1].
	tail := make([]int64, r-2)
	for i := range tail {
		tail[i] = int64(i + 1)
	}
	param := func(name string) (string, bool, error) {
		if c.isNone(name) {
			return "", false, nil
		}
		o, err := c.operand(name)
		if err != nil {
			return "", false, err
		}
		p := c.as(o, dt)
		if len(tail) > 0 {
			p = c.op("Unsqueeze", []string{p, c.t.i64s(tail...)})
		}
		return p, true, nil
	}
	if w, ok, err := param("weight"); err != nil {
		return err
	} else if ok {
		y = c.op("Mul", []string{y, w})
	}
	if b, ok, err := param("bias"); err != nil {
		return err
	} else if ok {
		y = c.op("Add", []string{y, b})
	}
	if err := c.to(c.out(0), "Identity", []string{y}); err != nil {
		return err
	}
	if c.used(1) {
		c.emit("Squeeze", []string{mean, c.t.i64s(2)}, []string{c.out(1)})
	}
	if c.used(2) {
		c.emit("Squeeze", []string{rstd, c.t.i64s(2)}, []string{c.out(2)})
	}
	return nil
}

func softmax(onnxOp string) translateFn {
	return func(c *call) error {
		xs, _, err := sameType(c, "self")
		if err != nil {
			return err
		}
		r, err := c.rank("self")
		if err != nil {
			return err
		}
		d, err := c.dim("dim", r)
		if err != nil {
			return err
		}
		return c.to(c.out(0), onnxOp, []string{xs[0]}, attrInt("axis", d))
	}
}

// poolAttrs reads kernel, stride (default: the kernel), padding,
// dilation and ceil_mode.
func poolAttrs(c *call, k int, withDilation bool) ([]*Attribute, error) {
	kernel, err := spatial(c, "kernel_size", k, 1)
	if err != nil {
		return nil, err
	}
	stride, err := spatial(c, "stride", k, 1)
	if err != nil {
		return nil, err
	}
	if len(stride) == 0 {
		stride = kernel
	}
	padding, err := spatial(c, "padding", k, 0)
	if err != nil {
		return nil, err
	}
	ceil, _ := c.bool("ceil_mode")
	attrs := []*Attribute{attrInts("kernel_shape", kernel...), attrInts("strides", stride...),
		attrInts("pads", append(append([]int64{}, padding...), padding...)...), attrInt("ceil_mode", boolInt(ceil))}
	if withDilation {
		dilation, err := spatial(c, "dilation", k, 1)
		if err != nil {
			return nil, err
		}
		attrs = append(attrs, attrInts("dilations", dilation...))
	}
	return attrs, nil
}

// maxPool is MaxPool. Its indices count over the whole tensor (n, c, h,
// w), torch's within each plane: they agree modulo the plane size.
func maxPool(c *call) error {
	x, err := c.tensor("self")
	if err != nil {
		return err
	}
	r, err := c.rank("self")
	if err != nil {
		return err
	}
	if r != 4 {
		return fmt.Errorf("max_pool2d of a %d-d input", r)
	}
	attrs, err := poolAttrs(c, 2, true)
	if err != nil {
		return err
	}
	if !c.used(1) {
		return c.to(c.out(0), "MaxPool", []string{x}, attrs...)
	}
	idx := c.t.fresh(c.n.Name + "_indices")
	c.emit("MaxPool", []string{x}, []string{c.out(0), idx}, attrs...)
	plane := c.op("ReduceProd", []string{c.op("Shape", []string{x}, attrInt("start", 2))}, attrInt("keepdims", 0))
	return c.to(c.out(1), "Mod", []string{idx, plane})
}

func avgPool(c *call) error {
	x, err := c.tensor("self")
	if err != nil {
		return err
	}
	r, err := c.rank("self")
	if err != nil {
		return err
	}
	k := 2
	if c.n.OpName() == "aten.avg_pool1d.default" {
		k = 1
	}
	if r != k+2 {
		return fmt.Errorf("unbatched avg_pool")
	}
	if !c.isNone("divisor_override") {
		return fmt.Errorf("divisor_override")
	}
	attrs, err := poolAttrs(c, k, false)
	if err != nil {
		return err
	}
	include, err := c.bool("count_include_pad")
	if err != nil {
		return err
	}
	attrs = append(attrs, attrInt("count_include_pad", boolInt(include)))
	return c.to(c.out(0), "AveragePool", []string{x}, attrs...)
}

// adaptiveAvgPool is GlobalAveragePool for a 1×1 output, or AveragePool
// when the static input size divides evenly.
func adaptiveAvgPool(c *call) error {
	x, err := c.tensor("self")
	if err != nil {
		return err
	}
	m, err := c.meta("self")
	if err != nil {
		return err
	}
	out, err := c.ints("output_size")
	if err != nil {
		return err
	}
	if len(m.Sizes) != 4 || len(out) != 2 {
		return fmt.Errorf("adaptive pooling of a %d-d input to %v", len(m.Sizes), out)
	}
	if out[0] == 1 && out[1] == 1 {
		return c.to(c.out(0), "GlobalAveragePool", []string{x})
	}
	var kernel []int64
	for i, o := range out {
		s := m.Sizes[2+i]
		if s.Expr != nil || o <= 0 || s.Int%o != 0 {
			return fmt.Errorf("adaptive pooling to %v needs static input sizes that divide evenly", out)
		}
		kernel = append(kernel, s.Int/o)
	}
	return c.to(c.out(0), "AveragePool", []string{x}, attrInts("kernel_shape", kernel...), attrInts("strides", kernel...))
}
