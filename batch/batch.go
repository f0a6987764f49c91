// Package batch finds whether a program computes each sample of its batch
// on its own, and writes the program for a smaller batch: what a runtime
// needs to run a batch's samples on several cores at once, each core
// running the smaller program on its share, with no hand-off between
// them until the outputs are put together. A conv net at batch 8 split
// this way runs each core's four samples through every op in its own
// caches, where splitting each op across the cores hands every
// intermediate from one core to the other.
//
// The batch is dim 0 of the user inputs, static and the same in all that
// have it. A program splits only when every node that reads a batched
// value is an op this package knows to compute sample i of its output
// from sample i of its batched inputs alone (and from values that do not
// depend on the batch: weights, constants, inputs without it), keeping
// the batch as its output's dim 0: pointwise ops and broadcasts over the
// other dims, convolutions and pools, matrix products over a batched left
// operand, reductions, softmax and norms over other dims, and views that
// keep dim 0 whole. Anything else refuses the split, with the node and the
// reason: a reduction over the batch, a view that merges it with another
// dim, control flow, buffer mutation, a symbolic batch. Every user output
// must be batched, so that the samples' outputs are put together along
// dim 0.
//
// A batched value's dim 0 may hold several rows per sample (sample i's
// rows i*m to (i+1)*m-1), as a view merging the batch with the heads
// before a batched product makes it: a view keeps the elements' order, so
// a view whose dim 0 is a multiple of the batch keeps each sample's
// elements together, in whole rows.
//
// The smaller program is the same graph with every batched value's dim 0
// and the view and expand sizes that name it rewritten (N*m becomes n*m);
// strides do not change, since the batch must be every batched value's
// outermost dim (or broadcast, stride 0).
package batch

import (
	"fmt"
	"slices"

	"github.com/seam-rt/seam/ir"
)

// Split is a program's batch: its size, which user inputs carry it, and
// what to rewrite for a smaller one.
type Split struct {
	// N is the batch the program was exported at.
	N int64
	// Inputs says, per user input in signature order, whether its dim 0
	// is the batch (the others are passed whole to every part).
	Inputs []bool
	prog   *ir.Program
	// batched lists the values whose dim 0 is the batch.
	batched []string
	axes    map[string]int
	// sizes are the size-list arguments naming the batch at position 0
	// (view, reshape, expand), as node index and input index.
	sizes []argRef
}

type argRef struct{ node, input int }

// Error says why a program has no batch split, naming the node when one
// refused it.
type Error struct {
	Node   string
	Reason string
}

func (e *Error) Error() string {
	if e.Node == "" {
		return "no batch split: " + e.Reason
	}
	return fmt.Sprintf("no batch split: node %s: %s", e.Node, e.Reason)
}

// role is what a value is to the split.
type role uint8

const (
	// shared values do not depend on the batch: every part computes the
	// same one.
	shared role = iota + 1
	// batched values have the batch as dim 0, sample i from sample i of
	// the inputs.
	batched
	// tainted values depend on the batch in a way the split does not
	// follow (a batch norm's unused statistics): no node may read them.
	tainted
)

// finder holds the roles found so far.
type finder struct {
	g     *ir.Graph
	n     int64
	roles map[string]role
	// axes holds a batched value's batch dim when it is not 0 (moved by
	// a permute on its way back to dim 0, as attention's q, k and v).
	axes  map[string]int
	sizes []argRef
}

