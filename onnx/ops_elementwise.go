package onnx

import (
	"fmt"
	"math"
)

// Elementwise ops compute in their output's element type (the result of
// PyTorch's type promotion, which the program records), so each operand
// is cast to it first; comparisons compute in the promoted input type.

func init() {
	for op, onnxOp := range map[string]string{
		"exp": "Exp", "log": "Log", "sin": "Sin", "cos": "Cos", "tan": "Tan", "asin": "Asin", "acos": "Acos",
		"atan": "Atan", "sinh": "Sinh", "cosh": "Cosh", "asinh": "Asinh", "acosh": "Acosh", "atanh": "Atanh",
		"tanh": "Tanh", "sigmoid": "Sigmoid", "sqrt": "Sqrt", "erf": "Erf", "reciprocal": "Reciprocal",
	} {
		register(floatUnary(onnxOp), "aten."+op+".default")
	}
	register(unaryKeepInts("Floor"), "aten.floor.default")
	register(unaryKeepInts("Ceil"), "aten.ceil.default")
	register(unaryKeepInts("Round"), "aten.round.default")
	register(sameTypeUnary("Abs"), "aten.abs.default")
	register(sameTypeUnary("Neg"), "aten.neg.default")
	register(sameTypeUnary("Sign"), "aten.sign.default")
	register(relu, "aten.relu.default")
	register(rsqrt, "aten.rsqrt.default")
	register(gelu, "aten.gelu.default")
	register(silu, "aten.silu.default")
	register(withFloat(func(c *call, x string, dt DataType) string { return c.op("HardSwish", []string{x}) }), "aten.hardswish.default")
	register(withFloat(func(c *call, x string, dt DataType) string {
		return c.op("HardSigmoid", []string{x}, attrFloat("alpha", 1.0/6), attrFloat("beta", 0.5))
	}), "aten.hardsigmoid.default")
	register(leakyRelu, "aten.leaky_relu.default")
	register(elu, "aten.elu.default")
	register(softplus, "aten.softplus.default")
	register(withFloat(func(c *call, x string, dt DataType) string {
		return c.op("Log", []string{c.op("Add", []string{x, c.t.scalar(dt, 1, 1)})})
	}), "aten.log1p.default")
	register(withFloat(func(c *call, x string, dt DataType) string {
		return c.op("Sub", []string{c.op("Exp", []string{x}), c.t.scalar(dt, 1, 1)})
	}), "aten.expm1.default")
	register(withFloat(func(c *call, x string, dt DataType) string {
		return c.op("Div", []string{c.op("Log", []string{x}), c.t.scalar(dt, math.Ln2, 0)})
	}), "aten.log2.default")
	register(floatTest("IsNaN"), "aten.isnan.default")
	register(floatTest("IsInf"), "aten.isinf.default")
	register(logicalNot, "aten.logical_not.default")
	register(bitwiseNot, "aten.bitwise_not.default")

	register(arith("Add", true), "aten.add.Tensor", "aten.add.Scalar")
	register(arith("Sub", true), "aten.sub.Tensor", "aten.sub.Scalar")
	register(rsub, "aten.rsub.Scalar", "aten.rsub.Tensor")
	register(arith("Mul", false), "aten.mul.Tensor", "aten.mul.Scalar")
	register(arith("Div", false), "aten.div.Tensor", "aten.div.Scalar")
	register(divMode, "aten.div.Tensor_mode", "aten.div.Scalar_mode")
	register(floorDivide, "aten.floor_divide.default")
	register(remainder, "aten.remainder.Tensor", "aten.remainder.Scalar")
	register(fmod, "aten.fmod.Tensor", "aten.fmod.Scalar")
	register(pow, "aten.pow.Tensor_Scalar", "aten.pow.Tensor_Tensor", "aten.pow.Scalar")
	register(arith("Max", false), "aten.maximum.default")
	register(arith("Min", false), "aten.minimum.default")
	for op, onnxOp := range map[string]string{"eq": "Equal", "ne": "NotEqual", "lt": "Less", "le": "LessOrEqual", "gt": "Greater", "ge": "GreaterOrEqual"} {
		register(compare(onnxOp, "self", "other"), "aten."+op+".Tensor", "aten."+op+".Scalar")
	}
	for op, onnxOp := range map[string]string{"logical_and": "And", "logical_or": "Or", "logical_xor": "Xor"} {
		register(logical(onnxOp), "aten."+op+".default")
	}
	for op, onnxOp := range map[string]string{"bitwise_and": "And", "bitwise_or": "Or", "bitwise_xor": "Xor"} {
		register(bitwise(onnxOp), "aten."+op+".Tensor", "aten."+op+".Scalar")
	}
	register(where, "aten.where.self")
	register(maskedFill, "aten.masked_fill.Scalar", "aten.masked_fill.Tensor")
	register(clamp, "aten.clamp.default", "aten.clamp.Tensor", "aten.clamp_min.default", "aten.clamp_max.default")
	register(hardtanh, "aten.hardtanh.default")
}

