package verify_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/delegate"
	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/lower"
	"github.com/seam-rt/seam/npy"
	"github.com/seam-rt/seam/runtime"
	"github.com/seam-rt/seam/sym"
	"github.com/seam-rt/seam/value"
	"github.com/seam-rt/seam/verify"
)

func lowered(t *testing.T, model, profile string, relax bool) *ir.Lowered {
	t.Helper()
	prof, _ := backend.Builtin(profile)
	pol := lower.Auto
	if relax {
		// The contract takes SymInts, and policy fail passes them.
		// (A changed contract is another backend's, under its own name.)
		prof.Name += "-sym-int"
		prof.Placeholders.SymInt = backend.Scalar
		pol = lower.Fail
	}
	res, err := delegate.Program(load(t, model), prof, delegate.Options{Policy: pol})
	if err != nil {
		t.Fatal(err)
	}
	return res.Lowered
}

func caseInputs(t *testing.T, model, c string) []value.Value {
	t.Helper()
	rc, err := npy.ReadCase(os.DirFS(filepath.Join(fixtures.ModelDir(model), "io", c)))
	if err != nil {
		t.Fatal(err)
	}
	if len(rc.Inputs) == 0 {
		t.Fatalf("%s %s: no inputs", model, c)
	}
	var in []value.Value
	for _, x := range rc.Inputs {
		in = append(in, runtime.InputValue(x))
	}
	return in
}

// TestVerifyCoversRun: each way a lowered archive can be broken that the
// runtime refuses, when it loads the program or calls a delegate, verify
// reports as an error of the right rule. (The converse, that what verify
// accepts runs, is what TestMatrix and the property tests measure.)
func TestVerifyCoversRun(t *testing.T) {
	tensorOnly, _ := backend.Builtin("tensor-only")
	var tensorOnlyJSON strings.Builder
	tensorOnly.WriteJSON(&tensorOnlyJSON)
	cases := []struct {
		name  string
		model string
		make  func(t *testing.T) *ir.Lowered
		rule  verify.Rule
	}{
		{"a called module has no delegate record", "gpt2_tiny", func(t *testing.T) *ir.Lowered {
			l := lowered(t, "gpt2_tiny", "tensor-only", false)
			l.Modules["lowered_module_1"].Delegate = nil
			return l
		}, verify.DelegateCall},
		{"a backend neither built in nor recorded", "gpt2_tiny", func(t *testing.T) *ir.Lowered {
			l := lowered(t, "gpt2_tiny", "tensor-only", false)
			l.Modules["lowered_module_0"].Delegate = &ir.Delegate{Backend: "mystery-npu"}
			return l
		}, verify.DelegateCall},
		{"a module calls itself", "gpt2_tiny", func(t *testing.T) *ir.Lowered {
			l := lowered(t, "gpt2_tiny", "tensor-only", false)
			g := l.Modules["lowered_module_0"].Program.Graph
			n := g.Nodes[len(g.Nodes)-1]
			args := n.Inputs
			n.Target = ir.DelegateTarget
			n.Inputs = append([]ir.NamedArgument{{Name: "lowered_module_0", Arg: ir.StringArg("lowered_module_0"), Kind: ir.KindPositional}}, args[:1]...)
			return l
		}, verify.DelegateCall},
		{"a call to a module that does not exist", "gpt2_tiny", func(t *testing.T) *ir.Lowered {
			l := lowered(t, "gpt2_tiny", "tensor-only", false)
			for _, n := range l.Main.Graph.Nodes {
				if n.Target == ir.DelegateTarget {
					n.Inputs[0].Arg = ir.StringArg("lowered_module_9")
					break
				}
			}
			return l
		}, verify.DelegateCall},
		{"a cond branch returns more than its node", "cond", func(t *testing.T) *ir.Lowered {
			p := load(t, "cond").Clone()
			b := nodeNamed(t, p.Graph, "cond").SubGraphs()[1].Graph
			b.Outputs = append(b.Outputs, b.Outputs[0])
			return &ir.Lowered{Main: p}
		}, verify.NestedGraph},
		{"a recorded contract the module breaks", "gpt2_tiny", func(t *testing.T) *ir.Lowered {
			l := lowered(t, "gpt2_tiny", "tensor-only", true) // a SymInt placeholder ...
			for _, m := range l.Modules {
				m.Delegate.Contract = []byte(tensorOnlyJSON.String()) // ... for a tensor-only backend
			}
			return l
		}, verify.ContractSymbolic},
		{"an argument that does not fit its placeholder", "gpt2_tiny", func(t *testing.T) *ir.Lowered {
			l := lowered(t, "gpt2_tiny", "tensor-only", false)
			m := l.Modules["lowered_module_1"].Program
			in := m.Graph.Inputs[len(m.Graph.Inputs)-1].Name
			meta := m.Graph.TensorValues[in].Clone()
			meta.DType = ir.Float64
			m.Graph.TensorValues[in] = meta
			return l
		}, verify.DelegateCall},
		{"a module admits less than the program", "gpt2_tiny", func(t *testing.T) *ir.Lowered {
			l := lowered(t, "gpt2_tiny", "tensor-only", false)
			m := l.Modules["lowered_module_1"].Program
			rc := m.RangeConstraints["s53"]
			max := int64(8)
			rc.Max = &max
			m.RangeConstraints["s53"] = rc
			return l
		}, verify.ModuleRange},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := c.make(t)
			errs := verify.Errors(verify.Lowered(l))
			found := false
			for _, v := range errs {
				found = found || v.Rule == c.rule
			}
			if !found {
				t.Errorf("verify: %v, want a %s error", errs, c.rule)
			}
			// The runtime refuses it too: at load, or when it runs a case
			// (gpt2_tiny's case3 has length 128, beyond a narrowed range;
			// cond's case1 takes the false branch).
			p, err := runtime.LoadLowered(l, runtime.Options{})
			if err == nil {
				ref := "case3"
				if c.model == "cond" {
					ref = "case1"
				}
				_, err = p.Run(context.Background(), caseInputs(t, c.model, ref))
			}
			if err == nil {
				t.Error("the runtime ran it")
			}

		})
	}
}