// Find returns the program's batch split, or an *Error saying why it has
// none.
func Find(p *ir.Program) (*Split, error) {
	g := p.Graph
	f := &finder{g: g, roles: map[string]role{}, axes: map[string]int{}}
	for _, o := range p.Signature.Outputs {
		if o.Kind != ir.OutputUser {
			return nil, &Error{Reason: fmt.Sprintf("it has a %s output", o.Kind)}
		}
	}
	s := &Split{prog: p}
	for i := range p.Signature.Inputs {
		in := &p.Signature.Inputs[i]
		if in.Kind != ir.InputUser && in.Kind != ir.InputConstant {
			f.roles[in.PlaceholderName()] = shared
			continue
		}
		r, err := f.userInput(in)
		if err != nil {
			return nil, err
		}
		f.roles[in.PlaceholderName()] = r
		s.Inputs = append(s.Inputs, r == batched)
	}
	if f.n == 0 {
		return nil, &Error{Reason: "no user input has a static dim 0 of 2 or more"}
	}
	for i, n := range g.Nodes {
		if err := f.node(i, n); err != nil {
			return nil, &Error{Node: n.Name, Reason: err.Error()}
		}
	}
	for _, o := range g.Outputs {
		for _, name := range o.Refs() {
			if f.roles[name] != batched || f.axes[name] != 0 {
				return nil, &Error{Reason: fmt.Sprintf("output %s does not carry the batch as dim 0", name)}
			}
		}
	}
	s.N, s.sizes, s.axes = f.n, f.sizes, f.axes
	for name, r := range f.roles {
		if r == batched {
			s.batched = append(s.batched, name)
		}
	}
	slices.Sort(s.batched)
	return s, nil
}

// userInput decides a user input's role; the first tensor input with a
// static dim 0 of 2 or more sets the batch.
func (f *finder) userInput(in *ir.InputSpec) (role, error) {
	if in.Kind != ir.InputUser || in.Arg.Kind != ir.ArgTensor {
		return shared, nil
	}
	m := f.g.TensorValues[in.Arg.Name]
	if m == nil {
		return 0, &Error{Reason: fmt.Sprintf("input %s has no metadata", in.Arg.Name)}
	}
	if len(m.Sizes) == 0 {
		return shared, nil
	}
	if !m.Sizes[0].IsStatic() {
		return 0, &Error{Reason: fmt.Sprintf("input %s has a symbolic dim 0", in.Arg.Name)}
	}
	d := m.Sizes[0].Int
	if f.n == 0 && d >= 2 {
		f.n = d
	}
	if f.n == 0 || d != f.n {
		return shared, nil
	}
	if err := f.outermost(in.Arg.Name, 0); err != nil {
		return 0, &Error{Reason: fmt.Sprintf("input %s: %v", in.Arg.Name, err)}
	}
	return batched, nil
}

// node decides the roles of a node's outputs.
func (f *finder) node(i int, n *ir.Node) error {
	reads := false
	for j := range n.Inputs {
		a := &n.Inputs[j].Arg
		if a.Kind == ir.ArgGraph {
			return fmt.Errorf("it runs a subgraph")
		}
		var err error
		a.ForEachRef(func(name string) {
			switch f.roles[name] {
			case batched:
				reads = true
			case tainted:
				err = fmt.Errorf("it reads %s, which depends on the batch in a way the split does not follow", name)
			case 0:
				err = fmt.Errorf("it reads %s, which nothing defined before it", name)
			}
		})
		if err != nil {
			return err
		}
	}
	if !reads {
		n.ForEachOutputRef(func(name string) { f.roles[name] = shared })
		return f.broadcast(i, n)
	}
	op := n.OpName()
	rule, ok := rules[op]
	if !ok {
		return fmt.Errorf("%s reads the batch and is not an op known to keep samples apart", op)
	}
	if !axisAware[op] {
		var err error
		n.ForEachInputRef(func(name string) {
			if f.roles[name] == batched && f.axes[name] != 0 && err == nil {
				err = fmt.Errorf("%s reads %s, whose batch is dim %d, not 0", op, name, f.axes[name])
			}
		})
		if err != nil {
			return err
		}
	}
	n.ForEachOutputRef(func(name string) { f.roles[name] = tainted })
	st := &site{f: f, n: n, i: i}
	outs, err := rule(st)
	if err != nil {
		return fmt.Errorf("%s: %v", op, err)
	}
	for _, k := range outs {
		if k >= len(n.Outputs) {
			return fmt.Errorf("%s has %d outputs, want %d", op, len(n.Outputs), k+1)
		}
		for _, name := range n.Outputs[k].Refs() {
			if err := f.batchedValue(name, st.axis); err != nil {
				return err
			}
			f.roles[name] = batched
			if st.axis != 0 {
				f.axes[name] = st.axis
			}
		}
	}
	return nil
}

