package runtime

import (
	"context"
	"fmt"
	"time"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/value"
)

// delegateCall is a compiled delegate call: the module, the backend that
// runs it, and the contract every argument is checked against.
type delegateCall struct {
	module  string
	backend string
	exe     backend.Executable
	profile *backend.Profile
	// params describes the module's user inputs in order.
	params []param
}

type param struct {
	name string
	typ  ir.ValueType
	meta *ir.TensorMeta
}

func init() {
	// The built-in profiles run on seam's own kernels: each lowered module
	// is loaded as a program of its own. A built-in that brought its own
	// compiler (onnxruntime) keeps it.
	for _, name := range backend.BuiltinNames() {
		if _, ok := backend.CompilerFor(name); !ok {
			backend.Register(name, kernelCompiler)
		}
	}
}

// kernelCompiler runs a lowered module with seam's CPU kernels. The
// loader knows it by its type: a module it compiles runs with the parent
// program's Threads and Disable, as the parent's own nodes would.
var kernelCompiler backend.Compiler = kernelBackend{}

type kernelBackend struct{}

func (kernelBackend) Compile(m *ir.Program, _ map[string]string) (backend.Executable, error) {
	return Load(m, Options{})
}

// delegate compiles the module a delegate call names, with the backend
// its delegate record names. A backend without a registered compiler (one
// described only by a profile file) runs on seam's kernels, still under its
// declared contract.
func (l *Loader) delegate(n *ir.Node) (*delegateCall, error) {
	name, ok := n.DelegateModule()
	if !ok {
		return nil, fmt.Errorf("delegate call without a module name")
	}
	if call, ok := l.compiled[name]; ok {
		if got := len(n.Inputs) - 1; got != len(call.params) {
			return nil, fmt.Errorf("delegate call passes %d arguments to %s, which takes %d", got, name, len(call.params))
		}
		l.calls = append(l.calls, call)
		return call, nil
	}
	lm, ok := l.modules[name]
	if !ok {
		return nil, fmt.Errorf("delegate call to %s, which this program does not have", name)
	}
	m, d := lm.Program, lm.Delegate
	if d == nil {
		return nil, fmt.Errorf("module %s has no delegate record (data/delegates/%s.json)", name, name)
	}
	call := &delegateCall{module: name, backend: d.Backend}
	prof, err := l.contract(name, d)
	if err != nil {
		return nil, err
	}
	call.profile = prof
	exe, err := compile(name, m, d, l.opt)
	if err != nil {
		return nil, err
	}
	call.exe = exe
	g := m.Graph
	for i, s := range m.Signature.Inputs {
		if s.Kind != ir.InputUser || i >= len(g.Inputs) {
			continue
		}
		pn := g.Inputs[i].Name
		call.params = append(call.params, param{name: pn, typ: g.TypeOf(pn), meta: g.TensorValues[pn]})
	}
	if got := len(n.Inputs) - 1; got != len(call.params) {
		return nil, fmt.Errorf("delegate call passes %d arguments to %s, which takes %d", got, name, len(call.params))
	}
	l.calls = append(l.calls, call)
	if l.compiled != nil {
		l.compiled[name] = call
	}
	return call, nil
}

// compile makes an executable of a module with its backend: from the
// compiled form lowering stored, for a backend that compiles at lowering
// time (backend.Preprocessor), else from the module's program. A module
// that runs on seam's kernels gets opt's Threads and passes.
func compile(name string, m *ir.Program, d *ir.Delegate, opt Options) (backend.Executable, error) {
	if pre, ok := backend.PreprocessorFor(d.Backend); ok {
		if d.Compiled == nil {
			return nil, fmt.Errorf("module %s has no compiled form (data/delegates/%s.bin), which backend %s compiles when lowering and needs to run it: lower the program again", name, name, d.Backend)
		}
		blob, err := d.ReadCompiled()
		if err != nil {
			return nil, fmt.Errorf("module %s: reading its compiled form: %w", name, err)
		}
		exe, err := pre.Load(m, blob, d.CompileOptions)
		if err != nil {
			return nil, fmt.Errorf("backend %s loading %s: %w", d.Backend, name, err)
		}
		return exe, nil
	}
	comp, ok := backend.CompilerFor(d.Backend)
	if _, kernels := comp.(kernelBackend); !ok || kernels {
		comp = backend.CompilerFunc(func(m *ir.Program, _ map[string]string) (backend.Executable, error) {
			return Load(m, Options{Threads: opt.Threads, FixedThreads: opt.FixedThreads, Disable: opt.Disable})
		})
	}
	exe, err := comp.Compile(m, d.CompileOptions)
	if err != nil {
		return nil, fmt.Errorf("backend %s compiling %s: %w", d.Backend, name, err)
	}
	return exe, nil
}

