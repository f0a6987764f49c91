package backend_test

import (
	"fmt"
	"testing"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/ir"
)

// TestSupportsIndexed: judging a node from the def-use index gives the
// verdict judging it from its arguments gives, for every node of every
// fixture graph (nested ones too) and profiles that refuse by op, dtype,
// dynamic shape and name. One IndexedJudge judges all of a graph's nodes,
// as a partitioner's request does, so a value's remembered verdict serves
// every node using it.
func TestSupportsIndexed(t *testing.T) {
	var profs []*backend.Profile
	for _, name := range []string{"tensor-only", "static-shapes", "matmul-only"} {
		p, ok := backend.Builtin(name)
		if !ok {
			t.Fatalf("no built-in profile %s", name)
		}
		profs = append(profs, p)
	}
	strict, err := backend.Parse([]byte(`{"name": "strict", "ops": {"include": ["aten.*"], "exclude": ["aten.view*"]},
 "exclude_nodes": ["relu"], "dtypes": ["f32"]}`))
	if err != nil {
		t.Fatal(err)
	}
	profs = append(profs, strict)
	nodes, refused := 0, 0
	for _, model := range fixtures.Models() {
		p := fixtures.Load(t, fixtures.Model(model))
		_ = p.Graph.Walk(func(path string, g *ir.Graph) error {
			du := g.DefUse()
			judges := make([]*backend.IndexedJudge, len(profs))
			for k, prof := range profs {
				judges[k] = prof.Indexed(g, du)
			}
			for i, n := range g.Nodes {
				for k, prof := range profs {
					want := prof.Supports(g, n)
					if got := judges[k].Supports(i); got != want {
						t.Errorf("%s %s for %s: indexed %v, from the arguments %v", model, ir.PathName(path, n.Name), prof.Name, got, want)
					}
					if got := prof.SupportsIndexed(g, du, i); got != want {
						t.Errorf("%s %s for %s: SupportsIndexed %v, from the arguments %v", model, ir.PathName(path, n.Name), prof.Name, got, want)
					}
					nodes++
					if !want.OK() {
						refused++
					}
				}
			}
			return nil
		})
	}
	if nodes < 1000 || refused == 0 || refused == nodes {
		t.Errorf("%d verdicts, %d refusals: the fixtures did not exercise both", nodes, refused)
	}
}

// TestIndexedNestedDelegate: a cond whose branch calls a lowered module
// stays in the parent when judged from the index too (the index, not the
// node's arguments, says the node has graphs).
func TestIndexedNestedDelegate(t *testing.T) {
	call := &ir.Node{Name: "call", Target: ir.DelegateTarget,
		Inputs:  []ir.NamedArgument{{Arg: ir.StringArg("lowered_module_0")}, {Arg: ir.TensorArg("x")}},
		Outputs: []ir.Argument{ir.TensorArg("y")}}
	branch := &ir.Graph{Inputs: []ir.Argument{ir.TensorArg("x")}, Nodes: []*ir.Node{call}, Outputs: []ir.Argument{ir.TensorArg("y")}}
	cond := &ir.Node{Name: "cond", Target: "torch.ops.higher_order.cond",
		Inputs: []ir.NamedArgument{{Arg: ir.TensorArg("p")},
			{Arg: ir.GraphArg(&ir.GraphArgument{Name: "true_graph_0", Graph: branch})},
			{Arg: ir.GraphArg(&ir.GraphArgument{Name: "false_graph_0", Graph: branch})}},
		Outputs: []ir.Argument{ir.TensorArg("c")}}
	g := &ir.Graph{Inputs: []ir.Argument{ir.TensorArg("p")}, Nodes: []*ir.Node{cond}, Outputs: []ir.Argument{ir.TensorArg("c")}}
	prof, _ := backend.Builtin("tensor-only")
	want := prof.Supports(g, cond)
	if want.Reason != backend.Delegated {
		t.Fatalf("from the arguments: %v, want delegated already", want)
	}
	if got := prof.Indexed(g, g.DefUse()).Supports(0); got != want {
		t.Errorf("indexed %v, from the arguments %v", got, want)
	}
}

// TestSupportsIndexedLarge: on a graph with more tensors than the judge
// checks at once, a refused dtype or symbolic size anywhere (on a value a
// node uses, or on one no node uses) gives the verdicts judging each node
// from its arguments gives, and a graph of accepted tensors is accepted
// whole.
func TestSupportsIndexedLarge(t *testing.T) {
	strict, err := backend.Parse([]byte(`{"name": "strict", "ops": {"include": ["aten.*"]}, "dtypes": ["f32"]}`))
	if err != nil {
		t.Fatal(err)
	}
	static, _ := backend.Builtin("static-shapes")
	const n = 700
	chain := func() *ir.Graph {
		g := &ir.Graph{Inputs: []ir.Argument{ir.TensorArg("v0")}, TensorValues: map[string]*ir.TensorMeta{}}
		for i := 0; i <= n; i++ {
			g.TensorValues[fmt.Sprint("v", i)] = &ir.TensorMeta{DType: ir.Float32, Sizes: []ir.SymInt{ir.IntSym(4)}}
		}
		for i := 1; i <= n; i++ {
			g.Nodes = append(g.Nodes, &ir.Node{Name: fmt.Sprint("relu", i), Target: "torch.ops.aten.relu.default",
				Inputs: []ir.NamedArgument{{Name: "self", Arg: ir.TensorArg(fmt.Sprint("v", i-1))}}, Outputs: []ir.Argument{ir.TensorArg(fmt.Sprint("v", i))}})
		}
		g.Outputs = []ir.Argument{ir.TensorArg(fmt.Sprint("v", n))}
		return g
	}
	for _, bad := range []string{"", "v0", "v300", fmt.Sprint("v", n), "unused"} {
		for _, prof := range []*backend.Profile{strict, static} {
			g := chain()
			if bad != "" {
				m := &ir.TensorMeta{DType: ir.Float32, Sizes: []ir.SymInt{ir.IntSym(4)}}
				if prof == strict {
					m.DType = ir.Float64
				} else {
					m.Sizes = []ir.SymInt{ir.ExprSym("s0")}
				}
				g.TensorValues[bad] = m
			}
			judge := prof.Indexed(g, g.DefUse())
			refused := 0
			for i, nd := range g.Nodes {
				want := prof.Supports(g, nd)
				if got := judge.Supports(i); got != want {
					t.Errorf("%s, %s refused: %s: indexed %v, from the arguments %v", prof.Name, bad, nd.Name, got, want)
				}
				if !want.OK() {
					refused++
				}
			}
			if wantRefused := map[string]int{"": 0, "unused": 0, "v0": 1, fmt.Sprint("v", n): 1}[bad]; bad != "v300" && refused != wantRefused || bad == "v300" && refused != 2 {
				t.Errorf("%s, %s refused: %d nodes refused", prof.Name, bad, refused)
			}
		}
	}
}
