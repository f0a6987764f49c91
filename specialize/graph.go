package specialize

import (
	"fmt"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/ops"
	"github.com/seam-rt/seam/sym"
)

const (
	condTarget            = "torch.ops.higher_order.cond"
	assertScalarTarget    = "torch.ops.aten._assert_scalar.default"
	constrainRangeTarget  = "torch.ops.aten.sym_constrain_range.default"
	constrainForSizeTaget = "torch.ops.aten.sym_constrain_range_for_size.default"
)

// graphState is one graph being specialized.
type graphState struct {
	path string
	g    *ir.Graph
	// consts are the values of g the binding makes constant.
	consts map[string]sym.Value
	// rename maps the outputs of inlined conds to the branch values that
	// replace them.
	rename map[string]string
	// taken holds every name g uses, for fresh names of inlined nodes.
	taken map[string]bool
}

func (st *graphState) renamed(name string) string {
	if r, ok := st.rename[name]; ok {
		return r
	}
	return name
}

// graph specializes g (the program's clone) in place: its metadata, then
// its nodes in order (folding scalars, checking asserts, inlining conds,
// specializing nested graphs), then drops the scalar nodes nothing uses.
func (s *specializer) graph(path string, g *ir.Graph) (*graphState, error) {
	st := &graphState{path: path, g: g, rename: map[string]string{}, taken: map[string]bool{}}
	var err error
	if st.consts, err = s.meta(path, g); err != nil {
		return nil, err
	}
	for _, name := range g.InputNames() {
		st.taken[name] = true
	}
	for _, n := range g.Nodes {
		st.taken[n.Name] = true
		n.ForEachOutputRef(func(o string) { st.taken[o] = true })
	}
	var nodes []*ir.Node
	for _, n := range g.Nodes {
		for i := range n.Inputs {
			n.Inputs[i].Arg.Rename(st.renamed)
			foldArg(&n.Inputs[i].Arg, st.consts)
		}
		switch n.Target {
		case assertScalarTarget, constrainRangeTarget, constrainForSizeTaget:
			holds, err := s.assert(path, n)
			if err != nil {
				return nil, err
			}
			if holds {
				s.res.Asserts = append(s.res.Asserts, ir.PathName(path, n.Name))
				continue
			}
		case condTarget:
			if len(n.Inputs) < 4 {
				break
			}
			if pred, ok := truth(&n.Inputs[0].Arg); ok {
				inlined, ok, err := s.inline(st, n, pred)
				if err != nil {
					return nil, err
				}
				if ok {
					nodes = append(nodes, inlined...)
					continue
				}
			}
		}
		for _, sub := range n.SubGraphs() {
			if sub.Graph != nil && !s.done[sub.Graph] {
				if _, err := s.graph(ir.SubgraphPath(path, n.Name, sub.Name), sub.Graph); err != nil {
					return nil, err
				}
			}
		}
		nodes = append(nodes, n)
	}
	for i := range g.Outputs {
		g.Outputs[i].Rename(st.renamed)
		foldArg(&g.Outputs[i], st.consts)
	}
	g.Nodes = s.dropFolded(st, nodes)
	s.done[g] = true
	return st, nil
}

// dropFolded removes the scalar nodes whose every output is now a literal
// at each use, and their values' metadata.
func (s *specializer) dropFolded(st *graphState, nodes []*ir.Node) []*ir.Node {
	foldable := make([]bool, len(nodes))
	for i, n := range nodes {
		outs := n.OutputNames()
		foldable[i] = isScalarOp(n.Target) && len(outs) > 0
		for _, o := range outs {
			if _, ok := st.consts[o]; !ok {
				foldable[i] = false
			}
		}
	}
	// A value is still needed while a kept node or an output refers to it
	// in a form that takes no literal.
	for changed := true; changed; {
		changed = false
		used := map[string]bool{}
		for i, n := range nodes {
			if !foldable[i] {
				n.ForEachInputRef(func(r string) { used[r] = true })
			}
		}
		for i := range st.g.Outputs {
			st.g.Outputs[i].ForEachRef(func(r string) { used[r] = true })
		}
		for i, n := range nodes {
			if !foldable[i] {
				continue
			}
			for _, o := range n.OutputNames() {
				if used[o] {
					foldable[i] = false
					changed = true
				}
			}
		}
	}
	kept := nodes[:0]
	for i, n := range nodes {
		if !foldable[i] {
			kept = append(kept, n)
			continue
		}
		s.res.Folded = append(s.res.Folded, ir.PathName(st.path, n.Name))
		for _, o := range n.OutputNames() {
			delete(st.g.SymIntValues, o)
			delete(st.g.SymBoolValues, o)
			delete(st.g.SymFloatValues, o)
		}
	}
	return kept
}

// isScalarOp: the node computes a symbolic scalar from sizes or other
// scalars and nothing else, so a constant result makes it dead.
func isScalarOp(target string) bool { return ops.ClassOf(target) == ops.Symbolic }

// assert checks an assertion whose condition the binding made constant:
// holds is true when it holds (the node can go), false when it is still
// symbolic; a failed one is an error naming it.
func (s *specializer) assert(path string, n *ir.Node) (holds bool, err error) {
	if len(n.Inputs) == 0 {
		return false, nil
	}
	where := ir.PathName(path, n.Name)
	if n.Target == assertScalarTarget {
		ok, constant := truth(&n.Inputs[0].Arg)
		if !constant {
			return false, nil
		}
		if !ok {
			msg := "assertion failed"
			if len(n.Inputs) > 1 && n.Inputs[1].Arg.Kind == ir.ArgString {
				msg = n.Inputs[1].Arg.Str
			}
			return false, &Error{Node: where, Msg: fmt.Sprintf("the binding %s fails assertion %s: %s", String(s.bind), where, msg)}
		}
		return true, nil
	}
	size, ok := intLiteral(&n.Inputs[0].Arg)
	if !ok {
		return false, nil
	}
	lo, hi := "-int_oo", "int_oo"
	bad := false
	if n.Target == constrainForSizeTaget {
		lo, bad = "0", size < 0
	}
	for _, in := range n.Inputs[1:] {
		v, ok := intLiteral(&in.Arg)
		if !ok {
			continue
		}
		switch in.Name {
		case "min":
			lo, bad = fmt.Sprint(v), bad || size < v
		case "max":
			hi, bad = fmt.Sprint(v), bad || size > v
		}
	}
	if bad {
		return false, &Error{Node: where, Msg: fmt.Sprintf("the binding %s fails %s: the value %d is outside [%s, %s]", String(s.bind), where, size, lo, hi)}
	}
	return true, nil
}

// truth is the Python truth of a literal argument; constant is false for a
// value still symbolic.
func truth(a *ir.Argument) (v, constant bool) {
	switch a.Kind {
	case ir.ArgBool:
		return a.Bool, true
	case ir.ArgInt:
		return a.Int != 0, true
	case ir.ArgFloat:
		return a.Float != 0, true
	case ir.ArgSymBool:
		return a.Bool, a.Name == ""
	case ir.ArgSymInt:
		return a.Int != 0, a.Name == ""
	case ir.ArgSymFloat:
		return a.Float != 0, a.Name == ""
	}
	return false, false
}

func intLiteral(a *ir.Argument) (int64, bool) {
	switch a.Kind {
	case ir.ArgInt:
		return a.Int, true
	case ir.ArgSymInt:
		return a.Int, a.Name == ""
	}
	return 0, false
}
