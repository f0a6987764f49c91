package ir

import (
	"slices"
	"testing"
)

// TestDefUse: producers (-1 for graph inputs), users ascending and each
// once however often a node uses a value, graph-output uses, and nothing
// for a value nothing defines.
func TestDefUse(t *testing.T) {
	g := &Graph{
		Inputs: []Argument{TensorArg("x"), {Kind: ArgInt, Int: 3}},
		Nodes: []*Node{
			{Name: "a", Inputs: []NamedArgument{{Arg: TensorArg("x")}, {Arg: TensorArg("x")}}, Outputs: []Argument{TensorArg("a")}},
			{Name: "b", Inputs: []NamedArgument{{Arg: Argument{Kind: ArgTensors, List: []Argument{TensorArg("a"), TensorArg("x")}}}}, Outputs: []Argument{TensorArg("b"), TensorArg("b2")}},
			{Name: "c", Inputs: []NamedArgument{{Arg: TensorArg("a")}, {Arg: TensorArg("ghost")}}, Outputs: []Argument{TensorArg("c")}},
		},
		Outputs: []Argument{TensorArg("c"), TensorArg("x")},
	}
	du := g.DefUse()
	for v, want := range map[string]int{"x": -1, "a": 0, "b": 1, "b2": 1, "c": 2} {
		if got, ok := du.Producer(v); !ok || got != want {
			t.Errorf("producer of %s: %d, %v; want %d", v, got, ok, want)
		}
	}
	if _, ok := du.Producer("ghost"); ok {
		t.Error("a value nothing defines has a producer")
	}
	for v, want := range map[string][]int{"x": {0, 1}, "a": {1, 2}, "b": nil, "ghost": {2}, "c": nil} {
		if got := du.Users(v); !slices.Equal(got, want) {
			t.Errorf("users of %s: %v, want %v", v, got, want)
		}
	}
	for v, want := range map[string]bool{"c": true, "x": true, "a": false, "b2": false} {
		if du.IsOutput(v) != want {
			t.Errorf("%s used by the outputs: %v, want %v", v, !want, want)
		}
	}
}

func TestPaths(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{PathName("", "add"), "add"},
		{PathName("cond.true_graph_0", "add"), "cond.true_graph_0.add"},
		{SubgraphPath("", "cond", "true_graph_0"), "cond.true_graph_0"},
		{SubgraphPath("cond.true_graph_0", "cond_1", "false_graph_0"), "cond.true_graph_0.cond_1.false_graph_0"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}
