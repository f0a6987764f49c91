package verify

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/sym"
)

// Options adds what a program alone does not say.
type Options struct {
	// Modules are the lowered modules delegate calls may name (a lowered
	// archive's other programs). Nil skips the delegate-call check's
	// lookup; calls are still checked for form.
	Modules map[string]*ir.Program
	// Module names the program when it is itself a lowered module: the
	// runtime loads a module on its own, so it cannot call delegates.
	Module string
}

type checker struct {
	p    *ir.Program
	opt  Options
	out  []Violation
	syms map[string]*sym.Expr
}

// Program verifies a program; violations come in the order found, errors
// and warnings together (see Errors).
func Program(p *ir.Program, opt Options) []Violation {
	c := &checker{p: p, opt: opt, syms: map[string]*sym.Expr{}}
	c.signature()
	c.weights()
	c.ranges()
	_ = p.Graph.Walk(func(path string, g *ir.Graph) error {
		c.graph(path, g)
		return nil
	})
	c.symbols()
	c.needs()
	return c.out
}

func (c *checker) add(rule Rule, graph, node, format string, args ...any) {
	c.out = append(c.out, Violation{Rule: rule, Graph: graph, Node: node, Msg: fmt.Sprintf(format, args...)})
}

func (c *checker) warn(rule Rule, graph, node, format string, args ...any) {
	c.out = append(c.out, Violation{Rule: rule, Graph: graph, Node: node, Msg: fmt.Sprintf(format, args...), Warning: true})
}

// signature checks that the specs line up with the graph's inputs and
// outputs, in number, order, name and kind.
func (c *checker) signature() {
	g, sig := c.p.Graph, &c.p.Signature
	if len(g.Inputs) != len(sig.Inputs) {
		c.add(InputCount, "", "inputs", "graph has %d inputs, signature %d", len(g.Inputs), len(sig.Inputs))
	}
	for i := 0; i < min(len(g.Inputs), len(sig.Inputs)); i++ {
		in, spec := &g.Inputs[i], &sig.Inputs[i]
		name := spec.PlaceholderName()
		switch spec.Kind {
		case ir.InputParameter, ir.InputBuffer, ir.InputTensorConstant:
			if in.Kind != ir.ArgTensor {
				c.add(InputKind, "", name, "%s input %d is %s, not a tensor", spec.Kind, i, in.Kind)
			}
		case ir.InputCustomObj:
			if in.Kind != ir.ArgCustomObj {
				c.add(InputKind, "", name, "custom_obj input %d is %s", i, in.Kind)
			}
		case ir.InputToken:
			if in.Kind != ir.ArgToken && in.Kind != ir.ArgTensor {
				c.add(InputKind, "", name, "token input %d is %s", i, in.Kind)
			}
		case ir.InputUser:
			if in.Kind != spec.Arg.Kind {
				c.add(InputKind, "", name, "user input %d is %s in the graph but %s in the signature", i, in.Kind, spec.Arg.Kind)
			}
		case ir.InputConstant:
			continue
		default:
			c.add(InputKind, "", name, "input %d has no valid spec kind", i)
		}
		if in.Name != spec.Arg.Name {
			c.add(InputName, "", in.Name, "placeholder %d is %q but its spec names %q", i, in.Name, spec.Arg.Name)
		}
	}
	if len(g.Outputs) != len(sig.Outputs) {
		c.add(OutputCount, "", "outputs", "graph has %d outputs, signature %d", len(g.Outputs), len(sig.Outputs))
	}
	buffers, userInputs := map[string]bool{}, map[string]bool{}
	for _, s := range sig.Inputs {
		switch s.Kind {
		case ir.InputBuffer:
			buffers[s.Target] = true
		case ir.InputUser:
			userInputs[s.Arg.Name] = true
		}
	}
	// Export orders outputs: tokens, mutations, user outputs, then the rest.
	rank := func(k ir.OutputKind) int {
		switch k {
		case ir.OutputToken:
			return 0
		case ir.OutputBufferMutation, ir.OutputUserInputMutation, ir.OutputParameterMutation:
			return 1
		case ir.OutputUser:
			return 2
		}
		return 3
	}
	last := 0
	for i, s := range sig.Outputs {
		if i < len(g.Outputs) {
			if got, want := g.Outputs[i].Refs(), s.Arg.Refs(); !slices.Equal(got, want) {
				c.add(OutputName, "", fmt.Sprintf("output %d", i), "graph returns %v but its spec names %v", got, want)
			}
		}
		if r := rank(s.Kind); r < last {
			c.add(OutputOrder, "", fmt.Sprintf("output %d", i), "%s %s comes after a later kind of output", s.Kind, s.Arg.Name)
		} else {
			last = r
		}
		switch s.Kind {
		case ir.OutputBufferMutation:
			if !buffers[s.Target] {
				c.add(BufferMutation, "", s.Arg.Name, "mutates %q, which is not a buffer input", s.Target)
			}
		case ir.OutputUserInputMutation:
			if !userInputs[s.Target] {
				c.add(UserInputMutation, "", s.Arg.Name, "mutates %q, which is not a user input", s.Target)
			}
		}
	}
}

