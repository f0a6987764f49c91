package verify

import (
	"fmt"
	"strings"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/irtext"
	"github.com/seam-rt/seam/ops"
)

// graph checks one graph: names, order of definition, metadata, ops and
// the nested graphs its nodes call.
func (c *checker) graph(path string, g *ir.Graph) {
	defined := map[string]bool{}
	define := func(where, v string) {
		if defined[v] {
			c.add(UniqueName, path, where, "value %q is defined twice", v)
		}
		defined[v] = true
	}
	for _, v := range g.InputNames() {
		define(v, v)
		c.meta(path, g, v, v)
	}
	nodeNames := map[string]bool{}
	for _, n := range g.Nodes {
		if nodeNames[n.Name] {
			c.add(UniqueName, path, n.Name, "two nodes are named %q", n.Name)
		}
		nodeNames[n.Name] = true
		n.ForEachInputRef(func(v string) {
			if !defined[v] {
				c.add(DefinedBeforeUse, path, n.Name, "uses %q before it is defined", v)
			}
		})
		n.ForEachOutputRef(func(v string) {
			define(n.Name, v)
			c.meta(path, g, n.Name, v)
		})
		c.node(path, g, n)
	}
	for i := range g.Outputs {
		g.Outputs[i].ForEachRef(func(v string) {
			if !defined[v] {
				c.add(DefinedBeforeUse, path, fmt.Sprintf("output %d", i), "returns %q, which is never defined", v)
			}
		})
	}
}

// meta checks that a value has its entry in the graph's tables.
func (c *checker) meta(path string, g *ir.Graph, where, v string) {
	if g.TypeOf(v) == ir.ValueUnknown {
		c.add(MissingMeta, path, where, "value %q has no metadata (tensor_values or sym_*_values)", v)
	}
}

// allowedPython are the Python functions export may call, from
// torch/_export/verifier.py's allowed builtins and torch functions, with
// the ones 2.11's serializer writes for SymFloat arithmetic.
var allowedPython = map[string]bool{
	"_operator.getitem": true, "_operator.add": true, "_operator.mul": true, "_operator.sub": true,
	"_operator.truediv": true, "_operator.ge": true, "_operator.le": true, "_operator.gt": true,
	"_operator.lt": true, "_operator.eq": true, "_operator.ne": true, "_operator.floordiv": true,
	"_operator.mod": true, "_operator.and_": true, "_operator.or_": true, "_operator.not_": true,
	"_operator.pow": true, "_operator.neg": true, "_operator.abs": true, "_operator.pos": true,
	"math.ceil": true, "math.floor": true, "math.trunc": true, "math.sqrt": true,
	"torch.sym_int": true, "torch.sym_float": true, "torch.sym_ite": true, "torch.sym_max": true,
	"torch.sym_min": true, "torch.sym_not": true, "torch.sym_sqrt": true,
	"torch.autograd.grad_mode.set_grad_enabled": true, "torch._C._set_grad_enabled": true,
}

func (c *checker) node(path string, g *ir.Graph, n *ir.Node) {
	if n.Target == ir.DelegateTarget {
		c.delegate(path, g, n)
		return
	}
	isPython := !strings.HasPrefix(n.Target, "torch.ops.") && !strings.HasPrefix(n.Target, "#")
	if isPython && !allowedPython[n.Target] {
		c.add(DisallowedOp, path, n.Name, "%s is not an operator export allows", n.Target)
		return
	}
	s, ok := ops.Lookup(n.Target)
	if !ok {
		c.warn(UnknownOp, path, n.Name, "%s is not in seam's op table; its arguments are not checked", n.OpName())
		return
	}
	if s.Mutates() {
		c.add(NotFunctional, path, n.Name, "%s writes its input (%s); export programs are functional", n.OpName(), s.Text)
	}
	c.arguments(path, n, s)
	c.returns(path, g, n, s)
	if s.Kind == ops.HigherOrder {
		c.nested(path, g, n)
	}
}

