package specialize_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/fixtures/multisym"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/irtext"
	"github.com/seam-rt/seam/pt2"
	"github.com/seam-rt/seam/runtime"
	"github.com/seam-rt/seam/specialize"
	"github.com/seam-rt/seam/sym"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// wantError checks that err is an *Error about symbol (or node) whose
// message has every one of parts.
func wantError(t *testing.T, what string, err error, symbol, node string, parts ...string) {
	t.Helper()
	var se *specialize.Error
	if !errors.As(err, &se) {
		t.Fatalf("%s: want a *specialize.Error, got %v", what, err)
	}
	if se.Symbol != symbol || se.Node != node {
		t.Errorf("%s: error about symbol %q node %q, want %q %q: %v", what, se.Symbol, se.Node, symbol, node, err)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("%s: %q does not say %q", what, err, p)
		}
	}
}

func TestOutOfRangeAndUnknown(t *testing.T) {
	p := readProgram(t, fixtures.ModelDir("seed_like"))
	_, err := specialize.Program(p, sym.Bindings{"s53": 500})
	wantError(t, "s53 = 500", err, "s53", "", "s53 = 500", "[2, 200]")
	_, err = specialize.Program(p, sym.Bindings{"s53": 1})
	wantError(t, "s53 = 1", err, "s53", "", "s53 = 1", "[2, 200]")
	_, err = specialize.Program(p, sym.Bindings{"s9": 4})
	wantError(t, "s9", err, "s9", "", "unknown symbol s9", "s53")
	// Every wrong symbol is reported at once.
	q := readProgram(t, fixtures.ExtraDir("encoder2d"))
	_, err = specialize.Program(q, sym.Bindings{"s0": 0, "s1": 33, "zz": 1})
	for _, part := range []string{"s0 = 0 is outside its range [1, 8]", "s1 = 33 is outside its range [2, 32]", "unknown symbol zz"} {
		if err == nil || !strings.Contains(err.Error(), part) {
			t.Errorf("error %v does not say %q", err, part)
		}
	}
}

// TestDerivedSymbols: a symbol no input size tells on its own cannot be
// bound: one the inputs carry only in a product, and one a node computes
// while the program runs.
func TestDerivedSymbols(t *testing.T) {
	b := multisym.New(1)
	s0, s1 := b.Symbol("s0", 1, 4), b.Symbol("s1", 2, 8)
	x := b.Input("x", ir.Float32, sym.Mul(s0, s1), 4)
	b.Output(b.Relu(x))
	p := b.Program()
	_, err := specialize.Program(p, sym.Bindings{"s0": 2})
	wantError(t, "s0 in a product", err, "s0", "", "s0 cannot be bound on its own", "x dim 0 (s0*s1)")
	// Given s1 too, the product tells s0.
	b = multisym.New(1)
	s0, s1 = b.Symbol("s0", 1, 4), b.Symbol("s1", 2, 8)
	x = b.Input("x", ir.Float32, sym.Mul(s0, s1), 4)
	y := b.Input("y", ir.Float32, s1)
	b.Output(b.Relu(x), b.Relu(y))
	if _, err := specialize.Program(b.Program(), sym.Bindings{"s0": 2}); err != nil {
		t.Errorf("s0 with s1 given: %v", err)
	}

	// u0 = item(t): computed from data while the program runs.
	q := readProgram(t, fixtures.ModelDir("mlp")).Clone()
	g := q.Graph
	user := q.UserInputs()[0].Arg.Name
	u0 := ir.SymInt{Expr: &ir.SymExpr{Expr: "Symbol('u0', integer=True)"}}
	g.SymIntValues["item"] = u0
	lo, hi := int64(0), int64(10)
	q.RangeConstraints["u0"] = ir.RangeConstraint{Min: &lo, Max: &hi}
	g.Nodes = append([]*ir.Node{{Name: "item", Target: "torch.ops.aten._local_scalar_dense.default",
		Inputs: []ir.NamedArgument{{Name: "self", Arg: ir.TensorArg(user), Kind: ir.KindPositional}}, Outputs: []ir.Argument{ir.SymIntRef("item")}}}, g.Nodes...)
	_, err = specialize.Program(q, sym.Bindings{"u0": 3})
	wantError(t, "u0", err, "u0", "", "u0 cannot be bound on its own", "node item computes it")
}