// unaryInput is the "self" operand cast to the output's element type.
func unaryInput(c *call) (string, DataType, error) {
	dt, err := c.outType(0)
	if err != nil {
		return "", 0, err
	}
	x, err := c.operand("self")
	if err != nil {
		return "", 0, err
	}
	return c.as(x, dt), dt, nil
}

func floatUnary(onnxOp string) translateFn {
	return withFloat(func(c *call, x string, dt DataType) string { return c.op(onnxOp, []string{x}) })
}

// withFloat runs f on "self" in the output's (floating) element type.
func withFloat(f func(c *call, x string, dt DataType) string) translateFn {
	return func(c *call) error {
		x, dt, err := unaryInput(c)
		if err != nil {
			return err
		}
		if categoryOf(dt) != catFloat {
			return fmt.Errorf("computes in %s; ONNX has this op for floating types only", dt)
		}
		return c.to(c.out(0), "Identity", []string{f(c, x, dt)})
	}
}

func unaryKeepInts(onnxOp string) translateFn {
	return func(c *call) error {
		x, dt, err := unaryInput(c)
		if err != nil {
			return err
		}
		if categoryOf(dt) != catFloat {
			return c.to(c.out(0), "Identity", []string{x})
		}
		if onnxOp == "Round" {
			if d, err := c.int("decimals"); err == nil && d != 0 {
				return fmt.Errorf("round with decimals=%d", d)
			}
		}
		return c.to(c.out(0), onnxOp, []string{x})
	}
}

func sameTypeUnary(onnxOp string) translateFn {
	return func(c *call) error {
		x, _, err := unaryInput(c)
		if err != nil {
			return err
		}
		return c.to(c.out(0), onnxOp, []string{x})
	}
}

func relu(c *call) error {
	x, dt, err := unaryInput(c)
	if err != nil {
		return err
	}
	if categoryOf(dt) == catFloat {
		return c.to(c.out(0), "Relu", []string{x})
	}
	return c.to(c.out(0), "Max", []string{x, c.t.scalar(dt, 0, 0)})
}

func rsqrt(c *call) error {
	return withFloat(func(c *call, x string, dt DataType) string {
		return c.op("Reciprocal", []string{c.op("Sqrt", []string{x})})
	})(c)
}

// gelu is 0.5·x·(1 + erf(x/√2)), or with approximate="tanh"
// 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))), as ATen computes them.
func gelu(c *call) error {
	approx, _ := c.str("approximate")
	if approx != "none" && approx != "tanh" && approx != "" {
		return fmt.Errorf("approximate=%q", approx)
	}
	return withFloat(func(c *call, x string, dt DataType) string {
		k := func(v float64) string { return c.t.scalar(dt, v, 0) }
		var inner string
		if approx == "tanh" {
			cube := c.op("Mul", []string{c.op("Mul", []string{x, x}), x})
			poly := c.op("Add", []string{x, c.op("Mul", []string{cube, k(0.044715)})})
			inner = c.op("Tanh", []string{c.op("Mul", []string{poly, k(math.Sqrt(2 / math.Pi))})})
		} else {
			inner = c.op("Erf", []string{c.op("Mul", []string{x, k(1 / math.Sqrt2)})})
		}
		half := c.op("Mul", []string{x, k(0.5)})
		return c.op("Mul", []string{half, c.op("Add", []string{inner, k(1)})})
	})(c)
}

func silu(c *call) error {
	return withFloat(func(c *call, x string, dt DataType) string {
		return c.op("Mul", []string{x, c.op("Sigmoid", []string{x})})
	})(c)
}