// arguments checks names against the schema: known, given once, and every
// argument without a default present; and each value's kind.
func (c *checker) arguments(path string, n *ir.Node, s *ops.Schema) {
	given := make([]bool, len(s.Args))
	pos := 0
	variadic := len(s.Args) > 0 && s.Args[len(s.Args)-1].Type.Variadic
	for _, in := range n.Inputs {
		i := -1
		if in.Name == "" || s.Kind == ops.HigherOrder {
			if pos < len(s.Args) {
				i = pos
			} else if variadic {
				i = len(s.Args) - 1
			}
			pos++
		} else if j, ok := s.ArgIndex(in.Name); ok {
			i = j
		}
		if i < 0 {
			if in.Name == "" {
				c.add(OpArguments, path, n.Name, "%s takes %d arguments, got more", n.OpName(), len(s.Args))
			} else {
				c.add(OpArguments, path, n.Name, "%s has no argument %q (schema: %s)", n.OpName(), in.Name, s.Text)
			}
			continue
		}
		if given[i] && !s.Args[i].Type.Variadic {
			c.add(OpArguments, path, n.Name, "argument %q given twice", s.Args[i].Name)
		}
		given[i] = true
		if !accepts(s.Args[i].Type, &in.Arg) {
			c.add(OpArgumentKind, path, n.Name, "argument %q is %s but %s takes %s", s.Args[i].Name, in.Arg.Kind, n.OpName(), s.Args[i].Type)
		}
	}
	for i, a := range s.Args {
		if !given[i] && !a.HasDefault && !a.Type.Variadic && !a.Type.Optional {
			c.add(OpArguments, path, n.Name, "missing argument %q (schema: %s)", a.Name, s.Text)
		}
	}
}

// accepts reports whether an argument of this kind can fill a parameter
// of type t, as the export serializer writes them.
func accepts(t ops.Type, a *ir.Argument) bool {
	k := a.Kind
	if k == ir.ArgNone && (t.Optional || t.Base == ops.AnyT || t.Base == ops.GeneratorT) {
		return true
	}
	if t.Base == ops.AnyT {
		return true
	}
	if t.List {
		switch t.Base {
		case ops.TensorT:
			return k == ir.ArgTensors || k == ir.ArgOptionalTensors
		case ops.IntT, ops.SymIntT:
			// int[N] also takes one int, repeated.
			return k == ir.ArgInts || k == ir.ArgSymInts || (t.Len > 0 && (k == ir.ArgInt || k == ir.ArgSymInt))
		case ops.FloatT:
			return k == ir.ArgFloats || k == ir.ArgSymFloats
		case ops.BoolT:
			return k == ir.ArgBools || k == ir.ArgSymBools
		case ops.StrT:
			return k == ir.ArgStrings
		case ops.ScalarT:
			return k == ir.ArgInts || k == ir.ArgFloats || k == ir.ArgSymInts || k == ir.ArgSymFloats
		}
		return false
	}
	switch t.Base {
	case ops.TensorT:
		// A Python number passed for a Tensor is wrapped into one
		// (mul.Tensor(x, 2.0)); export keeps the number.
		switch k {
		case ir.ArgTensor, ir.ArgInt, ir.ArgFloat, ir.ArgBool, ir.ArgSymInt, ir.ArgSymFloat, ir.ArgSymBool, ir.ArgComplex:
			return true
		}
		return t.Optional && k == ir.ArgOptionalTensor
	case ops.IntT, ops.SymIntT:
		return k == ir.ArgInt || k == ir.ArgSymInt
	case ops.FloatT:
		return k == ir.ArgFloat || k == ir.ArgSymFloat || k == ir.ArgInt || k == ir.ArgSymInt
	case ops.ScalarT:
		switch k {
		case ir.ArgInt, ir.ArgFloat, ir.ArgBool, ir.ArgSymInt, ir.ArgSymFloat, ir.ArgSymBool, ir.ArgComplex:
			return true
		}
	case ops.BoolT:
		return k == ir.ArgBool || k == ir.ArgSymBool
	case ops.StrT:
		return k == ir.ArgString
	case ops.ScalarTypeT:
		return k == ir.ArgScalarType
	case ops.LayoutT:
		return k == ir.ArgLayout
	case ops.DeviceT:
		return k == ir.ArgDevice
	case ops.MemoryFormatT:
		return k == ir.ArgMemoryFormat
	case ops.GraphModuleT:
		return k == ir.ArgGraph
	}
	return false
}

