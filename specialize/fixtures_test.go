package specialize_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/npy"
	"github.com/seam-rt/seam/pt2"
	"github.com/seam-rt/seam/runtime"
	"github.com/seam-rt/seam/specialize"
	"github.com/seam-rt/seam/sym"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
	"github.com/seam-rt/seam/verify"
)

// reporter is what the helpers need of a *testing.T or a *rapid.T.
type reporter interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
	Fatal(args ...any)
}

// fixture is a program of fixtures/models or fixtures/extra with its
// reference cases.
type fixture struct {
	name  string
	dir   string
	cases []refCase
}

type refCase struct {
	name    string
	inputs  []value.Value
	outputs []*tensor.Tensor
}

func allFixtures(t testing.TB) []fixture {
	t.Helper()
	var out []fixture
	for _, name := range fixtures.Models() {
		out = append(out, fixture{name: name, dir: fixtures.ModelDir(name)})
	}
	for _, name := range fixtures.Extras() {
		out = append(out, fixture{name: name, dir: fixtures.ExtraDir(name)})
	}
	for i := range out {
		for _, dir := range fixtures.CasesIn(out[i].dir) {
			c, err := npy.ReadCase(os.DirFS(dir))
			if err != nil {
				t.Fatal(err)
			}
			rc := refCase{name: filepath.Base(dir), outputs: c.Outputs}
			for _, in := range c.Inputs {
				rc.inputs = append(rc.inputs, runtime.InputValue(in))
			}
			out[i].cases = append(out[i].cases, rc)
		}
	}
	return out
}

func allFixturesNamed(t testing.TB, name string) fixture {
	t.Helper()
	for _, f := range allFixtures(t) {
		if f.name == name {
			return f
		}
	}
	t.Fatalf("no fixture %s", name)
	return fixture{}
}

