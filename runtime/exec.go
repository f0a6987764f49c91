package runtime

import (
	"context"
	"fmt"

	"github.com/seam-rt/seam/kernels"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// frame is one run's working memory: value slots, argument and result
// buffers, list buffers, and the kernels' tensor pool. Frames are reused
// across runs (one goroutine at a time), so a run in steady state
// allocates nothing per op.
type frame struct {
	kctx   *kernels.Context
	graphs map[*graphPlan]*graphState
	// timing, when set, accumulates the time spent in each delegate.
	timing map[string]*DelegateTime
}

type graphState struct {
	slots []value.Value
	args  [][]value.Value
	outs  [][]value.Value
	lists []listBuf
}

func newFrame(threads int) *frame {
	f := &frame{kctx: kernels.NewContext(), graphs: map[*graphPlan]*graphState{}}
	f.kctx.Threads = threads
	return f
}

func (f *frame) state(gp *graphPlan) *graphState {
	if st, ok := f.graphs[gp]; ok {
		return st
	}
	st := &graphState{
		slots: make([]value.Value, gp.nslots),
		args:  make([][]value.Value, len(gp.steps)),
		outs:  make([][]value.Value, len(gp.steps)),
		lists: make([]listBuf, gp.nlists),
	}
	for i := range gp.steps {
		st.args[i] = make([]value.Value, len(gp.steps[i].args))
		st.outs[i] = make([]value.Value, gp.steps[i].nret)
	}
	f.graphs[gp] = st
	return st
}

// run executes a graph on its inputs and returns its outputs.
// runProgram runs a program's graph as one run of its kernels
// (kernels.Context.BeginRun to EndRun, even if a kernel panics), so that
// the workers of a run that splits watch for its splits throughout.
func (f *frame) runProgram(ctx context.Context, gp *graphPlan, inputs []value.Value) ([]value.Value, error) {
	f.kctx.BeginRun()
	defer f.kctx.EndRun()
	return f.run(ctx, gp, inputs)
}

func (f *frame) run(ctx context.Context, gp *graphPlan, inputs []value.Value) ([]value.Value, error) {
	st := f.state(gp)
	if len(inputs) != len(gp.inputs) {
		return nil, fmt.Errorf("graph %q takes %d inputs, got %d", gp.path, len(gp.inputs), len(inputs))
	}
	for i, s := range gp.inputs {
		if s >= 0 {
			st.slots[s] = inputs[i]
		}
	}
	defer clear(st.slots)
	for i := range gp.steps {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s := &gp.steps[i]
		if s.move {
			res, moved, err := f.moveCopy(st.slots, s.args[0].slot)
			if err != nil {
				return nil, &NodeError{Graph: gp.path, Node: s.node.Name, Err: err}
			}
			if moved {
				out := st.outs[i]
				out[0] = res
				if err := assignOutputs(s, out, st.slots); err != nil {
					return nil, &NodeError{Graph: gp.path, Node: s.node.Name, Err: err}
				}
				f.releaseDead(gp.dead[i], st.slots)
				continue
			}
		}
		args := st.args[i]
		for j := range s.args {
			v, err := s.args[j].eval(st.slots, st.lists)
			if err != nil {
				return nil, &NodeError{Graph: gp.path, Node: s.node.Name, Err: err}
			}
			args[j] = v
		}
		if err := f.step(ctx, s, args, st); err != nil {
			return nil, &NodeError{Graph: gp.path, Node: s.node.Name, Err: err}
		}
		f.releaseDead(gp.dead[i], st.slots)
	}
	outs := make([]value.Value, len(gp.outputs))
	for i := range gp.outputs {
		v, err := gp.outputs[i].eval(st.slots, st.lists)
		if err != nil {
			return nil, fmt.Errorf("output %d: %w", i, err)
		}
		outs[i] = copyList(v)
	}
	return outs, nil
}

// copyList detaches a list value from the run's buffers.
func copyList(v value.Value) value.Value {
	switch v.Kind() {
	case value.IntList:
		return value.FromInts(append([]int64(nil), v.Ints()...))
	case value.TensorList:
		return value.FromTensors(append([]*tensor.Tensor(nil), v.Tensors()...))
	}
	return v
}

func (f *frame) step(ctx context.Context, s *step, args []value.Value, st *graphState) error {
	out := st.outs[s.pos]
	switch s.kind {
	case stepKernel:
		if err := s.kernel(f.kctx, args, out); err != nil {
			return err
		}
	case stepScalar:
		v, err := s.scalar(args)
		if err != nil {
			return fmt.Errorf("%s: %w", s.node.OpName(), err)
		}
		if len(out) > 0 {
			out[0] = v
		}
	case stepCond:
		res, err := f.cond(ctx, s, args)
		if err != nil {
			return err
		}
		copy(out, res)
	case stepDelegate:
		res, err := f.delegateOutsideRun(ctx, s, args)
		if err != nil {
			return err
		}
		if len(res) != len(out) {
			return fmt.Errorf("delegate %s returned %d values, the call expects %d", s.call.module, len(res), len(out))
		}
		copy(out, res)
	}
	return assignOutputs(s, out, st.slots)
}

// delegateOutsideRun calls a delegate with the run's workers let go
// (kernels.Context.EndRun): they need not watch through a call that
// may use the cores itself.
func (f *frame) delegateOutsideRun(ctx context.Context, s *step, args []value.Value) ([]value.Value, error) {
	f.kctx.EndRun()
	defer f.kctx.BeginRun()
	return f.delegate(ctx, s, args)
}

func assignOutputs(s *step, out []value.Value, slots []value.Value) error {
	for i, o := range s.outs {
		if i >= len(out) {
			return fmt.Errorf("%s returned %d values, the node has %d outputs", s.node.OpName(), len(out), len(s.outs))
		}
		if o.slot >= 0 {
			slots[o.slot] = out[i]
		}
		if o.list != nil {
			l := out[i].Tensors()
			if len(l) != len(o.list) {
				return fmt.Errorf("%s returned %d tensors, the node names %d", s.node.OpName(), len(l), len(o.list))
			}
			for j, sl := range o.list {
				if sl >= 0 {
					slots[sl] = value.FromTensor(l[j])
				}
			}
			if s.kind == stepKernel && o.slot < 0 && out[i].Kind() == value.TensorList {
				// Keep the list for the kernel to fill again next run
				// (its elements are stale by then and never read).
				continue
			}
		}
		out[i] = value.Value{}
	}
	return nil
}

// cond runs the branch the predicate selects on the operands.
func (f *frame) cond(ctx context.Context, s *step, args []value.Value) ([]value.Value, error) {
	pred, err := predicate(args[0])
	if err != nil {
		return nil, err
	}
	branch := s.branches[1]
	if pred {
		branch = s.branches[0]
	}
	var operands []value.Value
	switch args[1].Kind() {
	case value.TensorList:
		for _, t := range args[1].Tensors() {
			operands = append(operands, value.FromTensor(t))
		}
	default:
		operands = []value.Value{args[1]}
	}
	return f.run(ctx, branch, operands)
}

func predicate(v value.Value) (bool, error) {
	switch v.Kind() {
	case value.Bool, value.Int, value.Double:
		return truth(v), nil
	case value.Tensor:
		t := v.Tensor()
		if t.Numel() != 1 {
			return false, fmt.Errorf("cond predicate is a tensor of %d elements", t.Numel())
		}
		return t.Float(make([]int, t.Dim())...) != 0, nil
	}
	return false, fmt.Errorf("cond predicate is %s", v.Kind())
}
