package sym_test

import (
	"archive/zip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/sym"
)

// The parts of models/model.json (torch/_export/serde/schema.py) that hold
// symbolic expressions.
type symExpr struct {
	ExprStr string `json:"expr_str"`
}

type symValue struct { // SymInt, SymBool, SymFloat: as_expr or a constant
	AsExpr *symExpr `json:"as_expr"`
}

type tensorMeta struct {
	Dtype         int        `json:"dtype"`
	Sizes         []symValue `json:"sizes"`
	Strides       []symValue `json:"strides"`
	StorageOffset symValue   `json:"storage_offset"`
}

type graph struct {
	Nodes []struct {
		Inputs []struct {
			Arg json.RawMessage `json:"arg"`
		} `json:"inputs"`
	} `json:"nodes"`
	TensorValues   map[string]json.RawMessage `json:"tensor_values"`
	SymIntValues   map[string]symValue        `json:"sym_int_values"`
	SymBoolValues  map[string]symValue        `json:"sym_bool_values"`
	SymFloatValues map[string]symValue        `json:"sym_float_values"`
}

// fixtureValue is one value of a fixture program: its name, the expressions
// it carries, and the annotation print_readable gives it.
type fixtureValue struct {
	name  string
	exprs []string // every expr_str, sizes first
	annot func(print func(string) string) string
}

// readProgram returns the values of every graph of a fixture, nested ones
// (cond branches under as_graph) included.
func readProgram(t testing.TB, model string) []fixtureValue {
	t.Helper()
	zr, err := zip.OpenReader(fixtures.Model(model))
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var data []byte
	for _, f := range zr.File {
		if strings.HasSuffix(f.Name, "models/model.json") {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			data, err = io.ReadAll(rc)
			rc.Close()
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	if data == nil {
		t.Fatalf("%s: no models/model.json", model)
	}
	var prog struct {
		GraphModule struct {
			Graph graph `json:"graph"`
		} `json:"graph_module"`
	}
	if err := json.Unmarshal(data, &prog); err != nil {
		t.Fatal(err)
	}
	var out []fixtureValue
	var walk func(g graph)
	walk = func(g graph) {
		out = append(out, graphValues(t, g)...)
		for _, n := range g.Nodes {
			for _, in := range n.Inputs {
				var arg struct {
					AsGraph *struct {
						Graph graph `json:"graph"`
					} `json:"as_graph"`
				}
				if json.Unmarshal(in.Arg, &arg) == nil && arg.AsGraph != nil {
					walk(arg.AsGraph.Graph)
				}
			}
		}
	}
	walk(prog.GraphModule.Graph)
	return out
}

// dtypeAbbr is torch's dtype_abbrs, indexed by the export schema's ScalarType.
var dtypeAbbr = map[int]string{1: "u8", 2: "i8", 3: "i16", 4: "i32", 5: "i64", 6: "f16", 7: "f32", 8: "f64", 12: "b8", 13: "bf16"}

func graphValues(t testing.TB, g graph) []fixtureValue {
	var out []fixtureValue
	for name, raw := range g.TensorValues {
		var tm tensorMeta
		if err := json.Unmarshal(raw, &tm); err != nil {
			t.Fatal(err)
		}
		var raws struct {
			Sizes []map[string]json.RawMessage `json:"sizes"`
		}
		if err := json.Unmarshal(raw, &raws); err != nil {
			t.Fatal(err)
		}
		v := fixtureValue{name: name}
		sizes := make([]string, len(tm.Sizes))
		isExpr := make([]bool, len(tm.Sizes))
		for i, s := range tm.Sizes {
			if s.AsExpr != nil {
				v.exprs = append(v.exprs, s.AsExpr.ExprStr)
				sizes[i], isExpr[i] = s.AsExpr.ExprStr, true
			} else {
				sizes[i] = string(raws.Sizes[i]["as_int"])
			}
		}
		for _, s := range append(tm.Strides, tm.StorageOffset) {
			if s.AsExpr != nil {
				v.exprs = append(v.exprs, s.AsExpr.ExprStr)
			}
		}
		abbr, ok := dtypeAbbr[tm.Dtype]
		if !ok {
			t.Fatalf("%s: dtype %d", name, tm.Dtype)
		}
		v.annot = func(print func(string) string) string {
			parts := make([]string, len(sizes))
			for i, s := range sizes {
				if isExpr[i] {
					s = print(s)
				}
				parts[i] = s
			}
			return abbr + "[" + strings.Join(parts, ", ") + "]"
		}
		out = append(out, v)
	}
	for _, m := range []map[string]symValue{g.SymIntValues, g.SymBoolValues, g.SymFloatValues} {
		for name, s := range m {
			if s.AsExpr == nil {
				continue
			}
			text := s.AsExpr.ExprStr
			out = append(out, fixtureValue{name: name, exprs: []string{text},
				annot: func(print func(string) string) string { return "Sym(" + print(text) + ")" }})
		}
	}
	return out
}

var annotation = regexp.MustCompile(`(\w+): "([^"]*)"`)

// readAnnotations maps each value name in graph.txt to the annotations it
// has (a name can recur in nested graphs).
func readAnnotations(t *testing.T, model string) map[string][]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(fixtures.ModelDir(model), "graph.txt"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		for _, m := range annotation.FindAllStringSubmatch(line, -1) {
			out[m[1]] = append(out[m[1]], m[2])
		}
	}
	return out
}

// TestFixtures parses every expression of every fixture program, writes it
// back as the same srepr text, and prints each annotated value exactly as
// graph.txt shows it.
func TestFixtures(t *testing.T) {
	models := fixtures.Models()
	if len(models) == 0 {
		t.Fatal("no fixture models")
	}
	checked, exprs := 0, 0
	for _, model := range models {
		values := readProgram(t, model)
		annots := readAnnotations(t, model)
		matched := map[string]bool{}
		for _, v := range values {
			for _, text := range v.exprs {
				exprs++
				e, err := sym.Parse(text)
				if err != nil {
					t.Errorf("%s: %s: %v", model, v.name, err)
					continue
				}
				if got := e.Srepr(); got != text {
					t.Errorf("%s: %s: Srepr\n got %s\nwant %s", model, v.name, got, text)
				}
			}
			want, ok := annots[v.name]
			if !ok {
				continue
			}
			got := v.annot(func(text string) string {
				e, err := sym.Parse(text)
				if err != nil {
					return "<" + err.Error() + ">"
				}
				return e.String()
			})
			found := false
			for _, w := range want {
				if w == got {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: %s: printed %q, graph.txt has %q", model, v.name, got, want)
			}
			matched[v.name] = true
			checked++
		}
		for name := range annots {
			if !matched[name] {
				t.Errorf("%s: graph.txt annotates %s, which model.json does not describe", model, name)
			}
		}
	}
	if checked < 1000 || exprs < 100 {
		t.Errorf("checked only %d annotations and %d expressions", checked, exprs)
	}
	t.Logf("%d annotations, %d expressions in %d models", checked, exprs, len(models))
}
