package ops

import (
	"archive/zip"
	"bufio"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/value"
)

func TestTableParsesAndFormatsBack(t *testing.T) {
	core := 0
	for _, target := range Targets() {
		s, _ := Lookup(target)
		text := s.Text
		if got := s.Format(); got != text {
			t.Errorf("format:\n got  %s\n want %s", got, text)
		}
		if s.Core {
			core++
		}
	}
	if core < 180 {
		t.Errorf("only %d core ops", core)
	}
}

func TestLookup(t *testing.T) {
	for _, target := range []string{"aten.add.Tensor", "torch.ops.aten.add.Tensor", "aten.relu.default",
		"aten.sym_size.int", "_operator.gt", "math.trunc", "torch.sym_float", "higher_order.cond"} {
		if _, ok := Lookup(target); !ok {
			t.Errorf("Lookup(%q) failed", target)
		}
	}
	if _, ok := Lookup("aten.add"); ok {
		t.Error("overload-less name found")
	}
	s, _ := Lookup("aten.add.Tensor")
	if s.Kind != ATen || !s.Core || len(s.Args) != 3 || s.Args[2].Name != "alpha" || !s.Args[2].KwargOnly ||
		s.Args[2].Default.Int() != 1 || s.Args[0].Type.String() != "Tensor" {
		t.Errorf("add.Tensor parsed as %+v", s.Args)
	}
	h, _ := Lookup("higher_order.cond")
	if h.Kind != HigherOrder {
		t.Error("cond kind")
	}
	g, _ := Lookup("_operator.gt")
	if g.Kind != Python || g.Args[0].Name != "a" || g.Args[1].Name != "b" {
		t.Error("_operator.gt")
	}
}

func TestTypesAndDefaults(t *testing.T) {
	mp, _ := Lookup("aten.max_pool2d_with_indices.default")
	if a := mp.Args[2]; a.Name != "stride" || a.Type.String() != "int[2]" || a.Default.Len() != 0 {
		t.Errorf("stride %+v", a)
	}
	if a := mp.Args[3]; a.Default.Kind() != value.IntList || len(a.Default.Ints()) != 2 || a.Default.Ints()[1] != 0 {
		t.Errorf("padding=0 should expand to [0, 0]: %v", a.Default)
	}
	if len(mp.Returns) != 2 {
		t.Error("returns")
	}
	idx, _ := Lookup("aten.index.Tensor")
	if ty := idx.Args[1].Type; !ty.ElemOptional || !ty.List || ty.Optional || ty.String() != "Tensor?[]" {
		t.Errorf("Tensor?[] parsed as %+v", ty)
	}
	sum, _ := Lookup("aten.sum.dim_IntList")
	if ty := sum.Args[1].Type; !ty.List || ty.Len != 1 || !ty.Optional || sum.Args[1].HasDefault {
		t.Errorf("int[1]? dim: %+v", sum.Args[1])
	}
	gelu, _ := Lookup("aten.gelu.default")
	if gelu.Args[1].Default.Str() != "none" || !gelu.Args[1].KwargOnly {
		t.Error("gelu approximate")
	}
	ln, _ := Lookup("aten.layer_norm.default")
	if ln.Args[4].Default.Double() != 1e-5 {
		t.Error("layer_norm eps")
	}
	c, _ := Lookup("aten.contiguous.default")
	if c.Args[1].Default.Enum() != value.MemoryFormatContiguous {
		t.Error("contiguous memory_format")
	}
	rp, _ := Lookup("aten.randperm.default")
	if rp.Args[1].Default.Kind() != value.ScalarType {
		t.Error("randperm dtype=long")
	}
	mx, _ := Lookup("aten.max.dim")
	if mx.Returns[0].Name != "values" || mx.Returns[1].Name != "indices" {
		t.Error("named returns")
	}
}

