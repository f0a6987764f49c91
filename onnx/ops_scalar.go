package onnx

import (
	"fmt"

	"github.com/seam-rt/seam/ir"
)

// Sizes and Python scalar arithmetic, computed inside the graph on rank-0
// tensors (INT64 for SymInt, FLOAT for SymFloat, BOOL for SymBool), with
// Python's semantics: floor division and modulo round towards negative
// infinity, true division gives a float.

func init() {
	register(symSize, "aten.sym_size.int")
	register(symNumel, "aten.sym_numel.default")
	register(localScalar, "aten._local_scalar_dense.default", "aten.item.default")
	register(nothing, "aten._assert_scalar.default", "aten.sym_constrain_range.default",
		"aten.sym_constrain_range_for_size.default", "aten._assert_async.msg")
	register(pyArith("Add"), "_operator.add")
	register(pyArith("Sub"), "_operator.sub")
	register(pyArith("Mul"), "_operator.mul")
	register(pyTrueDiv, "_operator.truediv")
	register(pyFloorDiv, "_operator.floordiv")
	register(pyMod, "_operator.mod")
	register(pyArith("Pow"), "_operator.pow")
	register(pyUnary("Neg"), "_operator.neg")
	register(pyUnary("Identity"), "_operator.pos")
	register(pyUnary("Abs"), "_operator.abs")
	for op, onnxOp := range map[string]string{"eq": "Equal", "ne": "NotEqual", "lt": "Less", "le": "LessOrEqual", "gt": "Greater", "ge": "GreaterOrEqual"} {
		register(compare(onnxOp, "a", "b"), "_operator."+op)
	}
	register(pyLogic("And"), "_operator.and_")
	register(pyLogic("Or"), "_operator.or_")
	register(pyNot, "_operator.not_", "torch.sym_not")
	register(pyRound("Floor"), "math.floor")
	register(pyRound("Ceil"), "math.ceil")
	register(pyRound(""), "math.trunc", "torch.sym_int")
	register(pySqrt, "math.sqrt", "torch.sym_sqrt")
	register(pyFloat, "torch.sym_float")
	register(pyArith("Max"), "torch.sym_max")
	register(pyArith("Min"), "torch.sym_min")
	register(pyIte, "torch.sym_ite")
}

// symSize is Squeeze(Shape(x, start=d, end=d+1)), as the dynamo exporter
// writes it.
func symSize(c *call) error {
	x, _, d, err := c.tensorDim("self", "dim")
	if err != nil {
		return err
	}
	s := c.op("Shape", []string{x}, attrInt("start", d), attrInt("end", d+1))
	return c.to(c.out(0), "Squeeze", []string{s, c.t.i64s(0)})
}

func symNumel(c *call) error {
	x, err := c.tensor("self")
	if err != nil {
		return err
	}
	return c.to(c.out(0), "Size", []string{x})
}

// localScalar unboxes a one-element tensor into the scalar it holds.
func localScalar(c *call) error {
	x, err := c.operand("self")
	if err != nil {
		return err
	}
	dt, err := c.outType(0)
	if err != nil {
		return err
	}
	v := x.name
	if x.rank != 0 {
		v = c.op("Reshape", []string{v, c.t.constant(Int64, []int64{0}, nil)})
	}
	return c.to(c.out(0), "Identity", []string{c.castTo(v, x.dt, dt)})
}

// pyOperands reads a and b in the output's type.
func pyOperands(c *call) (string, string, DataType, error) {
	xs, dt, err := c.inOutType("a", "b")
	if err != nil {
		return "", "", 0, err
	}
	return xs[0], xs[1], dt, nil
}

func pyArith(onnxOp string) translateFn {
	return func(c *call) error {
		a, b, dt, err := pyOperands(c)
		if err != nil {
			return err
		}
		if dt == Bool {
			return fmt.Errorf("arithmetic on bools")
		}
		return c.to(c.out(0), onnxOp, []string{a, b})
	}
}

func pyTrueDiv(c *call) error {
	a, b, dt, err := pyOperands(c)
	if err != nil {
		return err
	}
	if categoryOf(dt) != catFloat {
		return fmt.Errorf("true division giving %s", dt)
	}
	return c.to(c.out(0), "Div", []string{a, b})
}

func pyFloorDiv(c *call) error {
	a, b, dt, err := pyOperands(c)
	if err != nil {
		return err
	}
	return c.to(c.out(0), "Identity", []string{floorDiv(c, a, b, dt)})
}

func pyMod(c *call) error {
	a, b, dt, err := pyOperands(c)
	if err != nil {
		return err
	}
	if categoryOf(dt) == catFloat {
		return c.to(c.out(0), "Identity", []string{pyFloatMod(c, a, b, dt)})
	}
	return c.to(c.out(0), "Mod", []string{a, b}, attrInt("fmod", 0))
}

func pyUnary(onnxOp string) translateFn {
	return func(c *call) error {
		dt, err := c.outType(0)
		if err != nil {
			return err
		}
		a, err := c.operand("a")
		if err != nil {
			return err
		}
		return c.to(c.out(0), onnxOp, []string{c.as(a, dt)})
	}
}