// withAssert adds to shift2d the asserts export writes for a guard on the
// length: s1 odd, and 4 <= s1 <= 30.
func withAssert(t testing.TB) *ir.Program {
	t.Helper()
	p := readProgram(t, fixtures.ExtraDir("shift2d")).Clone()
	g := p.Graph
	expr := func(text string) *ir.SymExpr {
		e, err := sym.Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		return &ir.SymExpr{Expr: e.Srepr()}
	}
	pos := func(name string, a ir.Argument) ir.NamedArgument {
		return ir.NamedArgument{Name: name, Arg: a, Kind: ir.KindPositional}
	}
	g.SymIntValues["mod"] = ir.SymInt{Expr: expr("Mod(s1, 2)")}
	g.SymBoolValues["eq"] = ir.SymBool{Expr: expr("Eq(Mod(s1, 2), 1)")}
	nodes := []*ir.Node{
		{Name: "mod", Target: "_operator.mod", Inputs: []ir.NamedArgument{pos("a", ir.SymIntRef("sym_size_int_1")), pos("b", ir.IntArg(2))}, Outputs: []ir.Argument{ir.SymIntRef("mod")}},
		{Name: "eq", Target: "_operator.eq", Inputs: []ir.NamedArgument{pos("a", ir.SymIntRef("mod")), pos("b", ir.IntArg(1))}, Outputs: []ir.Argument{ir.SymBoolRef("eq")}},
		{Name: "_assert_scalar", Target: "torch.ops.aten._assert_scalar.default",
			Inputs:  []ir.NamedArgument{pos("self", ir.SymBoolRef("eq")), pos("assert_msg", ir.StringArg("Runtime assertion failed for expression Eq(Mod(s1, 2), 1) on node 'eq'"))},
			Outputs: []ir.Argument{}},
		{Name: "sym_constrain_range", Target: "torch.ops.aten.sym_constrain_range.default",
			Inputs: []ir.NamedArgument{pos("size", ir.SymIntRef("sym_size_int_1")),
				{Name: "min", Arg: ir.IntArg(4), Kind: ir.KindKeyword}, {Name: "max", Arg: ir.IntArg(30), Kind: ir.KindKeyword}},
			Outputs: []ir.Argument{}},
	}
	i := slices.IndexFunc(g.Nodes, func(n *ir.Node) bool { return n.Name == "sym_size_int_1" })
	g.Nodes = slices.Insert(g.Nodes, i+1, nodes...)
	mustVerify(t, "shift2d with asserts", p)
	return p
}

func TestAsserts(t *testing.T) {
	p := withAssert(t)
	_, err := specialize.Program(p, sym.Bindings{"s0": 2, "s1": 8})
	wantError(t, "s1 = 8", err, "", "_assert_scalar", "s0 = 2, s1 = 8 fails assertion _assert_scalar", "Eq(Mod(s1, 2), 1)")
	_, err = specialize.Program(p, sym.Bindings{"s0": 2, "s1": 31})
	wantError(t, "s1 = 31", err, "", "sym_constrain_range", "fails sym_constrain_range", "31 is outside [4, 30]")

	bind := sym.Bindings{"s0": 2, "s1": 9}
	res, err := specialize.Program(p, bind)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"_assert_scalar", "sym_constrain_range"}; !slices.Equal(res.Asserts, want) {
		t.Errorf("asserts checked: %v, want %v", res.Asserts, want)
	}
	for _, name := range []string{"sym_size_int_1", "mod", "eq"} {
		if !slices.Contains(res.Folded, name) {
			t.Errorf("%s not folded: %v", name, res.Folded)
		}
	}
	mustVerify(t, "specialized", res.Program)
	// The general program runs its asserts; the specialized one has none
	// left and computes the same.
	m, _ := multisym.ModelNamed("shift2d")
	in := toValues(m.Inputs(bind, 3))
	sameOutputs(t, "s1 = 9", run(t, p, in), run(t, res.Program, in))
	if _, err := load(t, p).Run(context.Background(), toValues(m.Inputs(sym.Bindings{"s0": 2, "s1": 8}, 3))); err == nil || !strings.Contains(err.Error(), "Eq(Mod(s1, 2), 1)") {
		t.Errorf("the general program at s1 = 8: %v", err)
	}
}