func TestAliasing(t *testing.T) {
	views := []string{"aten.view.default", "aten.permute.default", "aten.expand.default", "aten.alias.default",
		"aten.slice.Tensor", "aten.select.int", "aten.split_with_sizes.default", "aten.unsqueeze.default",
		"aten.squeeze.dims", "aten.transpose.int", "aten.t.default", "aten.as_strided.default", "aten.diagonal.default"}
	for _, v := range views {
		s, _ := Lookup(v)
		if !s.IsView() || s.ViewSource() != 0 || s.Mutates() {
			t.Errorf("%s: IsView %v Mutates %v", v, s.IsView(), s.Mutates())
		}
	}
	for _, v := range []string{"aten.add.Tensor", "aten.clone.default", "aten._unsafe_view.default", "aten.view_copy.default"} {
		s, _ := Lookup(v)
		if s.IsView() || s.ViewSource() != -1 {
			t.Errorf("%s is not a view", v)
		}
	}
	s, _ := Lookup("aten.add_.Tensor")
	if !s.Mutates() || s.IsView() {
		t.Error("add_ mutates")
	}
	sp, _ := Lookup("aten.split_with_sizes.default")
	if sp.Args[0].Alias.AfterSet != "*" || !sp.Returns[0].Type.List {
		t.Error("split alias set")
	}
}

func TestBind(t *testing.T) {
	add, _ := Lookup("aten.add.Tensor")
	x := value.FromInt(7) // stands in for tensors: Bind does not type-check
	y := value.FromInt(8)
	got, err := add.Bind(nil, []NamedArg{{"self", x}, {"other", y}})
	if err != nil || len(got) != 3 || got[0].Int() != 7 || got[1].Int() != 8 || got[2].Int() != 1 {
		t.Fatalf("bind: %v %v", got, err)
	}
	got, err = add.Bind(got, []NamedArg{{"", x}, {"alpha", value.FromDouble(2)}, {"other", y}})
	if err != nil || got[2].Double() != 2 || got[1].Int() != 8 {
		t.Fatalf("mixed: %v %v", got, err)
	}
	bad := map[string][]NamedArg{
		"unknown argument \"beta\"":   {{"self", x}, {"other", y}, {"beta", y}},
		"duplicate argument \"self\"": {{"self", x}, {"self", y}},
		"missing argument \"other\"":  {{"self", x}},
		"too many positional":         {{"", x}, {"", y}, {"", y}},
		"positional argument after":   {{"self", x}, {"", y}},
	}
	for want, args := range bad {
		_, err := add.Bind(nil, args)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "aten.add.Tensor") {
			t.Errorf("%s: got %v", want, err)
		}
	}
	w, _ := Lookup("higher_order.wrap_with_set_grad_enabled")
	got, err = w.Bind(nil, []NamedArg{{"", value.FromBool(false)}, {"", x}, {"", y}, {"", y}})
	if err != nil || len(got) != 4 {
		t.Errorf("variadic: %v %v", got, err)
	}
	if n := testing.AllocsPerRun(100, func() {
		got, _ = add.Bind(got, []NamedArg{{"self", x}, {"other", y}})
	}); n != 0 {
		t.Errorf("Bind allocates %v", n)
	}
}

func TestCheck(t *testing.T) {
	s, _ := Lookup("aten.sum.dim_IntList")
	args := []value.Value{value.FromInt(1), value.FromInts([]int64{0}), value.FromBool(false), value.NoneValue()}
	if err := s.Check(args); err == nil || !strings.Contains(err.Error(), `"self" must be Tensor`) {
		t.Errorf("Check: %v", err)
	}
	mp, _ := Lookup("aten.mean.dim")
	if !mp.Args[1].Type.Accepts(value.FromInt(1)) || !mp.Args[1].Type.Accepts(value.NoneValue()) {
		t.Error("int[1]? should take an int and None")
	}
	mul, _ := Lookup("aten.mul.Scalar")
	if !mul.Args[1].Type.Accepts(value.FromBool(true)) || mul.Args[1].Type.Accepts(value.FromString("x")) {
		t.Error("Scalar")
	}
}

