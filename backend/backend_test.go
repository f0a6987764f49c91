package backend

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/pt2"
)

func TestGlob(t *testing.T) {
	cases := []struct {
		pattern, s string
		want       bool
	}{
		{"aten.*", "aten.add.Tensor", true},
		{"aten.*", "_operator.add", false},
		{"*", "", true},
		{"aten.embedding.*", "aten.embedding.default", true},
		{"aten.embedding.*", "aten.embedding_bag.default", false},
		{"aten.index*", "aten.index.Tensor", true},
		{"aten.index*", "aten.index_select.default", true},
		{"*embedding*", "aten.embedding_bag.default", true},
		{"aten.add.Tensor", "aten.add.Tensor", true},
		{"aten.add.Tensor", "aten.add.Tensorx", false},
		{"a*b*c", "abc", true},
		{"a*b*c", "aXbYc", true},
		{"a*b*c", "acb", false},
		{"a*a", "a", false},
		{"*.default", "aten.relu.default", true},
		{"**", "x", true},
	}
	for _, c := range cases {
		if got := compileGlob(c.pattern).match(c.s); got != c.want {
			t.Errorf("%q matches %q = %v, want %v", c.pattern, c.s, got, c.want)
		}
	}
}

func TestParseDefaultsAndRoundTrip(t *testing.T) {
	p, err := Parse([]byte(`{"name": "npu", "ops": {"include": ["aten.*"]}}`))
	if err != nil {
		t.Fatal(err)
	}
	if !p.DynamicShapes || !p.SingleNodePartitions || !p.OwnsWeights || p.FullGraph || p.Placeholders.SymInt != Refuse {
		t.Errorf("defaults: %+v", p)
	}
	var sb strings.Builder
	full, _ := Builtin("tensor-only")
	if err := full.WriteJSON(&sb); err != nil {
		t.Fatal(err)
	}
	back, err := Parse([]byte(sb.String()))
	if err != nil {
		t.Fatalf("reading a written profile: %v\n%s", err, sb.String())
	}
	if back.Name != full.Name || len(back.DTypes) != len(full.DTypes) || back.Placeholders != full.Placeholders ||
		len(back.Ops.Exclude) != len(full.Ops.Exclude) {
		t.Errorf("round trip: %+v vs %+v", back, full)
	}
}

func TestParseIssueExample(t *testing.T) {
	p, err := Parse([]byte(`{"name": "my-npu",
	 "ops": {"include": ["aten.*"], "exclude": ["aten.embedding.*", "aten.index*"]},
	 "exclude_nodes": ["node_name"],
	 "placeholders": {"sym_int": "refuse", "sym_bool": "refuse", "sym_float": "refuse"},
	 "dtypes": ["f32", "i64", "bool"],
	 "dynamic_shapes": true,
	 "single_node_partitions": true,
	 "full_graph": false}`))
	if err != nil {
		t.Fatal(err)
	}
	if !p.AcceptsDType(ir.Bool) || p.AcceptsDType(ir.Float64) {
		t.Errorf("dtypes %v", p.DTypes)
	}
}

func TestParseErrorsNameTheField(t *testing.T) {
	cases := []struct{ json, want string }{
		{`{"ops": {"include": ["*"]}}`, `name: missing`},
		{`{"name": "x"}`, `ops: missing (give "include" globs such as "aten.*")`},
		{`{"name": "x", "ops": {}}`, `ops.include: missing`},
		{`{"name": "x", "ops": {"include": ["*"]}, "colour": 1}`, `colour: unknown field (the fields are name, description, ops,`},
		{`{"name": "x", "ops": {"include": ["*"], "bogus": []}}`, `ops.bogus: unknown field (the fields are include, exclude)`},
		{`{"name": "x", "ops": {"include": ["*"]}, "placeholders": {"sym_int": "maybe"}}`, `placeholders.sym_int: "maybe" is not one of "refuse", "int", "tensor"`},
		{`{"name": "x", "ops": {"include": ["*"]}, "placeholders": {"sym_str": "int"}}`, `placeholders.sym_str: unknown field`},
		{`{"name": "x", "ops": {"include": ["*"]}, "dtypes": ["f33"]}`, `dtypes[0]: unknown dtype "f33" (use f32, f64, f16, bf16, i64, i32, i16, i8, u8, b8)`},
		{`{"name": "x", "ops": {"include": ["*"]}, "dynamic_shapes": "yes"}`, `dynamic_shapes: want true or false, got a string`},
		{`{"name": "x", "ops": {"include": [""]}}`, `ops.include[0]: empty pattern`},
		{`{"name": "x", "ops": {"include": ["*"]}, "policy_order": ["box", "box"]}`, `policy_order[1]: "box" is named twice`},
		{`{"name": "x", "ops": {"include": ["*"]}, "name": "y"}`, `name: given twice`},
		{`{"name": "x", "ops": {"include": ["*"]}, "placeholders": {"sym_int": "int", "sym_int": "refuse"}}`, `placeholders.sym_int: given twice`},
		{`{"name": "x", "ops": {"include": ["*"]}} {}`, `trailing data after the profile`},
		{`{"name": `, `malformed JSON`},
		{`["name"]`, `want an object (a profile), got a list`},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.json))
		var pe *ProfileError
		if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("Parse(%s) = %v, want a *ProfileError starting %s", c.json, err, c.want)
		}
	}
}

