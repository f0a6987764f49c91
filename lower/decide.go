package lower

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/sym"
)

// inDecision says how a symbolic value reaches the inside of a partition.
type inDecision struct {
	value string
	part  int
	how   outcome
	// added are the nodes that recompute it inside (rederive, hoist, or
	// the unboxing node); replace stands for it when it folds to a constant
	// or another value already computes its expression.
	added   []*created
	replace *ir.Argument
	// box is the name of the rank-0 tensor it travels in.
	box     string
	dropped []string
	detail  string
}

// outDecision says how a symbolic value made inside a partition reaches
// the parent.
type outDecision struct {
	value string
	part  int
	how   outcome
	// added are the parent's nodes that recompute or unbox it; inside
	// holds the boxing node added to the module.
	added   []*created
	inside  *created
	box     string
	dropped []string
	detail  string
}

type decisions struct {
	in  map[[2]any]*inDecision // by (partition, value)
	out map[[2]any]*outDecision
	// exclude lists nodes to take out of partitions; when set, the
	// partitions are proposed again.
	exclude   []string
	crossings []Crossing
}

func key(part int, v string) [2]any { return [2]any{part, v} }

// decide chooses, for every symbolic value crossing a cut, how it crosses.
func (gc *graphCut) decide(p *plan) (*decisions, error) {
	d := &decisions{in: map[[2]any]*inDecision{}, out: map[[2]any]*outDecision{}}
	gc.emitters = map[int]*emitter{}
	needInParent := map[string]bool{}
	for k := range p.parts {
		for _, v := range p.ins[k] {
			if !isSymbolic(gc.typeOf(v)) {
				continue
			}
			dec, err := gc.decideIn(p, k, v)
			if err != nil {
				return nil, err
			}
			d.in[key(k, v)] = dec
			switch dec.how {
			case doPass, doBox:
				needInParent[v] = true
			case doExclude:
				d.exclude = append(d.exclude, dec.dropped...)
				d.crossings = append(d.crossings, gc.inCrossing(p, dec))
			}
		}
	}
	for k := range p.parts {
		for _, v := range p.outsRaw[k] {
			if !isSymbolic(gc.typeOf(v)) || !gc.neededInParent(p, k, v, needInParent) {
				continue
			}
			dec, err := gc.decideOut(p, k, v)
			if err != nil {
				return nil, err
			}
			d.out[key(k, v)] = dec
			if dec.how == doExclude {
				d.exclude = append(d.exclude, dec.dropped...)
				d.crossings = append(d.crossings, gc.outCrossing(p, dec))
			}
		}
	}
	slices.Sort(d.exclude)
	d.exclude = slices.Compact(d.exclude)
	return d, nil
}

// neededInParent: the parent must hold v if a parent node or the graph
// output uses it, or a partition receives it from the parent.
func (gc *graphCut) neededInParent(p *plan, k int, v string, viaParent map[string]bool) bool {
	if gc.outUse[v] || viaParent[v] {
		return true
	}
	for _, u := range gc.users[v] {
		if p.part[u] < 0 {
			return true
		}
	}
	return false
}

func (gc *graphCut) acceptance(v string) backend.Acceptance {
	return gc.lw.prof.Placeholders.For(gc.typeOf(v))
}

// canBox: the backend takes rank-0 tensors of the value's box dtype.
func (gc *graphCut) canBox(v string) bool {
	t := gc.typeOf(v)
	return gc.lw.prof.AcceptsTensor(backend.BoxDType(t), 0)
}

func (gc *graphCut) decideIn(p *plan, k int, v string) (*inDecision, error) {
	var why []string
	for _, how := range gc.lw.opt.Policy.chain(gc.lw.prof.FullGraph) {
		dec := &inDecision{value: v, part: k, how: how}
		switch how {
		case doRederive:
			lit, nodes, err := gc.rederive(v, gc.emitterFor(p, k))
			if err != nil {
				why = append(why, "rederive: "+err.Error())
				continue
			}
			dec.added, dec.replace = nodes, lit
			dec.detail = "recomputed from the sizes of tensors the module receives"
		case doHoist:
			nodes, err := gc.hoistInto(p, k, v)
			if err != nil {
				why = append(why, "hoist: "+err.Error())
				continue
			}
			dec.added = nodes
			dec.detail = "the scalar ops producing it are copied into the module"
		case doPass:
			if gc.acceptance(v) != backend.Scalar {
				why = append(why, fmt.Sprintf("pass: %s refuses %s placeholders", gc.lw.prof.Name, gc.typeOf(v)))
				continue
			}
			dec.detail = fmt.Sprintf("%s accepts %s placeholders as plain scalars", gc.lw.prof.Name, gc.typeOf(v))
		case doBox:
			if !gc.canBox(v) {
				why = append(why, fmt.Sprintf("box: %s refuses %s tensors", gc.lw.prof.Name, backend.BoxDType(gc.typeOf(v)).Short()))
				continue
			}
			dec.box = gc.boxName(gc.inBoxes, v)
			dec.added = []*created{gc.unboxNode(v, dec.box)}
			dec.detail = fmt.Sprintf("passed as a rank-0 %s tensor and unboxed inside", backend.BoxDType(gc.typeOf(v)).Short())
		case doExclude:
			for _, u := range gc.users[v] {
				if p.part[u] == k {
					dec.dropped = append(dec.dropped, gc.g.Nodes[u].Name)
				}
			}
			dec.detail = "its consumers are left to the parent"
		}
		return dec, nil
	}
	return nil, gc.refusal(p, k, v, true, why)
}

