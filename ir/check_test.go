package ir

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestCheckSizesOverflow: a static shape's byte count may reach
// MaxInt64, not one past it, whatever the factors.
func TestCheckSizesOverflow(t *testing.T) {
	for _, c := range []struct {
		dtype ScalarType
		sizes []int64
		ok    bool
	}{
		{Uint8, []int64{math.MaxInt64}, true},
		{Uint8, []int64{3, 3074457345618258602}, true},
		{Uint8, []int64{3, 3074457345618258603}, false},
		{Uint8, []int64{2, 1 << 62}, false},
		{Uint8, []int64{1 << 31, 1 << 31, 2}, false},
		{Float32, []int64{1 << 60}, true},
		{Float32, []int64{1 << 61}, false},
		{Float64, []int64{0, math.MaxInt64, math.MaxInt64}, true},
		{Float32, []int64{4, -1}, false},
		{ScalarType(14), []int64{1}, false},
		{ScalarType(-1), []int64{1}, false},
		{Unknown, []int64{math.MaxInt64}, true},
	} {
		m := &TensorMeta{DType: c.dtype}
		for _, s := range c.sizes {
			m.Sizes = append(m.Sizes, IntSym(s))
		}
		err := m.CheckSizes()
		if (err == nil) != c.ok || err != nil && !strings.Contains(err.Error(), "overflow") && !strings.Contains(err.Error(), "negative") && !strings.Contains(err.Error(), "dtype") {
			t.Errorf("%v %v: %v", c.dtype, c.sizes, err)
		}
	}
}

// TestCheckMetasFirstByName: of several bad tensor metadata, the error
// names the first by name, whatever order they were built or lie in.
func TestCheckMetasFirstByName(t *testing.T) {
	bad := func(s int64) *TensorMeta { return &TensorMeta{DType: Float32, Sizes: []SymInt{IntSym(s)}} }
	for _, names := range [][]string{{"b", "a", "c"}, {"c", "b", "a"}, {"a", "c", "b"}} {
		g := &Graph{TensorValues: map[string]*TensorMeta{"ok": bad(1), "z": nil}}
		for i, n := range names {
			g.TensorValues[n] = bad(-1 - int64(i))
		}
		err := g.checkMetas()
		if err == nil || !strings.HasPrefix(err.Error(), "tensor a: negative size") {
			t.Errorf("%v: %v", names, err)
		}
		delete(g.TensorValues, "a")
		delete(g.TensorValues, "b")
		delete(g.TensorValues, "c")
		if err := g.checkMetas(); err == nil || err.Error() != "tensor z: null metadata" {
			t.Errorf("%v without them: %v", names, err)
		}
	}
}

// TestCheckNamesNearAndFar: a name defined just before its use, far
// before (past the values checkNames looks through first), after it, by
// the node itself, or as a placeholder is defined; a name defined
// nowhere is refused with the first node (or output) that uses it.
func TestCheckNamesNearAndFar(t *testing.T) {
	chain := func(uses map[int]string, out string) *Graph {
		g := &Graph{Inputs: []Argument{TensorArg("x")}}
		prev := "x"
		for i := range 3 * nearby {
			name := fmt.Sprintf("v%d", i)
			in := []NamedArgument{{Name: "self", Arg: TensorArg(prev)}}
			if u, ok := uses[i]; ok {
				in = append(in, NamedArgument{Name: "other", Arg: TensorArg(u)})
			}
			g.Nodes = append(g.Nodes, &Node{Name: name, Target: "t", Inputs: in, Outputs: []Argument{TensorArg(name)}})
			prev = name
		}
		g.Outputs = []Argument{TensorArg(out)}
		return g
	}
	last := fmt.Sprintf("v%d", 3*nearby-1)
	for _, c := range []struct {
		uses map[int]string
		out  string
		err  string
	}{
		{map[int]string{5: "v4", 2 * nearby: "v0", 3: "v40", 7: "v7", 40: "x"}, last, ""},
		{nil, "v0", ""},
		{map[int]string{2 * nearby: "v0", 40: "y", 41: "z"}, last, `node v40 uses "y", which is never defined`},
		{map[int]string{1: "y"}, "v0", `node v1 uses "y", which is never defined`},
		{nil, "y", `output 0 uses "y", which is never defined`},
	} {
		err := chain(c.uses, c.out).checkNames()
		if got := fmt.Sprint(err); c.err == "" && err != nil || c.err != "" && got != c.err {
			t.Errorf("uses %v, output %s: %v, want %q", c.uses, c.out, err, c.err)
		}
	}
}