func leakyRelu(c *call) error {
	slope, err := c.float("negative_slope")
	if err != nil {
		return err
	}
	return withFloat(func(c *call, x string, dt DataType) string {
		return c.op("LeakyRelu", []string{x}, attrFloat("alpha", slope))
	})(c)
}

func elu(c *call) error {
	alpha, err := c.float("alpha")
	if err != nil {
		return err
	}
	scale, err1 := c.float("scale")
	inScale, err2 := c.float("input_scale")
	if err1 != nil || err2 != nil {
		return fmt.Errorf("scale and input_scale must be constants")
	}
	return withFloat(func(c *call, x string, dt DataType) string {
		if inScale != 1 {
			x = c.op("Mul", []string{x, c.t.scalar(dt, inScale, 0)})
		}
		y := c.op("Elu", []string{x}, attrFloat("alpha", alpha))
		if scale != 1 {
			y = c.op("Mul", []string{y, c.t.scalar(dt, scale, 0)})
		}
		return y
	})(c)
}

// softplus is log(1 + exp(β·x))/β, and x itself where β·x > threshold.
func softplus(c *call) error {
	beta, err := c.float("beta")
	if err != nil {
		return err
	}
	threshold, err := c.float("threshold")
	if err != nil {
		return err
	}
	return withFloat(func(c *call, x string, dt DataType) string {
		bx := c.op("Mul", []string{x, c.t.scalar(dt, beta, 0)})
		soft := c.op("Div", []string{c.op("Softplus", []string{bx}), c.t.scalar(dt, beta, 0)})
		return c.op("Where", []string{c.op("Greater", []string{bx, c.t.scalar(dt, threshold, 0)}), x, soft})
	})(c)
}

// floatTest is IsNaN or IsInf; an integer tensor has neither.
func floatTest(onnxOp string) translateFn {
	return func(c *call) error {
		x, err := c.operand("self")
		if err != nil {
			return err
		}
		if categoryOf(x.dt) != catFloat {
			return c.to(c.out(0), "Identity", []string{c.filled(x.name, Bool, 0)})
		}
		return c.to(c.out(0), onnxOp, []string{x.name})
	}
}

func logicalNot(c *call) error {
	x, err := c.operand("self")
	if err != nil {
		return err
	}
	dt, err := c.outType(0)
	if err != nil {
		return err
	}
	return c.to(c.out(0), "Identity", []string{c.castTo(c.op("Not", []string{c.as(x, Bool)}), Bool, dt)})
}

func bitwiseNot(c *call) error {
	x, dt, err := unaryInput(c)
	if err != nil {
		return err
	}
	switch categoryOf(dt) {
	case catBool:
		return c.to(c.out(0), "Not", []string{x})
	case catInt:
		return c.to(c.out(0), "BitwiseNot", []string{x})
	}
	return fmt.Errorf("bitwise_not of %s", dt)
}

// binaryOperands reads self and other in the output's element type.
func binaryOperands(c *call) (string, string, DataType, error) {
	xs, dt, err := c.inOutType("self", "other")
	if err != nil {
		return "", "", 0, err
	}
	return xs[0], xs[1], dt, nil
}

// arith is a binary op computed in the output's type; withAlpha scales
// other by alpha (add, sub).
func arith(onnxOp string, withAlpha bool) translateFn {
	return func(c *call) error {
		a, b, dt, err := binaryOperands(c)
		if err != nil {
			return err
		}
		if withAlpha && !c.isNone("alpha") {
			alpha, err := c.operand("alpha")
			if err != nil {
				return err
			}
			if alpha.name != "" || alpha.lit != 1 {
				b = c.op("Mul", []string{b, c.as(alpha, dt)})
			}
		}
		op := onnxOp
		if dt == Bool {
			switch onnxOp {
			case "Add", "Max":
				op = "Or"
			case "Mul", "Min":
				op = "And"
			default:
				return fmt.Errorf("%s on bools", onnxOp)
			}
		}
		return c.to(c.out(0), op, []string{a, b})
	}
}

