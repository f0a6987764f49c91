package runtime

import (
	"fmt"
	"strings"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/kernels"
	"github.com/seam-rt/seam/ops"
	"github.com/seam-rt/seam/tensor"
)

// graphPlan is a graph compiled for execution: every value has a slot, every
// node a step with its arguments in schema order, and after each step the
// slots whose values are dead are listed for release.
type graphPlan struct {
	path    string
	g       *ir.Graph
	nslots  int
	nlists  int
	inputs  []int32 // slot of each graph input (-1 for constant inputs)
	steps   []step
	outputs []argTmpl
	// names are the values' names, by slot, for pass errors.
	names []string
	// dead[i] lists the slots released after step i.
	dead [][]int32
}

type stepKind uint8

const (
	stepKernel stepKind = iota
	stepScalar
	stepCond
	stepDelegate
)

type step struct {
	pos    int // index in the plan's steps
	node   *ir.Node
	kind   stepKind
	kernel kernels.Kernel
	scalar scalarFn
	args   []argTmpl
	// nret is the number of result slots the kernel fills.
	nret int
	outs []outSlot
	// branches are cond's true and false graphs.
	branches [2]*graphPlan
	call     *delegateCall
	// move marks a copy (clone) whose input dies at this step: the
	// executor hands the input's storage to the result when nothing else
	// holds it, instead of copying (see moveCopy).
	move bool
	// runs is the op a rewrite made the step's kernel compute instead of
	// its node's ("" for the node's own).
	runs string
	// conv is what rewrites fused into a convolution's kernel (see
	// setConv).
	conv convFusion
}

// convFusion is what rewrites fused into a convolution step: the
// activation after it (convact) and its constant weight packed once
// (pack). Once a rewrite has fused either, the step's kernel is
// kernels.ConvolutionWith of both, so that a rewrite keeps what an earlier
// one fused.
type convFusion struct {
	act    string
	weight *kernels.PackedConvWeight
}

// setConv makes a convolution step's kernel compute what st.conv says,
// reporting false (and leaving the kernel) for an activation the kernels
// cannot fuse.
func (st *step) setConv() bool {
	k, ok := kernels.ConvolutionWith(st.conv.act, st.conv.weight)
	if ok {
		st.kernel = k
	}
	return ok
}

// outSlot places one result: in a slot, or, for a Tensor[] result, each
// element in its own slot (-1 where nothing uses it).
type outSlot struct {
	slot int32
	list []int32
}

type compiler struct {
	slots   map[string]int32
	nlists  int32
	missing map[string]bool
	loader  *Loader
	// consts are the slots of constant weights (top-level graph only).
	consts map[int32]*tensor.Tensor
}

func (c *compiler) slot(name string) (int32, error) {
	s, ok := c.slots[name]
	if !ok {
		return 0, fmt.Errorf("value %q is not defined", name)
	}
	return s, nil
}

func (c *compiler) define(name string) int32 {
	s := int32(len(c.slots))
	c.slots[name] = s
	return s
}

func (c *compiler) newList() int32 {
	c.nlists++
	return c.nlists - 1
}

// compileGraph plans one graph; missing kernels are collected, not fatal,
// so that every one can be reported at once.
func (l *Loader) compileGraph(path string, g *ir.Graph, missing map[string]bool) (*graphPlan, error) {
	c := &compiler{slots: map[string]int32{}, missing: missing, loader: l, consts: map[int32]*tensor.Tensor{}}
	gp := &graphPlan{path: path, g: g}
	for i := range g.Inputs {
		in := &g.Inputs[i]
		if refs := in.Refs(); len(refs) == 1 {
			s := c.define(refs[0])
			gp.inputs = append(gp.inputs, s)
			if t := l.consts[refs[0]]; t != nil && path == "" {
				c.consts[s] = t
			}
		} else {
			gp.inputs = append(gp.inputs, -1)
		}
	}
	for _, n := range g.Nodes {
		st, err := c.compileNode(path, n)
		if err != nil {
			return nil, &NodeError{Graph: path, Node: n.Name, Err: err}
		}
		st.pos = len(gp.steps)
		gp.steps = append(gp.steps, st)
	}
	for i := range g.Outputs {
		t, err := c.compileArg(&g.Outputs[i])
		if err != nil {
			return nil, fmt.Errorf("output %d: %w", i, err)
		}
		gp.outputs = append(gp.outputs, t)
	}
	gp.nslots = len(c.slots)
	gp.nlists = int(c.nlists)
	gp.names = make([]string, gp.nslots)
	for name, s := range c.slots {
		gp.names[s] = name
	}
	if err := l.runPasses(gp, c.consts); err != nil {
		return nil, err
	}
	return gp, nil
}