// TestPartialBinding: binding s0 alone leaves s1 symbolic, with its
// range, and the sizes that use both rewritten.
func TestPartialBinding(t *testing.T) {
	p := readProgram(t, fixtures.ExtraDir("encoder2d"))
	res, err := specialize.Program(p, sym.Bindings{"s0": 2})
	if err != nil {
		t.Fatal(err)
	}
	q := res.Program
	mustVerify(t, "s0 = 2", q)
	if !slices.Equal(res.Free, []string{"s1"}) || len(q.RangeConstraints) != 1 || q.RangeConstraints["s1"].Max == nil {
		t.Errorf("free %v, ranges %v", res.Free, q.RangeConstraints)
	}
	if got := annotate(q, "input_ids"); got != "i64[2, s1]" {
		t.Errorf("input_ids is %s", got)
	}
	found := false
	for name, m := range q.Graph.TensorValues {
		for _, s := range m.Sizes {
			if s.Expr != nil && strings.Contains(s.Expr.Expr, "s0") {
				t.Errorf("%s still has s0: %s", name, s.Expr.Expr)
			}
			if s.Expr != nil && s.Expr.Expr == "Mul(Integer(2), Symbol('s1', positive=True, integer=True))" {
				found = true
			}
		}
	}
	if !found {
		t.Errorf("no size is 2*s1 (s0*s1 at s0 = 2)")
	}
	m, _ := multisym.ModelNamed("encoder2d")
	for _, s1 := range []int64{2, 7, 32} {
		in := toValues(m.Inputs(sym.Bindings{"s0": 2, "s1": s1}, 5))
		sameOutputs(t, "s0 = 2", run(t, p, in), run(t, q, in))
	}
	checkRefused(t, "s0 = 3", load(t, q), toValues(m.Inputs(sym.Bindings{"s0": 3, "s1": 7}, 5)))
}

// TestDeterministicAndPure: the same binding gives the same bytes, and the
// input program is left as it was.
func TestDeterministicAndPure(t *testing.T) {
	for _, dir := range []string{fixtures.ModelDir("cond"), fixtures.ModelDir("gpt2_tiny"), fixtures.ExtraDir("convpool2d")} {
		p := readProgram(t, dir)
		before := programJSON(t, p)
		bind := sym.Bindings{}
		for name, rc := range p.RangeConstraints {
			bind[name] = *rc.Min + 1
		}
		a, err := specialize.Program(p, bind)
		if err != nil {
			t.Fatal(err)
		}
		b, err := specialize.Program(p, bind)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(archiveBytes(t, a.Program), archiveBytes(t, b.Program)) {
			t.Errorf("%s: two specializations at %v differ", dir, bind)
		}
		if after := programJSON(t, p); !bytes.Equal(before, after) {
			t.Errorf("%s: specializing changed the input program", dir)
		}
	}
}

// TestNamesPreserved: every node of a specialization is named as a node
// of the program (a top-level one, or a cond branch's once inlined), so
// partitions of two specializations compare node by node.
func TestNamesPreserved(t *testing.T) {
	for _, f := range allFixtures(t) {
		p := readProgram(t, f.dir)
		names := map[string]bool{}
		_ = p.Graph.Walk(func(_ string, g *ir.Graph) error {
			for _, n := range g.Nodes {
				names[n.Name] = true
			}
			return nil
		})
		bind, err := load(t, p).Bindings(f.cases[0].inputs)
		if err != nil {
			t.Fatal(err)
		}
		res, err := specialize.Program(p, bind)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range res.Program.Graph.Nodes {
			if !names[n.Name] {
				t.Errorf("%s: node %s is not a node of the program", f.name, n.Name)
			}
		}
	}
}