// TestParseReportsEveryProblem: a profile with several mistakes gets them
// all back at once, each under its key path, in file order.
func TestParseReportsEveryProblem(t *testing.T) {
	_, err := Parse([]byte(`{"name": "npu", "ops": {"include": ["aten.*", 3], "exclud": []},
	  "placeholders": {"sym_int": "refuze", "sym_bool": "tensor"}, "dtypes": ["f32", "bool", "f33"],
	  "full_graph": "no", "policy_order": ["rederive", "guess"]}`))
	var pe *ProfileError
	if !errors.As(err, &pe) {
		t.Fatalf("%v", err)
	}
	want := []string{
		`ops.include[1]: want a string, got a number`,
		`ops.exclud: unknown field (the fields are include, exclude)`,
		`placeholders.sym_int: "refuze" is not one of "refuse", "int", "tensor"`,
		`dtypes[2]: unknown dtype "f33" (use f32, f64, f16, bf16, i64, i32, i16, i8, u8, b8)`,
		`full_graph: want true or false, got a string`,
		`policy_order[1]: "guess" is not one of rederive, hoist, pass, box, exclude`,
	}
	var got []string
	for _, p := range pe.Problems {
		got = append(got, p.String())
	}
	if !slices.Equal(got, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !strings.HasPrefix(err.Error(), "6 problems:\n  ops.include[1]") {
		t.Errorf("message: %v", err)
	}
}

// TestLoadFormatFromContent: a profile whose name says nothing of its
// format is read as what it holds; YAML problems carry key paths too.
func TestLoadFormatFromContent(t *testing.T) {
	dir := t.TempDir()
	yamlFile := filepath.Join(dir, "npu.profile")
	os.WriteFile(yamlFile, []byte("name: npu\nops:\n  include: [\"aten.*\"]\nplaceholders:\n  sym_int: tensor\n"), 0o644)
	jsonFile := filepath.Join(dir, "npu")
	os.WriteFile(jsonFile, []byte("\n  {\"name\": \"npu\", \"ops\": {\"include\": [\"aten.*\"]}}"), 0o644)
	for _, path := range []string{yamlFile, jsonFile} {
		if p, err := Load(path); err != nil || p.Name != "npu" {
			t.Errorf("%s: %v", path, err)
		}
	}
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("name: npu\nops: {include: ['*']}\nplaceholders: {sym_int: refuze}\ndtypes: [f32, f33]\n"), 0o644)
	_, err := Load(bad)
	var pe *ProfileError
	if !errors.As(err, &pe) || pe.File != bad || len(pe.Problems) != 2 ||
		pe.Problems[0].Key != "dtypes[1]" || pe.Problems[1].Key != "placeholders.sym_int" {
		t.Errorf("%#v", err)
	}
	if !strings.HasPrefix(err.Error(), bad+": 2 problems:") {
		t.Errorf("message: %v", err)
	}
	// A file named .json is JSON, whatever it holds.
	named := filepath.Join(dir, "npu.json")
	os.WriteFile(named, []byte("name: npu\n"), 0o644)
	if _, err := Load(named); err == nil || !strings.Contains(err.Error(), "malformed JSON") {
		t.Errorf("YAML in a .json file: %v", err)
	}
}

func TestLoadYAML(t *testing.T) {
	path := filepath.Join(t.TempDir(), "npu.yaml")
	os.WriteFile(path, []byte("name: npu\nops:\n  include: [\"aten.*\"]\nplaceholders:\n  sym_int: tensor\ndtypes: [f32, i64]\n"), 0o644)
	p, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if p.Placeholders.SymInt != Tensor || len(p.DTypes) != 2 {
		t.Errorf("%+v", p)
	}
	if _, err := Resolve(filepath.Join(t.TempDir(), "missing.json")); err == nil || !strings.Contains(err.Error(), "tensor-only") {
		t.Errorf("Resolve of a missing file: %v", err)
	}
}

func loadGraph(t *testing.T, model string) *ir.Graph {
	t.Helper()
	a, err := pt2.Open(fixtures.Model(model))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	p, _ := a.Program()
	return p.Graph
}

