package onnx

import "fmt"

// Reductions. In opset 18 every Reduce* op takes its axes as an input; an
// empty dim list reduces every dim, as torch's does.

func init() {
	register(reduce("ReduceSum"), "aten.sum.dim_IntList", "aten.sum.default")
	register(reduce("ReduceMean"), "aten.mean.dim", "aten.mean.default")
	register(reduce("ReduceMax"), "aten.amax.default")
	register(reduce("ReduceMin"), "aten.amin.default")
	register(reduce("ReduceProd"), "aten.prod.dim_int", "aten.prod.default")
	register(reduce("ReduceLogSumExp"), "aten.logsumexp.default")
	register(reduceBool("ReduceMax"), "aten.any.dim", "aten.any.dims", "aten.any.default")
	register(reduceBool("ReduceMin"), "aten.all.dim", "aten.all.default")
	register(maxMinDim("ReduceMax", "ArgMax"), "aten.max.dim")
	register(maxMinDim("ReduceMin", "ArgMin"), "aten.min.dim")
	register(argReduce("ArgMax"), "aten.argmax.default")
	register(argReduce("ArgMin"), "aten.argmin.default")
	register(variance(false), "aten.var.correction", "aten.var.dim")
	register(variance(true), "aten.std.correction")
	register(cumsum, "aten.cumsum.default")
}

// reduceAxes reads the dims to reduce (nil: all) and keepdim.
func reduceAxes(c *call, rank int) ([]int64, bool, error) {
	keep, _ := c.bool("keepdim")
	if c.isNone("dim") {
		return nil, keep, nil
	}
	ds, err := c.ints("dim")
	if err != nil {
		return nil, false, err
	}
	axes := make([]int64, len(ds))
	for i, d := range ds {
		if axes[i], err = wrapDim(d, rank); err != nil {
			return nil, false, err
		}
	}
	return axes, keep, nil
}

// reduceInputs is the input (in the output's type: torch sums ints and
// bools as int64) and the axes input ("" for all dims).
func reduceInputs(c *call, dt DataType) (string, string, bool, error) {
	x, err := c.operand("self")
	if err != nil {
		return "", "", false, err
	}
	axes, keep, err := reduceAxes(c, x.rank)
	if err != nil {
		return "", "", false, err
	}
	ax := ""
	if len(axes) > 0 {
		ax = c.t.i64s(axes...)
	}
	if x.rank == 0 {
		ax = ""
	}
	return c.as(x, dt), ax, keep, nil
}

func reduce(onnxOp string) translateFn {
	return func(c *call) error {
		dt, err := c.outType(0)
		if err != nil {
			return err
		}
		x, ax, keep, err := reduceInputs(c, dt)
		if err != nil {
			return err
		}
		ins := []string{x}
		if ax != "" {
			ins = append(ins, ax)
		}
		return c.to(c.out(0), onnxOp, ins, attrInt("keepdims", boolInt(keep)))
	}
}

// reduceBool is any/all: max/min over the input as int32 (opset 18's
// reductions take no bools).
func reduceBool(onnxOp string) translateFn {
	return func(c *call) error {
		x, err := c.operand("self")
		if err != nil {
			return err
		}
		axes, keep, err := reduceAxes(c, x.rank)
		if err != nil {
			return err
		}
		ins := []string{c.castTo(truthy(c, x), Bool, Int32)}
		if len(axes) > 0 && x.rank > 0 {
			ins = append(ins, c.t.i64s(axes...))
		}
		r := c.op(onnxOp, ins, attrInt("keepdims", boolInt(keep)))
		dt, err := c.outType(0)
		if err != nil {
			return err
		}
		return c.to(c.out(0), "Identity", []string{c.castTo(c.castTo(r, Int32, Bool), Bool, dt)})
	}
}

// maxMinDim is max.dim/min.dim: the values and the index of the first
// extreme, as torch returns it.
func maxMinDim(reduceOp, argOp string) translateFn {
	return func(c *call) error {
		x, _, d, err := c.tensorDim("self", "dim")
		if err != nil {
			return err
		}
		keep, _ := c.bool("keepdim")
		if err := c.to(c.out(0), reduceOp, []string{x, c.t.i64s(d)}, attrInt("keepdims", boolInt(keep))); err != nil {
			return err
		}
		if c.used(1) {
			c.emit(argOp, []string{x}, []string{c.out(1)}, attrInt("axis", d), attrInt("keepdims", boolInt(keep)))
		}
		return nil
	}
}

// argReduce is argmax/argmin; without a dim it indexes the flattened input.
func argReduce(argOp string) translateFn {
	return func(c *call) error {
		x, err := c.tensor("self")
		if err != nil {
			return err
		}
		r, err := c.rank("self")
		if err != nil {
			return err
		}
		keep, _ := c.bool("keepdim")
		if c.isNone("dim") {
			flat := c.op("Reshape", []string{x, c.t.i64s(-1)})
			y := c.op(argOp, []string{flat}, attrInt("axis", 0), attrInt("keepdims", 0))
			if keep {
				ones := make([]int64, r)
				for i := range ones {
					ones[i] = 1
				}
				return c.to(c.out(0), "Reshape", []string{y, c.t.i64s(ones...)})
			}
			return c.to(c.out(0), "Identity", []string{y})
		}
		d, err := c.dim("dim", r)
		if err != nil {
			return err
		}
		return c.to(c.out(0), argOp, []string{x}, attrInt("axis", d), attrInt("keepdims", boolInt(keep)))
	}
}

// variance is Σ(x - mean)² / (N - correction), N the count of reduced
// elements, computed from the input's shape at run time.
func variance(std bool) translateFn {
	return func(c *call) error {
		dt, err := c.outType(0)
		if err != nil {
			return err
		}
		x, ax, keep, err := reduceInputs(c, dt)
		if err != nil {
			return err
		}
		corr := 1.0
		if c.n.OpName() == "aten.var.dim" || c.n.OpName() == "aten.std.dim" {
			if unbiased, err := c.bool("unbiased"); err == nil && !unbiased {
				corr = 0
			}
		} else if !c.isNone("correction") {
			if corr, err = c.float("correction"); err != nil {
				return err
			}
		}
		withAxes := func(in string) []string {
			if ax == "" {
				return []string{in}
			}
			return []string{in, ax}
		}
		mean := c.op("ReduceMean", withAxes(x), attrInt("keepdims", 1))
		d := c.op("Sub", []string{x, mean})
		sq := c.op("ReduceSum", withAxes(c.op("Mul", []string{d, d})), attrInt("keepdims", boolInt(keep)))
		// N = numel(x) / numel(mean).
		n := c.op("Div", []string{c.op("Size", []string{x}), c.op("Size", []string{mean})})
		denom := c.op("Sub", []string{c.castTo(n, Int64, dt), c.t.scalar(dt, corr, int64(corr))})
		v := c.op("Div", []string{sq, denom})
		if std {
			v = c.op("Sqrt", []string{v})
		}
		if categoryOf(dt) != catFloat {
			return fmt.Errorf("variance of %s", dt)
		}
		return c.to(c.out(0), "Identity", []string{v})
	}
}

func cumsum(c *call) error {
	dt, err := c.outType(0)
	if err != nil {
		return err
	}
	x, err := c.operand("self")
	if err != nil {
		return err
	}
	d, err := c.dim("dim", x.rank)
	if err != nil {
		return err
	}
	return c.to(c.out(0), "CumSum", []string{c.as(x, dt), c.t.i64(d)})
}