// weights checks that parameters, buffers and constants are stored, with
// the dtype and shape of their placeholders.
func (c *checker) weights() {
	g := c.p.Graph
	for i, s := range c.p.Signature.Inputs {
		var table map[string]*ir.Weight
		switch s.Kind {
		case ir.InputParameter:
			table = c.p.Weights
		case ir.InputBuffer:
			table = c.p.Constants
			if s.Persistent {
				table = c.p.Weights
			}
		case ir.InputTensorConstant:
			table = c.p.Constants
		case ir.InputCustomObj:
			if _, ok := c.p.Constants[s.Target]; !ok {
				c.add(WeightMissing, "", s.Arg.Name, "custom object %q is not among the constants", s.Target)
			}
			continue
		default:
			continue
		}
		name := s.Arg.Name
		w, ok := table[s.Target]
		if !ok {
			where := "weights"
			if _, other := c.p.Weight(s.Target); other {
				where = "right table (persistent buffers and parameters are weights, the rest constants)"
			}
			c.add(WeightMissing, "", name, "%s %q is not in the %s", s.Kind, s.Target, where)
			continue
		}
		m := g.TensorValues[name]
		if w.Meta == nil || m == nil || i >= len(g.Inputs) {
			continue
		}
		if w.Meta.DType != m.DType {
			c.add(WeightMismatch, "", name, "placeholder is %s but weight %s is %s", m.DType, s.Target, w.Meta.DType)
		}
		if !sameSizes(w.Meta.Sizes, m.Sizes) {
			c.add(WeightMismatch, "", name, "placeholder has sizes %s but weight %s has %s", sizesText(m.Sizes), s.Target, sizesText(w.Meta.Sizes))
		}
	}
}

func sameSizes(a, b []ir.SymInt) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].IsStatic() != b[i].IsStatic() || (a[i].IsStatic() && a[i].Int != b[i].Int) {
			return false
		}
	}
	return true
}