// TestCheckNamesAsEveryName: on random graphs (uses near, far, ahead,
// of placeholders, of names never defined) checkNames gives the error
// the plain check against the set of every defined name gives.
func TestCheckNamesAsEveryName(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	name := func(i int) string { return fmt.Sprintf("v%d", i) }
	for trial := range 300 {
		nodes := 1 + rng.IntN(3*nearby)
		g := &Graph{}
		for i := range rng.IntN(3) {
			g.Inputs = append(g.Inputs, TensorArg(fmt.Sprintf("p%d", i)))
		}
		pick := func(i int) string {
			switch rng.IntN(8) {
			case 0:
				return fmt.Sprintf("p%d", rng.IntN(3)) // perhaps no such placeholder
			case 1:
				return name(rng.IntN(nodes + 2)) // anywhere, perhaps nowhere
			default:
				return name(max(i-1-rng.IntN(4), 0)) // nearby
			}
		}
		for i := range nodes {
			var in []NamedArgument
			for range rng.IntN(3) {
				in = append(in, NamedArgument{Name: "a", Arg: TensorArg(pick(i))})
			}
			g.Nodes = append(g.Nodes, &Node{Name: name(i), Target: "t", Inputs: in, Outputs: []Argument{TensorArg(name(i))}})
		}
		g.Outputs = []Argument{TensorArg(pick(nodes))}
		if got, want := fmt.Sprint(g.checkNames()), fmt.Sprint(checkEveryName(g)); got != want {
			t.Fatalf("trial %d: %s, want %s", trial, got, want)
		}
	}
}

// checkEveryName is checkNames done the plain way, against the set of
// every name the graph defines.
func checkEveryName(g *Graph) error {
	defined := map[string]bool{}
	for i := range g.Inputs {
		g.Inputs[i].ForEachRef(func(n string) { defined[n] = true })
	}
	for _, n := range g.Nodes {
		n.ForEachOutputRef(func(s string) { defined[s] = true })
	}
	for _, n := range g.Nodes {
		for _, a := range n.Inputs {
			for _, s := range a.Arg.Refs() {
				if !defined[s] {
					return fmt.Errorf("node %s uses %q, which is never defined", n.Name, s)
				}
			}
		}
	}
	for i := range g.Outputs {
		for _, s := range g.Outputs[i].Refs() {
			if !defined[s] {
				return fmt.Errorf("output %d uses %q, which is never defined", i, s)
			}
		}
	}
	return nil
}

// checkedAsCheckStructure decodes data with DecodeProgramChecked and
// fails unless its decoding is DecodeProgram's and its verdict is what
// CheckStructure says of the program decoded.
func checkedAsCheckStructure(t *testing.T, label string, data []byte) {
	t.Helper()
	p, structure, err := DecodeProgramCheckedFrom(bytes.NewReader(data))
	want, wantErr := DecodeProgram(data)
	if fmt.Sprint(err) != fmt.Sprint(wantErr) {
		t.Fatalf("%s: error %v, DecodeProgram's %v", label, err, wantErr)
	}
	whole, wholeStructure, wholeErr := DecodeProgramChecked(data)
	if fmt.Sprint(wholeErr) != fmt.Sprint(wantErr) || fmt.Sprint(wholeStructure) != fmt.Sprint(structure) {
		t.Fatalf("%s: reading whole: %v, %v; from a reader: %v, %v", label, wholeErr, wholeStructure, err, structure)
	}
	if err != nil {
		return
	}
	if a, b := encodeOrErr(whole), encodeOrErr(p); a != b {
		t.Fatalf("%s: reading whole and from a reader decode differently", label)
	}
	if got, want := fmt.Sprint(structure), fmt.Sprint(want.CheckStructure()); got != want {
		t.Fatalf("%s: checked as read: %s, CheckStructure: %s", label, got, want)
	}
	if got := fmt.Sprint(p.CheckStructure()); got != fmt.Sprint(structure) {
		t.Fatalf("%s: checked as read: %v, CheckStructure of the same program: %s", label, structure, got)
	}
}

