package lower

import (
	"container/heap"
	"fmt"
	"slices"

	"github.com/seam-rt/seam/ir"
)

// moduleIO is what one partition's module receives and returns.
type moduleIO struct {
	name string
	// owned are weight placeholders the module takes over, in spec order
	// (parameters, buffers, constants); takenOver the mutated buffers whose
	// state moves into it.
	owned     []string
	takenOver map[string]bool
	// inputs are the module's user inputs as the parent passes them.
	inputs []string
	// outputs are its user outputs as the parent receives them.
	outputs []string
	// mutations are the values written back to taken-over buffers.
	mutations []string
	// added are the nodes lowering puts at the start (recomputing or
	// unboxing inputs) and end (boxing outputs) of the module.
	head, tail []*created
	// replace maps values the module need not compute to what stands for
	// them: a literal, or another value with the same expression.
	replace map[string]ir.Argument
	// boxes are the inputs that are box tensors, with the type they box.
	boxes map[string]ir.ValueType
}

// build rewrites the graph: each partition becomes a lowered module and a
// delegate call in its place.
func (gc *graphCut) build(p *plan, d *decisions, excluded map[string]bool) error {
	ios := make([]*moduleIO, len(p.parts))
	for k := range p.parts {
		ios[k] = gc.moduleIO(p, d, k)
		p.label[k] = ios[k].name
	}
	gc.lw.res.Crossings = append(gc.lw.res.Crossings, gc.excludedReports...)
	for _, k := range sortedKeys(d.in) {
		gc.lw.res.Crossings = append(gc.lw.res.Crossings, gc.inCrossing(p, d.in[k]))
	}
	for _, k := range sortedKeys(d.out) {
		gc.lw.res.Crossings = append(gc.lw.res.Crossings, gc.outCrossing(p, d.out[k]))
	}
	calls := make([]*ir.Node, len(p.parts))
	for k := range p.parts {
		m, err := gc.buildModule(p, ios[k], k)
		if err != nil {
			return err
		}
		gc.lw.res.Modules = append(gc.lw.res.Modules, m)
		calls[k] = gc.callNode(ios[k])
	}
	return gc.rewriteParent(p, d, ios, calls)
}

