package lower

import (
	"fmt"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/partition"
)

// graphCut holds what lowering one graph of a plan needs to know about it.
type graphCut struct {
	lw   *lowerer
	plan *partition.Plan
	path string
	// g is lowering's copy of plan.Graph, rewritten in place; node
	// indices and names are the plan's.
	g    *ir.Graph
	prog *ir.Program // nil for nested graphs: no specs, no weights
	// uses is the plan's index of g's values (as proposed).
	uses *ir.DefUse
	// label names each partition in reports (before modules are named,
	// "partition at NODE"; the module's name once built).
	label []string
	// specOf maps a placeholder to its input spec (top level only).
	specOf map[string]*ir.InputSpec
	// mutated maps a buffer placeholder to the value written back to it.
	mutated map[string]string
	// earlier are the exclusions earlier rounds made in this graph.
	earlier []Exclusion
	// dec is what decide chose for this plan.
	dec *decisions
	// inBoxes and outBoxes name the box tensors of values boxed into and
	// out of partitions.
	inBoxes, outBoxes map[string]string
	// emitters hold, per region, the scalar nodes rederiving has made (see
	// emitterFor).
	emitters map[int]*emitter
	// onDecision, when set, hears every decision decide makes (or could
	// not make, then decide goes on): Judge's way in.
	onDecision func(part int, value string, into bool, d *decided, err error)
}

func newGraphCut(lw *lowerer, plan *partition.Plan, g *ir.Graph, prog *ir.Program) *graphCut {
	gc := &graphCut{
		lw: lw, plan: plan, path: plan.Path, g: g, prog: prog, uses: plan.Uses,
		specOf: map[string]*ir.InputSpec{}, mutated: map[string]string{},
		inBoxes: map[string]string{}, outBoxes: map[string]string{},
	}
	for _, nodes := range plan.Partitions {
		gc.label = append(gc.label, fmt.Sprintf("partition at %s", g.Nodes[nodes[0]].Name))
	}
	for _, e := range lw.opt.Excluded {
		if e.Graph == plan.Path {
			gc.earlier = append(gc.earlier, e)
		}
	}
	if prog != nil {
		for i := range prog.Signature.Inputs {
			s := &prog.Signature.Inputs[i]
			if name := s.PlaceholderName(); name != "" {
				gc.specOf[name] = s
			}
		}
		buffers := map[string]string{}
		for name, s := range gc.specOf {
			if s.Kind == ir.InputBuffer {
				buffers[s.Target] = name
			}
		}
		for _, o := range prog.Signature.Outputs {
			if o.Kind == ir.OutputBufferMutation {
				if ph, ok := buffers[o.Target]; ok {
					gc.mutated[ph] = o.Arg.Name
				}
			}
		}
	}
	return gc
}

// part is node i's partition, -1 for the parent.
func (gc *graphCut) part(i int) int { return gc.plan.PartitionOf(i) }

// producer is the node defining v, -1 for a graph input (or a value
// nothing defines).
func (gc *graphCut) producer(v string) int {
	if i, ok := gc.uses.Producer(v); ok {
		return i
	}
	return -1
}

// users are the nodes using v, ascending.
func (gc *graphCut) users(v string) []int { return gc.uses.Users(v) }

// outUse: the graph's outputs use v.
func (gc *graphCut) outUse(v string) bool { return gc.uses.IsOutput(v) }

// ins are partition k's inputs, in order of first use.
func (gc *graphCut) ins(k int) []partition.BoundaryValue { return gc.plan.Boundaries[k].Inputs }

// outs are partition k's outputs, in order of definition.
func (gc *graphCut) outs(k int) []partition.BoundaryValue { return gc.plan.Boundaries[k].Outputs }

// region names a partition for reports, or "parent".
func (gc *graphCut) region(k int) string {
	if k < 0 {
		return "parent"
	}
	return gc.label[k]
}

// typeOf classifies a value by the graph's tables.
func (gc *graphCut) typeOf(v string) ir.ValueType { return gc.g.TypeOf(v) }

func isSymbolic(t ir.ValueType) bool {
	return t == ir.ValueSymInt || t == ir.ValueSymBool || t == ir.ValueSymFloat
}

// exprOf is a symbolic value's stored expression, "" when it has none.
func (gc *graphCut) exprOf(v string) string {
	switch gc.typeOf(v) {
	case ir.ValueSymInt:
		if s := gc.g.SymIntValues[v]; s.Expr != nil {
			return s.Expr.Expr
		}
	case ir.ValueSymBool:
		if s := gc.g.SymBoolValues[v]; s.Expr != nil {
			return s.Expr.Expr
		}
	case ir.ValueSymFloat:
		if s := gc.g.SymFloatValues[v]; s.Expr != nil {
			return s.Expr.Expr
		}
	}
	return ""
}

// producerName names what defines v: a node, or the graph input.
func (gc *graphCut) producerName(v string) string {
	if i := gc.producer(v); i >= 0 {
		return gc.g.Nodes[i].Name
	}
	return "graph input " + v
}
