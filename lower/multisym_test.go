package lower_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/delegate"
	"github.com/seam-rt/seam/fixtures/multisym"
	"github.com/seam-rt/seam/inspect"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/lower"
	"github.com/seam-rt/seam/runtime"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
	"github.com/seam-rt/seam/verify"
)

// bindings are the bindings a program is run on: every corner of its
// symbols' ranges, its reference cases, and a few drawn at random.
func bindings(p *ir.Program, cases []map[string]int64, rng *rand.Rand, random int) []map[string]int64 {
	names := ir.SortedKeys(p.RangeConstraints)
	var out []map[string]int64
	for corner := 0; corner < 1<<len(names); corner++ {
		b := map[string]int64{}
		for i, s := range names {
			rc := p.RangeConstraints[s]
			b[s] = *rc.Min
			if corner&(1<<i) != 0 {
				b[s] = *rc.Max
			}
		}
		out = append(out, b)
	}
	out = append(out, cases...)
	for i := 0; i < random; i++ {
		b := map[string]int64{}
		for _, s := range names {
			rc := p.RangeConstraints[s]
			b[s] = *rc.Min + rng.Int64N(*rc.Max-*rc.Min+1)
		}
		out = append(out, b)
	}
	return out
}

// runAll runs a program on each input set in order, one loaded program.
func runAll(p *runtime.Program, inputs [][]value.Value) ([][]value.Value, error) {
	var outs [][]value.Value
	for i, in := range inputs {
		o, err := p.Run(context.Background(), in)
		if err != nil {
			return nil, fmt.Errorf("inputs %d: %w", i, err)
		}
		outs = append(outs, o)
	}
	return outs, nil
}

func sameOutputs(got, want [][]value.Value) error {
	for i := range want {
		if len(got[i]) != len(want[i]) {
			return fmt.Errorf("inputs %d: %d outputs, want %d", i, len(got[i]), len(want[i]))
		}
		for j := range want[i] {
			g, err := runtime.OutputTensor(got[i][j])
			if err != nil {
				return err
			}
			w, _ := runtime.OutputTensor(want[i][j])
			if _, err := tensor.AllClose(g, w, 1e-4, 1e-5); err != nil {
				return fmt.Errorf("inputs %d, output %d: %w", i, j, err)
			}
		}
	}
	return nil
}

// cutProfile is a backend that takes ops (every op, or ATen tensor ops
// only, so that every symbolic value is made outside the modules) but not
// the node named cut, with the given contract for symbolic values.
func cutProfile(t testing.TB, cut string, tensorOps bool, acc backend.Acceptance, dynamic bool) *backend.Profile {
	ops := `{"include": ["*"]}`
	if tensorOps {
		ops = `{"include": ["aten.*"], "exclude": ["aten.sym_*", "aten._local_scalar_dense.*"]}`
	}
	text := fmt.Sprintf(`{"name": "cut", "ops": %s, "exclude_nodes": [%q],
		"placeholders": {"sym_int": %q, "sym_bool": %q, "sym_float": %q}, "dynamic_shapes": %v}`,
		ops, cut, acc, acc, acc, dynamic)
	prof, err := backend.Parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return prof
}

// lowering is what one lowering gave: its result or its refusal.
type lowering struct {
	name string
	res  *lower.Result
	err  error
	pol  lower.Policy
}

// checkLowering: a refusal names the value, its producer and its consumer
// (and the default policy never refuses); a result verifies, and runs the
// inputs as the original does.
func checkLowering(t *testing.T, l lowering, inputs [][]value.Value, want [][]value.Value, ran map[[32]byte]bool) {
	t.Helper()
	var refusal *lower.Error
	switch {
	case errors.As(l.err, &refusal):
		if refusal.Value == "" || refusal.Producer == "" || refusal.Consumer == "" || !strings.Contains(l.err.Error(), refusal.Value) {
			t.Errorf("%s: a refusal that does not name the value, its producer and its consumer: %v", l.name, l.err)
		}
		if l.pol == lower.Auto {
			t.Errorf("%s: the default policy refused: %v", l.name, l.err)
		}
		return
	case l.err != nil:
		t.Errorf("%s: %v", l.name, l.err)
		return
	}
	// Lower has verified the program (verify.Lowered), or it would have
	// reported a BugError. Identical lowered programs (many policies give
	// one result) run once: they have the same modules and crossings.
	h := sha256.New()
	for _, m := range l.res.Modules {
		fmt.Fprintln(h, m.Name, m.Nodes, m.Program.Graph.InputNames())
	}
	fmt.Fprintln(h, l.res.Crossings, l.res.Removed)
	var key [32]byte
	copy(key[:], h.Sum(nil))
	if ran[key] {
		return
	}
	ran[key] = true
	p, err := runtime.LoadLowered(l.res.Lowered, runtime.Options{})
	if err != nil {
		t.Errorf("%s: verified, yet does not load: %v", l.name, err)
		return
	}
	got, err := runAll(p, inputs)
	if err == nil {
		err = sameOutputs(got, want)
	}
	if err != nil {
		t.Errorf("%s: verified, yet does not run as the original does: %v", l.name, err)
	}
}