// rsub is other - alpha·self.
func rsub(c *call) error {
	a, b, dt, err := binaryOperands(c)
	if err != nil {
		return err
	}
	if !c.isNone("alpha") {
		alpha, err := c.operand("alpha")
		if err != nil {
			return err
		}
		if alpha.name != "" || alpha.lit != 1 {
			a = c.op("Mul", []string{a, c.as(alpha, dt)})
		}
	}
	return c.to(c.out(0), "Sub", []string{b, a})
}

func divMode(c *call) error {
	mode, ok := c.str("rounding_mode")
	if !ok {
		return arith("Div", false)(c)
	}
	a, b, dt, err := binaryOperands(c)
	if err != nil {
		return err
	}
	switch mode {
	case "trunc":
		if categoryOf(dt) != catFloat {
			return c.to(c.out(0), "Div", []string{a, b}) // ONNX integer Div truncates
		}
		return c.to(c.out(0), "Identity", []string{trunc(c, c.op("Div", []string{a, b}), dt)})
	case "floor":
		return c.to(c.out(0), "Identity", []string{floorDiv(c, a, b, dt)})
	}
	return fmt.Errorf("rounding_mode %q", mode)
}

func floorDivide(c *call) error {
	a, b, dt, err := binaryOperands(c)
	if err != nil {
		return err
	}
	return c.to(c.out(0), "Identity", []string{floorDiv(c, a, b, dt)})
}

// floorDiv rounds a/b towards negative infinity: for ints exactly, as
// (a - a mod b)/b with Python's mod.
func floorDiv(c *call, a, b string, dt DataType) string {
	if categoryOf(dt) == catFloat {
		return c.op("Floor", []string{c.op("Div", []string{a, b})})
	}
	m := c.op("Mod", []string{a, b}, attrInt("fmod", 0))
	return c.op("Div", []string{c.op("Sub", []string{a, m}), b})
}

// trunc rounds towards zero.
func trunc(c *call, x string, dt DataType) string {
	neg := c.op("Less", []string{x, c.t.scalar(dt, 0, 0)})
	return c.op("Where", []string{neg, c.op("Ceil", []string{x}), c.op("Floor", []string{x})})
}

// remainder is Python's %: the result takes the divisor's sign.
func remainder(c *call) error {
	a, b, dt, err := binaryOperands(c)
	if err != nil {
		return err
	}
	if categoryOf(dt) != catFloat {
		return c.to(c.out(0), "Mod", []string{a, b}, attrInt("fmod", 0))
	}
	return c.to(c.out(0), "Identity", []string{pyFloatMod(c, a, b, dt)})
}

func pyFloatMod(c *call, a, b string, dt DataType) string {
	r := c.op("Mod", []string{a, b}, attrInt("fmod", 1))
	zero := c.t.scalar(dt, 0, 0)
	nonzero := c.op("Not", []string{c.op("Equal", []string{r, zero})})
	signs := c.op("Xor", []string{c.op("Less", []string{r, zero}), c.op("Less", []string{b, zero})})
	return c.op("Where", []string{c.op("And", []string{nonzero, signs}), c.op("Add", []string{r, b}), r})
}

func fmod(c *call) error {
	a, b, _, err := binaryOperands(c)
	if err != nil {
		return err
	}
	return c.to(c.out(0), "Mod", []string{a, b}, attrInt("fmod", 1))
}

// pow is Pow, but for the exponents 1 (a copy) and, on floats, 0.5 and -1
// (Sqrt, Reciprocal). Squares and cubes stay Pow: ONNX Runtime fuses the
// patterns built on them (tanh GELU into FastGelu, RMSNorm) and computes
// them as products itself.
func pow(c *call) error {
	dt, err := c.outType(0)
	if err != nil {
		return err
	}
	a, err := c.operand("self")
	if err != nil {
		return err
	}
	e, err := c.operand("exponent")
	if err != nil {
		return err
	}
	x := c.as(a, dt)
	if e.name == "" {
		switch {
		case e.lit == 1:
			return c.to(c.out(0), "Identity", []string{x})
		case e.lit == 0.5 && categoryOf(dt) == catFloat:
			return c.to(c.out(0), "Sqrt", []string{x})
		case e.lit == -1 && categoryOf(dt) == catFloat:
			return c.to(c.out(0), "Reciprocal", []string{x})
		}
	}
	return c.to(c.out(0), "Pow", []string{x, c.as(e, dt)})
}

