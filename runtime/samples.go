package runtime

import (
	"context"
	"fmt"
	goruntime "runtime"
	"slices"
	"sync"

	"github.com/seam-rt/seam/batch"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/kernels"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// A program whose samples are computed apart (package batch) runs as
// parts: its batch cut into nearly equal shares, each share run through
// the whole program for that batch, and the parts' outputs put together
// along dim 0. On several threads the parts run at once, each on its own
// goroutine: splitting each op instead hands every intermediate from one
// core to the other between ops and leaves the small ops on one core,
// where a part keeps its samples in its core's caches from the first op
// to the last, with one hand-off per run.
//
// A matrix product whose rows are samples (a classifier, a
// squeeze-excite gate) rounds a row by the register tile it falls in, and
// a part's tiles are not the whole batch's. So that the bits never
// depend on the thread count, the parts are fixed at load, as many as
// the machine's cores (at most one sample each), and a run on one thread
// runs them one after the other; runs of the same program on 1, 2 or 16
// threads give the same bits (TestBatchPartsBitwise). That costs a run
// on one thread the per-op overhead of the extra parts (3-4% on
// mobilenet_tiny_b8 on two cores), so a program splits only when each
// part has partMinMACs of work; a machine with one core never does.

// numCPU is the machine's cores; tests set more.
var numCPU = goruntime.NumCPU

// partMinMACs is the least a part's convolutions and matrix products
// must multiply-add (about 30 µs on one core) for a program to run in
// parts.
const partMinMACs = 1 << 20

// samples is a program's batch split, how many parts it runs in, and the
// parts' programs by batch, compiled the first time a run needs them.
type samples struct {
	split *batch.Split
	parts int
	opt   Options
	mu    sync.Mutex
	progs map[int64]*Program
}

// findSamples gives a program its batch split, when it has one, the
// machine has several cores, each part would have enough work, and
// nothing else in it keeps its runs whole (delegate calls, buffer state,
// specializations).
func (p *Program) findSamples(l *ir.Lowered, opt Options) {
	if opt.whole {
		return
	}
	if len(p.calls) > 0 || p.mutates || len(l.Specializations) > 0 {
		p.noSamples = fmt.Errorf("the program has delegate calls, buffer state or specializations")
		return
	}
	s, err := batch.Find(p.ir)
	if err != nil {
		p.noSamples = err
		return
	}
	parts := min(int(s.N), numCPU())
	if parts < 2 {
		p.noSamples = fmt.Errorf("the machine has one core")
		return
	}
	if w := macs(p.ir.Graph) / float64(parts); w < partMinMACs {
		p.noSamples = fmt.Errorf("a part of %d would multiply-add %.0f, below %d", parts, w, partMinMACs)
		return
	}
	p.samples = &samples{split: s, parts: parts, opt: opt, progs: map[int64]*Program{}}
}

// BatchParts says how many parts the program's runs cut its batch into,
// or why they do not.
func (p *Program) BatchParts() (int, error) {
	if p.samples == nil {
		return 1, p.noSamples
	}
	return p.samples.parts, nil
}

// macs estimates the multiply-adds of a graph's convolutions and matrix
// products from their outputs' metadata (0 for a symbolic one).
func macs(g *ir.Graph) float64 {
	numel := func(name string) float64 {
		m := g.TensorValues[name]
		if m == nil {
			return 0
		}
		sizes, ok := m.StaticSizes()
		if !ok {
			return 0
		}
		n := 1.0
		for _, d := range sizes {
			n *= float64(d)
		}
		return n
	}
	lastDim := func(name string) float64 {
		m := g.TensorValues[name]
		if m == nil || len(m.Sizes) == 0 || !m.Sizes[len(m.Sizes)-1].IsStatic() {
			return 0
		}
		return float64(m.Sizes[len(m.Sizes)-1].Int)
	}
	var total float64
	for _, n := range g.Nodes {
		if len(n.Outputs) == 0 || n.Outputs[0].Kind != ir.ArgTensor {
			continue
		}
		out := numel(n.Outputs[0].Name)
		in := func(name string) string {
			if a, ok := n.Input(name); ok {
				return a.Name
			}
			return ""
		}
		switch n.OpName() {
		case "aten.convolution.default":
			w := g.TensorValues[in("weight")]
			if w != nil && len(w.Sizes) > 0 && w.Sizes[0].IsStatic() && w.Sizes[0].Int > 0 {
				total += out * numel(in("weight")) / float64(w.Sizes[0].Int)
			}
		case "aten.addmm.default":
			total += out * lastDim(in("mat1"))
		case "aten.mm.default":
			total += out * lastDim(in("self"))
		case "aten.linear.default":
			total += out * lastDim(in("input"))
		case "aten.matmul.default", "aten.bmm.default":
			total += out * lastDim(in("self"))
		}
	}
	return total
}

// part returns the program for a share of n samples.
func (s *samples) part(n int64, threads int) (*Program, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if pp, ok := s.progs[n]; ok {
		return pp, nil
	}
	ip, err := s.split.Program(n)
	if err != nil {
		return nil, err
	}
	opt := s.opt
	opt.Threads, opt.FixedThreads, opt.whole = threads, true, true
	pp, err := Load(ip, opt)
	if err != nil {
		return nil, fmt.Errorf("the program for a part of %d samples: %w", n, err)
	}
	s.progs[n] = pp
	return pp, nil
}

// runParts runs inputs (checked) in parts on threads goroutines and
// returns the program's graph outputs (all user outputs).
func (p *Program) runParts(ctx context.Context, f *frame, inputs []value.Value, threads int) ([]value.Value, error) {
	s := p.samples
	n, k := int(s.split.N), s.parts
	each := max(1, p.threads/k) // a part's own splits, when threads outnumber parts
	progs := make([]*Program, k)
	ins := make([][]value.Value, k)
	for i := range k {
		lo, hi := i*n/k, (i+1)*n/k
		pp, err := s.part(int64(hi-lo), each)
		if err != nil {
			return nil, &PartsError{Err: err}
		}
		progs[i] = pp
		ins[i] = make([]value.Value, len(inputs))
		for j, v := range inputs {
			ins[i][j] = v
			if v.Kind() != value.Tensor {
				continue
			}
			// A header of its own, on a storage no pool owns: a pooled
			// storage's reference count (an input that is another
			// program's intermediate) is not safe for the parts to share,
			// and a part must not take an input's buffer for its results.
			x := v.Tensor()
			t, err := tensor.FromBytes(x.DType(), x.Sizes(), x.Strides(), x.Offset(), x.Storage().Bytes())
			if err == nil && s.split.Inputs[j] {
				t, err = (*tensor.Tensor)(nil).Narrow(t, 0, lo, hi-lo)
			}
			if err != nil {
				return nil, &PartsError{Err: fmt.Errorf("input %d, samples %d to %d: %w", j, lo, hi, err)}
			}
			ins[i][j] = value.FromTensor(t)
		}
	}
	outs := make([][]value.Value, k)
	errs := make([]error, k)
	run := func(i int) {
		if _, err := progs[i].checkInputs(ins[i]); err != nil {
			errs[i] = &PartsError{Err: fmt.Errorf("part %d: %w", i, err)}
			return
		}
		outs[i], _, errs[i] = progs[i].execOn(ctx, ins[i], max(1, threads/k), false)
	}
	f.kctx.BeginRun()
	kernels.Parts(min(threads, k), k, run)
	f.kctx.EndRun()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return joinParts(outs)
}

// joinParts puts the parts' outputs together along dim 0.
func joinParts(outs [][]value.Value) ([]value.Value, error) {
	joined := make([]value.Value, len(outs[0]))
	for o := range joined {
		first := outs[0][o].Tensor()
		sizes := slices.Clone(first.Sizes())
		for _, part := range outs[1:] {
			sizes[0] += part[o].Tensor().Size(0)
		}
		t, err := tensor.New(first.DType(), sizes...)
		if err != nil {
			return nil, &PartsError{Err: fmt.Errorf("output %d: %w", o, err)}
		}
		at := 0
		for _, part := range outs {
			src := part[o].Tensor()
			dst, err := (*tensor.Tensor)(nil).Narrow(t, 0, at, src.Size(0))
			if err == nil {
				err = tensor.Copy(dst, src)
			}
			if err != nil {
				return nil, &PartsError{Err: fmt.Errorf("output %d: %w", o, err)}
			}
			at += src.Size(0)
		}
		joined[o] = value.FromTensor(t)
	}
	return joined, nil
}