// broadcast makes a shared value expanded to the batch (a ViT's class
// token, expand(1, 1, d) to (N, 1, d)) a batched one, its expand's size
// rewritten with the others: every sample gets the same copy.
func (f *finder) broadcast(i int, n *ir.Node) error {
	if n.OpName() != "aten.expand.default" || len(n.Outputs) != 1 {
		return nil
	}
	s := &site{f: f, n: n, i: i}
	size, err := s.ints("size")
	in, _, _ := s.arg("self")
	if err != nil || in == nil || len(size) == 0 || size[0] != f.n || len(size) != s.rank("self") {
		return nil
	}
	if m := f.g.TensorValues[in.Name]; !m.Sizes[0].IsStatic() || m.Sizes[0].Int != 1 {
		return nil
	}
	out := n.Outputs[0].Name
	if f.batchedValue(out, 0) != nil {
		return nil
	}
	f.roles[out] = batched
	return s.batchSize("size")
}

// batchedValue checks that a value's metadata has the batch (or rows of
// it) as its static, outermost dim axis.
func (f *finder) batchedValue(name string, axis int) error {
	m := f.g.TensorValues[name]
	if m == nil {
		return fmt.Errorf("output %s is not a tensor with metadata", name)
	}
	if axis >= len(m.Sizes) || !m.Sizes[axis].IsStatic() || m.Sizes[axis].Int <= 0 || m.Sizes[axis].Int%f.n != 0 {
		return fmt.Errorf("output %s does not have the batch (%d, or rows of it) as dim %d", name, f.n, axis)
	}
	if err := f.outermost(name, axis); err != nil {
		return fmt.Errorf("output %s: %v", name, err)
	}
	return nil
}

// outermost checks that dim axis is a value's outermost dim in memory,
// so that its strides do not depend on the batch.
func (f *finder) outermost(name string, axis int) error {
	m := f.g.TensorValues[name]
	if len(m.Strides) == 0 {
		return nil // contiguous
	}
	if len(m.Strides) != len(m.Sizes) {
		return fmt.Errorf("has %d strides for %d sizes", len(m.Strides), len(m.Sizes))
	}
	if !m.Strides[axis].IsStatic() {
		return fmt.Errorf("has a symbolic stride")
	}
	if m.Strides[axis].Int == 0 {
		return nil // every sample the same copy
	}
	for d := range m.Sizes {
		sz, st := m.Sizes[d], m.Strides[d]
		if !sz.IsStatic() || !st.IsStatic() {
			return fmt.Errorf("has a symbolic size or stride")
		}
		if d != axis && sz.Int > 1 && st.Int*sz.Int > m.Strides[axis].Int {
			return fmt.Errorf("dim %d, the batch, is not its outermost dim (strides %v)", axis, staticInts(m.Strides))
		}
	}
	return nil
}

func staticInts(s []ir.SymInt) []int64 {
	out := make([]int64, len(s))
	for i, v := range s {
		out[i] = v.Int
	}
	return out
}

// Program writes the program for batch n, 1 <= n <= N: the same graph
// with every batched value's dim 0, and each size argument naming the
// batch, n. The program Find read is not changed.
func (s *Split) Program(n int64) (*ir.Program, error) {
	if n < 1 || n > s.N {
		return nil, fmt.Errorf("batch %d is outside [1, %d]", n, s.N)
	}
	p := s.prog.Clone()
	g := p.Graph
	for _, name := range s.batched {
		m, a := g.TensorValues[name], s.axes[name]
		m.Sizes[a] = ir.IntSym(m.Sizes[a].Int / s.N * n)
	}
	for _, r := range s.sizes {
		a := &g.Nodes[r.node].Inputs[r.input].Arg
		switch a.Kind {
		case ir.ArgInts:
			a.Ints[0] = a.Ints[0] / s.N * n
		case ir.ArgSymInts:
			a.List[0] = ir.SymIntLit(a.List[0].Int / s.N * n)
		}
	}
	return p, nil
}