// compare compares lhs and rhs in their promoted type (bools ordered as
// ints, as in Python and torch).
func compare(onnxOp, lhs, rhs string) translateFn {
	return func(c *call) error {
		a, err := c.operand(lhs)
		if err != nil {
			return err
		}
		b, err := c.operand(rhs)
		if err != nil {
			return err
		}
		dt := promote(a, b)
		x, y := c.as(a, dt), c.as(b, dt)
		if dt == Bool && onnxOp != "Equal" && onnxOp != "NotEqual" {
			x, y = c.castTo(x, Bool, Int32), c.castTo(y, Bool, Int32)
		}
		if onnxOp == "NotEqual" {
			return c.to(c.out(0), "Not", []string{c.op("Equal", []string{x, y})})
		}
		return c.to(c.out(0), onnxOp, []string{x, y})
	}
}

func logical(onnxOp string) translateFn {
	return func(c *call) error {
		a, err := c.operand("self")
		if err != nil {
			return err
		}
		b, err := c.operand("other")
		if err != nil {
			return err
		}
		dt, err := c.outType(0)
		if err != nil {
			return err
		}
		r := c.op(onnxOp, []string{truthy(c, a), truthy(c, b)})
		return c.to(c.out(0), "Identity", []string{c.castTo(r, Bool, dt)})
	}
}

// truthy is x != 0 as a bool tensor.
func truthy(c *call, o operand) string {
	if o.dt == Bool {
		return c.as(o, Bool)
	}
	x := c.as(o, o.dt)
	return c.op("Not", []string{c.op("Equal", []string{x, c.t.scalar(o.dt, 0, 0)})})
}

func bitwise(onnxOp string) translateFn {
	return func(c *call) error {
		a, b, dt, err := binaryOperands(c)
		if err != nil {
			return err
		}
		return logicOrBits(c, onnxOp, a, b, dt)
	}
}

// logicOrBits is And/Or/Xor on bools, BitwiseAnd/Or/Xor on ints.
func logicOrBits(c *call, onnxOp, a, b string, dt DataType) error {
	switch categoryOf(dt) {
	case catBool:
		return c.to(c.out(0), onnxOp, []string{a, b})
	case catInt:
		return c.to(c.out(0), "Bitwise"+onnxOp, []string{a, b})
	}
	return fmt.Errorf("%s on %s", onnxOp, dt)
}

func where(c *call) error {
	cond, err := c.operand("condition")
	if err != nil {
		return err
	}
	a, b, dt, err := binaryOperands(c)
	if err != nil {
		return err
	}
	_ = dt
	return c.to(c.out(0), "Where", []string{c.as(cond, Bool), a, b})
}

func maskedFill(c *call) error {
	dt, err := c.outType(0)
	if err != nil {
		return err
	}
	x, err := c.operand("self")
	if err != nil {
		return err
	}
	mask, err := c.operand("mask")
	if err != nil {
		return err
	}
	v, err := c.operand("value")
	if err != nil {
		return err
	}
	return c.to(c.out(0), "Where", []string{c.as(mask, Bool), c.as(v, dt), c.as(x, dt)})
}

// clamp is Max then Min, for bounds that may be tensors, numbers or None.
func clamp(c *call) error {
	x, dt, err := unaryInput(c)
	if err != nil {
		return err
	}
	bound := func(name string) (string, bool, error) {
		if c.isNone(name) {
			return "", false, nil
		}
		o, err := c.operand(name)
		if err != nil {
			return "", false, err
		}
		return c.as(o, dt), true, nil
	}
	lo, hasLo, err := bound("min")
	if err != nil {
		return err
	}
	hi, hasHi, err := bound("max")
	if err != nil {
		return err
	}
	y := x
	if hasLo {
		y = c.op("Max", []string{y, lo})
	}
	if hasHi {
		y = c.op("Min", []string{y, hi})
	}
	return c.to(c.out(0), "Identity", []string{y})
}

func hardtanh(c *call) error {
	x, dt, err := unaryInput(c)
	if err != nil {
		return err
	}
	lo, err := c.float("min_val")
	if err != nil {
		return err
	}
	hi, err := c.float("max_val")
	if err != nil {
		return err
	}
	return c.to(c.out(0), "Clip", []string{x, c.t.scalar(dt, lo, int64(lo)), c.t.scalar(dt, hi, int64(hi))})
}
