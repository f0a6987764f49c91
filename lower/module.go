package lower

import (
	"fmt"
	"slices"

	"github.com/seam-rt/seam/ir"
)

// buildModule makes partition k's program.
func (gc *graphCut) buildModule(io *moduleIO, k int) (*Module, error) {
	top := gc.lw.main
	g := gc.g
	mg := &ir.Graph{
		TensorValues: map[string]*ir.TensorMeta{}, SymIntValues: map[string]ir.SymInt{},
		SymBoolValues: map[string]ir.SymBool{}, SymFloatValues: map[string]ir.SymFloat{},
		CustomObjValues: map[string]ir.CustomObj{},
	}
	mp := &ir.Program{
		Graph:            mg,
		Metadata:         map[string]string{},
		OpsetVersion:     top.OpsetVersion,
		RangeConstraints: map[string]ir.RangeConstraint{},
		SchemaVersion:    top.SchemaVersion,
		Verifiers:        slices.Clone(top.Verifiers),
		TorchVersion:     top.TorchVersion,
		GuardsCode:       []string{},
		Weights:          map[string]*ir.Weight{},
		Constants:        map[string]*ir.Weight{},
	}
	copyMeta := func(v string) {
		if m, ok := g.TensorValues[v]; ok {
			mg.TensorValues[v] = m
		}
		if s, ok := g.SymIntValues[v]; ok {
			mg.SymIntValues[v] = s
		}
		if s, ok := g.SymBoolValues[v]; ok {
			mg.SymBoolValues[v] = s
		}
		if s, ok := g.SymFloatValues[v]; ok {
			mg.SymFloatValues[v] = s
		}
		if s, ok := g.CustomObjValues[v]; ok {
			mg.CustomObjValues[v] = s
		}
	}
	var made []*created
	// Placeholders: owned weights first, then the inputs the parent passes.
	for _, v := range io.owned {
		spec := *gc.specOf[v]
		mg.Inputs = append(mg.Inputs, ir.TensorArg(v))
		mp.Signature.Inputs = append(mp.Signature.Inputs, spec)
		copyMeta(v)
		w, ok := gc.prog.Weight(spec.Target)
		if !ok {
			return nil, fmt.Errorf("lower: %s: weight %s of %s is missing", io.name, spec.Target, v)
		}
		if _, inWeights := gc.prog.Weights[spec.Target]; inWeights {
			mp.Weights[spec.Target] = w
		} else {
			mp.Constants[spec.Target] = w
		}
	}
	for _, v := range io.inputs {
		arg := gc.placeholderArg(v, io)
		mg.Inputs = append(mg.Inputs, arg)
		mp.Signature.Inputs = append(mp.Signature.Inputs, ir.InputSpec{Kind: ir.InputUser, Arg: arg})
		if t, ok := io.boxes[v]; ok {
			made = append(made, &created{tensors: map[string]*ir.TensorMeta{v: boxMeta(t)}})
			continue
		}
		copyMeta(v)
	}
	// Nodes: what recomputes or unboxes inputs, the partition's own nodes
	// (replacements substituted), then what boxes outputs.
	for _, c := range io.head {
		mg.Nodes = append(mg.Nodes, c.node.Clone())
		made = append(made, c)
	}
	var nodeNames []string
	for _, i := range gc.plan.Partitions[k] {
		n := g.Nodes[i].Clone()
		substitute(n, io.replace)
		mg.Nodes = append(mg.Nodes, n)
		nodeNames = append(nodeNames, n.Name)
		n.ForEachInputRef(copyMeta)
		n.ForEachOutputRef(copyMeta)
	}
	for _, c := range io.tail {
		mg.Nodes = append(mg.Nodes, c.node.Clone())
		made = append(made, c)
	}
	for _, c := range made {
		c.addTo(mg)
	}
	// Outputs: buffer mutations first, as export orders them, then the
	// values the parent receives.
	for _, v := range io.owned {
		if io.takenOver[v] {
			val := gc.mutated[v]
			mg.Outputs = append(mg.Outputs, ir.TensorArg(val))
			mp.Signature.Outputs = append(mp.Signature.Outputs, ir.OutputSpec{Kind: ir.OutputBufferMutation, Arg: ir.TensorArg(val), Target: gc.specOf[v].Target})
		}
	}
	for _, v := range io.outputs {
		arg := gc.valueArg(v, mg)
		mg.Outputs = append(mg.Outputs, arg)
		mp.Signature.Outputs = append(mp.Signature.Outputs, ir.OutputSpec{Kind: ir.OutputUser, Arg: arg})
	}
	gc.lw.addRanges(mp)
	mp.ModuleCallGraph = []ir.ModuleCallEntry{{FQN: "", Signature: &ir.ModuleCallSignature{
		Inputs: []ir.Argument{}, Outputs: []ir.Argument{},
		InSpec: inSpec(len(io.inputs)), OutSpec: outSpec(len(io.outputs)),
		ForwardArgNames: slices.Clone(io.inputs),
	}}}
	return &Module{
		Name: io.name, Nodes: nodeNames, Graph: gc.path,
		LoweredModule: &ir.LoweredModule{Program: mp, Delegate: &ir.Delegate{
			Backend: gc.lw.prof.Name, CompileOptions: gc.lw.prof.CompileOptions, Contract: gc.lw.profileJSON(),
		}},
	}, nil
}

