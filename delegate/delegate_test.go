package delegate_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/delegate"
	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/lower"
	"github.com/seam-rt/seam/npy"
	"github.com/seam-rt/seam/partition"
	"github.com/seam-rt/seam/runtime"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
	"github.com/seam-rt/seam/verify"
)

func load(t *testing.T, model string) *ir.Program { return fixtures.Load(t, fixtures.Model(model)) }

// TestRounds: under exclude, tensor-only refuses gpt2_tiny's SymInt
// placeholders, so the first proposal loses the nodes that read them and
// the second is lowered. Each round says what it proposed; the first what
// it excluded and why, the last nothing; together they exclude what the
// result dropped.
func TestRounds(t *testing.T) {
	prof, _ := backend.Builtin("tensor-only")
	res, err := delegate.Program(load(t, "gpt2_tiny"), prof, delegate.Options{Policy: lower.Exclude})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rounds) < 2 {
		t.Fatalf("%d rounds; the first proposal cannot be lowered as it is", len(res.Rounds))
	}
	var dropped []string
	for i, r := range res.Rounds {
		last := i == len(res.Rounds)-1
		if r.Backend != prof.Name || r.Partitions == 0 || r.Delegated < r.Partitions {
			t.Errorf("round %d: %+v", i+1, r)
		}
		if last != (len(r.Excluded) == 0) {
			t.Errorf("round %d of %d excludes %d crossings", i+1, len(res.Rounds), len(r.Excluded))
		}
		for _, e := range r.Excluded {
			if e.Policy != "exclude" || len(e.Dropped) == 0 || len(e.Why) == 0 || !strings.Contains(e.Why[0], "tensor-only refuses sym_int placeholders") {
				t.Errorf("round %d: exclusion %+v does not say what and why", i+1, e)
			}
			dropped = append(dropped, e.Dropped...)
		}
	}
	slices.Sort(dropped)
	if !slices.Equal(slices.Compact(dropped), res.Dropped) {
		t.Errorf("the rounds exclude %v, the result dropped %v", dropped, res.Dropped)
	}
	if last := res.Rounds[len(res.Rounds)-1]; last.Partitions != len(res.Modules) {
		t.Errorf("the lowered round proposed %d partitions, the result has %d modules", last.Partitions, len(res.Modules))
	}
	// The default policy needs one round.
	res, err = delegate.Program(load(t, "gpt2_tiny"), prof, delegate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rounds) != 1 || len(res.Rounds[0].Excluded) != 0 {
		t.Errorf("auto: rounds %+v", res.Rounds)
	}
}

// TestLowerLowersAPlan: lower.Lower lowers the plan it is given, and
// nothing when the plan needs exclusions: it returns them instead.
func TestLowerLowersAPlan(t *testing.T) {
	p := load(t, "gpt2_tiny")
	prof, _ := backend.Builtin("tensor-only")
	plan, err := partition.ProposeProgram(p, prof, partition.GraphOptions{})
	if err != nil {
		t.Fatal(err)
	}
	in := &ir.Lowered{Main: p}
	res, more, err := lower.Lower(in, plan, prof, lower.Options{Policy: lower.Exclude})
	if err != nil || res != nil || len(more) == 0 {
		t.Fatalf("a plan that needs exclusions: result %v, %d exclusions, %v", res != nil, len(more), err)
	}
	res, more, err = lower.Lower(in, plan, prof, lower.Options{})
	if err != nil || res == nil || len(more) != 0 {
		t.Fatalf("auto: result %v, %d exclusions, %v", res != nil, len(more), err)
	}
	if len(res.Modules) != len(plan.Partitions) {
		t.Errorf("%d modules for %d partitions", len(res.Modules), len(plan.Partitions))
	}
	// A plan proposed for another program is refused.
	if _, _, err := lower.Lower(&ir.Lowered{Main: p.Clone()}, plan, prof, lower.Options{}); err == nil || !strings.Contains(err.Error(), "not proposed for this program") {
		t.Errorf("a plan of another program: %v", err)
	}
}