// returns checks the node's outputs against the schema's returns.
func (c *checker) returns(path string, g *ir.Graph, n *ir.Node, s *ops.Schema) {
	if s.Kind != ops.ATen {
		return
	}
	want := len(s.Returns)
	got := len(n.Outputs)
	if want == 1 && s.Returns[0].Type.IsTensorList() {
		if got != 1 || n.Outputs[0].Kind != ir.ArgTensors {
			c.add(OpReturns, path, n.Name, "%s returns a tensor list; the node has %d outputs", n.OpName(), got)
		}
		return
	}
	if got != want && !(want == 0 && got == 1 && n.Outputs[0].Kind == ir.ArgNone) {
		c.add(OpReturns, path, n.Name, "%s returns %d values; the node has %d outputs", n.OpName(), want, got)
		return
	}
	for i, r := range s.Returns {
		o := &n.Outputs[i]
		if r.Type.IsTensor() && o.Kind != ir.ArgTensor && o.Kind != ir.ArgNone {
			c.add(OpReturns, path, n.Name, "output %d is %s; %s returns a tensor there", i, o.Kind, n.OpName())
		}
	}
}

// nested checks a higher-order op against the graphs it calls: cond's
// branches take its operands and return what it returns.
func (c *checker) nested(path string, g *ir.Graph, n *ir.Node) {
	subs := n.SubGraphs()
	if n.Target != "torch.ops.higher_order.cond" {
		return
	}
	if len(n.Inputs) < 4 || len(subs) != 2 {
		c.add(NestedGraph, path, n.Name, "cond takes a predicate, two branches and operands; got %d arguments", len(n.Inputs))
		return
	}
	pred := &n.Inputs[0].Arg
	switch pred.Kind {
	case ir.ArgSymBool, ir.ArgBool, ir.ArgTensor:
	default:
		c.add(NestedGraph, path, n.Name, "cond predicate is %s, not a bool", pred.Kind)
	}
	operands := n.Inputs[3].Arg.Refs()
	for _, sub := range subs {
		b := sub.Graph
		if len(b.Inputs) != len(operands) {
			c.add(NestedGraph, path, n.Name, "branch %s takes %d inputs but cond passes %d operands", sub.Name, len(b.Inputs), len(operands))
			continue
		}
		for i, in := range b.InputNames() {
			if i >= len(operands) {
				break
			}
			om, bm := g.TensorValues[operands[i]], b.TensorValues[in]
			if om != nil && bm != nil && (om.DType != bm.DType || len(om.Sizes) != len(bm.Sizes)) {
				c.add(NestedGraph, path, n.Name, "branch %s input %s is %s[rank %d] but operand %s is %s[rank %d]",
					sub.Name, in, bm.DType, len(bm.Sizes), operands[i], om.DType, len(om.Sizes))
			}
		}
		if len(b.Outputs) != len(n.Outputs) {
			c.add(NestedGraph, path, n.Name, "branch %s returns %d values but cond has %d outputs", sub.Name, len(b.Outputs), len(n.Outputs))
		}
	}
}