// sortedKeys orders decisions by partition, then by the order values
// were first used.
func sortedKeys[T any](m map[[2]any]T) [][2]any {
	keys := make([][2]any, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b [2]any) int {
		if a[0].(int) != b[0].(int) {
			return a[0].(int) - b[0].(int)
		}
		switch x, y := a[1].(string), b[1].(string); {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
	return keys
}

func (gc *graphCut) moduleName() string {
	for {
		name := fmt.Sprintf("lowered_module_%d", gc.lw.modules)
		gc.lw.modules++
		if !gc.lw.names.used[name] {
			gc.lw.names.used[name] = true
			return name
		}
	}
}

func (gc *graphCut) moduleIO(p *plan, d *decisions, k int) *moduleIO {
	io := &moduleIO{name: gc.moduleName(), takenOver: map[string]bool{}, replace: map[string]ir.Argument{},
		boxes: map[string]ir.ValueType{}}
	prof := gc.lw.prof
	var params, buffers, consts []string
	defined := map[string]bool{}
	addHead := func(cs []*created) {
		for _, c := range cs {
			dup := false
			c.node.ForEachOutputRef(func(o string) { dup = dup || defined[o] })
			if dup {
				continue
			}
			c.node.ForEachOutputRef(func(o string) { defined[o] = true })
			io.head = append(io.head, c)
		}
	}
	for _, v := range p.ins[k] {
		if dec, ok := d.in[key(k, v)]; ok {
			switch dec.how {
			case doRederive, doHoist:
				if dec.replace != nil {
					io.replace[v] = *dec.replace
				}
				addHead(dec.added)
			case doPass:
				io.inputs = append(io.inputs, v)
			case doBox:
				io.inputs = append(io.inputs, dec.box)
				io.boxes[dec.box] = gc.typeOf(v)
				addHead(dec.added)
			}
			continue
		}
		spec := gc.specOf[v]
		owned := spec != nil && prof.OwnsWeights &&
			(spec.Kind == ir.InputParameter || spec.Kind == ir.InputBuffer || spec.Kind == ir.InputTensorConstant)
		if spec != nil && spec.Kind == ir.InputBuffer && gc.mutated[v] != "" {
			owned = prof.OwnsBuffers && gc.canTakeOver(p, k, v)
			if owned {
				io.takenOver[v] = true
				io.mutations = append(io.mutations, gc.mutated[v])
			}
		}
		switch {
		case !owned:
			io.inputs = append(io.inputs, v)
		case spec.Kind == ir.InputParameter:
			params = append(params, v)
		case spec.Kind == ir.InputBuffer:
			buffers = append(buffers, v)
		default:
			consts = append(consts, v)
		}
	}
	io.owned = append(append(params, buffers...), consts...)
	mutation := map[string]bool{}
	for _, m := range io.mutations {
		mutation[m] = true
	}
	for _, v := range p.outsRaw[k] {
		if mutation[v] && !gc.usedOutsideBesidesMutation(p, k, v) {
			continue
		}
		if !isSymbolic(gc.typeOf(v)) {
			io.outputs = append(io.outputs, v)
			continue
		}
		dec, ok := d.out[key(k, v)]
		if !ok {
			continue // every outside use recomputes it
		}
		switch dec.how {
		case doPass:
			io.outputs = append(io.outputs, v)
		case doBox:
			io.outputs = append(io.outputs, dec.box)
			io.tail = append(io.tail, dec.inside)
		}
	}
	return io
}

// canTakeOver: a mutated buffer moves into the module when only the
// module reads it and the module computes its new value.
func (gc *graphCut) canTakeOver(p *plan, k int, buf string) bool {
	for _, u := range gc.users[buf] {
		if p.part[u] != k {
			return false
		}
	}
	if gc.outUseOtherThanMutation(buf) {
		return false
	}
	i := gc.producer[gc.mutated[buf]]
	return i >= 0 && p.part[i] == k
}

// usedOutsideBesidesMutation: v is used outside k other than as the value
// written back to a buffer.
func (gc *graphCut) usedOutsideBesidesMutation(p *plan, k int, v string) bool {
	for _, u := range gc.users[v] {
		if p.part[u] != k {
			return true
		}
	}
	return gc.outUseOtherThanMutation(v)
}

func (gc *graphCut) outUseOtherThanMutation(v string) bool {
	if gc.prog == nil {
		return gc.outUse[v]
	}
	for i, o := range gc.prog.Signature.Outputs {
		if o.Kind == ir.OutputBufferMutation {
			continue
		}
		used := false
		gc.g.Outputs[i].ForEachRef(func(s string) { used = used || s == v })
		if used {
			return true
		}
	}
	return false
}

// buildModule makes partition k's program.
func (gc *graphCut) buildModule(p *plan, io *moduleIO, k int) (*Module, error) {
	top := gc.lw.res.Program
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
	for _, i := range p.parts[k] {
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
		Name: io.name, Backend: gc.lw.prof.Name, CompileOptions: gc.lw.prof.CompileOptions,
		Program: mp, Nodes: nodeNames, Graph: gc.path, Profile: gc.lw.profileJSON(),
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

// callNode is the parent's delegate call for a module.
func (gc *graphCut) callNode(io *moduleIO) *ir.Node {
	n := &ir.Node{
		Name:     gc.lw.names.fresh("executorch_call_delegate"),
		Target:   DelegateTarget,
		Inputs:   []ir.NamedArgument{positional(io.name, ir.StringArg(io.name))},
		Metadata: map[string]string{},
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
		if rc, ok := lw.res.Program.RangeConstraints[s]; ok {
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

// rewriteParent replaces the partitions by their calls and adds what the
// decisions need in the parent, in an order that respects every use.
func (gc *graphCut) rewriteParent(p *plan, d *decisions, ios []*moduleIO, calls []*ir.Node) error {
	g := gc.g
	type item struct {
		node *ir.Node
		key  float64
	}
	var items []item
	var made []*created
	for i, n := range g.Nodes {
		if p.part[i] < 0 {
			items = append(items, item{n, float64(i)})
		}
	}
	first := func(k int) float64 { return float64(p.parts[k][0]) }
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
			dup = dup || readded[o] || (defined[o] && !gc.movedAway(p, o))
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
	order, err := topoOrder(len(items), func(i int) float64 { return items[i].key }, func(i int) *ir.Node { return items[i].node })
	if err != nil {
		return fmt.Errorf("lower: %v (a bug in seam: the partitions are not convex)", err)
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
func (gc *graphCut) movedAway(p *plan, v string) bool {
	i, ok := gc.producer[v]
	return ok && i >= 0 && p.part[i] >= 0
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
			if isWeight && !used[name] && (len(gc.users[name]) > 0 || gc.outUse[name]) {
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

// topoOrder sorts items so every value is defined before use, taking the
// ready item with the smallest key first (Kahn's algorithm), so the result
// stays as close to the original order as the dependencies allow.
func topoOrder(n int, key func(int) float64, node func(int) *ir.Node) ([]int, error) {
	producer := map[string]int{}
	for i := 0; i < n; i++ {
		node(i).ForEachOutputRef(func(s string) { producer[s] = i })
	}
	indeg := make([]int, n)
	succ := make([][]int, n)
	for i := 0; i < n; i++ {
		seen := map[int]bool{}
		node(i).ForEachInputRef(func(s string) {
			if j, ok := producer[s]; ok && j != i && !seen[j] {
				seen[j] = true
				succ[j] = append(succ[j], i)
				indeg[i]++
			}
		})
	}
	h := &readyHeap{key: key}
	for i := 0; i < n; i++ {
		if indeg[i] == 0 {
			heap.Push(h, i)
		}
	}
	var order []int
	for h.Len() > 0 {
		i := heap.Pop(h).(int)
		order = append(order, i)
		for _, j := range succ[i] {
			if indeg[j]--; indeg[j] == 0 {
				heap.Push(h, j)
			}
		}
	}
	if len(order) != n {
		return nil, fmt.Errorf("cycle among %d nodes after contraction", n-len(order))
	}
	return order, nil
}

type readyHeap struct {
	items []int
	key   func(int) float64
}

func (h *readyHeap) Len() int { return len(h.items) }
func (h *readyHeap) Less(i, j int) bool {
	ki, kj := h.key(h.items[i]), h.key(h.items[j])
	if ki != kj {
		return ki < kj
	}
	return h.items[i] < h.items[j]
}
func (h *readyHeap) Swap(i, j int) { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *readyHeap) Push(x any)    { h.items = append(h.items, x.(int)) }
func (h *readyHeap) Pop() any {
	x := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return x
}
