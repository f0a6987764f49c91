package lower

import (
	"fmt"

	"github.com/seam-rt/seam/ir"
)

// callNode is the parent's delegate call for a module.
func (gc *graphCut) callNode(io *moduleIO) *ir.Node {
	n := &ir.Node{
		Name:     gc.lw.names.fresh("executorch_call_delegate"),
		Target:   ir.DelegateTarget,
		Inputs:   []ir.NamedArgument{positional(io.name, ir.StringArg(io.name))},
		Metadata: ir.Metadata{},
	}
	for i, v := range io.inputs {
		n.Inputs = append(n.Inputs, positional(fmt.Sprintf("delegate_arg_%d", i), gc.parentArg(v, io)))
	}
	for _, v := range io.outputs {
		n.Outputs = append(n.Outputs, gc.parentArg(v, io))
	}
	single := false
	n.IsHOPSingleTensorReturn = &single
	return n
}

// parentArg refers to a value as the parent holds it: box tensors are
// tensors, symbolic values are references of their type.
func (gc *graphCut) parentArg(v string, io *moduleIO) ir.Argument {
	if t := gc.typeOf(v); isSymbolic(t) {
		return symRef(v, t)
	}
	return ir.TensorArg(v)
}

// rewriteParent replaces the partitions by their calls and adds what the
// decisions need in the parent, in an order that respects every use.
func (gc *graphCut) rewriteParent(ios []*moduleIO, calls []*ir.Node) error {
	g, d, parts := gc.g, gc.dec, gc.plan.Partitions
	type item struct {
		node *ir.Node
		key  float64
	}
	var items []item
	var made []*created
	for i, n := range g.Nodes {
		if gc.part(i) < 0 {
			items = append(items, item{n, float64(i)})
		}
	}
	first := func(k int) float64 { return float64(parts[k][0]) }
	defined := map[string]bool{}
	for _, n := range g.Nodes {
		n.ForEachOutputRef(func(s string) { defined[s] = true })
	}
	// A value the parent defines is not defined again, unless its node
	// moved into a module (then one recomputing or unboxing copy is added,
	// however many decisions ask for it).
	readded := map[string]bool{}
	add := func(c *created, key float64) {
		dup := false
		c.node.ForEachOutputRef(func(o string) {
			dup = dup || readded[o] || (defined[o] && !gc.movedAway(o))
		})
		if dup {
			return
		}
		c.node.ForEachOutputRef(func(o string) { defined[o], readded[o] = true, true })
		items = append(items, item{c.node, key})
		made = append(made, c)
	}
	for k, call := range calls {
		items = append(items, item{call, first(k)})
	}
	for _, dk := range sortedKeys(d.in) {
		dec := d.in[dk]
		if dec.how == doBox {
			box := boxNode(dec.box, dec.value, gc.typeOf(dec.value))
			add(box, first(dec.part)-0.5)
		}
	}
	for _, dk := range sortedKeys(d.out) {
		dec := d.out[dk]
		for _, c := range dec.added {
			add(c, first(dec.part)+0.25)
		}
		if dec.box != "" {
			// The box tensor is an output of the delegate call.
			made = append(made, &created{tensors: map[string]*ir.TensorMeta{dec.box: boxMeta(gc.typeOf(dec.value))}})
		}
	}
	nodes := make([]*ir.Node, len(items))
	for i, it := range items {
		nodes[i] = it.node
	}
	order, err := topoOrder(nodes, func(i int) float64 { return items[i].key })
	if err != nil {
		return &BugError{Err: fmt.Errorf("the partitions are not convex: %v", err)}
	}
	g.Nodes = g.Nodes[:0:0]
	for _, i := range order {
		g.Nodes = append(g.Nodes, items[i].node)
	}
	for _, c := range made {
		c.addTo(g)
	}
	gc.pruneParent(ios)
	return nil
}

// movedAway: v was defined by a node now inside a module, so the parent
// may define it anew (unboxing it, or recomputing it).
func (gc *graphCut) movedAway(v string) bool {
	i, ok := gc.uses.Producer(v)
	return ok && i >= 0 && gc.part(i) >= 0
}