func readProgram(t testing.TB, dir string) *ir.Program {
	t.Helper()
	a, err := pt2.Open(filepath.Join(dir, "model.pt2"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	p, err := a.Program()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func load(t reporter, p *ir.Program) *runtime.Program {
	t.Helper()
	rp, err := runtime.Load(p, runtime.Options{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	return rp
}

// roundTrip writes the program as an archive and reads it back, so that
// what is checked and run is what `seam specialize` writes.
func roundTrip(t testing.TB, p *ir.Program) *ir.Program {
	t.Helper()
	var buf bytes.Buffer
	if err := pt2.Write(&buf, pt2.NewArchive(map[string]*ir.Program{pt2.MainModel: p}), "static"); err != nil {
		t.Fatal(err)
	}
	a, err := pt2.ReadBytes(buf.Bytes(), "static.pt2")
	if err != nil {
		t.Fatal(err)
	}
	q, err := a.Program()
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func mustVerify(t testing.TB, what string, p *ir.Program) {
	t.Helper()
	for _, v := range verify.Errors(verify.Program(p, verify.Options{})) {
		t.Errorf("%s: %v", what, v)
	}
}

// TestFixtureCases specializes every fixture with a symbol at each
// reference case's binding (the symbols its input sizes bind), checks that
// the result is a static program that verifies, runs it on the case and
// compares with PyTorch's outputs, and checks that another case's inputs,
// of other sizes, are refused naming the input and the dim. A stateful
// program (buffer_mutation) carries its buffer from case to case as the
// reference did: each specialization starts from the state the one before
// left.
func TestFixtureCases(t *testing.T) {
	programs, ran := 0, 0
	for _, f := range allFixtures(t) {
		p := readProgram(t, f.dir)
		if len(p.RangeConstraints) == 0 {
			continue
		}
		programs++
		t.Run(f.name, func(t *testing.T) {
			general := load(t, p)
			st := newState()
			for i, c := range f.cases {
				bind, err := general.Bindings(c.inputs)
				if err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				res, err := specialize.Program(p, bind)
				if err != nil {
					t.Fatalf("%s: specialize at %s: %v", c.name, specialize.String(bind), err)
				}
				q := roundTrip(t, res.Program)
				mustVerify(t, c.name, q)
				checkStatic(t, c.name, q)
				outs := st.run(t, c.name, q, c.inputs)
				checkOutputs(t, f.name+" "+c.name, outs, c.outputs)
				ran++
				other := f.cases[(i+1)%len(f.cases)]
				if ob, _ := general.Bindings(other.inputs); !sameBinding(ob, bind) {
					checkRefused(t, c.name+" given "+other.name, load(t, q), other.inputs)
				}
			}
		})
	}
	// 10 fixtures with symbols under models/, 4 under extra/.
	if programs < 14 || ran < 45 {
		t.Errorf("specialized %d programs at %d cases; the fixtures have 14 programs with symbols and 45 cases", programs, ran)
	}
}

func sameBinding(a, b sym.Bindings) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// checkStatic: no size, stride or scalar of any graph is symbolic, no
// symbol has a range, and no scalar op is left.
func checkStatic(t reporter, what string, p *ir.Program) {
	t.Helper()
	if len(p.RangeConstraints) != 0 {
		t.Errorf("%s: range constraints left: %v", what, ir.SortedKeys(p.RangeConstraints))
	}
	_ = p.Graph.Walk(func(path string, g *ir.Graph) error {
		for name, m := range g.TensorValues {
			if !m.IsStatic() || !m.StorageOffset.IsStatic() {
				t.Errorf("%s: %s %s is still symbolic", what, path, name)
			}
			for _, s := range m.Strides {
				if !s.IsStatic() {
					t.Errorf("%s: %s %s has a symbolic stride", what, path, name)
				}
			}
		}
		for name, s := range g.SymIntValues {
			if !s.IsStatic() {
				t.Errorf("%s: %s SymInt %s is still symbolic", what, path, name)
			}
		}
		for _, n := range g.Nodes {
			if strings.Contains(n.Target, "sym_size") || strings.HasPrefix(n.Target, "_operator.") || n.Target == "torch.ops.higher_order.cond" {
				t.Errorf("%s: %s node %s (%s) is left", what, path, n.Name, n.Target)
			}
		}
		return nil
	})
}

// checkRefused: the specialized program refuses inputs of other sizes,
// before running, naming the input and the dim (or the constant input and
// its value).
func checkRefused(t testing.TB, what string, p *runtime.Program, inputs []value.Value) {
	t.Helper()
	_, err := p.Run(context.Background(), inputs)
	var ie *runtime.InputError
	if !errors.As(err, &ie) {
		t.Errorf("%s: want an input error, got %v", what, err)
		return
	}
	if ie.Input == "" || !(strings.Contains(ie.Msg, "dim ") || strings.Contains(ie.Msg, "constant input")) {
		t.Errorf("%s: the refusal names no input and dim: %v", what, err)
	}
}

func checkOutputs(t testing.TB, what string, got []value.Value, want []*tensor.Tensor) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d outputs, want %d", what, len(got), len(want))
	}
	for j := range want {
		g, err := runtime.OutputTensor(got[j])
		if err != nil {
			t.Errorf("%s: output %d: %v", what, j, err)
			continue
		}
		if _, err := tensor.AllClose(g, want[j], 1e-4, 1e-5); err != nil {
			t.Errorf("%s: output %d: %v", what, j, err)
		}
	}
}

// state carries mutated buffers from one program to the next: each run's
// program starts with the buffers the run before left, as one program
// running the cases in order would.
type state struct {
	buffers map[string]*tensor.Tensor // by FQN; nil until a run sets them
}

func newState() *state { return &state{buffers: map[string]*tensor.Tensor{}} }

// run runs p on inputs from the carried state and returns its user
// outputs, keeping the buffers it mutates.
func (s *state) run(t testing.TB, what string, p *ir.Program, inputs []value.Value) []value.Value {
	t.Helper()
	q := p.Clone()
	for _, table := range []map[string]*ir.Weight{q.Weights, q.Constants} {
		for fqn, w := range table {
			if b, ok := s.buffers[fqn]; ok {
				table[fqn] = weightOf(t, w, b)
			}
		}
	}
	// Expose the new buffer values as outputs the run returns.
	var targets []string
	for i := range q.Signature.Outputs {
		if o := &q.Signature.Outputs[i]; o.Kind == ir.OutputBufferMutation {
			targets = append(targets, o.Target)
			o.Kind, o.Target = ir.OutputUser, ""
		}
	}
	outs, err := load(t, q).Run(context.Background(), inputs)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	for i, fqn := range targets {
		s.buffers[fqn] = outs[i].Tensor()
	}
	return outs[len(targets):]
}

// weightOf is w holding t's values instead.
func weightOf(t testing.TB, w *ir.Weight, v *tensor.Tensor) *ir.Weight {
	t.Helper()
	if !v.IsContiguous() {
		t.Fatalf("buffer state is not contiguous")
	}
	es := v.DType().Size()
	data := v.Storage().Bytes()[v.Offset()*es : (v.Offset()+v.Numel())*es]
	c := *w
	c.Data = ir.Bytes(append([]byte(nil), data...))
	return &c
}
