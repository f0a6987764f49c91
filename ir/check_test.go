package ir

import (
	"fmt"
	"math"
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
