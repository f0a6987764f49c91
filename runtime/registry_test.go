package runtime_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/delegate"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/lower"
	"github.com/seam-rt/seam/pt2"
	"github.com/seam-rt/seam/runtime"
	"github.com/seam-rt/seam/value"
)

// countingBackend is a user's own backend: it runs modules with seam's
// kernels and counts the calls and what they received.
type countingBackend struct {
	calls   atomic.Int64
	symbols atomic.Int64
}

func (b *countingBackend) Compile(m *ir.Program, opts map[string]string) (backend.Executable, error) {
	if opts["precision"] != "fp32" {
		return nil, errors.New("compile options did not arrive")
	}
	p, err := runtime.Load(m, runtime.Options{})
	if err != nil {
		return nil, err
	}
	return executable(func(ctx context.Context, in []value.Value) ([]value.Value, error) {
		b.calls.Add(1)
		for _, v := range in {
			if v.Kind() == value.Int {
				b.symbols.Add(1)
			}
		}
		return p.Run(ctx, in)
	}), nil
}

type executable func(context.Context, []value.Value) ([]value.Value, error)

func (f executable) Execute(ctx context.Context, in []value.Value) ([]value.Value, error) {
	return f(ctx, in)
}

// TestUserBackend: a backend registered under its profile's name compiles
// and runs the modules lowered for it, receiving what its contract says.
func TestUserBackend(t *testing.T) {
	prof, err := backend.Parse([]byte(`{"name": "counting-npu", "ops": {"include": ["aten.*"], "exclude": ["aten.embedding*", "aten.index*", "aten.sym_*"]},
		"placeholders": {"sym_int": "int"}, "compile_options": {"precision": "fp32"}}`))
	if err != nil {
		t.Fatal(err)
	}
	nb := &countingBackend{}
	backend.Register("counting-npu", nb)
	a, _ := pt2.Open(fixtureModel("gpt2_tiny"))
	defer a.Close()
	p, _ := a.Program()
	res, err := delegate.Program(p, prof, delegate.Options{Policy: lower.Hoist})
	if err != nil {
		t.Fatal(err)
	}
	prog, err := runtime.LoadLowered(res.Lowered, runtime.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := loadCases(t, "gpt2_tiny")[1]
	outs, err := prog.Run(context.Background(), c.Inputs)
	if err != nil {
		t.Fatal(err)
	}
	checkOutputs(t, "counting-npu", outs, c.Outputs)
	if nb.calls.Load() != int64(len(res.Modules)) {
		t.Errorf("the backend ran %d times for %d modules", nb.calls.Load(), len(res.Modules))
	}
	if nb.symbols.Load() == 0 {
		t.Error("the backend accepts sym_int scalars but received none (hoist could not take sym_size_int_24 across)")
	}
}

// TestMissingKernelsReportedAtOnce: a program with ops seam cannot run is
// refused at load, naming every such op.
func TestMissingKernelsReportedAtOnce(t *testing.T) {
	a, _ := pt2.Open(fixtureModel("mlp"))
	defer a.Close()
	p, _ := a.Program()
	p = p.Clone()
	p.Graph.Nodes[0].Target = "torch.ops.aten.frobnicate.default"
	p.Graph.Nodes[len(p.Graph.Nodes)-1].Target = "torch.ops.aten.defrobnicate.default"
	_, err := runtime.Load(p, runtime.Options{})
	var mk *runtime.MissingKernelsError
	if !errors.As(err, &mk) || len(mk.Targets) != 2 || !strings.Contains(err.Error(), "aten.frobnicate.default") ||
		!strings.Contains(err.Error(), "aten.defrobnicate.default") {
		t.Errorf("%v, want both ops named", err)
	}
}