func (c *compiler) compileNode(path string, n *ir.Node) (step, error) {
	st := step{node: n}
	target := ir.OpName(n.Target)
	var err error
	switch {
	case n.Target == ir.DelegateTarget:
		st.kind = stepDelegate
		st.call, err = c.loader.delegate(n)
		if err != nil {
			return st, err
		}
		for i := 1; i < len(n.Inputs); i++ {
			t, err := c.compileArg(&n.Inputs[i].Arg)
			if err != nil {
				return st, err
			}
			st.args = append(st.args, t)
		}
		st.nret = len(n.Outputs)
	case target == "higher_order.cond":
		st.kind = stepCond
		if err := c.compileCond(path, n, &st); err != nil {
			return st, err
		}
	default:
		// A missing op is noted and its outputs still defined, so that
		// every missing op of the program is found in one pass.
		s, ok := ops.Lookup(target)
		if !ok {
			c.missing[target] = true
			return st, c.defineOutputs(n, &st)
		}
		// The executor evaluates what ops calls executor-owned (symbolic
		// ops, checks on scalars) itself; the rest are kernels.
		if s.ExecutorOwned() {
			fn, ok := scalarOps[target]
			if !ok {
				c.missing[target] = true
				return st, c.defineOutputs(n, &st)
			}
			st.kind, st.scalar = stepScalar, fn
		} else if k, ok := kernels.Lookup(target); ok {
			st.kind, st.kernel = stepKernel, k
		} else {
			c.missing[target] = true
			return st, c.defineOutputs(n, &st)
		}
		if st.args, err = c.bindArgs(s, n); err != nil {
			return st, err
		}
		st.nret = len(s.Returns)
	}
	return st, c.defineOutputs(n, &st)
}

// bindArgs puts the node's arguments in schema order, filling defaults,
// as ops.Schema.Bind does, but once, at load time.
func (c *compiler) bindArgs(s *ops.Schema, n *ir.Node) ([]argTmpl, error) {
	args := make([]argTmpl, len(s.Args))
	set := make([]bool, len(s.Args))
	pos := 0
	for i := range n.Inputs {
		in := &n.Inputs[i]
		idx := -1
		if in.Name != "" {
			if j, ok := s.ArgIndex(in.Name); ok {
				idx = j
			}
		}
		if idx < 0 {
			if in.Name != "" && in.Kind == ir.KindKeyword {
				return nil, fmt.Errorf("%s has no argument %q", s.Target(), in.Name)
			}
			for pos < len(s.Args) && set[pos] {
				pos++
			}
			if pos >= len(s.Args) {
				return nil, fmt.Errorf("%s: too many arguments", s.Target())
			}
			idx = pos
		}
		if set[idx] {
			return nil, fmt.Errorf("%s: argument %q given twice", s.Target(), s.Args[idx].Name)
		}
		t, err := c.compileArg(&in.Arg)
		if err != nil {
			return nil, fmt.Errorf("argument %q: %w", s.Args[idx].Name, err)
		}
		args[idx], set[idx] = t, true
	}
	for i, a := range s.Args {
		if set[i] {
			continue
		}
		if !a.HasDefault && !a.Type.Optional {
			return nil, fmt.Errorf("%s: missing argument %q", s.Target(), a.Name)
		}
		args[i] = litTmpl(a.Default)
	}
	return args, nil
}

// defineOutputs gives every value the node defines a slot.
func (c *compiler) defineOutputs(n *ir.Node, st *step) error {
	for i := range n.Outputs {
		o := &n.Outputs[i]
		switch o.Kind {
		case ir.ArgNone:
			st.outs = append(st.outs, outSlot{slot: -1})
		case ir.ArgTensors:
			out := outSlot{slot: -1}
			for _, e := range o.List {
				if strings.HasPrefix(e.Name, n.Name+"_unused_") {
					out.list = append(out.list, -1)
					continue
				}
				out.list = append(out.list, c.define(e.Name))
			}
			st.outs = append(st.outs, out)
		default:
			if o.Name == "" {
				st.outs = append(st.outs, outSlot{slot: -1})
				continue
			}
			st.outs = append(st.outs, outSlot{slot: c.define(o.Name)})
		}
	}
	return nil
}

func (c *compiler) compileCond(path string, n *ir.Node, st *step) error {
	if len(n.Inputs) != 4 {
		return fmt.Errorf("cond takes 4 arguments, got %d", len(n.Inputs))
	}
	pred, err := c.compileArg(&n.Inputs[0].Arg)
	if err != nil {
		return err
	}
	ops, err := c.compileArg(&n.Inputs[3].Arg)
	if err != nil {
		return err
	}
	st.args = []argTmpl{pred, ops}
	for i, in := range n.Inputs[1:3] {
		if in.Arg.Kind != ir.ArgGraph || in.Arg.Graph() == nil {
			return fmt.Errorf("cond argument %d is not a graph", i+1)
		}
		sub := in.Arg.Graph()
		p := ir.SubgraphPath(path, n.Name, sub.Name)
		if got, want := len(sub.Graph.Outputs), len(n.Outputs); got != want {
			return fmt.Errorf("cond branch %s returns %d values but the node has %d outputs", sub.Name, got, want)
		}
		bp, err := c.loader.compileGraph(p, sub.Graph, c.missing)
		if err != nil {
			return err
		}
		st.branches[i] = bp
	}
	st.nret = len(n.Outputs)
	return nil
}
