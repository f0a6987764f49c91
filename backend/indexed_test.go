package backend_test

import (
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
