package ortbackend_test

import (
	"strings"
	"testing"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/delegate"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/onnx"
	"github.com/seam-rt/seam/onnx/ort/orttest"
	"github.com/seam-rt/seam/onnx/ortbackend"
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
			res, err := delegate.Program(p, prof, delegate.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Modules) == 0 {
				t.Fatal("no lowered module")
			}
			// A delegated cond takes its branches' nodes with it.
			size := map[string]int{}
			for _, n := range p.Graph.Nodes {
				size[n.Name] = 1
				for _, sub := range n.SubGraphs() {
					size[n.Name] += countNodes(sub.Graph)
				}
			}
			delegated := 0
			for _, m := range res.Modules {
				for _, n := range m.Nodes {
					if m.Graph == "" {
						delegated += size[n]
					} else {
						delegated++
					}
				}
				for _, s := range m.Program.UserInputs() {
					if typ := m.Program.Graph.TypeOf(s.Arg.Name); typ != ir.ValueTensor {
						t.Errorf("module %s takes %s, a %s", m.Name, s.Arg.Name, typ)
					}
				}
			}
			t.Logf("%s: %d of %d nodes delegated in %d modules", f.name, delegated, countNodes(p.Graph), len(res.Modules))
			if f.name == "cond" {
				// The cond goes to ONNX Runtime whole, as an If.
				blob, err := ortbackend.Translate(res.Modules[0].Program)
				if err != nil {
					t.Fatal(err)
				}
				m, err := onnx.Unmarshal(blob)
				if err != nil {
					t.Fatal(err)
				}
				ifs := 0
				for _, n := range m.Graph.Nodes {
					if n.OpType == "If" {
						ifs++
					}
				}
				if ifs != 1 || len(res.Modules) != 1 {
					t.Errorf("%d modules, %d If nodes; want the cond in one module as an If", len(res.Modules), ifs)
				}
			}
			runArchived(t, res.Lowered, f.dir)
		})
	}
}

// TestContractRefusesWhatDoesNotTranslate: the contract takes a node only
// when its arguments translate, so lowering leaves the others to seam
// instead of failing when the module compiles.
func TestContractRefusesWhatDoesNotTranslate(t *testing.T) {
	prof, _ := backend.Builtin(ortbackend.Name)
	for _, c := range []struct {
		c    opCase
		want string // "" for supported
	}{
		{opCase{target: "aten.index.Tensor", args: []a{{"self", randn(4, 3)}, {"indices", optTensors{ints(0, 4, 2)}}}}, ""},
		{opCase{target: "aten.index.Tensor", args: []a{{"self", randn(4, 3)}, {"indices", optTensors{bools(4)}}}}, "boolean mask"},
		{opCase{target: "aten.dropout.default", args: []a{{"input", randn(4)}, {"p", 0.5}, {"train", true}}}, "training"},
		{opCase{target: "aten.gelu.default", args: []a{{"self", randn(4)}, {"approximate", "erf?"}}}, "approximate"},
		{opCase{target: "aten.nonzero.default", args: []a{{"self", randn(4)}}}, "op not included"},
	} {
		p, _ := c.c.build()
		p.Graph.TensorValues["out_0"] = &ir.TensorMeta{DType: ir.Float32, Sizes: []ir.SymInt{ir.IntSym(2), ir.IntSym(3)}}
		v := prof.Supports(p.Graph, p.Graph.Nodes[0])
		switch {
		case c.want == "" && !v.OK():
			t.Errorf("%s: refused: %v", c.c.target, v)
		case c.want != "" && (v.OK() || !strings.Contains(v.String(), c.want)):
			t.Errorf("%s: verdict %v, want a refusal mentioning %q", c.c.target, v, c.want)
		}
	}
}