func TestSupportsReasons(t *testing.T) {
	g := loadGraph(t, "seed_like")
	node := func(name string) *ir.Node {
		for _, n := range g.Nodes {
			if n.Name == name {
				return n
			}
		}
		t.Fatalf("no node %s", name)
		return nil
	}
	tensorOnly, _ := Builtin("tensor-only")
	static, _ := Builtin("static-shapes")
	matmul, _ := Builtin("matmul-only")
	f32only, err := Parse([]byte(`{"name": "f", "ops": {"include": ["aten.*"]}, "dtypes": ["f32"], "exclude_nodes": ["mul_8"]}`))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		p      *Profile
		node   string
		reason Reason
		detail string
	}{
		{tensorOnly, "addmm", Supported, ""},
		{tensorOnly, "sym_size_int_5", OpExcluded, "aten.sym_*"},
		{tensorOnly, "embedding", OpExcluded, "aten.embedding*"},
		{matmul, "view", OpNotIncluded, "aten.view.default"},
		{matmul, "addmm", Supported, ""},
		{static, "permute_2", Supported, ""},
		{static, "addmm", DynamicRefused, "has a symbolic size"},
		{f32only, "unsqueeze", DTypeRefused, "attention_mask is i64"},
		{f32only, "mul_8", NodeExcluded, "mul_8"},
	}
	for _, c := range cases {
		v := c.p.Supports(g, node(c.node))
		if v.Reason != c.reason || !strings.Contains(v.Detail, c.detail) {
			t.Errorf("%s on %s: %v, want %v (%s)", c.p.Name, c.node, v, c.reason, c.detail)
		}
	}
}

func TestBuiltinsAreCopies(t *testing.T) {
	a, _ := Builtin("reference")
	a.Ops.Include[0] = "nothing"
	b, _ := Builtin("reference")
	if b.Ops.Include[0] != "*" {
		t.Error("Builtin returned shared state")
	}
	if len(BuiltinNames()) != 5 {
		t.Errorf("builtins %v", BuiltinNames())
	}
}

func TestAcceptsTensor(t *testing.T) {
	p, err := Parse([]byte(`{"name": "n", "ops": {"include": ["*"]}, "dtypes": ["f32"], "placeholders": {"sym_float": "tensor"}}`))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		dt   ir.ScalarType
		rank int
		want bool
	}{
		{ir.Float32, 2, true},
		{ir.Float64, 0, true}, // a boxed SymFloat, declared "tensor"
		{ir.Float64, 1, false},
		{ir.Int64, 0, false}, // SymInt is refused, so its box is not taken
	}
	for _, c := range cases {
		if got := p.AcceptsTensor(c.dt, c.rank); got != c.want {
			t.Errorf("AcceptsTensor(%s, rank %d) = %v", c.dt, c.rank, got)
		}
	}
}

// TestResolveList: backends in priority order, each a name or a file;
// an empty item or a backend named twice is refused.
func TestResolveList(t *testing.T) {
	profs, err := ResolveList("tensor-only, reference")
	if err != nil || len(profs) != 2 || profs[0].Name != "tensor-only" || profs[1].Name != "reference" {
		t.Fatalf("got %v, %v", profs, err)
	}
	if profs, err := ResolveList("reference"); err != nil || len(profs) != 1 {
		t.Errorf("one backend: %v, %v", profs, err)
	}
	for spec, want := range map[string]string{
		"reference,":             "an empty name",
		"reference,reference":    "listed twice",
		"reference,no-such-npu":  "no-such-npu",
		"tensor-only,,reference": "an empty name",
	} {
		if _, err := ResolveList(spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error mentioning %q", spec, err, want)
		}
	}
}

// TestDelegateCallIsNoBackends: a delegate call runs a module lowered
// already; no profile takes it, not even one that includes every op.
func TestDelegateCallIsNoBackends(t *testing.T) {
	prof, _ := Builtin("reference")
	n := &ir.Node{Name: "call", Target: ir.DelegateTarget, Inputs: []ir.NamedArgument{{Arg: ir.Argument{Kind: ir.ArgString, Str: "lowered_module_0"}}}}
	if v := prof.Supports(&ir.Graph{}, n); v.Reason != Delegated || !strings.Contains(v.String(), "lowered_module_0") {
		t.Errorf("verdict %v", v)
	}
}

// TestOpsNullIsMissing: "ops:" with nothing under it (YAML's null) is no
// ops at all, refused as missing, not an empty set that the profile
// written back could not say (found by FuzzParseYAML).
func TestOpsNullIsMissing(t *testing.T) {
	for _, src := range []string{`{"name": "A", "ops": null}`, "name: A\nops:"} {
		js, err := yamlToJSON([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		_, err = Parse(js)
		if err == nil || !strings.Contains(err.Error(), "ops: missing") {
			t.Errorf("%q: err = %v, want ops missing", src, err)
		}
	}
}
