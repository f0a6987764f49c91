package ir

import (
	"maps"
	"slices"
)

// Clone returns a deep copy of the program. Weights are shared: their
// stored bytes are never modified, so the copy's tables hold the same
// *Weight values.
func (p *Program) Clone() *Program {
	c := *p
	c.Graph = p.Graph.Clone()
	c.Signature = Signature{
		Inputs:  make([]InputSpec, len(p.Signature.Inputs)),
		Outputs: make([]OutputSpec, len(p.Signature.Outputs)),
	}
	for i, s := range p.Signature.Inputs {
		s.Arg = s.Arg.Clone()
		c.Signature.Inputs[i] = s
	}
	for i, s := range p.Signature.Outputs {
		s.Arg = s.Arg.Clone()
		c.Signature.Outputs[i] = s
	}
	c.ModuleCallGraph = make([]ModuleCallEntry, len(p.ModuleCallGraph))
	for i, e := range p.ModuleCallGraph {
		if e.Signature != nil {
			s := *e.Signature
			s.Inputs = cloneArgs(s.Inputs)
			s.Outputs = cloneArgs(s.Outputs)
			s.ForwardArgNames = slices.Clone(s.ForwardArgNames)
			e.Signature = &s
		}
		c.ModuleCallGraph[i] = e
	}
	c.Metadata = maps.Clone(p.Metadata)
	if p.TreespecNamedtupleFields != nil {
		c.TreespecNamedtupleFields = make(map[string][]string, len(p.TreespecNamedtupleFields))
		for k, v := range p.TreespecNamedtupleFields {
			c.TreespecNamedtupleFields[k] = slices.Clone(v)
		}
	}
	c.OpsetVersion = maps.Clone(p.OpsetVersion)
	c.RangeConstraints = maps.Clone(p.RangeConstraints)
	c.Verifiers = slices.Clone(p.Verifiers)
	c.GuardsCode = slices.Clone(p.GuardsCode)
	c.Weights = maps.Clone(p.Weights)
	c.Constants = maps.Clone(p.Constants)
	return &c
}

// Clone returns a deep copy of the graph and every graph nested in it.
func (g *Graph) Clone() *Graph {
	if g == nil {
		return nil
	}
	c := *g
	c.Inputs = cloneArgs(g.Inputs)
	c.Outputs = cloneArgs(g.Outputs)
	c.Nodes = make([]*Node, len(g.Nodes))
	for i, n := range g.Nodes {
		c.Nodes[i] = n.Clone()
	}
	c.TensorValues = make(map[string]*TensorMeta, len(g.TensorValues))
	for k, m := range g.TensorValues {
		c.TensorValues[k] = m.Clone()
	}
	c.SymIntValues = maps.Clone(g.SymIntValues)
	c.SymBoolValues = maps.Clone(g.SymBoolValues)
	c.SymFloatValues = maps.Clone(g.SymFloatValues)
	c.CustomObjValues = maps.Clone(g.CustomObjValues)
	return &c
}

// Clone returns a deep copy of the node.
func (n *Node) Clone() *Node {
	c := *n
	c.Inputs = make([]NamedArgument, len(n.Inputs))
	for i, in := range n.Inputs {
		in.Arg = in.Arg.Clone()
		c.Inputs[i] = in
	}
	c.Outputs = cloneArgs(n.Outputs)
	c.Metadata = n.Metadata.Clone()
	if n.IsHOPSingleTensorReturn != nil {
		b := *n.IsHOPSingleTensorReturn
		c.IsHOPSingleTensorReturn = &b
	}
	return &c
}

// Clone returns a deep copy of the tensor metadata.
func (m *TensorMeta) Clone() *TensorMeta {
	if m == nil {
		return nil
	}
	c := *m
	c.Sizes = slices.Clone(m.Sizes)
	c.Strides = slices.Clone(m.Strides)
	if m.Device.Index != nil {
		i := *m.Device.Index
		c.Device.Index = &i
	}
	return &c
}

// Clone returns a deep copy of the argument (nested graphs included).
func (a Argument) Clone() Argument {
	c := a
	c.Ints = slices.Clone(a.Ints)
	c.List = cloneArgs(a.List)
	if a.Extra != nil {
		c.Extra = a.Extra.clone()
	}
	return c
}

func (x *ArgExtra) clone() *ArgExtra {
	c := *x
	if x.Device != nil {
		d := *x.Device
		c.Device = &d
	}
	c.Floats = slices.Clone(x.Floats)
	c.Bools = slices.Clone(x.Bools)
	c.Strings = slices.Clone(x.Strings)
	if x.Graph != nil {
		c.Graph = &GraphArgument{Name: x.Graph.Name, Graph: x.Graph.Graph.Clone()}
	}
	if x.IntLists != nil {
		c.IntLists = make([][]int64, len(x.IntLists))
		for i, l := range x.IntLists {
			c.IntLists[i] = slices.Clone(l)
		}
	}
	if x.Nested != nil {
		c.Nested = make([][]string, len(x.Nested))
		for i, l := range x.Nested {
			c.Nested[i] = slices.Clone(l)
		}
	}
	if x.Map != nil {
		c.Map = make(map[string]Argument, len(x.Map))
		for k, v := range x.Map {
			c.Map[k] = v.Clone()
		}
	}
	return &c
}

func cloneArgs(as []Argument) []Argument {
	if as == nil {
		return nil
	}
	out := make([]Argument, len(as))
	for i, a := range as {
		out[i] = a.Clone()
	}
	return out
}