// TestMultiSymbolCuts cuts each multi-symbol program at every node, for a
// backend that takes every op or only tensor ops, under every contract
// (sym_int refused, taken as an int, taken as a tensor; dynamic and static
// shapes) and every policy. Each lowering verifies or refuses naming the
// value, and the lowered program computes what the original computes on
// every corner of the symbols' ranges, the reference cases and random
// bindings.
func TestMultiSymbolCuts(t *testing.T) {
	accs := []backend.Acceptance{backend.Refuse, backend.Scalar, backend.Tensor}
	for _, m := range multisym.Models() {
		t.Run(m.Name, func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(7, 7))
			var inputs [][]value.Value
			for i, b := range bindings(m.Program, m.Cases, rng, 2) {
				var in []value.Value
				for _, x := range m.Inputs(b, uint64(100+i)) {
					in = append(in, value.FromTensor(x))
				}
				inputs = append(inputs, in)
			}
			orig, err := runtime.Load(m.Program, runtime.Options{})
			if err != nil {
				t.Fatal(err)
			}
			want, err := runAll(orig, inputs)
			if err != nil {
				t.Fatal(err)
			}
			ran := map[[32]byte]bool{}
			lowered, refused := 0, 0
			for _, n := range m.Program.Graph.Nodes {
				for _, tensorOps := range []bool{false, true} {
					for _, acc := range accs {
						for _, dynamic := range []bool{true, false} {
							prof := cutProfile(t, n.Name, tensorOps, acc, dynamic)
							for _, pol := range lower.Policies() {
								res, err := delegate.Program(m.Program, prof, delegate.Options{Policy: pol})
								name := fmt.Sprintf("cut at %s, tensor ops %v, sym_int %s, dynamic %v, policy %s", n.Name, tensorOps, acc, dynamic, pol)
								checkLowering(t, lowering{name, res, err, pol}, inputs, want, ran)
								if err == nil {
									lowered++
								} else {
									refused++
								}
							}
						}
					}
				}
			}
			t.Logf("%d lowerings (%d distinct programs run on %d bindings), %d refusals", lowered, len(ran), len(inputs), refused)
		})
	}
}