// placeholderArg is the module placeholder for a value the parent passes.
func (gc *graphCut) placeholderArg(v string, io *moduleIO) ir.Argument {
	if _, ok := io.boxes[v]; ok {
		return ir.TensorArg(v)
	}
	if t := gc.typeOf(v); isSymbolic(t) {
		return symRef(v, t)
	}
	if gc.typeOf(v) == ir.ValueCustomObj {
		return ir.Argument{Kind: ir.ArgCustomObj, Name: v, Str: gc.g.CustomObjValues[v].ClassFQN}
	}
	return ir.TensorArg(v)
}

// valueArg refers to a value of graph g by its type.
func (gc *graphCut) valueArg(v string, g *ir.Graph) ir.Argument {
	if t := g.TypeOf(v); isSymbolic(t) {
		return symRef(v, t)
	}
	return ir.TensorArg(v)
}

// substitute replaces references to values the module does not compute:
// by a literal when the value folded to a constant, by another value's
// name when that one has the same expression.
func substitute(n *ir.Node, repl map[string]ir.Argument) {
	if len(repl) == 0 {
		return
	}
	for i := range n.Inputs {
		substituteArg(&n.Inputs[i].Arg, repl)
	}
}

func substituteArg(a *ir.Argument, repl map[string]ir.Argument) {
	switch a.Kind {
	case ir.ArgSymInt, ir.ArgSymFloat, ir.ArgSymBool:
		if r, ok := repl[a.Name]; ok && a.Name != "" {
			kind := a.Kind
			*a = ir.Argument{Kind: kind, Name: r.Name, Int: r.Int, Float: r.Float, Bool: r.Bool}
		}
	case ir.ArgSymInts, ir.ArgSymFloats, ir.ArgSymBools:
		for i := range a.List {
			substituteArg(&a.List[i], repl)
		}
	}
}

// addRanges gives a module the range constraints of the symbols it uses.
func (lw *lowerer) addRanges(mp *ir.Program) {
	used := map[string]bool{}
	note := func(text string) {
		if e, err := lw.parse(text); err == nil {
			for _, s := range e.Symbols() {
				used[s] = true
			}
		}
	}
	_ = mp.Graph.Walk(func(_ string, g *ir.Graph) error {
		for _, m := range g.TensorValues {
			for _, s := range append(append([]ir.SymInt{}, m.Sizes...), m.Strides...) {
				if s.Expr != nil {
					note(s.Expr.Expr)
				}
			}
		}
		for _, s := range g.SymIntValues {
			if s.Expr != nil {
				note(s.Expr.Expr)
			}
		}
		for _, s := range g.SymBoolValues {
			if s.Expr != nil {
				note(s.Expr.Expr)
			}
		}
		for _, s := range g.SymFloatValues {
			if s.Expr != nil {
				note(s.Expr.Expr)
			}
		}
		return nil
	})
	for s := range used {
		if rc, ok := lw.main.RangeConstraints[s]; ok {
			mp.RangeConstraints[s] = rc
		}
	}
}

// inSpec is the pytree spec of a module called with n positional inputs:
// ((x0, ..., xn-1), {}).
func inSpec(n int) string {
	return `[1, {"type": "builtins.tuple", "context": "null", "children_spec": [{"type": "builtins.tuple", "context": "null", "children_spec": [` +
		leaves(n) + `]}, {"type": "builtins.dict", "context": "[]", "children_spec": []}]}]`
}

// outSpec is the pytree spec of a tuple of n outputs.
func outSpec(n int) string {
	return `[1, {"type": "builtins.tuple", "context": "null", "children_spec": [` + leaves(n) + `]}]`
}

func leaves(n int) string {
	s := ""
	for i := 0; i < n; i++ {
		if i > 0 {
			s += ", "
		}
		s += `{"type": null, "context": null, "children_spec": []}`
	}
	return s
}