func (gc *graphCut) decideOut(p *plan, k int, v string) (*outDecision, error) {
	var why []string
	for _, how := range gc.lw.opt.Policy.chain(gc.lw.prof.FullGraph) {
		dec := &outDecision{value: v, part: k, how: how}
		switch how {
		case doRederive:
			lit, nodes, err := gc.rederive(v, gc.emitterFor(p, -1))
			if err != nil {
				why = append(why, "rederive: "+err.Error())
				continue
			}
			if lit != nil {
				// A constant needs no crossing at all; parent uses keep
				// the name, so define it by a node anyway.
				why = append(why, "rederive: folds to a constant")
				continue
			}
			dec.added = nodes
			dec.detail = "recomputed in the parent from the sizes of its inputs"
		case doHoist:
			nodes, err := gc.hoistToParent(p, v)
			if err != nil {
				why = append(why, "hoist: "+err.Error())
				continue
			}
			dec.added = nodes
			dec.detail = "the scalar ops producing it are copied into the parent"
		case doPass:
			if gc.acceptance(v) != backend.Scalar {
				why = append(why, fmt.Sprintf("pass: %s refuses %s outputs", gc.lw.prof.Name, gc.typeOf(v)))
				continue
			}
			dec.detail = fmt.Sprintf("%s returns it as a plain scalar", gc.lw.prof.Name)
		case doBox:
			if !gc.canBox(v) {
				why = append(why, fmt.Sprintf("box: %s refuses %s tensors", gc.lw.prof.Name, backend.BoxDType(gc.typeOf(v)).Short()))
				continue
			}
			dec.box = gc.boxName(gc.outBoxes, v)
			dec.inside = boxNode(dec.box, v, gc.typeOf(v))
			dec.added = []*created{gc.unboxNode(v, dec.box)}
			dec.detail = fmt.Sprintf("returned as a rank-0 %s tensor and unboxed in the parent", backend.BoxDType(gc.typeOf(v)).Short())
		case doExclude:
			dec.dropped = []string{gc.g.Nodes[gc.producer[v]].Name}
			dec.detail = "its producer is left to the parent"
		}
		return dec, nil
	}
	return nil, gc.refusal(p, k, v, false, why)
}

// refusal explains why no allowed policy could take v across.
func (gc *graphCut) refusal(p *plan, k int, v string, into bool, why []string) error {
	consumer := ""
	for _, u := range gc.users[v] {
		if (into && p.part[u] == k) || (!into && p.part[u] != k) {
			consumer = gc.g.Nodes[u].Name
			break
		}
	}
	if consumer == "" && gc.outUse[v] {
		consumer = "the graph output"
	}
	dir := fmt.Sprintf("into the %s", p.region(k))
	if !into {
		dir = fmt.Sprintf("out of the %s", p.region(k))
	}
	mode := "policy " + gc.lw.opt.Policy.String()
	if gc.lw.prof.FullGraph {
		mode = "full_graph, " + mode
	}
	msg := fmt.Sprintf("%s: %s %s (%s), produced by %s and consumed by %s, cannot cross %s for backend %s",
		mode, gc.typeOf(v), v, gc.printExpr(v), gc.producerName(v), consumer, dir, gc.lw.prof.Name)
	if len(why) > 0 {
		msg += ": " + strings.Join(why, "; ")
	}
	return &Error{Value: v, Producer: gc.producerName(v), Consumer: consumer, Why: why, Msg: msg}
}

