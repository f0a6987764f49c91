package delegate_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/delegate"
	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/fixtures/multisym"
	"github.com/seam-rt/seam/inspect"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/lower"
	"github.com/seam-rt/seam/npy"
	"github.com/seam-rt/seam/pt2"
	"github.com/seam-rt/seam/runtime"
	"github.com/seam-rt/seam/specialize"
	"github.com/seam-rt/seam/sym"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
	"github.com/seam-rt/seam/verify"
)

// symFixture is a fixture with a symbol, its reference cases and the
// binding each case's inputs make.
type symFixture struct {
	name  string
	prog  *ir.Program
	cases []symCase
}

type symCase struct {
	name string
	in   []value.Value
	out  []*tensor.Tensor
	bind sym.Bindings
}

func symFixtures(t *testing.T) []symFixture {
	t.Helper()
	var out []symFixture
	add := func(name, dir string) {
		p := fixtures.Load(t, filepath.Join(dir, "model.pt2"))
		if len(p.RangeConstraints) == 0 {
			return
		}
		rp, err := runtime.Load(p, runtime.Options{Threads: 1})
		if err != nil {
			t.Fatal(err)
		}
		f := symFixture{name: name, prog: p}
		for _, d := range fixtures.CasesIn(dir) {
			rc, err := npy.ReadCase(os.DirFS(d))
			if err != nil {
				t.Fatal(err)
			}
			c := symCase{name: filepath.Base(d), out: rc.Outputs}
			for _, x := range rc.Inputs {
				c.in = append(c.in, runtime.InputValue(x))
			}
			if c.bind, err = rp.Bindings(c.in); err != nil {
				t.Fatalf("%s %s: %v", name, c.name, err)
			}
			f.cases = append(f.cases, c)
		}
		out = append(out, f)
	}
	for _, name := range fixtures.Models() {
		add(name, fixtures.ModelDir(name))
	}
	for _, name := range fixtures.Extras() {
		add("extra/"+name, fixtures.ExtraDir(name))
	}
	return out
}

// staticProfiles are the static-shape backends the specializations are
// lowered for: the built-in one, and an f32-only NPU as a user describes it.
func staticProfiles(t *testing.T) []*backend.Profile {
	builtin, ok := backend.Builtin("static-shapes")
	if !ok {
		t.Fatal("no static-shapes profile")
	}
	npu, err := backend.Parse([]byte(`{"name": "f32-static-npu", "ops": {"include": ["aten.*"]}, "dtypes": ["f32"], "dynamic_shapes": false}`))
	if err != nil {
		t.Fatal(err)
	}
	return []*backend.Profile{builtin, npu}
}

// caseBindings are the distinct bindings of a fixture's cases, in order.
func caseBindings(f symFixture) []sym.Bindings {
	var out []sym.Bindings
	for _, c := range f.cases {
		if !slices.ContainsFunc(out, func(b sym.Bindings) bool { return b.String() == c.bind.String() }) {
			out = append(out, c.bind)
		}
	}
	return out
}

// roundTripLowered writes the lowered program as seam lower -o does and
// reads it back.
func roundTripLowered(t *testing.T, l *ir.Lowered) *ir.Lowered {
	t.Helper()
	var buf bytes.Buffer
	if err := pt2.Write(&buf, pt2.FromLowered(l, nil), "low"); err != nil {
		t.Fatal(err)
	}
	a, err := pt2.ReadBytes(buf.Bytes(), "low.pt2")
	if err != nil {
		t.Fatal(err)
	}
	back, err := a.Lowered()
	if err != nil {
		t.Fatal(err)
	}
	return back
}

func matches(got []value.Value, want []*tensor.Tensor) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d outputs, want %d", len(got), len(want))
	}
	for j := range want {
		g, err := runtime.OutputTensor(got[j])
		if err == nil {
			_, err = tensor.AllClose(g, want[j], 1e-4, 1e-5)
		}
		if err != nil {
			return fmt.Errorf("output %d: %v", j, err)
		}
	}
	return nil
}

