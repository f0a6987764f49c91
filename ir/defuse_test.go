package ir

import (
	"fmt"
	"math/rand/v2"
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

// TestDefUseNumbers: the value numbers say what the string queries say,
// and each node's reads and definitions are its references, each read
// once, in the order the node visits them.
func TestDefUseNumbers(t *testing.T) {
	g := &Graph{
		Inputs: []Argument{TensorArg("x")},
		Nodes: []*Node{
			{Name: "a", Inputs: []NamedArgument{{Arg: TensorArg("x")}, {Arg: TensorArg("x")}}, Outputs: []Argument{TensorArg("a")}},
			{Name: "b", Inputs: []NamedArgument{{Arg: Argument{Kind: ArgTensors, List: []Argument{TensorArg("a"), TensorArg("x"), TensorArg("a")}}}}, Outputs: []Argument{TensorArg("b"), TensorArg("b2")}},
			{Name: "c", Inputs: []NamedArgument{{Arg: TensorArg("ghost")}, {Arg: TensorArg("b2")}}, Outputs: []Argument{TensorArg("c")}},
		},
		Outputs:       []Argument{TensorArg("c")},
		TensorValues:  map[string]*TensorMeta{"a": {DType: Float32}},
		SymIntValues:  map[string]SymInt{"b2": {}},
		SymBoolValues: map[string]SymBool{"c": {}},
	}
	du := g.DefUse()
	names := func(ids []ValueID) []string {
		var out []string
		for _, id := range ids {
			out = append(out, du.Value(id).Name)
		}
		return out
	}
	for i, c := range []struct{ reads, defines []string }{
		{[]string{"x"}, []string{"a"}},
		{[]string{"a", "x"}, []string{"b", "b2"}},
		{[]string{"ghost", "b2"}, []string{"c"}},
	} {
		if got := names(du.Reads(i)); !slices.Equal(got, c.reads) {
			t.Errorf("node %d reads %v, want %v", i, got, c.reads)
		}
		if got := names(du.Defines(i)); !slices.Equal(got, c.defines) {
			t.Errorf("node %d defines %v, want %v", i, got, c.defines)
		}
	}
	if du.Values() != 6 || du.ReadCount() != 5 {
		t.Errorf("%d values numbered, %d reads; want 6, 5", du.Values(), du.ReadCount())
	}
	for id := ValueID(0); int(id) < du.Values(); id++ {
		v := du.Value(id)
		p, ok := du.Producer(v.Name)
		if du.Tensor(id) != g.TensorValues[v.Name] || du.Type(id) != g.TypeOf(v.Name) {
			t.Errorf("value %s: tensor meta %v, type %v; the graph's %v, %v", v.Name, du.Tensor(id), du.Type(id), g.TensorValues[v.Name], g.TypeOf(v.Name))
		}
		if ok != v.Defined || (ok && p != v.Producer) || !slices.Equal(du.Users(v.Name), du.UsersOf(id)) || du.IsOutput(v.Name) != v.GraphOutput {
			t.Errorf("value %d (%s): %+v; by name: producer %d %v, users %v, output %v", id, v.Name, *v, p, ok, du.Users(v.Name), du.IsOutput(v.Name))
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

// TestDefUseManyNames: a graph naming many more values than it has nodes
// and inputs (reads of values nothing defines, nodes with many outputs)
// outgrows the name table the index starts with, and every name keeps
// its number.
func TestDefUseManyNames(t *testing.T) {
	var ins []NamedArgument
	var outs []Argument
	for i := 0; i < 300; i++ {
		ins = append(ins, NamedArgument{Arg: TensorArg(fmt.Sprintf("ghost_%d", i))})
		outs = append(outs, TensorArg(fmt.Sprintf("out_%d", i)))
	}
	g := &Graph{Nodes: []*Node{
		{Name: "a", Inputs: ins, Outputs: outs},
		{Name: "b", Inputs: []NamedArgument{{Arg: TensorArg("out_7")}, {Arg: TensorArg("ghost_299")}}, Outputs: []Argument{TensorArg("b")}},
	}}
	du := g.DefUse()
	if du.Values() != 601 {
		t.Fatalf("%d values numbered, want 601", du.Values())
	}
	for id := ValueID(0); int(id) < du.Values(); id++ {
		if got, ok := du.ID(du.Value(id).Name); !ok || got != id {
			t.Errorf("%s: number %d %v, want %d", du.Value(id).Name, got, ok, id)
		}
	}
	if p, ok := du.Producer("out_299"); !ok || p != 0 {
		t.Errorf("producer of out_299: %d %v", p, ok)
	}
	if u := du.Users("ghost_299"); !slices.Equal(u, []int{0, 1}) {
		t.Errorf("users of ghost_299: %v", u)
	}
	if _, ok := du.ID("out_300"); ok {
		t.Error("a name the graph does not have is numbered")
	}
}

// TestDefUseNests: the index says which nodes have graph arguments, as
// Node.SubGraphs does.
func TestDefUseNests(t *testing.T) {
	branch := &Graph{Nodes: []*Node{{Name: "s", Inputs: []NamedArgument{{Arg: TensorArg("x")}}, Outputs: []Argument{TensorArg("s")}}}}
	g := &Graph{Inputs: []Argument{TensorArg("x")}, Nodes: []*Node{
		{Name: "a", Inputs: []NamedArgument{{Arg: TensorArg("x")}}, Outputs: []Argument{TensorArg("a")}},
		{Name: "cond", Inputs: []NamedArgument{{Arg: TensorArg("a")}, {Arg: GraphArg(&GraphArgument{Name: "true_graph_0", Graph: branch})}}, Outputs: []Argument{TensorArg("c")}},
		{Name: "empty", Inputs: []NamedArgument{{Arg: Argument{Kind: ArgGraph}}}, Outputs: []Argument{TensorArg("e")}},
	}}
	du := g.DefUse()
	for i, n := range g.Nodes {
		if du.Nests(i) != (len(n.SubGraphs()) > 0) {
			t.Errorf("node %s: Nests %v, %d graphs", n.Name, du.Nests(i), len(n.SubGraphs()))
		}
	}
	if !du.Nests(1) {
		t.Error("the cond has no graph arguments")
	}
}

// TestDefUseEveryKind: whatever the kind of an argument, and whichever of
// its members are set, the index reads and defines what ForEachRef
// visits (the index reads one-name kinds itself, see refShapes).
func TestDefUseEveryKind(t *testing.T) {
	g := &Graph{}
	for k := range numArgKinds {
		i := int(k)
		arg := func(tag string) Argument {
			return Argument{Kind: k, Name: fmt.Sprintf("%s%d", tag, i), List: []Argument{TensorArg(fmt.Sprintf("%s%d_elem", tag, i))},
				Extra: &ArgExtra{Nested: [][]string{{fmt.Sprintf("%s%d_nested", tag, i)}},
					Map: map[string]Argument{"k": TensorArg(fmt.Sprintf("%s%d_mapped", tag, i))}}}
		}
		g.Nodes = append(g.Nodes, &Node{Name: fmt.Sprint("n", i),
			Inputs:  []NamedArgument{{Arg: arg("in")}, {Arg: Argument{Kind: k}}, {Arg: TensorArg("x")}},
			Outputs: []Argument{arg("out")}})
	}
	checkDefUse(t, 0, g)
}

// TestDefUseFarReads: a value read long after its definition, or before
// it, or defined twice, has one number whichever way the index found it
// (the last definitions are searched before the name table).
func TestDefUseFarReads(t *testing.T) {
	g := &Graph{Inputs: []Argument{TensorArg("x")}}
	prev := "x"
	for i := range 20 {
		name := fmt.Sprint("v", i)
		ins := []NamedArgument{{Arg: TensorArg(prev)}, {Arg: TensorArg("v0")}, {Arg: TensorArg("x")}, {Arg: TensorArg("later")}}
		g.Nodes = append(g.Nodes, &Node{Name: name, Inputs: ins, Outputs: []Argument{TensorArg(name)}})
		prev = name
	}
	g.Nodes = append(g.Nodes, &Node{Name: "later", Inputs: []NamedArgument{{Arg: TensorArg("v3")}}, Outputs: []Argument{TensorArg("later"), TensorArg("v5")}})
	du := g.DefUse()
	if du.Values() != 22 {
		t.Errorf("%d values numbered, want 22", du.Values())
	}
	want := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19}
	if u := du.Users("v0"); !slices.Equal(u, want) {
		t.Errorf("users of v0: %v, want %v", u, want)
	}
	if u := du.Users("v3"); !slices.Equal(u, []int{4, 20}) {
		t.Errorf("users of v3: %v", u)
	}
	if p, ok := du.Producer("later"); !ok || p != 20 || len(du.Users("later")) != 20 {
		t.Errorf("later: producer %d %v, %d users", p, ok, len(du.Users("later")))
	}
	if p, _ := du.Producer("v5"); p != 20 {
		t.Errorf("v5 defined again by node 20: producer %d", p)
	}
	for i := range g.Nodes {
		for _, id := range du.Reads(i) {
			if got, _ := du.ID(du.Value(id).Name); got != id {
				t.Errorf("node %d reads %s as %d, the table numbers it %d", i, du.Value(id).Name, id, got)
			}
		}
	}
}

// TestDefUseRandom checks the index against a plain reading of random
// graphs whose names repeat: values defined twice or by a node and as a
// graph input, read before their definition, never defined, read twice by
// one node, long after their definition, through lists.
func TestDefUseRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 300 {
		size := 1 + rng.IntN(60)
		if round%50 == 0 {
			size = 3000 // past the recent definitions, and the table's first size
		}
		names := size/2 + 1 + rng.IntN(size)
		name := func() string { return fmt.Sprint("v", rng.IntN(names)) }
		g := &Graph{}
		for range rng.IntN(4) {
			g.Inputs = append(g.Inputs, TensorArg(name()))
		}
		for i := range size {
			nd := &Node{Name: fmt.Sprint("n", i)}
			for range rng.IntN(4) {
				a := TensorArg(name())
				switch rng.IntN(5) {
				case 0:
					a = Argument{Kind: ArgTensors, List: []Argument{TensorArg(name()), TensorArg(name())}}
				case 1:
					a = Argument{Kind: ArgInt, Int: 3}
				case 2:
					a = TensorArg(fmt.Sprint("v", max(0, i-1-rng.IntN(30)))) // a recent value
				}
				nd.Inputs = append(nd.Inputs, NamedArgument{Arg: a})
			}
			outs := 1 + rng.IntN(2)
			if rng.IntN(3) > 0 {
				nd.Outputs = append(nd.Outputs, TensorArg(fmt.Sprint("v", i))) // mostly fresh names
				outs--
			}
			for range outs {
				nd.Outputs = append(nd.Outputs, TensorArg(name()))
			}
			g.Nodes = append(g.Nodes, nd)
		}
		g.Outputs = []Argument{TensorArg(name()), TensorArg(name())}
		checkDefUse(t, round, g)
	}
}

// checkDefUse compares g's index with what a plain walk of g says.
func checkDefUse(t *testing.T, round int, g *Graph) {
	t.Helper()
	du := g.DefUse()
	producer := map[string]int{}
	users := map[string][]int{}
	output := map[string]bool{}
	seen := map[string]bool{}
	for i := range g.Inputs {
		g.Inputs[i].ForEachRef(func(v string) { producer[v], seen[v] = -1, true })
	}
	for i, n := range g.Nodes {
		var reads, defs []string
		n.ForEachInputRef(func(v string) {
			seen[v] = true
			if !slices.Contains(reads, v) {
				reads = append(reads, v)
				users[v] = append(users[v], i)
			}
		})
		n.ForEachOutputRef(func(v string) { producer[v], seen[v] = i, true; defs = append(defs, v) })
		var gotReads, gotDefs []string
		for _, id := range du.Reads(i) {
			gotReads = append(gotReads, du.Value(id).Name)
		}
		for _, id := range du.Defines(i) {
			gotDefs = append(gotDefs, du.Value(id).Name)
		}
		if !slices.Equal(gotReads, reads) || !slices.Equal(gotDefs, defs) {
			t.Fatalf("round %d node %d: reads %v defines %v, want %v %v", round, i, gotReads, gotDefs, reads, defs)
		}
	}
	for i := range g.Outputs {
		g.Outputs[i].ForEachRef(func(v string) { output[v], seen[v] = true, true })
	}
	if du.Values() != len(seen) {
		t.Fatalf("round %d: %d values numbered, want %d", round, du.Values(), len(seen))
	}
	for v := range seen {
		p, ok := du.Producer(v)
		want, defined := producer[v]
		if ok != defined || p != want {
			t.Fatalf("round %d: producer of %s %d %v, want %d %v", round, v, p, ok, want, defined)
		}
		if id, _ := du.ID(v); !slices.Equal(du.UsersOf(id), users[v]) {
			t.Fatalf("round %d: users of %s by number %v, want %v", round, v, du.UsersOf(id), users[v])
		}
		if got := du.Users(v); !slices.Equal(got, users[v]) {
			t.Fatalf("round %d: users of %s %v, want %v", round, v, got, users[v])
		}
		if du.IsOutput(v) != output[v] {
			t.Fatalf("round %d: %s output %v", round, v, !output[v])
		}
		if id, ok := du.ID(v); !ok || du.Value(id).Name != v {
			t.Fatalf("round %d: %s numbered %d %v", round, v, id, ok)
		}
	}
}
