package verify_test

import (
	"slices"
	"testing"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/verify"
)

func nodeNamed(t *testing.T, g *ir.Graph, name string) *ir.Node {
	t.Helper()
	for _, n := range g.Nodes {
		if n.Name == name {
			return n
		}
	}
	t.Fatalf("no node %s", name)
	return nil
}

func ptr[T any](v T) *T { return &v }

// TestEachRuleBroken breaks one rule in a copy of a fixture and expects
// violations of that rule and no other.
func TestEachRuleBroken(t *testing.T) {
	cases := []struct {
		rule    verify.Rule
		fixture string
		breakIt func(t *testing.T, p *ir.Program)
		node    string // the node, input or output the violation must name
	}{
		{verify.InputCount, "seed_like", func(t *testing.T, p *ir.Program) {
			p.Signature.Inputs = p.Signature.Inputs[:len(p.Signature.Inputs)-1]
		}, "inputs"},
		{verify.InputName, "mlp", func(t *testing.T, p *ir.Program) {
			p.Signature.Inputs[0].Arg.Name = "someone_else"
		}, "p_l1_weight"},
		{verify.InputKind, "seed_like", func(t *testing.T, p *ir.Program) {
			p.Signature.Inputs[3].Arg = ir.SymIntRef("input_ids")
		}, "input_ids"},
		{verify.OutputCount, "mlp", func(t *testing.T, p *ir.Program) {
			p.Signature.Outputs = append(p.Signature.Outputs, p.Signature.Outputs[0])
		}, "outputs"},
		{verify.OutputName, "seed_like", func(t *testing.T, p *ir.Program) {
			p.Signature.Outputs[0].Arg = ir.TensorArg("embedding")
		}, "output 0"},
		{verify.OutputOrder, "buffer_mutation", func(t *testing.T, p *ir.Program) {
			o, s := p.Graph.Outputs, p.Signature.Outputs
			o[0], o[1] = o[1], o[0]
			s[0], s[1] = s[1], s[0]
		}, "output 1"},
		{verify.UniqueName, "mlp", func(t *testing.T, p *ir.Program) {
			p.Graph.Nodes[1].Name = p.Graph.Nodes[0].Name
		}, ""},
		{verify.DefinedBeforeUse, "seed_like", func(t *testing.T, p *ir.Program) {
			n := p.Graph.Nodes
			n[1], n[2] = n[2], n[1] // permute before the embedding it reads
		}, "permute"},
		{verify.WeightMissing, "mlp", func(t *testing.T, p *ir.Program) {
			delete(p.Weights, p.Signature.Inputs[0].Target)
		}, "p_l1_weight"},
		{verify.WeightMismatch, "mlp", func(t *testing.T, p *ir.Program) {
			fqn := p.Signature.Inputs[0].Target
			w := *p.Weights[fqn]
			w.Meta = w.Meta.Clone()
			w.Meta.DType = ir.Float64
			p.Weights[fqn] = &w
		}, "p_l1_weight"},
		{verify.BufferMutation, "buffer_mutation", func(t *testing.T, p *ir.Program) {
			p.Signature.Outputs[0].Target = "no_such_buffer"
		}, "add"},
		{verify.UserInputMutation, "buffer_mutation", func(t *testing.T, p *ir.Program) {
			p.Signature.Outputs[0].Kind = ir.OutputUserInputMutation
		}, "add"},
		{verify.MissingMeta, "mlp", func(t *testing.T, p *ir.Program) {
			delete(p.Graph.TensorValues, "relu")
		}, "relu"},
		{verify.UnboundSymbol, "mlp", func(t *testing.T, p *ir.Program) {
			p.Graph.TensorValues["relu"].Sizes[0] = ir.ExprSym("Symbol('s999', positive=True, integer=True)")
		}, "relu"},
		{verify.BadRange, "mlp", func(t *testing.T, p *ir.Program) {
			p.RangeConstraints["s77"] = ir.RangeConstraint{Min: ptr[int64](100), Max: ptr[int64](64)}
		}, "s77"},
		{verify.UnknownOp, "mlp", func(t *testing.T, p *ir.Program) {
			nodeNamed(t, p.Graph, "relu").Target = "torch.ops.aten.frobnicate.default"
		}, "relu"},
		{verify.DisallowedOp, "sym_float", func(t *testing.T, p *ir.Program) {
			nodeNamed(t, p.Graph, "mul_3").Target = "builtins.print"
		}, "mul_3"},
		{verify.NotFunctional, "mlp", func(t *testing.T, p *ir.Program) {
			n := nodeNamed(t, p.Graph, "relu")
			n.Target = "torch.ops.aten.mul_.Tensor"
			n.Inputs = append(n.Inputs, ir.NamedArgument{Name: "other", Arg: ir.FloatArg(2), Kind: ir.KindPositional})
		}, "relu"},
		{verify.OpArguments, "mlp", func(t *testing.T, p *ir.Program) {
			n := nodeNamed(t, p.Graph, "relu")
			n.Inputs = append(n.Inputs, ir.NamedArgument{Name: "inplace", Arg: ir.BoolArg(true), Kind: ir.KindKeyword})
		}, "relu"},
		{verify.OpArgumentKind, "seed_like", func(t *testing.T, p *ir.Program) {
			nodeNamed(t, p.Graph, "permute").Inputs[1].Arg = ir.StringArg("0, 2, 1")
		}, "permute"},
		{verify.OpReturns, "mlp", func(t *testing.T, p *ir.Program) {
			n := nodeNamed(t, p.Graph, "relu")
			n.Outputs = append(n.Outputs, ir.TensorArg("relu_extra"))
			p.Graph.TensorValues["relu_extra"] = p.Graph.TensorValues["relu"]
		}, "relu"},
		{verify.NestedGraph, "cond", func(t *testing.T, p *ir.Program) {
			b := nodeNamed(t, p.Graph, "cond").SubGraphs()[0].Graph
			b.Outputs = append(b.Outputs, b.Outputs[0])
		}, "cond"},
		{verify.DelegateCall, "mlp", func(t *testing.T, p *ir.Program) {
			nodeNamed(t, p.Graph, "relu").Target = ir.DelegateTarget
		}, "relu"},
	}
	seen := map[verify.Rule]bool{}
	for _, c := range cases {
		t.Run(string(c.rule), func(t *testing.T) {
			p := load(t, c.fixture).Clone()
			c.breakIt(t, p)
			vs := verify.Program(p, verify.Options{})
			if len(vs) == 0 {
				t.Fatal("no violation")
			}
			for _, v := range vs {
				if v.Rule != c.rule {
					t.Errorf("unexpected %v", v)
				}
				if c.node != "" && v.Node != c.node {
					t.Errorf("%v names %q, want %q", v, v.Node, c.node)
				}
			}
		})
		seen[c.rule] = true
	}
	if len(seen) < 15 {
		t.Errorf("only %d rules broken", len(seen))
	}
}

