package specialize

import (
	"fmt"
	"slices"

	"github.com/seam-rt/seam/ir"
)

// inline replaces cond n, whose predicate is the constant pred, by the
// nodes of the branch it takes, specialized first. Each branch input is
// the operand passed for it; each cond output becomes the value the branch
// returns (later uses are renamed through st.rename). ok is false when the
// branch cannot be spliced (an operand or a result that is not a named
// value): n then stays, with its literal predicate.
func (s *specializer) inline(st *graphState, n *ir.Node, pred bool) (nodes []*ir.Node, ok bool, err error) {
	subs := n.SubGraphs()
	if len(subs) != 2 {
		return nil, false, nil
	}
	sub := subs[1]
	if pred {
		sub = subs[0]
	}
	b := sub.Graph
	if b == nil {
		return nil, false, nil
	}
	operands := n.Inputs[3].Arg.List
	inputs := b.InputNames()
	if len(inputs) != len(b.Inputs) || len(inputs) != len(operands) {
		return nil, false, nil
	}
	local := map[string]string{} // branch name -> parent name
	for i, in := range inputs {
		if operands[i].Name == "" {
			return nil, false, nil
		}
		local[in] = operands[i].Name
	}
	if _, err := s.graph(ir.SubgraphPath(st.path, n.Name, sub.Name), b); err != nil {
		return nil, false, err
	}
	if len(b.Outputs) != len(n.Outputs) {
		return nil, false, nil
	}
	for _, o := range b.Outputs {
		if len(o.Refs()) != 1 {
			return nil, false, nil
		}
	}
	// The branch's values take their own names where the parent has none
	// of them, else the first free suffix.
	type def struct{ from, to string }
	var defs []def
	nodeNames := map[string]string{}
	for _, bn := range b.Nodes {
		bn.ForEachOutputRef(func(o string) {
			local[o] = st.fresh(o)
			defs = append(defs, def{o, local[o]})
		})
	}
	for _, bn := range b.Nodes {
		if r, ok := local[bn.Name]; ok && slices.Contains(bn.OutputNames(), bn.Name) {
			nodeNames[bn.Name] = r
		} else {
			nodeNames[bn.Name] = st.fresh(bn.Name)
		}
	}
	rename := func(name string) string {
		if r, ok := local[name]; ok {
			return r
		}
		return name
	}
	for _, bn := range b.Nodes {
		for i := range bn.Inputs {
			bn.Inputs[i].Arg.Rename(rename)
		}
		for i := range bn.Outputs {
			bn.Outputs[i].Rename(rename)
		}
		bn.Name = nodeNames[bn.Name]
	}
	g := st.g
	for _, d := range defs {
		copyMeta(g, b, d.to, d.from)
	}
	for j, out := range n.Outputs {
		names := out.Refs()
		if len(names) != 1 {
			continue
		}
		st.rename[names[0]] = rename(b.Outputs[j].Refs()[0])
		deleteMeta(g, names[0])
	}
	s.res.Inlined = append(s.res.Inlined, Inlined{Node: ir.PathName(st.path, n.Name), Branch: sub.Name, Pred: pred})
	return b.Nodes, true, nil
}

// fresh returns name if g does not use it yet, else the first name_N that
// is free, and reserves it.
func (st *graphState) fresh(name string) string {
	c := name
	for i := 1; st.taken[c]; i++ {
		c = fmt.Sprintf("%s_%d", name, i)
	}
	st.taken[c] = true
	return c
}

// copyMeta gives value name of g the metadata value from of b has.
func copyMeta(g, b *ir.Graph, name, from string) {
	if m, ok := b.TensorValues[from]; ok {
		setMeta(&g.TensorValues, name, m)
	}
	if v, ok := b.SymIntValues[from]; ok {
		setMeta(&g.SymIntValues, name, v)
	}
	if v, ok := b.SymBoolValues[from]; ok {
		setMeta(&g.SymBoolValues, name, v)
	}
	if v, ok := b.SymFloatValues[from]; ok {
		setMeta(&g.SymFloatValues, name, v)
	}
	if v, ok := b.CustomObjValues[from]; ok {
		setMeta(&g.CustomObjValues, name, v)
	}
}

func setMeta[V any](m *map[string]V, k string, v V) {
	if *m == nil {
		*m = map[string]V{}
	}
	(*m)[k] = v
}

func deleteMeta(g *ir.Graph, name string) {
	delete(g.TensorValues, name)
	delete(g.SymIntValues, name)
	delete(g.SymBoolValues, name)
	delete(g.SymFloatValues, name)
	delete(g.CustomObjValues, name)
}
