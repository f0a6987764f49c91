package runtime

import (
	"context"
	"fmt"
	"reflect"
	goruntime "runtime"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/irtext"
	"github.com/seam-rt/seam/kernels"
	"github.com/seam-rt/seam/sym"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// Options say how a program runs.
type Options struct {
	// Threads is the most goroutines one run may use inside a kernel
	// (matrix products, convolutions, large elementwise ops); 0 means
	// GOMAXPROCS, 1 runs every kernel on the caller's goroutine. Kernels
	// split only work large enough to pay for it, and results do not
	// depend on the count. The extra goroutines are the process's
	// workers (at most GOMAXPROCS-1, shared by every program and run),
	// which spin briefly after a split and then park: a program holds
	// none of its own, and an idle one uses no CPU. A program whose batch
	// runs in parts (Program.BatchParts) runs them at once on these
	// threads, one after the other on one.
	Threads int
	// FixedThreads makes every run use Threads. Without it a program
	// asked for more than one measures, per binding of its symbols, its
	// first runs on Threads and on one thread (ten each, in blocks of
	// five, after three warm-ups) and then uses the faster (ThreadChoices
	// says which; one thread, without timing it, when no kernel split in
	// the runs on Threads), measuring again after 0.2 s, then after ten
	// seconds (the machine's load changes what pays), or after one when
	// the two were close, the choice changed or the workers rarely got a
	// core, so more threads never make a model slower than one.
	FixedThreads bool
	// TrustRecordedContract checks each module's calls against the
	// contract its delegate record holds even where it differs from the
	// registered backend's (see contract.go).
	TrustRecordedContract bool
	// Disable names plan rewrites Load is not to run (PassNames lists
	// them; see the package documentation), to compare a program with and
	// without one or to rule one out when a result looks wrong.
	Disable []string
	// whole keeps a program's runs whole: a part of a batch run in parts
	// (samples.go) is not cut again.
	whole bool
	// shared holds the weights, folds and packs a program shares with the
	// programs of its parts (shared.go).
	shared *sharedConsts
}

// Program is a loaded program: compiled once, run many times, safe for
// concurrent runs. A program that mutates buffers keeps them as state
// across runs; its runs are serialised so each sees the last one's state.
type Program struct {
	ir    *ir.Program
	plan  *graphPlan
	users []userInput
	// sources says where each graph input comes from.
	sources []source
	ranges  map[string]sym.Range
	// outputs lists, per graph output, its spec kind and target.
	outputs []ir.OutputSpec
	nUser   int

	mu      sync.Mutex
	state   map[string]value.Value // buffer FQN -> current value
	mutates bool
	frames  sync.Pool
	calls   []*delegateCall
	// dispatch holds the specializations a run may take instead (nil
	// without any).
	dispatch *dispatch
	// passes names the plan rewrites Load ran, in order.
	passes []string
	// threads is Options.Threads resolved; tuner, when it is above 1 and
	// Options.FixedThreads is not set, chooses per binding between one
	// thread and threads (threads.go).
	threads int
	tuner   *threadTuner
	// samples, when the program computes the samples of its static batch
	// apart, runs it in parts (samples.go), and bySymbols those of a
	// symbolic batch, per binding; noSamples says why neither.
	samples   *samples
	noSamples error
	bySymbols *byBinding
	// shared is what it shares with its parts' programs (shared.go).
	shared *sharedConsts
}

// ranOn, when a test sets it, is told the thread count each run gives
// its kernels.
var ranOn func(threads int)

// ThreadChoices says, per binding of the symbols the program has run at,
// what it measured on one thread and on Options.Threads and which it
// uses; nil when it does not choose (Threads 1, or FixedThreads).
func (p *Program) ThreadChoices() []ThreadChoice { return p.tuner.choices() }

// Passes names the plan rewrites Load ran on this program, in order:
// PassNames less what Options.Disable switched off.
func (p *Program) Passes() []string { return slices.Clone(p.passes) }

type sourceKind uint8

const (
	fromUser sourceKind = iota
	fromWeight
	fromState
	fromConstant
)

type source struct {
	kind   sourceKind
	user   int         // fromUser: index among user inputs
	weight value.Value // fromWeight: the loaded tensor
	target string      // fromState: buffer FQN
	lit    value.Value // fromConstant
}

// userInput is one user input as Run checks it.
type userInput struct {
	name string
	typ  ir.ValueType
	meta *ir.TensorMeta
	// dims are the parsed sizes of a tensor input (nil entries are static),
	// and where names each for binding errors ("input x dim 1").
	dims  []*sym.Expr
	where []string
	// expr is a SymInt input's expression.
	expr *sym.Expr
	// constant is a constant input's value, the only one it takes.
	constant *value.Value
}

// Loader compiles programs; it carries what modules need across the load.
type Loader struct {
	opt Options
	// modules are the lowered program's modules, by name.
	modules map[string]*ir.LoweredModule
	calls   []*delegateCall
	// consts are the top-level graph inputs fed by weights that no run
	// changes, by name: what constant rewrites may read.
	consts map[string]*tensor.Tensor
	// compiled are the modules compiled so far, by name.
	compiled map[string]*delegateCall
	// passes are the plan rewrites that run on every graph, in order.
	passes []pass
}

// constants lists the graph inputs whose value is a loaded weight (not
// buffer state, which runs change).
func (p *Program) constants() map[string]*tensor.Tensor {
	out := map[string]*tensor.Tensor{}
	for i, s := range p.sources {
		if s.kind != fromWeight || i >= len(p.ir.Graph.Inputs) {
			continue
		}
		if refs := p.ir.Graph.Inputs[i].Refs(); len(refs) == 1 {
			out[refs[0]] = s.weight.Tensor()
		}
	}
	return out
}

// Load compiles a program. Every op without a kernel is reported at once
// (MissingKernelsError), before anything runs.
func Load(p *ir.Program, opt Options) (*Program, error) {
	return LoadLowered(&ir.Lowered{Main: p}, opt)
}

// LoadLowered compiles a lowered program: its main program, and each module
// a delegate call names through the backend its delegate record names.
func LoadLowered(l *ir.Lowered, opt Options) (*Program, error) {
	return loadLowered(l, opt, planPasses, map[string]*delegateCall{})
}

// loadLowered is LoadLowered with the pass table to run (tests add to it)
// and the modules compiled so far, by name: a module several main programs
// call (the general path's and its specializations') is compiled once.
func loadLowered(l *ir.Lowered, opt Options, table []pass, compiled map[string]*delegateCall) (*Program, error) {
	passes, err := enabled(table, opt.Disable)
	if err != nil {
		return nil, err
	}
	p := l.Main
	if opt.shared == nil {
		opt.shared = newSharedConsts()
	}
	prog := &Program{ir: p, ranges: map[string]sym.Range{}, state: map[string]value.Value{}, shared: opt.shared}
	for _, ps := range passes {
		prog.passes = append(prog.passes, ps.name)
	}
	// Weights first: the plan's rewrites fold and pack constant ones.
	if err := prog.loadSources(); err != nil {
		return nil, err
	}
	ld := &Loader{opt: opt, modules: l.Modules, consts: prog.constants(), compiled: compiled, passes: passes}
	missing := map[string]bool{}
	plan, err := ld.compileGraph("", p.Graph, missing)
	if err != nil {
		return nil, err
	}
	if len(missing) > 0 {
		e := &MissingKernelsError{}
		for t := range missing {
			e.Targets = append(e.Targets, t)
		}
		sort.Strings(e.Targets)
		return nil, e
	}
	prog.plan, prog.calls = plan, ld.calls
	threads := opt.Threads
	if threads <= 0 {
		threads = goruntime.GOMAXPROCS(0)
	}
	prog.threads = threads
	if !opt.FixedThreads {
		prog.tuner = newThreadTuner(threads)
	}
	prog.frames.New = func() any { return newFrame(threads) }
	for name, rc := range p.RangeConstraints {
		prog.ranges[name] = sym.IntRangeBounds(rc.Min, rc.Max)
	}
	prog.outputs = p.Signature.Outputs
	for _, o := range prog.outputs {
		switch o.Kind {
		case ir.OutputUser:
			prog.nUser++
		case ir.OutputBufferMutation:
			prog.mutates = true
		}
	}
	if err := prog.loadSpecializations(l, opt, table, compiled); err != nil {
		return nil, err
	}
	prog.findSamples(l, opt)
	return prog, nil
}

// loadSources decides, per graph input, where its value comes from, and
// loads the weights.
func (p *Program) loadSources() error {
	g := p.ir.Graph
	specs := p.ir.Signature.Inputs
	if len(specs) != len(g.Inputs) {
		return fmt.Errorf("graph has %d inputs but the signature %d", len(g.Inputs), len(specs))
	}
	// Weights that view one storage (tied embeddings) share its bytes.
	storages := map[ir.Blob][]byte{}
	mutated := map[string]bool{}
	for _, o := range p.ir.Signature.Outputs {
		if o.Kind == ir.OutputBufferMutation {
			mutated[o.Target] = true
		}
	}
	for i, s := range specs {
		switch s.Kind {
		case ir.InputUser:
			ui, err := p.userInput(s.Arg)
			if err != nil {
				return err
			}
			p.sources = append(p.sources, source{kind: fromUser, user: len(p.users)})
			p.users = append(p.users, ui)
		case ir.InputParameter, ir.InputBuffer, ir.InputTensorConstant:
			w, ok := p.ir.Weight(s.Target)
			if !ok {
				return fmt.Errorf("weight %s of input %s is missing", s.Target, s.Arg.Name)
			}
			if s.Kind == ir.InputBuffer && mutated[s.Target] {
				t, err := loadWeight(w, storages)
				if err != nil {
					return fmt.Errorf("weight %s: %w", s.Target, err)
				}
				p.state[s.Target] = value.FromTensor(t)
				p.sources = append(p.sources, source{kind: fromState, target: s.Target})
				continue
			}
			t, err := once(p.shared, p.shared.weights, w, func() (*tensor.Tensor, error) { return loadWeight(w, storages) })
			if err != nil {
				return fmt.Errorf("weight %s: %w", s.Target, err)
			}
			p.sources = append(p.sources, source{kind: fromWeight, weight: value.FromTensor(t)})
		case ir.InputConstant:
			// The caller passes a constant input in its place among the user
			// inputs (the in_spec lists it) and it must equal the value, as
			// torch.export's and ExecuTorch's checks require.
			lit, err := (&compiler{}).compileArg(&g.Inputs[i])
			if err != nil {
				return fmt.Errorf("constant input %s: %w", s.Name, err)
			}
			p.sources = append(p.sources, source{kind: fromConstant, lit: lit.lit})
			p.users = append(p.users, userInput{name: s.Name, constant: &lit.lit})
		default:
			return fmt.Errorf("input %s: seam cannot run %s inputs", s.PlaceholderName(), s.Kind)
		}
	}
	return nil
}

func (p *Program) userInput(a ir.Argument) (userInput, error) {
	g := p.ir.Graph
	ui := userInput{name: a.Name, typ: g.TypeOf(a.Name)}
	switch ui.typ {
	case ir.ValueTensor:
		ui.meta = g.TensorValues[a.Name]
		ui.dims = make([]*sym.Expr, len(ui.meta.Sizes))
		ui.where = make([]string, len(ui.meta.Sizes))
		for d, s := range ui.meta.Sizes {
			ui.where[d] = fmt.Sprintf("input %s dim %d", a.Name, d)
			if s.Expr != nil {
				e, err := sym.Parse(s.Expr.Expr)
				if err != nil {
					return ui, fmt.Errorf("input %s dim %d: %w", a.Name, d, err)
				}
				ui.dims[d] = e
			}
		}
	case ir.ValueSymInt:
		if s := g.SymIntValues[a.Name]; s.Expr != nil {
			e, err := sym.Parse(s.Expr.Expr)
			if err != nil {
				return ui, fmt.Errorf("input %s: %w", a.Name, err)
			}
			ui.expr = e
		}
	case ir.ValueSymFloat, ir.ValueSymBool:
	default:
		if a.Kind == ir.ArgTensor {
			return ui, fmt.Errorf("input %s has no metadata", a.Name)
		}
		ui.typ = ir.ValueUnknown
	}
	return ui, nil
}

func loadWeight(w *ir.Weight, storages map[ir.Blob][]byte) (*tensor.Tensor, error) {
	if w.UsePickle || w.Meta == nil {
		return nil, fmt.Errorf("pickled weights (tensor subclasses, custom objects) are not supported")
	}
	m := w.Meta
	sizes, strides := make([]int, len(m.Sizes)), make([]int, len(m.Strides))
	for i, s := range m.Sizes {
		sizes[i] = int(s.Int)
	}
	for i, s := range m.Strides {
		strides[i] = int(s.Int)
	}
	data, err := readStorage(w, storages)
	if err != nil {
		return nil, err
	}
	dt := tensor.DType(m.DType)
	if len(data) == 0 {
		return tensor.New(dt, sizes...)
	}
	return tensor.FromBytes(dt, sizes, strides, int(m.StorageOffset.Int), data)
}

// readStorage reads a weight's stored file once per program: blobs the
// archive reader made are pointers, so identical ones are one storage.
// (In-memory ir.Bytes are not comparable and are simply used as they are.)
func readStorage(w *ir.Weight, storages map[ir.Blob][]byte) ([]byte, error) {
	if b, ok := w.Data.(ir.Bytes); ok {
		return b, nil
	}
	if reflect.TypeOf(w.Data) == nil || reflect.TypeOf(w.Data).Kind() != reflect.Pointer {
		return w.ReadAll()
	}
	if data, ok := storages[w.Data]; ok {
		return data, nil
	}
	data, err := w.ReadAll()
	if err == nil {
		storages[w.Data] = data
	}
	return data, err
}

// Inputs describes the user inputs Run takes, in order.
func (p *Program) Inputs() []string {
	out := make([]string, len(p.users))
	for i, u := range p.users {
		out[i] = u.name
	}
	return out
}

// Run executes the program on its user inputs (in signature order: a
// tensor, or an Int for a SymInt input) and returns its user outputs.
func (p *Program) Run(ctx context.Context, inputs []value.Value) ([]value.Value, error) {
	outs, _, err := p.run(ctx, inputs, false)
	return outs, err
}

// Execute runs the program as a backend runs a lowered module.
func (p *Program) Execute(ctx context.Context, inputs []value.Value) ([]value.Value, error) {
	return p.Run(ctx, inputs)
}

// DelegateTime is the time a run spent in one lowered module.
type DelegateTime struct {
	Module, Backend string
	Calls           int
	Nanos           int64
}

// RunTimed is Run that also reports the time spent in each delegate.
func (p *Program) RunTimed(ctx context.Context, inputs []value.Value) ([]value.Value, []DelegateTime, error) {
	return p.run(ctx, inputs, true)
}

// Bindings checks inputs as Run does, without running anything, and
// returns the values they bind the program's symbols to.
func (p *Program) Bindings(inputs []value.Value) (sym.Bindings, error) {
	return p.checkInputs(inputs)
}

func (p *Program) run(ctx context.Context, inputs []value.Value, timed bool) ([]value.Value, []DelegateTime, error) {
	bind, err := p.checkInputs(inputs)
	if err != nil {
		return nil, nil, err
	}
	if s := p.dispatch.find(bind); s != nil {
		return p.runSpecialization(ctx, s, inputs, timed)
	}
	return p.exec(ctx, inputs, bind, timed)
}

// exec runs the program on inputs already checked, which bind its
// symbols as bind says, on the threads its tuner chooses.
func (p *Program) exec(ctx context.Context, inputs []value.Value, bind sym.Bindings, timed bool) ([]value.Value, []DelegateTime, error) {
	threads, way := p.threads, -1
	if p.tuner != nil {
		threads, way = p.tuner.choose(bind)
	}
	var start time.Time
	var regions, helped uint64
	if way >= 0 {
		start = time.Now()
		regions, helped = kernels.Splits()
	}
	outs, times, err := p.execOn(ctx, inputs, bind, threads, timed)
	if err != nil {
		return nil, nil, err
	}
	if way >= 0 {
		d := time.Since(start)
		r, h := kernels.Splits()
		p.tuner.record(bind, way, d, splitBetween(regions, helped, r, h))
	}
	return outs, times, nil
}

// execOn runs the program on inputs already checked, on threads
// goroutines: in parts when its batch splits (samples.go).
func (p *Program) execOn(ctx context.Context, inputs []value.Value, bind sym.Bindings, threads int, timed bool) ([]value.Value, []DelegateTime, error) {
	if p.mutates {
		p.mu.Lock()
		defer p.mu.Unlock()
	}
	f := p.frames.Get().(*frame)
	defer p.frames.Put(f)
	f.timing = nil
	if timed {
		f.timing = map[string]*DelegateTime{}
	}
	f.kctx.Threads = threads
	if ranOn != nil {
		ranOn(f.kctx.Threads)
	}
	var outs []value.Value
	var err error
	if s, _ := p.samplesAt(bind); s != nil {
		outs, err = p.runParts(ctx, f, s, inputs, threads)
	} else {
		outs, err = f.runProgram(ctx, p.plan, p.graphArgs(inputs))
	}
	if err != nil {
		return nil, nil, err
	}
	user := make([]value.Value, 0, p.nUser)
	for i, o := range p.outputs {
		switch o.Kind {
		case ir.OutputUser:
			user = append(user, outs[i])
		case ir.OutputBufferMutation:
			p.state[o.Target] = outs[i]
		}
	}
	var times []DelegateTime
	for _, c := range p.calls {
		if t, ok := f.timing[c.module]; ok {
			times = append(times, *t)
		}
	}
	return user, times, nil
}

// graphArgs builds the graph's inputs from the user inputs, the weights,
// the buffer state and the constants.
func (p *Program) graphArgs(inputs []value.Value) []value.Value {
	args := make([]value.Value, len(p.sources))
	for i, s := range p.sources {
		switch s.kind {
		case fromUser:
			args[i] = inputs[s.user]
		case fromWeight:
			args[i] = s.weight
		case fromState:
			args[i] = p.state[s.target]
		case fromConstant:
			args[i] = s.lit
		}
	}
	return args
}

// checkInputs checks count, kinds, dtypes, ranks and static sizes, binds
// the symbols the actual sizes determine and checks each against its
// range, and checks the sizes they do not determine as units (sym.Binder),
// before anything runs. It returns the bindings.
func (p *Program) checkInputs(inputs []value.Value) (sym.Bindings, error) {
	if len(inputs) != len(p.users) {
		return nil, &InputError{Msg: fmt.Sprintf("the program takes %d user inputs %v, got %d", len(p.users), p.Inputs(), len(inputs))}
	}
	b := sym.NewBinder(p.ranges)
	for i, u := range p.users {
		v := inputs[i]
		if u.constant != nil {
			if !sameConstant(v, *u.constant) {
				got := v.Describe()
				if v.IsScalar() {
					got = v.String()
				}
				return nil, &InputError{Input: u.name, Msg: fmt.Sprintf("is %s, but the program takes only %s = %s here (a constant input: it was exported or specialized with that value)", got, u.name, u.constant.String())}
			}
			continue
		}
		switch u.typ {
		case ir.ValueTensor:
			t, err := v.AsTensor()
			if err != nil {
				return nil, &InputError{Input: u.name, Msg: fmt.Sprintf("want a tensor %s, got %s", annotation(u.meta), v.Kind())}
			}
			if want := tensor.DType(u.meta.DType); t.DType() != want {
				return nil, &InputError{Input: u.name, Msg: fmt.Sprintf("dtype is %s, want %s", t.DType(), want)}
			}
			if t.Dim() != len(u.dims) {
				return nil, &InputError{Input: u.name, Msg: fmt.Sprintf("has %d dims %v, want %d (%s)", t.Dim(), t.Sizes(), len(u.dims), annotation(u.meta))}
			}
			for d, e := range u.dims {
				actual := int64(t.Size(d))
				if e == nil {
					if want := u.meta.Sizes[d].Int; actual != want {
						return nil, &InputError{Input: u.name, Msg: fmt.Sprintf("dim %d is %d, want %d (%s)", d, actual, want, annotation(u.meta))}
					}
					continue
				}
				if err := b.Bind(e, actual, u.where[d]); err != nil {
					return nil, &InputError{Input: u.name, Msg: err.Error()}
				}
			}
		case ir.ValueSymInt:
			n, err := v.AsInt()
			if err != nil {
				return nil, &InputError{Input: u.name, Msg: fmt.Sprintf("want an int (SymInt), got %s", v.Kind())}
			}
			if u.expr != nil {
				if err := b.Bind(u.expr, n, "input "+u.name); err != nil {
					return nil, &InputError{Input: u.name, Msg: err.Error()}
				}
			}
		case ir.ValueSymFloat:
			if v.Kind() != value.Double && v.Kind() != value.Int {
				return nil, &InputError{Input: u.name, Msg: fmt.Sprintf("want a float (SymFloat), got %s", v.Kind())}
			}
		case ir.ValueSymBool:
			if v.Kind() != value.Bool {
				return nil, &InputError{Input: u.name, Msg: fmt.Sprintf("want a bool (SymBool), got %s", v.Kind())}
			}
		}
	}
	bind, err := b.Finish()
	if err != nil {
		return nil, &InputError{Msg: err.Error()}
	}
	return bind, nil
}

// sameConstant: the value a caller passed is the constant, of its kind.
func sameConstant(v, c value.Value) bool {
	if v.Kind() != c.Kind() {
		return false
	}
	switch c.Kind() {
	case value.Int:
		return v.Int() == c.Int()
	case value.Double:
		return v.Double() == c.Double()
	case value.Bool:
		return v.Bool() == c.Bool()
	case value.String:
		return v.Str() == c.Str()
	}
	return c.IsNone()
}

// annotation prints a tensor's type as print_readable() does: f32[3, s27].
func annotation(m *ir.TensorMeta) string { return (&irtext.Printer{}).TensorAnnotation(m) }