// tensorInputs lists a partition's tensor inputs in order of first use.
func (gc *graphCut) tensorInputs(p *plan, k int) []string {
	var out []string
	for _, v := range p.ins[k] {
		if gc.typeOf(v) == ir.ValueTensor {
			out = append(out, v)
		}
	}
	return out
}

// parentTensors lists the tensors every point of the parent can use: the
// graph's tensor inputs.
func (gc *graphCut) parentTensors() []string {
	var out []string
	for _, v := range gc.g.InputNames() {
		if gc.typeOf(v) == ir.ValueTensor {
			out = append(out, v)
		}
	}
	return out
}

// rederive computes v's expression with em, from the sizes of the tensors
// em may read: each symbol must be exactly the size of some dim of one.
// The nodes it adds are returned; a value standing for v (a literal, or a
// value with the same expression made for an earlier crossing) instead.
func (gc *graphCut) rederive(v string, em *emitter) (*ir.Argument, []*created, error) {
	text := gc.exprOf(v)
	if text == "" {
		return nil, nil, errors.New("the value has no expression")
	}
	e, err := gc.lw.parse(text)
	if err != nil {
		return nil, nil, err
	}
	nodes, keys := em.mark()
	repl, err := em.emitRoot(e, v)
	if err != nil {
		em.rollback(nodes, keys)
		return nil, nil, err
	}
	return repl, em.nodes[nodes:], nil
}

// emitterFor is the emitter of one region for the current plan (k < 0:
// the parent), so that values with shared subexpressions share the nodes
// that compute them.
func (gc *graphCut) emitterFor(p *plan, k int) *emitter {
	if em, ok := gc.emitters[k]; ok {
		return em
	}
	tensors := gc.parentTensors()
	if k >= 0 {
		tensors = gc.tensorInputs(p, k)
	}
	em := &emitter{lw: gc.lw, find: func(s string) (string, int, bool) {
		return gc.findSymbol(s, tensors)
	}}
	gc.emitters[k] = em
	return em
}

// findSymbol finds the first tensor (in the given order) with a dim whose
// size is exactly symbol s.
func (gc *graphCut) findSymbol(s string, tensors []string) (string, int, bool) {
	for _, t := range tensors {
		m := gc.g.TensorValues[t]
		if m == nil {
			continue
		}
		for d, size := range m.Sizes {
			if size.Expr == nil {
				continue
			}
			e, err := gc.lw.parse(size.Expr.Expr)
			if err == nil && e.Op() == sym.OpSymbol && e.Name() == s {
				return t, d, true
			}
		}
	}
	return "", 0, false
}

// scalarTargets are the cheap scalar ops hoisting may copy.
func isScalarOp(target string) bool {
	switch target {
	case "torch.ops.aten.sym_size.int", "torch.ops.aten.sym_numel.default", "torch.ops.aten.sym_stride.int",
		"torch.ops.aten.sym_storage_offset.default", "torch.ops.aten._local_scalar_dense.default":
		return true
	}
	return strings.HasPrefix(target, "_operator.") || strings.HasPrefix(target, "math.") ||
		strings.HasPrefix(target, "torch.sym_")
}

// hoistInto copies the scalar chain producing v into partition k, when
// every tensor the chain reads is already an input of k. The copies go
// first in the module, so a chain through a value k itself makes cannot
// be hoisted (it would be defined twice).
func (gc *graphCut) hoistInto(p *plan, k int, v string) ([]*created, error) {
	avail := map[string]bool{}
	for _, t := range p.ins[k] {
		if gc.typeOf(t) == ir.ValueTensor {
			avail[t] = true
		}
	}
	return gc.hoistChain(v, func(t string) bool { return avail[t] }, func(s string) (bool, error) {
		if i := gc.producer[s]; i >= 0 && p.part[i] == k {
			return false, fmt.Errorf("%s is made inside the module, after the point the chain must be computed", s)
		}
		return false, nil
	}, map[string]bool{})
}

// hoistToParent copies the scalar chain producing v (made in partition k)
// into the parent, when every tensor it reads is a graph input or made by
// a parent node. Symbolic values the parent makes itself are used as they
// are.
func (gc *graphCut) hoistToParent(p *plan, v string) ([]*created, error) {
	inParent := func(s string) bool {
		i := gc.producer[s]
		return i < 0 || p.part[i] < 0
	}
	return gc.hoistChain(v, inParent, func(s string) (bool, error) { return inParent(s), nil }, map[string]bool{})
}