// TestInlineRenamesClashes: a branch node named as a parent value gets the
// first free suffix, and the cond's result is the branch's.
func TestInlineRenamesClashes(t *testing.T) {
	p := readProgram(t, fixtures.ModelDir("cond")).Clone()
	g := p.Graph
	// Name the parent's sym_size node "sin", as the true branch's first node is.
	var size *ir.Node
	for _, n := range g.Nodes {
		if n.Target == "torch.ops.aten.sym_size.int" {
			size = n
		}
	}
	old := size.Name
	size.Name = "sin"
	size.Outputs[0].Name = "sin"
	g.SymIntValues["sin"] = g.SymIntValues[old]
	delete(g.SymIntValues, old)
	for _, n := range g.Nodes {
		for i := range n.Inputs {
			n.Inputs[i].Arg.Rename(func(s string) string {
				if s == old {
					return "sin"
				}
				return s
			})
		}
	}
	mustVerify(t, "renamed cond", p)
	res, err := specialize.Program(p, sym.Bindings{"s77": 6})
	if err != nil {
		t.Fatal(err)
	}
	q := res.Program
	mustVerify(t, "inlined", q)
	var names []string
	for _, n := range q.Graph.Nodes {
		names = append(names, n.Name)
	}
	// The parent's sin is folded away, but its name was the parent's.
	if !slices.Equal(names, []string{"sin_1", "add_6"}) {
		t.Errorf("nodes %v, want the branch's sin as sin_1, and add_6", names)
	}
	if len(res.Inlined) != 1 || res.Inlined[0].Branch != "true_graph_0" || !res.Inlined[0].Pred {
		t.Errorf("inlined %+v", res.Inlined)
	}
	if got := q.Signature.Outputs[0].Arg.Name; got != "add_6" {
		t.Errorf("the output is %s, want the branch's add_6", got)
	}
}

// TestConstantInput: symint_input's n becomes a constant input; the
// runtime takes it in its place and refuses any other value, naming both.
func TestConstantInput(t *testing.T) {
	p := readProgram(t, fixtures.ModelDir("symint_input"))
	res, err := specialize.Program(p, sym.Bindings{"s27": 16, "s86": 5})
	if err != nil {
		t.Fatal(err)
	}
	q := roundTrip(t, res.Program)
	var spec *ir.InputSpec
	for i := range q.Signature.Inputs {
		if q.Signature.Inputs[i].Name == "n" {
			spec = &q.Signature.Inputs[i]
		}
	}
	if spec == nil || spec.Kind != ir.InputConstant || spec.Arg.Kind != ir.ArgInt || spec.Arg.Int != 5 {
		t.Fatalf("n is %+v, want the constant input 5", spec)
	}
	if !slices.Equal(res.Constants, []string{"n"}) {
		t.Errorf("constants %v", res.Constants)
	}
	x, _ := tensor.New(tensor.Float32, 3, 16)
	rp := load(t, q)
	if got := rp.Inputs(); !slices.Equal(got, []string{"x", "n"}) {
		t.Errorf("the program takes %v", got)
	}
	if _, err := rp.Run(context.Background(), []value.Value{value.FromTensor(x), value.FromInt(5)}); err != nil {
		t.Errorf("n = 5: %v", err)
	}
	_, err = rp.Run(context.Background(), []value.Value{value.FromTensor(x), value.FromInt(4)})
	var ie *runtime.InputError
	if !errors.As(err, &ie) || ie.Input != "n" || !strings.Contains(ie.Msg, "is 4") || !strings.Contains(ie.Msg, "n = 5") {
		t.Errorf("n = 4: %v", err)
	}
}

