package lower_test

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/delegate"
	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/inspect"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/lower"
	"github.com/seam-rt/seam/pt2"
)

func load(t testing.TB, name string) *ir.Program { return fixtures.Load(t, fixtures.Model(name)) }

func lowerWith(t *testing.T, model, prof string, pol lower.Policy) (*lower.Result, error) {
	t.Helper()
	b, ok := backend.Builtin(prof)
	if !ok {
		t.Fatalf("no profile %s", prof)
	}
	return delegate.Program(load(t, model), b, delegate.Options{Policy: pol})
}

// symbolicPlaceholders lists a module's symbolic user inputs.
func symbolicPlaceholders(m *lower.Module) []string {
	var out []string
	g := m.Program.Graph
	for _, in := range g.InputNames() {
		if t := g.TypeOf(in); t == ir.ValueSymInt || t == ir.ValueSymBool || t == ir.ValueSymFloat {
			out = append(out, in)
		}
	}
	return out
}

func TestLowerDoesNotModifyItsInput(t *testing.T) {
	p := load(t, "gpt2_tiny")
	before := p.Clone()
	prof, _ := backend.Builtin("tensor-only")
	if _, err := delegate.Program(p, prof, delegate.Options{Policy: lower.Box}); err != nil {
		t.Fatal(err)
	}
	opts := cmp.Options{cmpopts.EquateEmpty(), cmp.Comparer(func(x, y ir.Blob) bool { return x == y })}
	if diff := cmp.Diff(before, p, opts); diff != "" {
		t.Errorf("Lower changed its input:\n%s", diff)
	}
}

func TestGPT2TensorOnlyDefault(t *testing.T) {
	res, err := lowerWith(t, "gpt2_tiny", "tensor-only", lower.Auto)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Dropped) != 0 {
		t.Errorf("dropped %v", res.Dropped)
	}
	if len(res.Crossings) == 0 {
		t.Fatal("no crossing reported: sym_size_int_24 must cross into the modules")
	}
	for _, m := range res.Modules {
		if s := symbolicPlaceholders(m); len(s) > 0 {
			t.Errorf("%s has symbolic placeholders %v", m.Name, s)
		}
	}
	for _, c := range res.Crossings {
		if c.Value != "sym_size_int_24" || c.Expr != "s53" || c.Policy == "exclude" {
			t.Errorf("unexpected crossing %+v", c)
		}
	}
}

func TestGPT2TensorOnlyBox(t *testing.T) {
	res, err := lowerWith(t, "gpt2_tiny", "tensor-only", lower.Box)
	if err != nil {
		t.Fatal(err)
	}
	boxed := 0
	for _, m := range res.Modules {
		g := m.Program.Graph
		if s := symbolicPlaceholders(m); len(s) > 0 {
			t.Errorf("%s has symbolic placeholders %v", m.Name, s)
		}
		for _, in := range g.InputNames() {
			if strings.HasSuffix(in, "_box") {
				meta := g.TensorValues[in]
				if meta == nil || meta.DType != ir.Int64 || len(meta.Sizes) != 0 {
					t.Errorf("%s: box %s is %+v, want i64[]", m.Name, in, meta)
				}
				boxed++
			}
		}
	}
	if boxed == 0 {
		t.Error("no module receives a boxed i64[] input")
	}
	for _, c := range res.Crossings {
		if c.Policy != "box" {
			t.Errorf("crossing %+v not boxed", c)
		}
	}
}

func TestGPT2TensorOnlyExclude(t *testing.T) {
	res, err := lowerWith(t, "gpt2_tiny", "tensor-only", lower.Exclude)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Dropped) == 0 {
		t.Fatal("nothing dropped")
	}
	var reported []string
	for _, c := range res.Crossings {
		if c.Policy == "exclude" {
			reported = append(reported, c.Dropped...)
		}
	}
	slices.Sort(reported)
	if !slices.Equal(slices.Compact(reported), res.Dropped) {
		t.Errorf("report names dropped %v, result dropped %v", reported, res.Dropped)
	}
	for _, m := range res.Modules {
		if s := symbolicPlaceholders(m); len(s) > 0 {
			t.Errorf("%s has symbolic placeholders %v", m.Name, s)
		}
	}
}