// TestLowerRandomMultiSymbol: for random multi-symbol programs, random cuts
// (nodes excluded at random), random contracts and a random policy, what
// lowering writes and verify accepts runs on random admissible bindings
// (and the corners of the ranges) and computes what the original does.
func TestLowerRandomMultiSymbol(t *testing.T) {
	accs := []backend.Acceptance{backend.Refuse, backend.Scalar, backend.Tensor}
	rapid.Check(t, func(rt *rapid.T) {
		seed := rapid.Uint64Range(0, 1<<20).Draw(rt, "program")
		m := multisym.Random(seed)
		prof, _ := backend.Builtin("reference")
		prof.Name = "random"
		if rapid.Bool().Draw(rt, "tensor ops only") {
			prof.Ops = backend.OpSet{Include: []string{"aten.*"}, Exclude: []string{"aten.sym_*"}}
		}
		for _, n := range m.Program.Graph.Nodes {
			if rapid.IntRange(0, 3).Draw(rt, "exclude "+n.Name) == 0 {
				prof.ExcludeNodes = append(prof.ExcludeNodes, n.Name)
			}
		}
		prof.Placeholders.SymInt = rapid.SampledFrom(accs).Draw(rt, "sym_int")
		prof.DynamicShapes = rapid.IntRange(0, 4).Draw(rt, "static") > 0
		prof.SingleNodePartitions = rapid.Bool().Draw(rt, "single")
		prof.OwnsWeights = rapid.Bool().Draw(rt, "owns_weights")
		prof, err := backend.Parse(mustProfileJSON(rt, prof))
		if err != nil {
			rt.Fatal(err)
		}
		pol := rapid.SampledFrom(lower.Policies()).Draw(rt, "policy")
		res, err := delegate.Program(m.Program, prof, delegate.Options{Policy: pol})
		var refusal *lower.Error
		switch {
		case errors.As(err, &refusal):
			if refusal.Value == "" || refusal.Producer == "" || refusal.Consumer == "" || pol == lower.Auto {
				rt.Fatalf("refusal under %s: %v", pol, err)
			}
			return
		case err != nil:
			rt.Fatal(err)
		}
		if vs := verify.Errors(verify.Lowered(res.Lowered)); len(vs) > 0 {
			rt.Fatalf("Lower returned a program that does not verify: %v", vs)
		}
		rng := rand.New(rand.NewPCG(seed, 1))
		var inputs [][]value.Value
		for i, b := range bindings(m.Program, nil, rng, 3) {
			var in []value.Value
			for _, x := range m.Inputs(b, uint64(i)) {
				in = append(in, value.FromTensor(x))
			}
			inputs = append(inputs, in)
		}
		orig, err := runtime.Load(m.Program, runtime.Options{})
		if err != nil {
			rt.Fatal(err)
		}
		want, err := runAll(orig, inputs)
		if err != nil {
			rt.Fatal(err)
		}
		p, err := runtime.LoadLowered(res.Lowered, runtime.Options{})
		if err != nil {
			rt.Fatalf("verified, yet does not load: %v", err)
		}
		got, err := runAll(p, inputs)
		if err == nil {
			err = sameOutputs(got, want)
		}
		if err != nil {
			rt.Fatalf("verified, yet does not run as the original does: %v", err)
		}
	})
}

func mustProfileJSON(rt *rapid.T, p *backend.Profile) []byte {
	var sb strings.Builder
	if err := p.WriteJSON(&sb); err != nil {
		rt.Fatal(err)
	}
	return []byte(sb.String())
}

// TestModuleSignaturesTellTheTruth: for matmul-only, encoder2d's linear
// layers become modules given only f32[s0*s1, 16]: the report says the
// module gets s0*s1 as a whole, with its range, and binds no symbol; the
// runtime runs it (it needs neither s0 nor s1), while the attention's
// module, given f32[4*s0, s1, 4], determines both.
func TestModuleSignaturesTellTheTruth(t *testing.T) {
	m, _ := multisym.ModelNamed("encoder2d")
	prof, _ := backend.Builtin("matmul-only")
	res, err := delegate.Program(m.Program, prof, delegate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep := res.Report(inspect.Options{}, prof.Name, lower.Auto)
	var linear, attention *lower.ModuleReport
	for i := range rep.Modules {
		switch rep.Modules[i].Nodes[0] {
		case "addmm":
			linear = &rep.Modules[i]
		case "bmm":
			attention = &rep.Modules[i]
		}
	}
	if linear == nil || attention == nil {
		t.Fatalf("modules %+v", rep.Modules)
	}
	want := []lower.GivenSize{{Expr: "s0*s1", Range: "[2, 256]", Whole: true, From: []string{"view dim 0"}}}
	if !reflect.DeepEqual(linear.Sizes, want) {
		t.Errorf("%s: sizes %+v, want %+v", linear.Name, linear.Sizes, want)
	}
	var syms []string
	for _, g := range attention.Sizes {
		if !g.Whole {
			syms = append(syms, g.Expr)
		}
	}
	if !slices.Equal(syms, []string{"s0", "s1"}) {
		t.Errorf("%s: determines %v, want s0 and s1 (%+v)", attention.Name, syms, attention.Sizes)
	}
	lm, _ := res.Module(linear.Name)
	for _, s := range []string{"s0", "s1"} {
		if _, ok := lm.Program.RangeConstraints[s]; !ok {
			t.Errorf("%s lacks the range of %s, which its sizes use", linear.Name, s)
		}
	}
}
