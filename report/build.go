package report

import (
	"fmt"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/irtext"
	"github.com/seam-rt/seam/partition"
	"github.com/seam-rt/seam/sym"
)

// Options name what the plan was made from.
type Options struct {
	// Model is the file the program came from, for headings.
	Model string
	// Backend is the profile's name.
	Backend string
	// Printer prints annotations; nil prints expressions the way package
	// sym does (`s53`, `s77 > 4`), or as stored when they do not parse.
	Printer *irtext.Printer
	// Judgements, when set, judge the symbolic values crossing boundaries
	// against the backend's contract (see lower.Judge, whose judgements
	// convert to these).
	Judgements []Judgement
}

// Judgement is the backend's contract on one symbolic value crossing a
// boundary, and what lowering would do with it.
type Judgement struct {
	// Graph is the nested graph's path ("" for the top level); Partition
	// the partition's index in that graph's plan.
	Graph     string
	Partition int
	Value     string
	// Into: the value enters the partition (else it leaves it).
	Into     bool
	Accepted bool
	// Policy is rederive, hoist, pass, box or exclude; "" when lowering
	// would refuse the value.
	Policy string
	Detail string
}

type judgementKey struct {
	graph string
	part  int
	value string
	into  bool
}

// Build describes a plan of program p. p gives the kinds of the top-level
// placeholders and outputs (its signature); it may be nil for a bare
// graph, whose placeholders are then graph inputs.
func Build(p *ir.Program, plan *partition.Plan, opt Options) *Report {
	b := &builder{
		r:   &Report{Model: opt.Model, Backend: opt.Backend, Partitions: []Partition{}, Unsupported: []Unsupported{}, judged: opt.Judgements != nil},
		pr:  opt.Printer,
		sig: p,
	}
	if opt.Judgements != nil {
		b.judge = map[judgementKey]Judgement{}
		for _, j := range opt.Judgements {
			b.judge[judgementKey{j.Graph, j.Partition, j.Value, j.Into}] = j
		}
	}
	if b.pr == nil {
		b.pr = &irtext.Printer{Expr: exprPrinter()}
	}
	b.addPlan(plan, true)
	b.r.drawFrom, b.r.drawnPlan = b, plan
	s := &b.r.Summary
	plan.Walk(func(pl *partition.Plan) {
		s.Graphs++
		s.Nodes += len(pl.Graph.Nodes)
	})
	s.Partitions = len(b.r.Partitions)
	s.Unsupported = len(b.r.Unsupported)
	for _, part := range b.r.Partitions {
		s.Delegated += len(part.Nodes)
		for _, v := range part.Inputs {
			if v.Symbolic {
				s.SymbolicInputs++
			}
		}
		for _, v := range part.Outputs {
			if v.Symbolic {
				s.SymbolicOutputs++
			}
		}
	}
	return b.r
}

// exprPrinter prints stored expressions through package sym, once per text.
func exprPrinter() func(string) string {
	cache := map[string]string{}
	return func(stored string) string {
		if s, ok := cache[stored]; ok {
			return s
		}
		s := stored
		if e, err := sym.Parse(stored); err == nil {
			s = e.String()
		}
		cache[stored] = s
		return s
	}
}

type builder struct {
	r     *Report
	pr    *irtext.Printer
	sig   *ir.Program
	judge map[judgementKey]Judgement
}

// addPlan describes plan's partitions and the nodes it leaves to the
// parent, then its nested plans'.
func (b *builder) addPlan(plan *partition.Plan, top bool) {
	g := plan.Graph
	base := len(b.r.Partitions)
	inKinds, outKinds := b.inputKinds(g, top), b.outputKinds(g, top)
	for i, n := range g.Nodes {
		if plan.PartitionOf(i) < 0 {
			v := plan.Verdict(i)
			b.r.Unsupported = append(b.r.Unsupported, Unsupported{Node: n.Name, Target: v.Target, Reason: v.Reason, Detail: v.Detail, Graph: plan.Path})
		}
	}
	for k, part := range plan.Partitions {
		p := b.partition(plan, base, k, inKinds, outKinds)
		p.Nodes = make([]string, len(part))
		for j, i := range part {
			p.Nodes[j] = g.Nodes[i].Name
		}
		b.judgeValues(plan.Path, k, p.Inputs, true)
		b.judgeValues(plan.Path, k, p.Outputs, false)
		b.r.Partitions = append(b.r.Partitions, p)
	}
	for _, nested := range plan.Nested {
		b.addPlan(nested, false)
	}
}