// TestSpecializedFixtures is issue 13's Done-when: every fixture with a
// symbol, specialized at each reference case's binding and lowered for a
// static-shape backend (the built-in one, and an f32-only user profile),
// written and read back, verifies; every case runs through its
// specialization's delegates and matches PyTorch; and inputs of another
// size (a case's, sliced) run the general path and match the original
// program. `go test -v -run TestSpecializedFixtures` prints the delegated
// nodes without and with specializing.
func TestSpecializedFixtures(t *testing.T) {
	ctx := context.Background()
	t.Logf("%-22s %-16s %-34s %s", "fixture", "backend", "binding", "delegated/nodes: general, specialized")
	for _, f := range symFixtures(t) {
		binds := caseBindings(f)
		for _, prof := range staticProfiles(t) {
			res, err := delegate.Specialize(f.prog, prof, delegate.Options{}, binds)
			if err != nil {
				t.Errorf("%s for %s: %v", f.name, prof.Name, err)
				continue
			}
			rep := res.Report(inspect.Options{}, prof.Name, lower.Auto)
			for _, s := range rep.Specializations {
				t.Logf("%-22s %-16s %-34s %d/%d, %d/%d", f.name, prof.Name, s.Bind, rep.Delegated, rep.Nodes, s.Delegated, s.Nodes)
				if s.Delegated < rep.Delegated {
					t.Errorf("%s for %s at %s: %d nodes delegated, %d on the general path", f.name, prof.Name, s.Bind, s.Delegated, rep.Delegated)
				}
			}
			l := roundTripLowered(t, res.Lowered)
			if vs := verify.Errors(verify.Lowered(l)); len(vs) > 0 {
				t.Errorf("%s for %s: the written program does not verify: %v", f.name, prof.Name, vs)
				continue
			}
			if len(l.Specializations) != len(binds) {
				t.Fatalf("%s: %d specializations read back, %d written", f.name, len(l.Specializations), len(binds))
			}
			p, err := runtime.LoadLowered(l, runtime.Options{Threads: 1})
			if err != nil {
				t.Errorf("%s for %s: load: %v", f.name, prof.Name, err)
				continue
			}
			for _, c := range f.cases {
				i := p.Dispatch(c.bind)
				if i < 0 || p.Specializations()[i].String() != c.bind.String() {
					t.Errorf("%s %s for %s: dispatched to %d, not the specialization at %s", f.name, c.name, prof.Name, i, c.bind)
					continue
				}
				outs, times, err := p.RunTimed(ctx, c.in)
				if err != nil {
					t.Errorf("%s %s for %s: %v", f.name, c.name, prof.Name, err)
					continue
				}
				if err := matches(outs, c.out); err != nil {
					t.Errorf("%s %s for %s: %v", f.name, c.name, prof.Name, err)
				}
				calls := l.Specializations[i].Main.Calls()
				ran := 0
				for _, dt := range times {
					if !calls[dt.Module] {
						t.Errorf("%s %s for %s: ran %s, which its specialization does not call", f.name, c.name, prof.Name, dt.Module)
					}
					ran += dt.Calls
				}
				if ran == 0 {
					t.Errorf("%s %s for %s: no delegate ran (the specialization calls %v)", f.name, c.name, prof.Name, ir.SortedKeys(calls))
				}
			}
			checkGeneralPath(t, f, prof, p, binds)
		}
	}
}

