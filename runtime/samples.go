package runtime

import (
	"context"
	"fmt"
	goruntime "runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/seam-rt/seam/batch"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/kernels"
	"github.com/seam-rt/seam/specialize"
	"github.com/seam-rt/seam/sym"
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
// to the last, with one hand-off per run. When the shares are unequal (a
// batch of 3 on two cores), the larger come first and every part may
// also split its ops, so the core done with a smaller part helps with a
// larger one; a split op computes the same bits.
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
// part has partMinMACs of work; a machine with one core never does. A
// program whose batch is a symbol splits per binding, as the program
// specialized to it (byBinding).

// numCPU is the machine's cores; tests set more.
var numCPU = goruntime.NumCPU

// partMinMACs is the least a part's convolutions and matrix products
// must multiply-add (about 30 µs on one core) for a program to run in
// parts; tests lower it.
var partMinMACs = float64(1 << 20)

// samples is a program's batch split, how many parts it runs in, and the
// parts, compiled the first time a run needs them.
type samples struct {
	split *batch.Split
	parts int
	opt   Options
	once  sync.Once
	list  []part
	err   error
	progs map[int64]*Program // by share, one for parts of equal shares
}

// part is one part of a run: its samples [lo, hi) and their program.
type part struct {
	lo, hi int
	prog   *Program
}

// byBinding holds, for a program whose batch is a symbol, the parts of
// the program specialized to each binding its runs have had: a binding's
// batch and sizes are static there (specialize.Program), which is what
// package batch needs. At most partBindings are kept; a binding after
// them runs whole, each of its runs (so its bits too stay the same).
type byBinding struct {
	opt   Options
	mu    sync.Mutex
	parts map[string]*samples // nil: the binding runs whole
	why   map[string]error
	// last is the last binding looked up, compared without the lock or
	// a key: a program runs at one binding run after run, and a tiny
	// one's run is a few microseconds.
	last atomic.Pointer[lastParts]
}

type lastParts struct {
	boundValues
	s   *samples
	why error
}

// partBindings bounds the bindings a symbolic program keeps parts for:
// each holds the programs of its parts.
const partBindings = 16

// findSamples gives a program its batch split, when it has one, the
// machine has several cores, each part would have enough work, and
// nothing else in it keeps its runs whole (delegate calls, buffer state,
// specializations). A program with symbolic sizes is split per binding.
func (p *Program) findSamples(l *ir.Lowered, opt Options) {
	if opt.whole {
		return
	}
	if len(p.calls) > 0 || p.mutates || len(l.Specializations) > 0 {
		p.noSamples = fmt.Errorf("the program has delegate calls, buffer state or specializations")
		return
	}
	if numCPU() < 2 {
		p.noSamples = fmt.Errorf("the machine has one core")
		return
	}
	if p.symbolic() {
		if !p.mayBatch() {
			p.noSamples = fmt.Errorf("no input has a batch of two or more")
			return
		}
		p.bySymbols = &byBinding{opt: opt, parts: map[string]*samples{}, why: map[string]error{}}
		return
	}
	p.samples, p.noSamples = newSamples(p.ir, opt)
}

// symbolic reports whether a user input has a symbolic size.
func (p *Program) symbolic() bool {
	for _, u := range p.users {
		for _, d := range u.dims {
			if d != nil {
				return true
			}
		}
	}
	return false
}

// mayBatch reports whether some tensor user input's dim 0 could be a
// batch of two or more: a symbol, or static and 2 or more.
func (p *Program) mayBatch() bool {
	for _, u := range p.users {
		if u.meta == nil || u.constant != nil || len(u.dims) == 0 {
			continue
		}
		if u.dims[0] != nil || u.meta.Sizes[0].Int >= 2 {
			return true
		}
	}
	return false
}

// newSamples finds a static program's batch split and decides its parts.
func newSamples(ip *ir.Program, opt Options) (*samples, error) {
	s, err := batch.Find(ip)
	if err != nil {
		return nil, err
	}
	parts := min(int(s.N), numCPU())
	if w := macs(ip.Graph) / float64(parts); w < partMinMACs {
		return nil, fmt.Errorf("a part of %d would multiply-add %.0f, below %.0f", parts, w, partMinMACs)
	}
	return &samples{split: s, parts: parts, opt: opt}, nil
}

// samplesAt returns the parts of a run at bind, nil to run whole, and
// why not.
func (p *Program) samplesAt(bind sym.Bindings) (*samples, error) {
	b := p.bySymbols
	if b == nil {
		return p.samples, p.noSamples
	}
	if l := b.last.Load(); l != nil && l.at(bind) {
		return l.s, l.why
	}
	key := bind.String()
	b.mu.Lock()
	defer b.mu.Unlock()
	if s, ok := b.parts[key]; ok {
		b.remember(bind, s, b.why[key])
		return s, b.why[key]
	}
	if len(b.parts) >= partBindings {
		return nil, fmt.Errorf("parts are kept for %d bindings, and this is another", partBindings)
	}
	var s *samples
	r, err := specialize.Program(p.ir, bind)
	if err == nil {
		s, err = newSamples(r.Program, b.opt)
	}
	b.parts[key] = s
	if err != nil {
		b.why[key] = fmt.Errorf("at %s: %w", key, err)
	}
	b.remember(bind, s, b.why[key])
	return s, b.why[key]
}

// remember makes bind the last binding looked up.
func (b *byBinding) remember(bind sym.Bindings, s *samples, why error) {
	b.last.Store(&lastParts{boundValues: boundOf(bind), s: s, why: why})
}

// BatchParts says how many parts a run on inputs cuts its batch into
// (1: it runs whole), or why it runs whole.
func (p *Program) BatchParts(inputs []value.Value) (int, error) {
	bind, err := p.checkInputs(inputs)
	if err != nil {
		return 1, err
	}
	s, err := p.samplesAt(bind)
	if s == nil {
		return 1, err
	}
	return s.parts, nil
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

// uneven reports whether the parts' shares differ.
func (s *samples) uneven() bool { return int(s.split.N)%s.parts != 0 }

// load compiles the parts' programs for a program on threads goroutines.
// The larger shares come first: the caller runs the first part, and
// helps no one once it is done.
func (s *samples) load(threads int) ([]part, error) {
	s.once.Do(func() {
		n, k := int(s.split.N), s.parts
		if !s.uneven() {
			threads = max(1, threads/k)
		}
		s.progs = map[int64]*Program{}
		for i := range k {
			lo, hi := n-(k-i)*n/k, n-(k-i-1)*n/k
			pp, ok := s.progs[int64(hi-lo)]
			if !ok {
				ip, err := s.split.Program(int64(hi - lo))
				if err == nil {
					opt := s.opt
					opt.Threads, opt.FixedThreads, opt.whole = threads, true, true
					pp, err = Load(ip, opt)
				}
				if err != nil {
					s.err = fmt.Errorf("the program for a part of %d samples: %w", hi-lo, err)
					return
				}
				s.progs[int64(hi-lo)] = pp
			}
			s.list = append(s.list, part{lo: lo, hi: hi, prog: pp})
		}
	})
	return s.list, s.err
}

// runParts runs inputs (checked) in parts on threads goroutines and
// returns the program's graph outputs (all user outputs).
func (p *Program) runParts(ctx context.Context, f *frame, s *samples, inputs []value.Value, threads int) ([]value.Value, error) {
	k := s.parts
	// Parts of unequal shares may split their ops on all the threads: the
	// worker done with a smaller part then helps with the larger (batch 3
	// on two cores: 1.29-1.32x became 1.47-1.48x). Equal parts end
	// together, and offering their ops to a busy core cost batch 8 5%.
	on := threads
	if !s.uneven() {
		on = max(1, threads/k)
	}
	parts, err := s.load(p.threads)
	if err != nil {
		return nil, &PartsError{Err: err}
	}
	ins := make([][]value.Value, k)
	for i, pt := range parts {
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
				t, err = (*tensor.Tensor)(nil).Narrow(t, 0, pt.lo, pt.hi-pt.lo)
			}
			if err != nil {
				return nil, &PartsError{Err: fmt.Errorf("input %d, samples %d to %d: %w", j, pt.lo, pt.hi, err)}
			}
			ins[i][j] = value.FromTensor(t)
		}
	}
	outs := make([][]value.Value, k)
	errs := make([]error, k)
	run := func(i int) {
		pp := parts[i].prog
		bind, err := pp.checkInputs(ins[i])
		if err != nil {
			errs[i] = &PartsError{Err: fmt.Errorf("part %d: %w", i, err)}
			return
		}
		outs[i], _, errs[i] = pp.execOn(ctx, ins[i], bind, on, false)
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