// TestNeedsSymbol: a module given only f32[s0*s1, 16] whose node makes
// f32[s0, s1, 16] needs s0 and s1 on their own, which nothing it is given
// determines; given s0 as well (a SymInt input), s1 follows and it
// verifies.
func TestNeedsSymbol(t *testing.T) {
	s0 := sym.Sym("s0", sym.Assumption{Name: "positive", Value: "True"}, sym.Assumption{Name: "integer", Value: "True"})
	s1 := sym.Sym("s1", sym.Assumption{Name: "positive", Value: "True"}, sym.Assumption{Name: "integer", Value: "True"})
	build := func(withS0 bool) *ir.Program {
		tv := func(sizes ...*sym.Expr) *ir.TensorMeta {
			m := &ir.TensorMeta{DType: ir.Float32, Device: ir.Device{Type: "cpu"}, Layout: ir.Strided}
			for _, s := range sizes {
				if v, ok := s.Int64(); ok {
					m.Sizes = append(m.Sizes, ir.IntSym(v))
				} else {
					m.Sizes = append(m.Sizes, ir.ExprSym(s.Srepr()))
				}
			}
			return m
		}
		g := &ir.Graph{
			TensorValues: map[string]*ir.TensorMeta{"x": tv(sym.Mul(s0, s1), sym.Int(16)), "y": tv(s0, s1, sym.Int(16))},
			SymIntValues: map[string]ir.SymInt{}, SymBoolValues: map[string]ir.SymBool{}, SymFloatValues: map[string]ir.SymFloat{},
			Inputs: []ir.Argument{ir.TensorArg("x")}, Outputs: []ir.Argument{ir.TensorArg("y")},
		}
		sizes := ir.Argument{Kind: ir.ArgSymInts, List: []ir.Argument{ir.SymIntLit(-1), ir.SymIntLit(2), ir.SymIntLit(16)}}
		if withS0 {
			g.Inputs = append(g.Inputs, ir.SymIntRef("n"))
			g.SymIntValues["n"] = ir.ExprSym(s0.Srepr())
			sizes.List[0] = ir.SymIntRef("n")
		}
		g.Nodes = []*ir.Node{{Name: "y", Target: "torch.ops.aten.view.default", Outputs: []ir.Argument{ir.TensorArg("y")},
			Inputs: []ir.NamedArgument{{Name: "self", Arg: ir.TensorArg("x"), Kind: ir.KindPositional}, {Name: "size", Arg: sizes, Kind: ir.KindPositional}}}}
		p := &ir.Program{Graph: g, RangeConstraints: map[string]ir.RangeConstraint{
			"s0": {Min: ptr[int64](1), Max: ptr[int64](8)}, "s1": {Min: ptr[int64](2), Max: ptr[int64](32)}}}
		for _, in := range g.Inputs {
			p.Signature.Inputs = append(p.Signature.Inputs, ir.InputSpec{Kind: ir.InputUser, Arg: in})
		}
		p.Signature.Outputs = []ir.OutputSpec{{Kind: ir.OutputUser, Arg: ir.TensorArg("y")}}
		return p
	}
	vs := verify.Errors(verify.Program(build(false), verify.Options{}))
	if len(vs) != 2 {
		t.Errorf("got %v, want needs-symbol errors at y for s0 and s1", vs)
	}
	for i, s := range []string{"s0", "s1"} {
		if i < len(vs) && (vs[i].Rule != verify.NeedsSymbol || vs[i].Node != "y" || !strings.Contains(vs[i].Msg, "needs "+s+" on its own")) {
			t.Errorf("got %v, want a needs-symbol error at y for %s", vs[i], s)
		}
	}
	if vs := verify.Errors(verify.Program(build(true), verify.Options{})); len(vs) != 0 {
		t.Errorf("given s0: %v", vs)
	}
}