func TestStaticProgramUnchanged(t *testing.T) {
	p := readProgram(t, fixtures.ExtraDir("vit_tiny"))
	res, err := specialize.Program(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(programJSON(t, p), programJSON(t, res.Program)) {
		t.Errorf("specializing a static program to nothing changed it")
	}
	if _, err := specialize.Program(p, sym.Bindings{"s0": 2}); err == nil {
		t.Errorf("binding a symbol of a program without any was accepted")
	}
}

func TestLoweredProgramRefused(t *testing.T) {
	p := readProgram(t, fixtures.ModelDir("mlp")).Clone()
	p.Graph.Nodes = append(p.Graph.Nodes, &ir.Node{Name: "call", Target: ir.DelegateTarget,
		Inputs: []ir.NamedArgument{{Arg: ir.StringArg("lowered_0")}}})
	if _, err := specialize.Program(p, sym.Bindings{"s77": 2}); err == nil || !strings.Contains(err.Error(), "lowered module") {
		t.Errorf("a lowered program: %v", err)
	}
}

func TestParseBind(t *testing.T) {
	name, v, err := specialize.ParseBind(" s53 = 128 ")
	if err != nil || name != "s53" || v != 128 {
		t.Errorf("s53 = 128: %q %d %v", name, v, err)
	}
	for _, bad := range []string{"s53", "=4", "s53=", "s53=1.5", "s53=x", "s53=99999999999999999999"} {
		if _, _, err := specialize.ParseBind(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func annotate(p *ir.Program, name string) string {
	return (&irtext.Printer{}).Annotation(p.Graph, name)
}

func programJSON(t testing.TB, p *ir.Program) []byte {
	t.Helper()
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func archiveBytes(t testing.TB, p *ir.Program) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := pt2.Write(&buf, pt2.NewArchive(map[string]*ir.Program{pt2.MainModel: p}), "static"); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func toValues(ts []*tensor.Tensor) []value.Value {
	out := make([]value.Value, len(ts))
	for i, x := range ts {
		out[i] = runtime.InputValue(x)
	}
	return out
}

func run(t reporter, p *ir.Program, in []value.Value) []value.Value {
	t.Helper()
	outs, err := load(t, p).Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	return outs
}

// sameOutputs: the specialized program computes what the general one does,
// bit for bit (the same kernels on the same sizes).
func sameOutputs(t reporter, what string, want, got []value.Value) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d outputs, want %d", what, len(got), len(want))
	}
	for j := range want {
		w, err1 := runtime.OutputTensor(want[j])
		g, err2 := runtime.OutputTensor(got[j])
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: output %d: %v %v", what, j, err1, err2)
		}
		if _, err := tensor.AllClose(g, w, 0, 0); err != nil {
			t.Errorf("%s: output %d differs from the general program's: %v", what, j, err)
		}
	}
}

// TestCondKeptWhenPredicateSymbolic: binding a symbol the predicate does
// not use keeps the cond, with both branches specialized in place.
func TestCondKeptWhenPredicateSymbolic(t *testing.T) {
	p := readProgram(t, fixtures.ModelDir("cond")).Clone()
	lo, hi := int64(1), int64(64)
	p.RangeConstraints["s5"] = ir.RangeConstraint{Min: &lo, Max: &hi}
	s5 := ir.SymInt{Expr: &ir.SymExpr{Expr: "Symbol('s5', positive=True, integer=True)"}}
	// x: f32[s77, 8] becomes f32[s77, s5] in every graph.
	_ = p.Graph.Walk(func(_ string, g *ir.Graph) error {
		for _, m := range g.TensorValues {
			m.Sizes[1], m.Strides[0] = s5, s5
		}
		return nil
	})
	mustVerify(t, "cond over s77 and s5", p)
	res, err := specialize.Program(p, sym.Bindings{"s5": 8})
	if err != nil {
		t.Fatal(err)
	}
	q := res.Program
	mustVerify(t, "s5 = 8", q)
	if len(res.Inlined) != 0 || !slices.ContainsFunc(q.Graph.Nodes, func(n *ir.Node) bool { return n.Target == "torch.ops.higher_order.cond" }) {
		t.Fatalf("the cond was inlined: %+v", res.Inlined)
	}
	graphs := 0
	_ = q.Graph.Walk(func(path string, g *ir.Graph) error {
		graphs++
		for name, m := range g.TensorValues {
			if !m.Sizes[1].IsStatic() || m.Sizes[1].Int != 8 || m.Sizes[0].IsStatic() {
				t.Errorf("%s %s is %s, want f32[s77, 8]", path, name, (&irtext.Printer{}).TensorAnnotation(m))
			}
		}
		return nil
	})
	if graphs != 3 {
		t.Errorf("%d graphs, want the parent and both branches", graphs)
	}
	for _, c := range allFixturesNamed(t, "cond").cases {
		sameOutputs(t, c.name, run(t, p, c.inputs), run(t, q, c.inputs))
		checkOutputs(t, c.name, run(t, q, c.inputs), c.outputs)
	}
}