// hoistChain copies the scalar nodes that compute v, depth first.
// tensorAvailable says which tensors the destination has; symAvailable
// whether a symbolic value is already there (no copy needed), or an error
// when copying its chain would be wrong.
func (gc *graphCut) hoistChain(v string, tensorAvailable func(string) bool, symAvailable func(string) (bool, error), done map[string]bool) ([]*created, error) {
	if done[v] {
		return nil, nil
	}
	i := gc.producer[v]
	if i < 0 {
		return nil, fmt.Errorf("%s is a graph input, not computed by scalar ops", v)
	}
	n := gc.g.Nodes[i]
	if !isScalarOp(n.Target) {
		return nil, fmt.Errorf("%s is made by %s, which is not a scalar op", v, n.OpName())
	}
	var out []*created
	var err error
	n.ForEachInputRef(func(r string) {
		if err != nil {
			return
		}
		switch t := gc.typeOf(r); {
		case t == ir.ValueTensor:
			if !tensorAvailable(r) {
				err = fmt.Errorf("%s needs tensor %s, which is not available there", n.Name, r)
			}
		case isSymbolic(t):
			var avail bool
			if avail, err = symAvailable(r); err != nil || avail {
				return
			}
			var sub []*created
			sub, err = gc.hoistChain(r, tensorAvailable, symAvailable, done)
			out = append(out, sub...)
		default:
			err = fmt.Errorf("%s needs %s (%s)", n.Name, r, t)
		}
	})
	if err != nil {
		return nil, err
	}
	done[v] = true
	c := &created{node: n.Clone()}
	n.ForEachOutputRef(func(o string) { gc.copyMeta(c, o) })
	return append(out, c), nil
}

// boxNode is `box = aten.scalar_tensor.default(v, dtype=...)`.
func boxNode(box, v string, t ir.ValueType) *created {
	n := &ir.Node{
		Name:   box,
		Target: "torch.ops.aten.scalar_tensor.default",
		Inputs: []ir.NamedArgument{
			positional("s", symRef(v, t)),
			{Name: "dtype", Arg: ir.ScalarTypeArg(backend.BoxDType(t)), Kind: ir.KindKeyword},
		},
		Outputs:  []ir.Argument{ir.TensorArg(box)},
		Metadata: map[string]string{},
	}
	return &created{node: n, tensors: map[string]*ir.TensorMeta{box: boxMeta(t)}}
}

// boxMeta describes the rank-0 tensor a value of type t is boxed in.
func boxMeta(t ir.ValueType) *ir.TensorMeta {
	return &ir.TensorMeta{
		DType: backend.BoxDType(t), Sizes: []ir.SymInt{}, Strides: []ir.SymInt{},
		Device: ir.Device{Type: "cpu"}, Layout: ir.Strided, StorageOffset: ir.IntSym(0),
	}
}

// unboxNode is `v = aten._local_scalar_dense.default(box)`, keeping v's
// metadata so sizes downstream still read `s53`.
func (gc *graphCut) unboxNode(v, box string) *created {
	n := &ir.Node{
		Name:     v,
		Target:   "torch.ops.aten._local_scalar_dense.default",
		Inputs:   []ir.NamedArgument{positional("self", ir.TensorArg(box))},
		Outputs:  []ir.Argument{symRef(v, gc.typeOf(v))},
		Metadata: map[string]string{},
	}
	c := &created{node: n}
	gc.copyMeta(c, v)
	return c
}

// copyMeta records v's metadata from the graph's tables on c.
func (gc *graphCut) copyMeta(c *created, v string) {
	g := gc.g
	if m, ok := g.TensorValues[v]; ok {
		if c.tensors == nil {
			c.tensors = map[string]*ir.TensorMeta{}
		}
		c.tensors[v] = m
	}
	if s, ok := g.SymIntValues[v]; ok {
		if c.symInts == nil {
			c.symInts = map[string]ir.SymInt{}
		}
		c.symInts[v] = s
	}
	if s, ok := g.SymBoolValues[v]; ok {
		if c.symBools == nil {
			c.symBools = map[string]ir.SymBool{}
		}
		c.symBools[v] = s
	}
	if s, ok := g.SymFloatValues[v]; ok {
		if c.symFloats == nil {
			c.symFloats = map[string]ir.SymFloat{}
		}
		c.symFloats[v] = s
	}
}

// boxName names the rank-0 tensor v travels in, once per value and
// direction, however many rounds of proposals ask.
func (gc *graphCut) boxName(memo map[string]string, v string) string {
	if b, ok := memo[v]; ok {
		return b
	}
	b := gc.lw.names.fresh(v + "_box")
	memo[v] = b
	return b
}