// checkGeneralPath runs inputs of a binding outside the set, cut from a
// case's, and checks they take the general path and compute what the
// original program computes on them after the same runs (the cases, each
// through its specialization: a mutated buffer's state carries across
// paths).
func checkGeneralPath(t *testing.T, f symFixture, prof *backend.Profile, p *runtime.Program, binds []sym.Bindings) {
	t.Helper()
	in, bind, ok := smallerInputs(t, f, binds)
	if !ok {
		t.Errorf("%s: no case's inputs can be cut to a binding outside %v", f.name, binds)
		return
	}
	if i := p.Dispatch(bind); i >= 0 {
		t.Fatalf("%s at %s: dispatched to specialization %d", f.name, bind, i)
	}
	orig, err := runtime.Load(f.prog, runtime.Options{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range f.cases {
		if _, err := orig.Run(context.Background(), c.in); err != nil {
			t.Fatal(err)
		}
	}
	want, err := orig.Run(context.Background(), in)
	if err != nil {
		t.Fatalf("%s at %s: the original program: %v", f.name, bind, err)
	}
	wantT := make([]*tensor.Tensor, len(want))
	for j, v := range want {
		if wantT[j], err = runtime.OutputTensor(v); err != nil {
			t.Fatal(err)
		}
	}
	got, err := p.Run(context.Background(), in)
	if err == nil {
		err = matches(got, wantT)
	}
	if err != nil {
		t.Errorf("%s for %s at %s (the general path): %v", f.name, prof.Name, bind, err)
	}
}

// smallerInputs cuts a case's inputs down to a binding no specialization
// has: one symbol one less (or further down, within its range), every
// tensor input narrowed to the sizes its dims evaluate to there, every
// SymInt input evaluated.
func smallerInputs(t *testing.T, f symFixture, binds []sym.Bindings) ([]value.Value, sym.Bindings, bool) {
	in := slices.Clone(f.prog.Signature.Inputs)
	g := f.prog.Graph
	taken := map[string]bool{}
	for _, b := range binds {
		taken[b.String()] = true
	}
	for _, c := range f.cases {
		for _, name := range ir.SortedKeys(c.bind) {
			lo := int64(0)
			if rc := f.prog.RangeConstraints[name]; rc.Min != nil {
				lo = *rc.Min
			}
			for v := c.bind[name] - 1; v >= lo && v >= c.bind[name]-3; v-- {
				b := sym.Bindings{}
				for k, x := range c.bind {
					b[k] = x
				}
				b[name] = v
				if taken[b.String()] {
					continue
				}
				var out []value.Value
				ok := true
				u := 0
				for _, spec := range in {
					if spec.Kind != ir.InputUser {
						continue
					}
					x := c.in[u]
					u++
					pn := spec.PlaceholderName()
					if m := g.TensorValues[pn]; m != nil {
						tt := x.Tensor()
						for d, s := range m.Sizes {
							if s.Expr == nil {
								continue
							}
							n, err := evalSize(s.Expr.Expr, b)
							if err != nil || n > int64(tt.Size(d)) || n < 0 {
								ok = false
								break
							}
							if tt, err = new(tensor.Tensor).Narrow(tt, d, 0, int(n)); err != nil {
								t.Fatal(err)
							}
						}
						out = append(out, value.FromTensor(tt))
						continue
					}
					if s, isInt := g.SymIntValues[pn]; isInt && s.Expr != nil {
						n, err := evalSize(s.Expr.Expr, b)
						if err != nil {
							ok = false
						}
						out = append(out, value.FromInt(n))
						continue
					}
					out = append(out, x)
				}
				if ok {
					return out, b, true
				}
			}
		}
	}
	return nil, nil, false
}

func evalSize(text string, b sym.Bindings) (int64, error) {
	e, err := sym.Parse(text)
	if err != nil {
		return 0, err
	}
	v, err := e.Eval(b)
	if err != nil {
		return 0, err
	}
	return v.Int(), nil
}

// TestSpecializeRefuses: a binding the program cannot take is an error
// naming its symbol, before anything is lowered.
func TestSpecializeRefuses(t *testing.T) {
	prof, _ := backend.Builtin("static-shapes")
	gpt2 := load(t, "gpt2_tiny")
	for _, c := range []struct {
		p     *ir.Program
		binds []sym.Bindings
		want  string
	}{
		{gpt2, []sym.Bindings{{"s53": 1}}, "s53 = 1 is outside its range"},
		{gpt2, []sym.Bindings{{"s9": 4}}, "unknown symbol s9"},
		{gpt2, []sym.Bindings{{"s53": 4}, {"s53": 4}}, "given twice"},
		{productOnly(), []sym.Bindings{{"s0": 2}}, "s0 cannot be bound on its own"},
	} {
		_, err := delegate.Specialize(c.p, prof, delegate.Options{}, c.binds)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.binds, err, c.want)
		}
		var se *specialize.Error
		if !strings.Contains(c.want, "twice") && !errors.As(err, &se) {
			t.Errorf("%v: %T is not a *specialize.Error", c.binds, err)
		}
	}
}

// productOnly is a program whose input carries s0 only in s0*s1.
func productOnly() *ir.Program {
	b := multisym.New(1)
	s0, s1 := b.Symbol("s0", 1, 4), b.Symbol("s1", 2, 8)
	x := b.Input("x", ir.Float32, sym.Mul(s0, s1), 4)
	b.Output(b.Relu(x))
	return b.Program()
}