func TestGPT2TensorOnlyFail(t *testing.T) {
	// Under policy fail, the refused cut names the value and its consumer.
	_, err := lowerWith(t, "gpt2_tiny", "tensor-only", lower.Fail)
	var refusal *lower.Error
	if !errors.As(err, &refusal) {
		t.Fatalf("%v, want a refusal", err)
	}
	if refusal.Value != "sym_size_int_24" || refusal.Consumer == "" || !strings.Contains(err.Error(), "sym_size_int_24") ||
		!strings.Contains(err.Error(), "consumed by "+refusal.Consumer) {
		t.Errorf("error %q does not name sym_size_int_24 and its consumer (%+v)", err, refusal)
	}
	// In full-graph mode, the unsupported sym_size is listed with its consumers.
	prof, _ := backend.Builtin("tensor-only")
	prof.FullGraph = true
	_, err = delegate.Program(load(t, "gpt2_tiny"), prof, delegate.Options{})
	if err == nil || !strings.Contains(err.Error(), "full_graph") ||
		!strings.Contains(err.Error(), "sym_size_int_24 (aten.sym_size.int): op excluded") ||
		!strings.Contains(err.Error(), "consumed by view") {
		t.Errorf("full_graph error %v", err)
	}
}

func TestSymIntInputTensorOnly(t *testing.T) {
	res, err := lowerWith(t, "symint_input", "tensor-only", lower.Auto)
	if err != nil {
		t.Fatal(err)
	}
	var c *lower.Crossing
	for i := range res.Crossings {
		if res.Crossings[i].Value == "n" {
			c = &res.Crossings[i]
		}
	}
	if c == nil {
		t.Fatalf("no crossing for n in %+v", res.Crossings)
	}
	if c.Policy == "rederive" || c.Policy == "hoist" || c.Expr != "s86" {
		t.Errorf("n crossed by %s (%s); it cannot be rederived", c.Policy, c.Expr)
	}
	if _, err := lowerWith(t, "symint_input", "tensor-only", lower.Rederive); err == nil || !strings.Contains(err.Error(), "s86") {
		t.Errorf("rederive of n: %v, want a refusal naming s86", err)
	}
}

// TestLoweredArchiveRoundTrip writes lowered programs and reads them back.
func TestLoweredArchiveRoundTrip(t *testing.T) {
	for _, c := range []struct{ model, prof string }{{"gpt2_tiny", "tensor-only"}, {"buffer_mutation", "reference"}, {"cond", "tensor-only"}} {
		res, err := lowerWith(t, c.model, c.prof, lower.Auto)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "low.pt2")
		a := pt2.FromLowered(res.Lowered, nil)
		if err := pt2.WriteFile(path, a); err != nil {
			t.Fatal(err)
		}
		b, err := pt2.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		opts := cmp.Options{cmpopts.EquateEmpty(), cmp.Comparer(func(x, y ir.Blob) bool {
			bx, _ := (&ir.Weight{Data: x}).ReadAll()
			by, _ := (&ir.Weight{Data: y}).ReadAll()
			return string(bx) == string(by)
		}), cmpopts.IgnoreFields(ir.Weight{}, "Path")}
		if diff := cmp.Diff(a.Programs, b.Programs, opts); diff != "" {
			t.Errorf("%s/%s: read back differs:\n%s", c.model, c.prof, diff)
		}
		if diff := cmp.Diff(a.Delegates, b.Delegates, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s/%s: delegate records differ:\n%s", c.model, c.prof, diff)
		}
		b.Close()
	}
}

// TestExcludeKeepsWhatTheContractTakes: under exclude, only nodes whose
// crossing values the contract refuses leave the partitions. A contract
// that takes SymInts as ints (scalar-args) loses no node; one that takes
// them as rank-0 tensors gets them boxed; tensor-only loses the consumers.
func TestExcludeKeepsWhatTheContractTakes(t *testing.T) {
	for _, c := range []struct {
		prof    string
		acc     backend.Acceptance
		policy  string
		dropped bool
	}{
		{"scalar-args", backend.Scalar, "pass", false},
		{"tensor-only", backend.Tensor, "box", false},
		{"tensor-only", backend.Refuse, "exclude", true},
	} {
		prof, _ := backend.Builtin(c.prof)
		if prof.Placeholders.SymInt != c.acc {
			// A changed contract is another backend's: lowering refuses
			// a registered name for it.
			prof.Name += "-sym-int-" + c.acc.String()
			prof.Placeholders.SymInt = c.acc
		}
		for _, model := range []string{"gpt2_tiny", "symint_input"} {
			res, err := delegate.Program(load(t, model), prof, delegate.Options{Policy: lower.Exclude})
			if err != nil {
				t.Fatalf("%s/%s: %v", model, c.prof, err)
			}
			if got := len(res.Dropped) > 0; got != c.dropped {
				t.Errorf("%s/%s (sym_int %s): dropped %v", model, c.prof, c.acc, res.Dropped)
			}
			for _, cr := range res.Crossings {
				if cr.Policy != c.policy {
					t.Errorf("%s/%s (sym_int %s): %s crossed by %s, want %s", model, c.prof, c.acc, cr.Value, cr.Policy, c.policy)
				}
			}
		}
	}
}

