package lower

import (
	"fmt"

	"github.com/seam-rt/seam/ir"
)

// graphCut holds what lowering one graph needs to know about it.
type graphCut struct {
	lw   *lowerer
	path string
	g    *ir.Graph
	prog *ir.Program // nil for nested graphs: no specs, no weights
	// producer maps each value to the index of the node defining it; graph
	// inputs map to -1.
	producer map[string]int
	// users lists, per value, the nodes using it, ascending.
	users map[string][]int
	// outUse marks values the graph's outputs use.
	outUse map[string]bool
	// specOf maps a placeholder to its input spec (top level only).
	specOf map[string]*ir.InputSpec
	// mutated maps a buffer placeholder to the value written back to it.
	mutated map[string]string
	// excludedReports keeps what earlier rounds excluded.
	excludedReports []Crossing
	// inBoxes and outBoxes name the box tensors of values boxed into and
	// out of partitions.
	inBoxes, outBoxes map[string]string
	// emitters hold, per region of the current plan, the scalar nodes
	// rederiving has made (see emitterFor).
	emitters map[int]*emitter
	// onDecision, when set, hears every decision decide makes (or could
	// not make, then decide goes on): Judge's way in.
	onDecision func(part int, value string, into bool, d *decided, err error)
}

func newGraphCut(lw *lowerer, path string, g *ir.Graph, prog *ir.Program) *graphCut {
	gc := &graphCut{
		lw: lw, path: path, g: g, prog: prog,
		producer: map[string]int{}, users: map[string][]int{}, outUse: map[string]bool{},
		specOf: map[string]*ir.InputSpec{}, mutated: map[string]string{},
		inBoxes: map[string]string{}, outBoxes: map[string]string{},
	}
	for _, n := range g.InputNames() {
		gc.producer[n] = -1
	}
	for i, n := range g.Nodes {
		n.ForEachOutputRef(func(s string) { gc.producer[s] = i })
		seen := map[string]bool{}
		n.ForEachInputRef(func(s string) {
			if !seen[s] {
				seen[s] = true
				gc.users[s] = append(gc.users[s], i)
			}
		})
	}
	for i := range g.Outputs {
		g.Outputs[i].ForEachRef(func(s string) { gc.outUse[s] = true })
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

// plan is one partition assignment and what crosses its cuts.
type plan struct {
	parts [][]int
	// part gives each node's partition, -1 for the parent.
	part []int
	// ins lists each partition's inputs in order of first use (values
	// defined outside it); outsRaw the values it defines that anything
	// outside it uses, in order of definition.
	ins, outsRaw [][]string
	// label names each partition in reports before modules are named.
	label []string
}

func (gc *graphCut) analyze(parts [][]int) *plan {
	p := &plan{parts: parts, part: make([]int, len(gc.g.Nodes))}
	for i := range p.part {
		p.part[i] = -1
	}
	for k, nodes := range parts {
		for _, i := range nodes {
			p.part[i] = k
		}
	}
	p.ins = make([][]string, len(parts))
	p.outsRaw = make([][]string, len(parts))
	p.label = make([]string, len(parts))
	for k, nodes := range parts {
		p.label[k] = fmt.Sprintf("partition at %s", gc.g.Nodes[nodes[0]].Name)
		seen := map[string]bool{}
		for _, i := range nodes {
			n := gc.g.Nodes[i]
			n.ForEachInputRef(func(v string) {
				if seen[v] {
					return
				}
				if pi := gc.producer[v]; pi < 0 || p.part[pi] != k {
					seen[v] = true
					p.ins[k] = append(p.ins[k], v)
				}
			})
			n.ForEachOutputRef(func(v string) {
				if gc.usedOutside(p, k, v) {
					p.outsRaw[k] = append(p.outsRaw[k], v)
				}
			})
		}
	}
	return p
}

// usedOutside reports whether anything outside partition k uses v.
func (gc *graphCut) usedOutside(p *plan, k int, v string) bool {
	if gc.outUse[v] {
		return true
	}
	for _, u := range gc.users[v] {
		if p.part[u] != k {
			return true
		}
	}
	return false
}

// region names a partition for reports, or "parent".
func (p *plan) region(k int) string {
	if k < 0 {
		return "parent"
	}
	return p.label[k]
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
	if i := gc.producer[v]; i >= 0 {
		return gc.g.Nodes[i].Name
	}
	return "graph input " + v
}