func sizesText(s []ir.SymInt) string {
	parts := make([]string, len(s))
	for i, x := range s {
		if x.Expr != nil {
			parts[i] = "?"
		} else {
			parts[i] = fmt.Sprint(x.Int)
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func (c *checker) ranges() {
	for _, name := range ir.SortedKeys(c.p.RangeConstraints) {
		r := c.p.RangeConstraints[name]
		if r.Min != nil && r.Max != nil && *r.Min > *r.Max {
			c.add(BadRange, "", name, "range [%d, %d] is empty", *r.Min, *r.Max)
		}
	}
}

func (c *checker) parse(text string) (*sym.Expr, error) {
	if e, ok := c.syms[text]; ok {
		return e, nil
	}
	e, err := sym.Parse(text)
	if err == nil {
		c.syms[text] = e
	}
	return e, err
}

// symbols checks that every symbol in a size is bounded by a range
// constraint or bound by an input (a user input's dim, a SymInt input, or
// a node that introduces it, as _local_scalar_dense does).
func (c *checker) symbols() {
	bound := map[string]bool{}
	for s := range c.p.RangeConstraints {
		bound[s] = true
	}
	bare := func(se *ir.SymExpr) {
		if se == nil {
			return
		}
		if e, err := c.parse(se.Expr); err == nil && e.Op() == sym.OpSymbol {
			bound[e.Name()] = true
		}
	}
	g := c.p.Graph
	for _, name := range g.InputNames() {
		if m := g.TensorValues[name]; m != nil {
			for _, s := range m.Sizes {
				bare(s.Expr)
			}
		}
		if s, ok := g.SymIntValues[name]; ok {
			bare(s.Expr)
		}
	}
	_ = g.Walk(func(_ string, g *ir.Graph) error {
		for _, n := range g.Nodes {
			n.ForEachOutputRef(func(o string) {
				if s, ok := g.SymIntValues[o]; ok {
					bare(s.Expr)
				}
			})
		}
		return nil
	})
	reported := map[string]bool{}
	_ = g.Walk(func(path string, g *ir.Graph) error {
		for _, name := range ir.SortedKeys(g.TensorValues) {
			for _, s := range g.TensorValues[name].Sizes {
				if s.Expr == nil {
					continue
				}
				e, err := c.parse(s.Expr.Expr)
				if err != nil {
					c.add(MissingMeta, path, name, "size %q does not parse: %v", s.Expr.Expr, err)
					continue
				}
				for _, sy := range e.Symbols() {
					if !bound[sy] && !reported[sy] {
						reported[sy] = true
						c.add(UnboundSymbol, path, name, "symbol %s in its size has no range constraint and no input binds it", sy)
					}
				}
			}
		}
		return nil
	})
}

// needs checks that every size a node makes can be computed from what the
// program is given: its user inputs' sizes and the symbolic values its
// nodes compute. A symbol the inputs carry only inside a size known as a
// whole (s0 in f32[s0*s1, 64]) cannot be needed on its own: nothing could
// tell its value (a lowered module that needs it must be given it).
func (c *checker) needs() {
	g := c.p.Graph
	var users []string
	for _, s := range c.p.Signature.Inputs {
		if s.Kind == ir.InputUser {
			users = append(users, s.PlaceholderName())
		}
	}
	given := GivenSizes(g, users, c.parse)
	carried := map[string]string{}
	for _, s := range given {
		for _, name := range s.Expr.Symbols() {
			if _, ok := carried[name]; !ok {
				carried[name] = fmt.Sprintf("%s (%s)", s.Expr, s)
			}
		}
	}
	if len(carried) == 0 {
		return
	}
	known := Exprs(given)
	_ = g.Walk(func(_ string, g *ir.Graph) error {
		for _, n := range g.Nodes {
			n.ForEachOutputRef(func(o string) {
				if s, ok := g.SymIntValues[o]; ok && s.Expr != nil {
					if e, err := c.parse(s.Expr.Expr); err == nil {
						known = append(known, e)
					}
				}
			})
		}
		return nil
	})
	know := sym.Know(known, Ranges(c.p))
	reported := map[string]bool{}
	_ = g.Walk(func(path string, g *ir.Graph) error {
		for _, n := range g.Nodes {
			n.ForEachOutputRef(func(o string) {
				m := g.TensorValues[o]
				if m == nil {
					return
				}
				for _, size := range m.Sizes {
					if size.Expr == nil {
						continue
					}
					e, err := c.parse(size.Expr.Expr)
					if err != nil {
						continue
					}
					_, err = know.Plan(e)
					var ue *sym.UndeterminedError
					if errors.As(err, &ue) && carried[ue.Symbol] != "" && !reported[ue.Symbol] {
						reported[ue.Symbol] = true
						c.add(NeedsSymbol, path, o, "its size %s needs %s on its own, which nothing the program is given determines (its inputs carry it only in %s)",
							e, ue.Symbol, carried[ue.Symbol])
					}
				}
			})
		}
		return nil
	})
}