// Every argument name in torch 1.13's schemas (testdata, from
// torch._C._jit_get_all_schemas) matches ours, with the same kwarg-only
// split, for the ops both have.
func TestMatchesTorch113Names(t *testing.T) {
	f, err := os.Open("testdata/torch113_schemas.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		old, err := Parse("aten." + fix113(line))
		if err != nil {
			t.Errorf("parse torch 1.13 %q: %v", line, err)
			continue
		}
		ours, ok := Lookup(old.Target())
		if !ok || changedSince113[old.Target()] {
			continue
		}
		n++
		if len(ours.Args) != len(old.Args) {
			t.Errorf("%s: %d args, torch 1.13 has %d", old.Target(), len(ours.Args), len(old.Args))
			continue
		}
		for i := range ours.Args {
			a, b := ours.Args[i], old.Args[i]
			if a.Name != b.Name || a.KwargOnly != b.KwargOnly || a.HasDefault != b.HasDefault {
				t.Errorf("%s arg %d: %s (kw %v) vs torch 1.13 %s (kw %v)", old.Target(), i, a.Name, a.KwargOnly, b.Name, b.KwargOnly)
			}
		}
	}
	if n < 250 {
		t.Errorf("only %d ops compared", n)
	}
}

// changedSince113 are schemas that PyTorch 2.x changed: device/layout
// kwargs on _assert_tensor_metadata, dim=None/correction=None defaults.
var changedSince113 = map[string]bool{
	"aten._assert_tensor_metadata.default": true,
	"aten.std.correction":                  true,
	"aten.var.correction":                  true,
	"aten.var_mean.correction":             true,
}

// fix113 undoes torch 1.13's printing of enum defaults as numbers.
func fix113(s string) string {
	s = strings.ReplaceAll(s, "MemoryFormat memory_format=0", "MemoryFormat memory_format=contiguous_format")
	s = strings.ReplaceAll(s, "ScalarType? dtype=4", "ScalarType? dtype=long")
	return s
}

// Every call in the fixture programs names a target in the table, and its
// serialized argument names bind without error.
func TestFixtureNodesBind(t *testing.T) {
	seen := map[string]bool{}
	for _, m := range fixtures.Models() {
		graph := readModelJSON(t, fixtures.Model(m))
		var walk func(g jsonGraph)
		walk = func(g jsonGraph) {
			for _, n := range g.Nodes {
				s, ok := Lookup(n.Target)
				if !ok {
					t.Errorf("%s: no schema for %s", m, n.Target)
					continue
				}
				seen[s.Target()] = true
				var args []NamedArg
				for _, in := range n.Inputs {
					args = append(args, NamedArg{Name: in.Name, Value: value.FromInt(0)})
					if sub, ok := in.Arg["as_graph"]; ok {
						var ga struct{ Graph jsonGraph }
						_ = json.Unmarshal(sub, &ga)
						walk(ga.Graph)
					}
				}
				if _, err := s.Bind(nil, args); err != nil {
					t.Errorf("%s: %v", m, err)
				}
			}
		}
		walk(graph)
	}
	if len(seen) < 40 {
		t.Errorf("only %d distinct targets", len(seen))
	}
	// graph.txt agrees: every torch.ops target printed there is known.
	re := regexp.MustCompile(`torch\.ops\.[a-z_]+\.[A-Za-z0-9_]+\.[A-Za-z0-9_]+`)
	for _, m := range fixtures.Models() {
		b, _ := os.ReadFile(filepath.Join(fixtures.ModelDir(m), "graph.txt"))
		for _, target := range re.FindAllString(string(b), -1) {
			if _, ok := Lookup(target); !ok {
				t.Errorf("%s: graph.txt target %s unknown", m, target)
			}
		}
	}
}

type jsonGraph struct {
	Nodes []struct {
		Target string
		Inputs []struct {
			Name string
			Arg  map[string]json.RawMessage
		}
	}
}

func readModelJSON(t *testing.T, path string) jsonGraph {
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	for _, f := range zr.File {
		if strings.HasSuffix(f.Name, "models/model.json") {
			r, _ := f.Open()
			b, _ := io.ReadAll(r)
			r.Close()
			var ep struct {
				GraphModule struct{ Graph jsonGraph } `json:"graph_module"`
			}
			if err := json.Unmarshal(b, &ep); err != nil {
				t.Fatal(err)
			}
			return ep.GraphModule.Graph
		}
	}
	t.Fatalf("%s: no models/model.json", path)
	return jsonGraph{}
}