// condWithSizedView is the cond fixture with a view in its true branch
// that reads the branch input's size, sym_size.int(x, 0): a SymInt that
// tensor-only refuses and that, under exclude, takes the view out of the
// branch's partition.
func condWithSizedView(t *testing.T) *ir.Program {
	p := load(t, "cond").Clone()
	var branch *ir.Graph
	for _, n := range p.Graph.Nodes {
		for _, sub := range n.SubGraphs() {
			if sub.Name == "true_graph_0" {
				branch = sub.Graph
			}
		}
	}
	if branch == nil || len(branch.Nodes) != 2 {
		t.Fatal("the cond fixture changed: no true_graph_0 of two nodes")
	}
	x, sin, add := branch.InputNames()[0], branch.Nodes[0], branch.Nodes[1]
	size := &ir.Node{Name: "sym_size_int_9", Target: "torch.ops.aten.sym_size.int", Metadata: ir.Metadata{},
		Inputs:  []ir.NamedArgument{{Name: "self", Arg: ir.TensorArg(x)}, {Name: "dim", Arg: ir.IntArg(0)}},
		Outputs: []ir.Argument{ir.SymIntRef("sym_size_int_9")}}
	view := &ir.Node{Name: "view_9", Target: "torch.ops.aten.view.default", Metadata: ir.Metadata{},
		Inputs: []ir.NamedArgument{{Name: "self", Arg: ir.TensorArg(sin.Name)},
			{Name: "size", Arg: ir.Argument{Kind: ir.ArgSymInts, List: []ir.Argument{ir.SymIntRef("sym_size_int_9"), ir.SymIntLit(8)}}}},
		Outputs: []ir.Argument{ir.TensorArg("view_9")}}
	branch.SymIntValues["sym_size_int_9"] = ir.SymInt{Expr: branch.TensorValues[x].Sizes[0].Expr}
	branch.TensorValues["view_9"] = branch.TensorValues[sin.Name]
	add.Inputs[0].Arg = ir.TensorArg("view_9")
	branch.Nodes = []*ir.Node{size, sin, view, add}
	if vs := verify.Errors(verify.Program(p, verify.Options{})); len(vs) > 0 {
		t.Fatalf("the edited program does not verify: %v", vs)
	}
	return p
}