// TestPolicyOrder: a profile's policy_order is the order the default
// policy tries; a backend that wants SymInts as plain ints puts pass first
// and gets them as sym_int placeholders instead of recomputed sizes.
func TestPolicyOrder(t *testing.T) {
	prof, err := backend.Parse([]byte(`{"name": "ints-first", "ops": {"include": ["aten.*"], "exclude": ["aten.sym_*", "aten.embedding*", "aten.index*"]},
		"placeholders": {"sym_int": "int", "sym_bool": "int", "sym_float": "int"}, "policy_order": ["pass", "rederive", "box"]}`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := delegate.Program(load(t, "gpt2_tiny"), prof, delegate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	passed := 0
	for _, m := range res.Modules {
		passed += len(symbolicPlaceholders(m))
	}
	if passed == 0 {
		t.Error("no module takes a sym_int placeholder")
	}
	for _, c := range res.Crossings {
		if c.Policy != "pass" {
			t.Errorf("%s crossed by %s, want pass", c.Value, c.Policy)
		}
	}
	def, _ := backend.Builtin("scalar-args")
	res, err = delegate.Program(load(t, "gpt2_tiny"), def, delegate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Crossings {
		if c.Policy != "rederive" {
			t.Errorf("default order: %s crossed by %s, want rederive", c.Value, c.Policy)
		}
	}
	for _, bad := range []string{`"policy_order": []`, `"policy_order": ["pass", "guess"]`, `"policy_order": ["box", "box"]`} {
		_, err := backend.Parse([]byte(`{"name": "x", "ops": {"include": ["*"]}, ` + bad + `}`))
		if err == nil || !strings.Contains(err.Error(), "policy_order") {
			t.Errorf("%s: %v, want an error naming policy_order", bad, err)
		}
	}
}

// TestGroups: groups survive lowering (a kept group's nodes are all in one
// lowered module), and a group that cannot be kept is reported with the
// reason: an unsupported member, or a member the policy left to the parent.
func TestGroups(t *testing.T) {
	p := load(t, "gpt2_tiny")
	prof, _ := backend.Builtin("tensor-only")
	kept := []string{"view_2", "addmm", "view_3"}
	res, err := delegate.Program(p, prof, delegate.Options{Groups: [][]string{kept, {"embedding", "add_15"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Groups) != 2 {
		t.Fatalf("groups %+v", res.Groups)
	}
	g := res.Groups[0]
	m, ok := res.Module(g.Module)
	if !g.Kept || !ok {
		t.Fatalf("group %v: %+v", kept, g)
	}
	for _, n := range kept {
		if !slices.Contains(m.Nodes, n) {
			t.Errorf("%s is not in %s, which holds the group", n, m.Name)
		}
	}
	if g := res.Groups[1]; g.Kept || !strings.Contains(g.Reason, "is not supported (op excluded: aten.embedding.default") {
		t.Errorf("group with the embedding: %+v", g)
	}
	res, err = delegate.Program(p, prof, delegate.Options{Policy: lower.Exclude, Groups: [][]string{{"view_3", "addmm"}}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(res.Dropped, "view_3") {
		t.Fatalf("exclude dropped %v; the test needs view_3 among them", res.Dropped)
	}
	if g := res.Groups[0]; g.Kept || !strings.Contains(g.Reason, "member view_3 is left to the parent by the policy: sym_int sym_size_int_24 (s53) cannot cross into it") {
		t.Errorf("group with a dropped member: %+v", g)
	}
	var sb strings.Builder
	res.Report(inspect.Options{}, prof.Name, lower.Exclude).WriteText(&sb)
	if !strings.Contains(sb.String(), "groups:\n  view_3, addmm: not kept: member view_3") {
		t.Errorf("report:\n%s", sb.String())
	}
}

// TestSymFloatCrossingsShareNodes: two SymFloats rederived in one module
// share the sym_size node they both need.
func TestSymFloatCrossingsShareNodes(t *testing.T) {
	res, err := lowerWith(t, "sym_float", "tensor-only", lower.Auto)
	if err != nil {
		t.Fatal(err)
	}
	sizes := 0
	for _, n := range res.Modules[0].Program.Graph.Nodes {
		if n.Target == "torch.ops.aten.sym_size.int" {
			sizes++
		}
	}
	if sizes != 1 {
		t.Errorf("%d sym_size nodes in the module; the two SymFloats share one", sizes)
	}
}
