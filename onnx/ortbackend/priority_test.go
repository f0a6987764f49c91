package ortbackend_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/delegate"
	"github.com/seam-rt/seam/inspect"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/lower"
	"github.com/seam-rt/seam/onnx/ort/orttest"
	"github.com/seam-rt/seam/onnx/ortbackend"
	"github.com/seam-rt/seam/runtime"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
	"github.com/seam-rt/seam/verify"
)

// watched wraps the onnxruntime compiler, recording every value a call
// hands ONNX Runtime.
type watched struct {
	backend.Preprocessor
	backend.Compiler
	mu    sync.Mutex
	kinds map[value.Kind]int
}

func (w *watched) Load(m *ir.Program, blob []byte, opt map[string]string) (backend.Executable, error) {
	exe, err := w.Preprocessor.Load(m, blob, opt)
	if err != nil {
		return nil, err
	}
	return &watchedExe{exe, w}, nil
}

type watchedExe struct {
	backend.Executable
	w *watched
}

func (e *watchedExe) Execute(ctx context.Context, in []value.Value) ([]value.Value, error) {
	e.w.mu.Lock()
	for _, v := range in {
		e.w.kinds[v.Kind()]++
	}
	e.w.mu.Unlock()
	return e.Executable.Execute(ctx, in)
}

// watchORT replaces the onnxruntime compiler for the test's length.
func watchORT(t *testing.T) *watched {
	c, _ := backend.CompilerFor(ortbackend.Name)
	pre, _ := backend.PreprocessorFor(ortbackend.Name)
	w := &watched{Preprocessor: pre, Compiler: c, kinds: map[value.Kind]int{}}
	backend.Register(ortbackend.Name, w)
	t.Cleanup(func() { backend.Register(ortbackend.Name, c) })
	return w
}

// TestPriorityList lowers every fixture for onnxruntime alone and for
// onnxruntime,reference (ONNX Runtime first, seam's reference backend for
// what remains), writes and reopens the archive, verifies it (each module
// against its own backend's contract), and runs every case, comparing
// with PyTorch. Every value handed to ONNX Runtime at run time is a
// tensor: no SymInt (or other scalar) reaches it.
func TestPriorityList(t *testing.T) {
	orttest.Library(t)
	w := watchORT(t)
	for _, list := range []string{"onnxruntime", "onnxruntime,reference"} {
		profs, err := backend.ResolveList(list)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range allFixtures() {
			t.Run(list+"/"+f.name, func(t *testing.T) {
				p := loadProgram(t, f.dir)
				res, err := delegate.Backends(p, profs, delegate.Options{})
				if err != nil {
					t.Fatal(err)
				}
				rep := res.Report(inspect.Options{}, list, lower.Auto)
				var share []string
				took := map[string]int{}
				for _, b := range rep.Backends {
					share = append(share, fmt.Sprintf("%s %d nodes in %d modules", b.Backend, b.Nodes, len(b.Modules)))
					took[b.Backend] = b.Nodes
				}
				t.Logf("%s of %d nodes: %s", list, countNodes(p.Graph), strings.Join(share, ", "))
				if took[ortbackend.Name] == 0 {
					t.Error("onnxruntime took nothing")
				}
				for _, m := range res.Modules {
					if m.Delegate.Backend != ortbackend.Name {
						continue
					}
					for _, s := range m.Program.UserInputs() {
						if typ := m.Program.Graph.TypeOf(s.Arg.Name); typ != ir.ValueTensor {
							t.Errorf("module %s takes %s, a %s", m.Name, s.Arg.Name, typ)
						}
					}
				}
				runArchived(t, res.Lowered, f.dir)
			})
		}
	}
	if w.kinds[value.Tensor] == 0 {
		t.Error("no call reached ONNX Runtime")
	}
	for k, n := range w.kinds {
		if k != value.Tensor {
			t.Errorf("%d values of kind %s reached ONNX Runtime", n, k)
		}
	}
}

