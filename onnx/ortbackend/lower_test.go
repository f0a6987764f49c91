package ortbackend_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/lower"
	"github.com/seam-rt/seam/onnx/ort/orttest"
	"github.com/seam-rt/seam/onnx/ortbackend"
	"github.com/seam-rt/seam/pt2"
	"github.com/seam-rt/seam/runtime"
	"github.com/seam-rt/seam/verify"
)

// countNodes counts a graph's nodes, nested graphs included.
func countNodes(g *ir.Graph) int {
	n := 0
	_ = g.Walk(func(_ string, g *ir.Graph) error { n += len(g.Nodes); return nil })
	return n
}

// TestLoweredRunsInORT lowers every fixture for onnxruntime, writes and
// reopens the archive, checks every module's inputs against the contract
// (tensors only: no SymInt reaches ONNX Runtime), and runs every case
// through the delegates, comparing with PyTorch.
func TestLoweredRunsInORT(t *testing.T) {
	orttest.Library(t)
	prof, ok := backend.Builtin(ortbackend.Name)
	if !ok {
		t.Fatal("onnxruntime is not a built-in backend")
	}
	for _, f := range allFixtures() {
		t.Run(f.name, func(t *testing.T) {
			p := loadProgram(t, f.dir)
			res, err := lower.Lower(p, prof, lower.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Modules) == 0 {
				t.Fatal("no lowered module")
			}
			delegated := 0
			for _, m := range res.Modules {
				delegated += len(m.Nodes)
				for _, s := range m.Program.UserInputs() {
					if typ := m.Program.Graph.TypeOf(s.Arg.Name); typ != ir.ValueTensor {
						t.Errorf("module %s takes %s, a %s", m.Name, s.Arg.Name, typ)
					}
				}
			}
			t.Logf("%s: %d of %d nodes delegated in %d modules", f.name, delegated, countNodes(p.Graph), len(res.Modules))
			path := filepath.Join(t.TempDir(), "lowered.pt2")
			if err := pt2.WriteFile(path, res.Archive()); err != nil {
				t.Fatal(err)
			}
			a, err := pt2.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			for _, v := range verify.Archive(a) {
				if !v.Warning {
					t.Errorf("verify: %v", v)
				}
			}
			prog, err := runtime.LoadArchive(a)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range loadCases(t, f.dir) {
				outs, err := prog.Run(context.Background(), c.inputs)
				if err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				checkOutputs(t, c.name, outs, c.outputs)
			}
		})
	}
}