// TestSpecializationsShareModules: a part of the program whose sizes no
// symbol changes (tanh of a weight, cut off from the rest by casts an
// f32-only backend refuses) lowers to the same module on the general path
// and in every specialization: the archive stores it once, each
// specialization calls it, and every path still computes what the
// original program computes.
func TestSpecializationsShareModules(t *testing.T) {
	b := multisym.New(3)
	s0 := b.Symbol("s0", 1, 16)
	x := b.Input("x", ir.Float32, s0, 4)
	w := b.Param("w", 0.5, 4, 4)
	back := b.ToCopy(b.ToCopy(b.Tanh(w), ir.Int64), ir.Float32)
	b.Output(b.Relu(b.Add(x, b.Sum(b.Tanh(back), false, 0))))
	p := b.Program()
	// A backend that counts what it compiles (on seam's kernels).
	compiled := 0
	backend.Register("counting-f32-npu", backend.CompilerFunc(func(m *ir.Program, _ map[string]string) (backend.Executable, error) {
		compiled++
		return runtime.Load(m, runtime.Options{Threads: 1})
	}))
	prof, err := backend.Parse([]byte(`{"name": "counting-f32-npu", "ops": {"include": ["aten.*"]}, "dtypes": ["f32"], "dynamic_shapes": false}`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := delegate.Specialize(p, prof, delegate.Options{}, []sym.Bindings{{"s0": 2}, {"s0": 5}})
	if err != nil {
		t.Fatal(err)
	}
	stored := 0
	for _, s := range res.Specializations {
		stored += len(s.Modules) - len(s.Reused)
		if len(s.Reused) != 1 {
			t.Errorf("at %s: reused %v, want the module of tanh(w)", s.Bind, s.Reused)
		}
	}
	if len(res.General.Modules) != 2 || stored != 2 {
		t.Fatalf("general path %d modules, specializations %d new ones; want 2 and 2 (one each)", len(res.General.Modules), stored)
	}
	l := roundTripLowered(t, res.Lowered)
	if len(l.Modules) != 4 {
		t.Errorf("%d modules stored (%v), want 4", len(l.Modules), l.ModuleNames())
	}
	if vs := verify.Errors(verify.Lowered(l)); len(vs) > 0 {
		t.Fatal(vs)
	}
	lp, err := runtime.LoadLowered(l, runtime.Options{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	if compiled != len(l.Modules) {
		t.Errorf("%d modules compiled for %d stored: a module several programs call is compiled once", compiled, len(l.Modules))
	}
	orig, err := runtime.Load(p, runtime.Options{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int64{2, 5, 3} {
		in := []value.Value{runtime.InputValue(multisymInput(n))}
		want, err := orig.Run(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		wt, _ := runtime.OutputTensor(want[0])
		got, times, err := lp.RunTimed(context.Background(), in)
		if err == nil {
			err = matches(got, []*tensor.Tensor{wt})
		}
		if err != nil {
			t.Errorf("s0 = %d: %v", n, err)
		}
		if len(times) != 2 {
			t.Errorf("s0 = %d: %d modules ran, want 2 (tanh(w), and the rest or its static part): %+v", n, len(times), times)
		}
	}
}

func multisymInput(n int64) *tensor.Tensor {
	data := make([]float32, 4*n)
	for i := range data {
		data[i] = float32(i%7) - 3
	}
	x, err := tensor.FromSlice(data, int(n), 4)
	if err != nil {
		panic(err)
	}
	return x
}

// TestSpecializeKeepsGroups: a group keeps its meaning at each binding,
// less the nodes specializing folds away (sym_size_int_24 is s53 there):
// the rest of it is kept together in one module.
func TestSpecializeKeepsGroups(t *testing.T) {
	prof, _ := backend.Builtin("static-shapes")
	group := []string{"sym_size_int_24", "view", "embedding"}
	res, err := delegate.Specialize(load(t, "gpt2_tiny"), prof, delegate.Options{Groups: [][]string{group}}, []sym.Bindings{{"s53": 8}})
	if err != nil {
		t.Fatal(err)
	}
	gs := res.Specializations[0].Groups
	if len(gs) != 1 || !gs[0].Kept || !slices.Equal(gs[0].Nodes, group[1:]) {
		t.Errorf("at s53 = 8: groups %+v, want view and embedding kept together", gs)
	}
	if g := res.General.Groups; len(g) != 1 || g[0].Kept {
		t.Errorf("the general path: groups %+v, want the group not kept (view has a dynamic size)", g)
	}
}