// addModels adds the picture model of plan, whose first partition has
// global id base, and of its nested plans, in addPlan's order; it returns
// the id after their partitions'.
func (b *builder) addModels(plan *partition.Plan, top bool, base int) int {
	g := plan.Graph
	m := &graphModel{path: plan.Path, nodes: len(g.Nodes), symbolic: map[string]string{}}
	for k := range plan.Partitions {
		m.parts = append(m.parts, base+k)
	}
	b.r.graphs = append(b.r.graphs, m)

	du := plan.Uses
	m.items = make([]item, 0, len(g.Inputs)+len(g.Nodes)+1)
	m.edges = make([]edge, 0, du.ReadCount()+len(g.Outputs))
	inputItem := map[string]int{} // graph input -> item index
	inKinds, outKinds := b.inputKinds(g, top), b.outputKinds(g, top)
	for _, name := range g.InputNames() {
		kind := inKinds[name]
		ik := itemInput
		switch kind {
		case "parameter", "buffer", "tensor_constant", "custom_obj":
			ik = itemWeight
		}
		inputItem[name] = len(m.items)
		m.items = append(m.items, item{name: name, op: kind, kind: ik, part: -1, annotation: b.pr.Annotation(g, name)})
	}
	nodeItem := len(m.items)
	// producer is the item defining v, among the graph's inputs and the
	// nodes before node `before`.
	producer := func(id ir.ValueID, before int) (int, bool) {
		val := du.Value(id)
		switch {
		case !val.Defined || val.Producer >= before:
			return 0, false
		case val.Producer >= 0:
			return nodeItem + val.Producer, true
		}
		it, ok := inputItem[val.Name]
		return it, ok
	}
	// typeOf is each value's type by the graph's tables, looked up once
	// (values are read by several nodes; the index does not keep types).
	types := make([]ir.ValueType, du.Values()) // 1 + the type; 0: not looked up
	typeOf := func(id ir.ValueID) string {
		if types[id] == 0 {
			types[id] = du.Type(id) + 1
		}
		return (types[id] - 1).String()
	}
	for i, n := range g.Nodes {
		it := item{name: n.Name, op: n.OpName(), kind: itemNode, part: -1}
		if k := plan.PartitionOf(i); k >= 0 {
			it.part = base + k
		} else {
			it.reason = plan.Verdict(i).Reason
		}
		me := len(m.items)
		m.items = append(m.items, it)
		for _, id := range du.Reads(i) {
			if p, ok := producer(id, i); ok {
				val := du.Value(id)
				v := val.Name
				e := edge{from: p, to: me, value: v, typ: typeOf(id)}
				if isSymbolic(e.typ) {
					m.symbolic[v] = b.pr.Annotation(g, v)
				}
				m.edges = append(m.edges, e)
			}
		}
	}
	out := len(m.items)
	m.items = append(m.items, item{name: "output", op: "output", kind: itemOutput, part: -1})
	for i := range g.Outputs {
		g.Outputs[i].ForEachRef(func(v string) {
			id, known := du.ID(v)
			if !known {
				return
			}
			if p, ok := producer(id, len(g.Nodes)); ok {
				e := edge{from: p, to: out, value: v, typ: typeOf(id), sink: outKinds[i]}
				if isSymbolic(e.typ) {
					m.symbolic[v] = b.pr.Annotation(g, v)
				}
				m.edges = append(m.edges, e)
			}
		})
	}
	next := base + len(plan.Partitions)
	for _, nested := range plan.Nested {
		next = b.addModels(nested, false, next)
	}
	return next
}

// inputKinds names each placeholder's kind from the program's signature;
// nested graphs (and bare graphs) have graph inputs.
func (b *builder) inputKinds(g *ir.Graph, top bool) map[string]string {
	kinds := map[string]string{}
	for _, name := range g.InputNames() {
		kinds[name] = "graph_input"
	}
	if top && b.sig != nil {
		for i := range b.sig.Signature.Inputs {
			s := &b.sig.Signature.Inputs[i]
			if name := s.PlaceholderName(); name != "" {
				kinds[name] = s.Kind.String()
			}
		}
	}
	return kinds
}

// outputKinds names each graph output's kind, index by index.
func (b *builder) outputKinds(g *ir.Graph, top bool) []string {
	kinds := make([]string, len(g.Outputs))
	for i := range kinds {
		kinds[i] = "graph_output"
		if top && b.sig != nil && i < len(b.sig.Signature.Outputs) {
			kinds[i] = b.sig.Signature.Outputs[i].Kind.String()
		}
	}
	return kinds
}

// partition describes partition k of plan (global id base+k) from its
// boundary: inputs in order of first use with where they come from,
// outputs in order of definition with where they go.
func (b *builder) partition(plan *partition.Plan, base, k int, inKinds map[string]string, outKinds []string) Partition {
	g, bd := plan.Graph, plan.Boundaries[k]
	p := Partition{ID: base + k, Graph: plan.Path, Inputs: []Value{}, Outputs: []Value{}}
	for _, in := range bd.Inputs {
		v := b.value(g, in.Name)
		switch j := in.Producer; {
		case j < 0:
			v.From = inKinds[in.Name]
		case plan.PartitionOf(j) >= 0:
			v.From, v.Producer = fmt.Sprintf("partition %d", base+plan.PartitionOf(j)), g.Nodes[j].Name
		default:
			v.From, v.Producer = "node", g.Nodes[j].Name
		}
		p.Inputs = append(p.Inputs, v)
	}
	for _, o := range bd.Outputs {
		v := b.value(g, o.Name)
		for _, u := range o.Users {
			to := "node"
			if j := plan.PartitionOf(u); j >= 0 {
				to = fmt.Sprintf("partition %d", base+j)
			}
			v.To = appendNew(v.To, to)
			v.Users = appendNew(v.Users, g.Nodes[u].Name)
		}
		if o.GraphOutput {
			for i := range g.Outputs {
				g.Outputs[i].ForEachRef(func(name string) {
					if name == o.Name {
						v.To = appendNew(v.To, outKinds[i])
					}
				})
			}
		}
		p.Outputs = append(p.Outputs, v)
	}
	return p
}

// judgeValues records the contract's judgement on each symbolic value.
func (b *builder) judgeValues(path string, k int, vs []Value, into bool) {
	if b.judge == nil {
		return
	}
	for i := range vs {
		if !vs[i].Symbolic {
			continue
		}
		if j, ok := b.judge[judgementKey{path, k, vs[i].Name, into}]; ok {
			accepted := j.Accepted
			vs[i].Accepted, vs[i].Policy, vs[i].PolicyDetail = &accepted, j.Policy, j.Detail
			if j.Policy == "" {
				vs[i].Policy = "refused"
			}
		}
	}
}

func (b *builder) value(g *ir.Graph, name string) Value {
	t := g.TypeOf(name).String()
	return Value{Name: name, Type: t, Annotation: b.pr.Annotation(g, name), Symbolic: isSymbolic(t)}
}

func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}