// TestDecodeProgramChecked: the structure check made as a program is
// read says what CheckStructure says afterwards, on random graphs (uses
// near, far, ahead, of placeholders, of names never defined, in nested
// graphs; bad metadata anywhere) and on the JSON no encoder writes: keys
// given twice, tables before the nodes, inputs after them.
func TestDecodeProgramChecked(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	name := func(i int) string { return fmt.Sprintf("v%d", i) }
	var graph func(depth int) *Graph
	graph = func(depth int) *Graph {
		nodes := 1 + rng.IntN(3*nearby)
		g := &Graph{TensorValues: map[string]*TensorMeta{}}
		for i := range rng.IntN(3) {
			g.Inputs = append(g.Inputs, TensorArg(fmt.Sprintf("p%d", i)))
		}
		pick := func(i int) string {
			switch rng.IntN(16) {
			case 0:
				return fmt.Sprintf("p%d", rng.IntN(3))
			case 1:
				return name(rng.IntN(nodes + 2))
			default:
				return name(max(i-1-rng.IntN(4), 0))
			}
		}
		for i := range nodes {
			n := &Node{Name: name(i), Target: "t", Outputs: []Argument{TensorArg(name(i))}}
			for range rng.IntN(3) {
				n.Inputs = append(n.Inputs, NamedArgument{Name: "a", Arg: TensorArg(pick(i))})
			}
			if rng.IntN(8) == 0 {
				n.Inputs = append(n.Inputs, NamedArgument{Name: "l", Arg: TensorsArg(pick(i), pick(i))})
			}
			if depth < 2 && rng.IntN(nodes) == 0 {
				n.Inputs = append(n.Inputs, NamedArgument{Arg: GraphArg(&GraphArgument{Name: "sub", Graph: graph(depth + 1)})})
			}
			g.Nodes = append(g.Nodes, n)
			size := int64(2)
			if rng.IntN(4*nodes) == 0 {
				size = -1
			}
			g.TensorValues[name(i)] = &TensorMeta{DType: Float32, Sizes: []SymInt{IntSym(size)}}
		}
		g.Outputs = []Argument{TensorArg(pick(nodes))}
		return g
	}
	for trial := range 300 {
		g := graph(0)
		p := &Program{Graph: g, SchemaVersion: CurrentSchema}
		for range g.Inputs {
			p.Signature.Inputs = append(p.Signature.Inputs, InputSpec{Kind: InputUser, Arg: TensorArg("p")})
		}
		p.Signature.Outputs = []OutputSpec{{Kind: OutputUser, Arg: TensorArg("o")}}
		data, err := EncodeProgram(p)
		if err != nil {
			t.Fatal(err)
		}
		checkedAsCheckStructure(t, fmt.Sprintf("trial %d", trial), data)
	}
	meta := func(size int) string {
		return fmt.Sprintf(`{"dtype": 7, "sizes": [{"as_int": %d}]}`, size)
	}
	node := func(name, use string) string {
		return `{"target": "t", "inputs": [{"name": "a", "arg": {"as_tensor": {"name": "` + use +
			`"}}}], "outputs": [{"as_tensor": {"name": "` + name + `"}}], "name": "` + name + `"}`
	}
	prog := func(graph string) []byte {
		return []byte(`{"graph_module": {"graph": {` + graph + `}}, "schema_version": {"major": 8, "minor": 17}}`)
	}
	for label, graph := range map[string]string{
		"bad metadata replaced":   `"nodes": [], "tensor_values": {"a": ` + meta(-1) + `, "a": ` + meta(1) + `}`,
		"good metadata replaced":  `"nodes": [], "tensor_values": {"a": ` + meta(1) + `, "a": ` + meta(-1) + `}`,
		"table given twice":       `"tensor_values": {"a": ` + meta(-1) + `}, "nodes": [], "tensor_values": {"b": ` + meta(1) + `}`,
		"null metadata":           `"tensor_values": {"b": ` + meta(-2) + `, "a": null}`,
		"nodes given twice":       `"nodes": [` + node("a", "ghost") + `], "nodes": [` + node("a", "a") + `]`,
		"nodes given twice, bad":  `"nodes": [` + node("a", "a") + `], "nodes": [` + node("b", "ghost") + `]`,
		"inputs after the nodes":  `"nodes": [` + node("a", "x") + `], "inputs": [{"as_tensor": {"name": "x"}}]`,
		"outputs before anything": `"outputs": [{"as_tensor": {"name": "a"}}], "nodes": [` + node("a", "a") + `]`,
		"output never defined":    `"outputs": [{"as_tensor": {"name": "ghost"}}], "nodes": [` + node("a", "a") + `]`,
		"use ahead":               `"nodes": [` + node("a", "b") + `, ` + node("b", "a") + `]`,
	} {
		checkedAsCheckStructure(t, label, prog(graph))
	}
}

// FuzzDecodeProgramChecked: whatever the input, the check made as it is
// read says what CheckStructure says of what was read.
func FuzzDecodeProgramChecked(f *testing.F) {
	for _, c := range decodeErrorCases() {
		f.Add([]byte(c.in))
	}
	data, err := EncodeProgram(benchChain(20))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Fuzz(func(t *testing.T, data []byte) { checkedAsCheckStructure(t, "input", data) })
}

func encodeOrErr(p *Program) string {
	data, err := EncodeProgram(p)
	if err != nil {
		return err.Error()
	}
	return string(data)
}