// delegate checks a delegate call: its first argument names a module,
// which (when modules are given) exists, is not the calling module, takes
// as many inputs as the call passes, each of the kind, dtype and sizes the
// call's argument has, and returns as many as the call receives.
func (c *checker) delegate(path string, g *ir.Graph, n *ir.Node) {
	name, ok := n.DelegateModule()
	if !ok {
		c.add(DelegateCall, path, n.Name, "a delegate call's first argument must name its lowered module")
		return
	}
	if c.opt.Module != "" {
		// The runtime loads a module on its own, without the others.
		callee := name
		if name == c.opt.Module {
			callee = "itself"
		}
		c.add(DelegateCall, path, n.Name, "a lowered module cannot call a delegate, and this one calls %s", callee)
		return
	}
	if c.opt.Modules == nil {
		return
	}
	m, ok := c.opt.Modules[name]
	if !ok {
		c.add(DelegateCall, path, n.Name, "calls %q, which is not a module of this program", name)
		return
	}
	var params []string
	for i, s := range m.Signature.Inputs {
		if s.Kind == ir.InputUser && i < len(m.Graph.Inputs) {
			params = append(params, m.Graph.Inputs[i].Name)
		}
	}
	if got := len(n.Inputs) - 1; got != len(params) {
		c.add(DelegateCall, path, n.Name, "passes %d arguments to %s, which takes %d user inputs", got, name, len(params))
	} else {
		for i, pn := range params {
			if why := c.argumentFits(g, &n.Inputs[i+1].Arg, m.Graph, pn); why != "" {
				c.add(DelegateCall, path, n.Name, "argument %d for %s's input %s: %s", i, name, pn, why)
			}
		}
	}
	outs := 0
	for _, s := range m.Signature.Outputs {
		if s.Kind == ir.OutputUser {
			outs++
		}
	}
	if len(n.Outputs) != outs {
		c.add(DelegateCall, path, n.Name, "receives %d values from %s, which returns %d", len(n.Outputs), name, outs)
	}
}

// argumentFits says why argument a of the calling graph g does not fit
// placeholder pn of module graph mg ("" when it does): the runtime checks
// each argument against the module's signature at every call, so a call
// that does not fit would fail on every input.
func (c *checker) argumentFits(g *ir.Graph, a *ir.Argument, mg *ir.Graph, pn string) string {
	want := mg.TypeOf(pn)
	got := ir.ValueUnknown
	switch a.Kind {
	case ir.ArgTensor:
		got = ir.ValueTensor
	case ir.ArgSymInt:
		got = ir.ValueSymInt
	case ir.ArgSymBool:
		got = ir.ValueSymBool
	case ir.ArgSymFloat:
		got = ir.ValueSymFloat
	}
	if got != want {
		return fmt.Sprintf("a %s where the module takes a %s", a.Kind, want)
	}
	if got != ir.ValueTensor {
		return ""
	}
	am, pm := g.TensorValues[a.Name], mg.TensorValues[pn]
	if am == nil || pm == nil {
		return "" // the metadata rules report it
	}
	if am.DType != pm.DType || len(am.Sizes) != len(pm.Sizes) {
		return fmt.Sprintf("%s is %s where the module takes %s", a.Name, annotate(am), annotate(pm))
	}
	for d := range am.Sizes {
		if !c.sameSize(am.Sizes[d], pm.Sizes[d]) {
			return fmt.Sprintf("%s is %s where the module takes %s (dim %d)", a.Name, annotate(am), annotate(pm), d)
		}
	}
	return ""
}

// sameSize: both static and equal, or both the same expression.
func (c *checker) sameSize(a, b ir.SymInt) bool {
	if a.IsStatic() || b.IsStatic() {
		return a.IsStatic() && b.IsStatic() && a.Int == b.Int
	}
	ea, err1 := c.parse(a.Expr.Expr)
	eb, err2 := c.parse(b.Expr.Expr)
	if err1 != nil || err2 != nil {
		return a.Expr.Expr == b.Expr.Expr
	}
	return ea.Canonical().Key() == eb.Canonical().Key()
}

func annotate(m *ir.TensorMeta) string { return (&irtext.Printer{}).TensorAnnotation(m) }