// pruneParent drops weights the modules took over and nothing else uses,
// taken-over buffer mutations, and metadata of values no longer here.
func (gc *graphCut) pruneParent(ios []*moduleIO) {
	g := gc.g
	gc.removeDeadScalars()
	used := map[string]bool{}
	for _, n := range g.Nodes {
		n.ForEachInputRef(func(s string) { used[s] = true })
	}
	if gc.prog != nil {
		taken := map[string]bool{}
		for _, io := range ios {
			for v := range io.takenOver {
				taken[gc.specOf[v].Target] = true
			}
		}
		sig := &gc.prog.Signature
		var outs []ir.Argument
		var outSpecs []ir.OutputSpec
		for i, o := range sig.Outputs {
			if o.Kind == ir.OutputBufferMutation && taken[o.Target] {
				continue
			}
			outs = append(outs, g.Outputs[i])
			outSpecs = append(outSpecs, o)
		}
		g.Outputs, sig.Outputs = outs, outSpecs
		for i := range g.Outputs {
			g.Outputs[i].ForEachRef(func(s string) { used[s] = true })
		}
		var ins []ir.Argument
		var inSpecs []ir.InputSpec
		for i, s := range sig.Inputs {
			name := s.PlaceholderName()
			isWeight := s.Kind == ir.InputParameter || s.Kind == ir.InputBuffer || s.Kind == ir.InputTensorConstant
			// Only weights the modules took away go; one nothing used
			// before (a tied embedding's twin) stays as it was.
			if isWeight && !used[name] && (len(gc.users(name)) > 0 || gc.outUse(name)) {
				delete(gc.prog.Weights, s.Target)
				delete(gc.prog.Constants, s.Target)
				continue
			}
			ins = append(ins, g.Inputs[i])
			inSpecs = append(inSpecs, s)
		}
		g.Inputs, sig.Inputs = ins, inSpecs
	} else {
		for i := range g.Outputs {
			g.Outputs[i].ForEachRef(func(s string) { used[s] = true })
		}
	}
	live := map[string]bool{}
	for _, v := range g.InputNames() {
		live[v] = true
	}
	for _, n := range g.Nodes {
		n.ForEachOutputRef(func(s string) { live[s] = true })
		n.ForEachInputRef(func(s string) { live[s] = true })
	}
	for k := range g.TensorValues {
		if !live[k] {
			delete(g.TensorValues, k)
		}
	}
	for k := range g.SymIntValues {
		if !live[k] {
			delete(g.SymIntValues, k)
		}
	}
	for k := range g.SymBoolValues {
		if !live[k] {
			delete(g.SymBoolValues, k)
		}
	}
	for k := range g.SymFloatValues {
		if !live[k] {
			delete(g.SymFloatValues, k)
		}
	}
}

// removeDeadScalars drops scalar nodes of the parent whose values nothing
// uses any more: every module that needed them recomputes them inside.
func (gc *graphCut) removeDeadScalars() {
	g := gc.g
	used := map[string]int{}
	for _, n := range g.Nodes {
		n.ForEachInputRef(func(s string) { used[s]++ })
	}
	for i := range g.Outputs {
		g.Outputs[i].ForEachRef(func(s string) { used[s]++ })
	}
	keep := make([]bool, len(g.Nodes))
	for i := len(g.Nodes) - 1; i >= 0; i-- {
		n := g.Nodes[i]
		live := !isScalarOp(n.Target) || len(n.Outputs) == 0
		n.ForEachOutputRef(func(s string) { live = live || used[s] > 0 })
		keep[i] = live
		if !live {
			gc.lw.res.Removed = append(gc.lw.res.Removed, n.Name)
			n.ForEachInputRef(func(s string) { used[s]-- })
		}
	}
	out := g.Nodes[:0]
	for i, n := range g.Nodes {
		if keep[i] {
			out = append(out, n)
		}
	}
	g.Nodes = out
}