// pyLogic is & and | : logical on bools, bitwise on ints.
func pyLogic(onnxOp string) translateFn {
	return func(c *call) error {
		a, b, dt, err := pyOperands(c)
		if err != nil {
			return err
		}
		return logicOrBits(c, onnxOp, a, b, dt)
	}
}

func pyNot(c *call) error {
	a, err := c.operand("a")
	if err != nil {
		return err
	}
	return c.to(c.out(0), "Not", []string{truthy(c, a)})
}

// pyRound rounds a float to an int (Floor, Ceil, or towards zero, which is
// what a float-to-int Cast does); an int passes through.
func pyRound(onnxOp string) translateFn {
	return func(c *call) error {
		arg := "x"
		if c.n.OpName() == "torch.sym_int" {
			arg = "a"
		}
		x, err := c.operand(arg)
		if err != nil {
			return err
		}
		if categoryOf(x.dt) != catFloat {
			return c.to(c.out(0), "Identity", []string{c.as(x, Int64)})
		}
		v := c.as(x, x.dt)
		if onnxOp != "" {
			v = c.op(onnxOp, []string{v})
		}
		return c.to(c.out(0), "Cast", []string{v}, attrInt("to", int64(Int64)))
	}
}

func pySqrt(c *call) error {
	arg := "x"
	if c.n.OpName() == "torch.sym_sqrt" {
		arg = "a"
	}
	x, err := c.operand(arg)
	if err != nil {
		return err
	}
	return c.to(c.out(0), "Sqrt", []string{c.as(x, Float)})
}

func pyFloat(c *call) error {
	x, err := c.operand("a")
	if err != nil {
		return err
	}
	return c.to(c.out(0), "Identity", []string{c.as(x, Float)})
}

func pyIte(c *call) error {
	dt, err := c.outType(0)
	if err != nil {
		return err
	}
	b, err := c.operand("b")
	if err != nil {
		return err
	}
	x, err := c.operand("t")
	if err != nil {
		return err
	}
	y, err := c.operand("f")
	if err != nil {
		return err
	}
	return c.to(c.out(0), "Where", []string{truthy(c, b), c.as(x, dt), c.as(y, dt)})
}

// cond is ONNX If. Its branches are subgraphs without inputs: each reads
// the operands from the enclosing graph, under the operand's ONNX name.
func cond(c *call) error {
	if len(c.args) < 4 {
		return fmt.Errorf("cond takes a predicate, two branches and the operands")
	}
	pred, err := c.operandOf(&c.args[0], "predicate")
	if err != nil {
		return err
	}
	p := c.as(pred, Bool)
	if pred.rank > 0 {
		p = c.op("Reshape", []string{p, c.t.constant(Int64, []int64{0}, nil)})
	}
	ops := &c.args[3]
	var operands []string
	for i := range ops.List {
		e := &ops.List[i]
		if e.Name == "" {
			v, err := c.t.literal(e)
			if err != nil {
				return fmt.Errorf("operand %d: %w", i, err)
			}
			operands = append(operands, v)
			continue
		}
		v, err := c.value(e.Name)
		if err != nil {
			return err
		}
		operands = append(operands, v)
	}
	var branches [2]*Graph
	for k, bi := range []int{1, 2} {
		ga := c.args[bi]
		if ga.Kind != ir.ArgGraph || ga.Graph() == nil || ga.Graph().Graph == nil {
			return fmt.Errorf("argument %d is not a graph", bi)
		}
		sub := ga.Graph().Graph
		names := sub.InputNames()
		if len(names) != len(operands) {
			return fmt.Errorf("branch %s takes %d inputs, given %d operands", ga.Graph().Name, len(names), len(operands))
		}
		path := ir.SubgraphPath(c.s.path, c.n.Name, ga.Graph().Name)
		s := &scope{parent: c.s, path: path, ig: sub, g: &Graph{Name: c.t.fresh(c.n.Name + "_" + ga.Graph().Name)}, names: map[string]string{}}
		for i, n := range names {
			s.names[n] = operands[i]
		}
		c.t.graph(s)
		for _, vi := range c.t.outputs(s, sub.Outputs) {
			if vi == nil {
				return fmt.Errorf("branch %s has an output ONNX cannot return", ga.Graph().Name)
			}
			s.g.Outputs = append(s.g.Outputs, vi)
		}
		branches[k] = s.g
	}
	if len(branches[0].Outputs) != len(branches[1].Outputs) {
		return fmt.Errorf("the branches return %d and %d values", len(branches[0].Outputs), len(branches[1].Outputs))
	}
	var outs []string
	for j := range c.n.Outputs {
		outs = append(outs, c.out(j))
	}
	if len(outs) != len(branches[0].Outputs) {
		return fmt.Errorf("cond has %d outputs, its branches return %d", len(outs), len(branches[0].Outputs))
	}
	c.emit("If", []string{p}, outs, attrGraph("then_branch", branches[0]), attrGraph("else_branch", branches[1]))
	return nil
}

func init() { register(cond, "higher_order.cond") }