// TestRoundsInNestedGraphs: an exclusion inside a cond branch is made in
// the branch, by path, and the lowered program runs the reference cases
// as the original does.
func TestRoundsInNestedGraphs(t *testing.T) {
	p := condWithSizedView(t)
	prof, _ := backend.Builtin("tensor-only")
	res, err := delegate.Program(p, prof, delegate.Options{Policy: lower.Exclude})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rounds) != 2 || len(res.Rounds[0].Excluded) != 1 {
		t.Fatalf("rounds %+v, want one exclusion then the lowered proposal", res.Rounds)
	}
	e := res.Rounds[0].Excluded[0]
	if e.Graph != "cond.true_graph_0" || !slices.Equal(e.Dropped, []string{"view_9"}) || e.Value != "sym_size_int_9" {
		t.Errorf("exclusion %+v, want view_9 of cond.true_graph_0 for sym_size_int_9", e)
	}
	if !slices.Contains(res.Dropped, "view_9") {
		t.Errorf("dropped %v", res.Dropped)
	}
	for _, m := range res.Modules {
		if m.Graph == "cond.true_graph_0" && slices.Contains(m.Nodes, "view_9") {
			t.Errorf("%s holds view_9", m.Name)
		}
	}
	orig, err := runtime.Load(p, runtime.Options{})
	if err != nil {
		t.Fatal(err)
	}
	low, err := runtime.LoadLowered(res.Lowered, runtime.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dirs, _ := filepath.Glob(filepath.Join(fixtures.ModelDir("cond"), "io", "case*"))
	if len(dirs) == 0 {
		t.Fatal("no cases")
	}
	for _, d := range dirs {
		c, err := npy.ReadCase(os.DirFS(d))
		if err != nil {
			t.Fatal(err)
		}
		var in []value.Value
		for _, x := range c.Inputs {
			in = append(in, runtime.InputValue(x))
		}
		want, err := orig.Run(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		got, err := low.Run(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		if !tensor.Equal(got[0].Tensor(), want[0].Tensor()) {
			t.Errorf("%s: the lowered program computes another result", filepath.Base(d))
		}
	}
}

// TestBackendsInPriorityOrder: matmul-only takes the matrix products of
// gpt2_tiny, tensor-only the tensor compute it can of what remains, and
// reference the rest; each module names its backend, no node is in two
// modules, the program verifies (each module against its own backend's
// contract) and computes what the original does on every case.
func TestBackendsInPriorityOrder(t *testing.T) {
	var profs []*backend.Profile
	for _, name := range []string{"matmul-only", "tensor-only", "reference"} {
		prof, _ := backend.Builtin(name)
		profs = append(profs, prof)
	}
	p := load(t, "gpt2_tiny")
	res, err := delegate.Backends(p, profs, delegate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	took := map[string]int{}
	owner := map[string]string{}
	for _, m := range res.Modules {
		took[m.Delegate.Backend] += len(m.Nodes)
		for _, n := range m.Nodes {
			if prev, ok := owner[n]; ok && m.Graph == "" {
				t.Errorf("%s is in %s and %s", n, prev, m.Name)
			}
			owner[n] = m.Name
		}
		if m.Delegate.Backend == "matmul-only" {
			for _, n := range m.Program.Graph.Nodes {
				if !strings.Contains(n.Target, "mm") && !strings.Contains(n.Target, "linear") && !strings.Contains(n.Target, "sym_size") {
					t.Errorf("matmul-only module %s holds %s", m.Name, n.Target)
				}
			}
		}
	}
	for _, prof := range profs {
		if took[prof.Name] == 0 {
			t.Errorf("%s took nothing: %v", prof.Name, took)
		}
	}
	backends := map[string]bool{}
	for _, r := range res.Rounds {
		backends[r.Backend] = true
	}
	if len(backends) != 3 {
		t.Errorf("rounds of %v, want each backend's", backends)
	}
	if vs := verify.Errors(verify.Lowered(res.Lowered)); len(vs) > 0 {
		t.Fatalf("verify: %v", vs)
	}
	// Nothing of the parent is left but delegate calls and the glue no
	// backend takes (getitems, outputs).
	for _, n := range res.Lowered.Main.Graph.Nodes {
		if _, ok := n.DelegateModule(); !ok && n.Target != "_operator.getitem" {
			if v := profs[2].Supports(res.Lowered.Main.Graph, n); v.OK() {
				t.Errorf("%s (%s) is left in the parent, which reference takes", n.Name, n.Target)
			}
		}
	}
	low, err := runtime.LoadLowered(res.Lowered, runtime.Options{})
	if err != nil {
		t.Fatal(err)
	}
	matchCases(t, low, "gpt2_tiny")
}

// TestBackendsMatrix: every fixture lowered for each built-in backend
// followed by reference verifies and matches PyTorch on every case. Where
// the first backend takes part of a cond's branches, the cond itself is no
// later backend's (a module cannot call a delegate): the branches'
// remaining nodes are partitioned on their own.
func TestBackendsMatrix(t *testing.T) {
	ref, _ := backend.Builtin("reference")
	for _, first := range []string{"tensor-only", "matmul-only", "scalar-args", "static-shapes"} {
		prof, _ := backend.Builtin(first)
		for _, model := range fixtures.Models() {
			t.Run(first+"/"+model, func(t *testing.T) {
				res, err := delegate.Backends(load(t, model), []*backend.Profile{prof, ref}, delegate.Options{})
				if err != nil {
					t.Fatal(err)
				}
				if vs := verify.Errors(verify.Lowered(res.Lowered)); len(vs) > 0 {
					t.Fatalf("verify: %v", vs)
				}
				p, err := runtime.LoadLowered(res.Lowered, runtime.Options{})
				if err != nil {
					t.Fatal(err)
				}
				matchCases(t, p, model)
			})
		}
	}
}

// TestBackendsGroups: a group the first backend cannot keep (tensor-only
// refuses embedding) is asked of the next, which keeps it; the result
// reports the group once, with the module that kept it.
func TestBackendsGroups(t *testing.T) {
	var profs []*backend.Profile
	for _, name := range []string{"tensor-only", "reference"} {
		prof, _ := backend.Builtin(name)
		profs = append(profs, prof)
	}
	group := []string{"view", "embedding"}
	res, err := delegate.Backends(load(t, "gpt2_tiny"), profs, delegate.Options{Groups: [][]string{group}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Groups) != 1 || !res.Groups[0].Kept {
		t.Fatalf("groups %+v, want the group kept", res.Groups)
	}
	m, ok := res.Module(res.Groups[0].Module)
	if !ok || m.Delegate.Backend != "reference" || !slices.Contains(m.Nodes, "view") || !slices.Contains(m.Nodes, "embedding") {
		t.Errorf("group kept in %+v", res.Groups[0])
	}
}

// matchCases runs every case of a fixture through p, in order (state
// carried, as buffer_mutation's cases need), and compares with PyTorch's
// outputs.
func matchCases(t *testing.T, p *runtime.Program, model string) {
	t.Helper()
	dirs, _ := filepath.Glob(filepath.Join(fixtures.ModelDir(model), "io", "case*"))
	if len(dirs) == 0 {
		t.Fatalf("%s: no cases", model)
	}
	slices.Sort(dirs)
	for _, d := range dirs {
		c, err := npy.ReadCase(os.DirFS(d))
		if err != nil {
			t.Fatal(err)
		}
		var in []value.Value
		for _, x := range c.Inputs {
			in = append(in, runtime.InputValue(x))
		}
		got, err := p.Run(context.Background(), in)
		if err != nil {
			t.Fatalf("%s: %v", filepath.Base(d), err)
		}
		for i, want := range c.Outputs {
			g, err := runtime.OutputTensor(got[i])
			if err == nil {
				_, err = tensor.AllClose(g, want, 1e-4, 1e-5)
			}
			if err != nil {
				t.Errorf("%s: output %d: %v", filepath.Base(d), i, err)
			}
		}
	}
}