func TestContract(t *testing.T) {
	tensorOnly, _ := backend.Builtin("tensor-only")
	static, _ := backend.Builtin("static-shapes")
	scalar, _ := backend.Builtin("scalar-args")
	f64only, err := backend.Parse([]byte(`{"name": "f64", "ops": {"include": ["*"]}, "dtypes": ["f64"]}`))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		fixture string
		prof    *backend.Profile
		rule    verify.Rule
		nodes   []string
	}{
		{"symint_input", tensorOnly, verify.ContractSymbolic, []string{"n"}},
		{"mlp", f64only, verify.ContractDType, []string{"x", "addmm_1"}},
		{"mlp", static, verify.ContractDynamic, []string{"x", "addmm_1"}},
		{"symint_input", scalar, "", nil},
	}
	for _, c := range cases {
		vs := verify.Contract(load(t, c.fixture), c.prof)
		var got []string
		for _, v := range vs {
			if v.Rule != c.rule {
				t.Errorf("%s/%s: unexpected %v", c.fixture, c.prof.Name, v)
			}
			got = append(got, v.Node)
		}
		if !slices.Equal(got, c.nodes) {
			t.Errorf("%s/%s: violations at %v, want %v", c.fixture, c.prof.Name, got, c.nodes)
		}
	}
}