// check refuses, before the backend runs, any argument its contract does
// not accept: a symbolic value for a backend that refuses it, a boxed
// scalar or tensor of a dtype it refuses, a dynamic size for a
// static-shape backend.
func (c *delegateCall) check(args []value.Value) error {
	prof := c.profile
	fail := func(p param, format string, a ...any) error {
		return &backend.ContractError{Backend: c.backend, Module: c.module, Input: p.name, Msg: fmt.Sprintf(format, a...)}
	}
	for i, p := range c.params {
		v := args[i]
		switch p.typ {
		case ir.ValueSymInt, ir.ValueSymBool, ir.ValueSymFloat:
			if acc := prof.Placeholders.For(p.typ); acc != backend.Scalar {
				return fail(p, "a %s (%s) reaches a backend whose contract says %s: %s", p.typ, v, p.typ, acc)
			}
			want := map[ir.ValueType]value.Kind{ir.ValueSymInt: value.Int, ir.ValueSymBool: value.Bool, ir.ValueSymFloat: value.Double}[p.typ]
			if v.Kind() != want {
				return fail(p, "the module takes a %s, given %s", p.typ, v.Kind())
			}
		case ir.ValueTensor:
			t, err := v.AsTensor()
			if err != nil {
				return fail(p, "the module takes a tensor, given %s", v.Kind())
			}
			dt := ir.ScalarType(t.DType())
			if !prof.AcceptsTensor(dt, t.Dim()) {
				return fail(p, "a %s tensor, which %s refuses (dtypes %v)", dt.Short(), c.backend, prof.DTypes)
			}
			if p.meta != nil && ir.ScalarType(t.DType()) != p.meta.DType {
				return fail(p, "a %s tensor where the module takes %s", dt.Short(), p.meta.DType.Short())
			}
			if p.meta != nil && t.Dim() != len(p.meta.Sizes) {
				return fail(p, "a tensor of %d dims where the module takes %d", t.Dim(), len(p.meta.Sizes))
			}
			if !prof.DynamicShapes {
				if p.meta == nil || !p.meta.IsStatic() {
					return fail(p, "a tensor with a dynamic size, which the static-shape backend %s refuses", c.backend)
				}
				for d, s := range p.meta.Sizes {
					if int64(t.Size(d)) != s.Int {
						return fail(p, "dim %d is %d; %s compiled it as %d", d, t.Size(d), c.backend, s.Int)
					}
				}
			}
		}
	}
	return nil
}

func (f *frame) delegate(ctx context.Context, s *step, args []value.Value) ([]value.Value, error) {
	c := s.call
	if err := c.check(args); err != nil {
		return nil, err
	}
	// The backend may keep what it is given; hand it its own slice.
	in := append([]value.Value(nil), args...)
	start := time.Now()
	out, err := c.exe.Execute(ctx, in)
	if f.timing != nil {
		t := f.timing[c.module]
		if t == nil {
			t = &DelegateTime{Module: c.module, Backend: c.backend}
			f.timing[c.module] = t
		}
		t.Calls++
		t.Nanos += time.Since(start).Nanoseconds()
	}
	if err != nil {
		return nil, fmt.Errorf("backend %s running %s: %w", c.backend, c.module, err)
	}
	return out, nil
}