// chain is a program applying unary ops in turn to an f32[4, 3] input.
func chain(ops ...string) *ir.Program {
	g := &ir.Graph{TensorValues: map[string]*ir.TensorMeta{}, SymIntValues: map[string]ir.SymInt{},
		SymFloatValues: map[string]ir.SymFloat{}, SymBoolValues: map[string]ir.SymBool{}}
	meta := func() *ir.TensorMeta {
		return &ir.TensorMeta{DType: ir.Float32, Sizes: []ir.SymInt{ir.IntSym(4), ir.IntSym(3)},
			Strides: []ir.SymInt{ir.IntSym(3), ir.IntSym(1)}, StorageOffset: ir.IntSym(0)}
	}
	p := &ir.Program{Graph: g, SchemaVersion: ir.CurrentSchema}
	g.TensorValues["x"] = meta()
	g.Inputs = []ir.Argument{ir.TensorArg("x")}
	p.Signature.Inputs = []ir.InputSpec{{Kind: ir.InputUser, Arg: ir.TensorArg("x")}}
	prev := "x"
	for i, op := range ops {
		name := fmt.Sprintf("%s_%d", strings.Split(op, ".")[1], i)
		g.TensorValues[name] = meta()
		g.Nodes = append(g.Nodes, &ir.Node{Name: name, Target: "torch.ops." + op,
			Inputs:  []ir.NamedArgument{{Name: "self", Arg: ir.TensorArg(prev)}},
			Outputs: []ir.Argument{ir.TensorArg(name)}})
		prev = name
	}
	g.Outputs = []ir.Argument{ir.TensorArg(prev)}
	p.Signature.Outputs = []ir.OutputSpec{{Kind: ir.OutputUser, Arg: ir.TensorArg(prev)}}
	return p
}

// TestPriorityListTakesTheRest: in a program with a node onnxruntime
// refuses (aten.trunc has no translation), reference takes it and
// onnxruntime the rest, in three modules; the report says which backend
// took which node, and the mixed program computes what the program does.
func TestPriorityListTakesTheRest(t *testing.T) {
	orttest.Library(t)
	p := chain("aten.relu.default", "aten.tanh.default", "aten.trunc.default", "aten.neg.default")
	if vs := verify.Errors(verify.Program(p, verify.Options{})); len(vs) > 0 {
		t.Fatalf("the test's program does not verify: %v", vs)
	}
	profs, err := backend.ResolveList("onnxruntime,reference")
	if err != nil {
		t.Fatal(err)
	}
	res, err := delegate.Backends(p, profs, delegate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]string{}
	for _, m := range res.Modules {
		for _, n := range m.Nodes {
			by[n] = m.Delegate.Backend
		}
	}
	want := map[string]string{"relu_0": "onnxruntime", "tanh_1": "onnxruntime", "trunc_2": "reference", "neg_3": "onnxruntime"}
	for n, b := range want {
		if by[n] != b {
			t.Errorf("%s went to %q, want %s", n, by[n], b)
		}
	}
	if len(res.Modules) != 3 {
		t.Errorf("%d modules, want 3", len(res.Modules))
	}
	rep := res.Report(inspect.Options{}, "onnxruntime,reference", lower.Auto)
	text := &strings.Builder{}
	if err := rep.WriteText(text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"onnxruntime:  3 nodes in 2 modules", "reference:    1 nodes in 1 modules", "(onnxruntime)", "(reference)"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the report does not say %q:\n%s", want, text)
		}
	}
	l, _ := writeAndRead(t, res.Lowered)
	if vs := verify.Errors(verify.Lowered(l)); len(vs) > 0 {
		t.Fatalf("verify: %v", vs)
	}
	// No input whose tanh is within an ulp of 1: float32 tanh(9) rounds to
	// 1-2^-24 (so trunc gives 0), but ONNX Runtime's AVX-512 tanh gives
	// 1, and trunc turns that ulp into a whole unit. tanh(20) is 1 for all.
	x, _ := tensor.FromSlice([]float32{-2.5, -1, 0, 0.3, 1.7, 2.2, 3, -0.4, 20, -7, 0.99, 5}, 4, 3)
	in := []value.Value{value.FromTensor(x)}
	orig, err := runtime.Load(p, runtime.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := orig.Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := runtime.LoadLowered(l, runtime.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := prog.Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	checkOutputs(t, "chain", got, []*tensor.Tensor{ref[0].Tensor()})
}
