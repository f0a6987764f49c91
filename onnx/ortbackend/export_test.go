package ortbackend_test

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/fixtures/refcase"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/onnx"
	"github.com/seam-rt/seam/onnx/ort/orttest"
	"github.com/seam-rt/seam/onnx/ortbackend"
	"github.com/seam-rt/seam/pt2"
	"github.com/seam-rt/seam/runtime"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// fixture is one program of fixtures/models or fixtures/extra.
type fixture struct{ name, dir string }

func allFixtures() []fixture {
	var out []fixture
	for _, m := range fixtures.Models() {
		out = append(out, fixture{m, fixtures.ModelDir(m)})
	}
	extras, _ := filepath.Glob(filepath.Join(fixtures.Dir(), "extra", "*", "model.pt2"))
	sort.Strings(extras)
	for _, e := range extras {
		d := filepath.Dir(e)
		out = append(out, fixture{"extra/" + filepath.Base(d), d})
	}
	return out
}

type refCase struct {
	name    string
	inputs  []value.Value
	outputs []*tensor.Tensor
}

func loadCases(t testing.TB, dir string) []refCase {
	t.Helper()
	var cases []refCase
	for _, fc := range refcase.Read(t, dir) {
		c := refCase{name: filepath.Base(fc.Dir), outputs: fc.Outputs}
		for _, x := range fc.Inputs {
			c.inputs = append(c.inputs, runtime.InputValue(x))
		}
		cases = append(cases, c)
	}
	return cases
}

func loadProgram(t testing.TB, dir string) *ir.Program {
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

// checkOutputs compares with PyTorch's outputs as the runtime's tests do
// (rtol 1e-4, atol 1e-5; exact for ints and bools).
func checkOutputs(t testing.TB, name string, got []value.Value, want []*tensor.Tensor) {
	t.Helper()
	if len(got) < len(want) {
		t.Fatalf("%s: %d outputs, want %d", name, len(got), len(want))
	}
	for j := range want {
		g, err := runtime.OutputTensor(got[j])
		if err != nil {
			t.Errorf("%s: output %d: %v", name, j, err)
			continue
		}
		if _, err := tensor.AllClose(g, want[j], 1e-4, 1e-5); err != nil {
			t.Errorf("%s: output %d: %v", name, j, err)
		}
	}
}

// TestExportMatchesPyTorch translates every fixture whole, runs every
// case in ONNX Runtime and compares with PyTorch. buffer_mutation's cases
// run in order, each fed the buffer state the one before returned (the
// graph's inputs and outputs after the user ones).
func TestExportMatchesPyTorch(t *testing.T) {
	lib := orttest.Library(t)
	for _, f := range allFixtures() {
		t.Run(f.name, func(t *testing.T) {
			p := loadProgram(t, f.dir)
			tr, err := onnx.Translate(p)
			if err != nil {
				t.Fatal(err)
			}
			r, err := ortbackend.NewRunner(lib, tr.Model.Marshal(), p, ortbackend.Options{Threads: 1})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			var state []value.Value
			nUserOut := 0
			for _, o := range tr.Outputs {
				if o.Role == onnx.UserValue {
					nUserOut++
				}
			}
			for _, c := range loadCases(t, f.dir) {
				outs, err := r.Run(append(append([]value.Value{}, c.inputs...), state...))
				if err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				checkOutputs(t, c.name, outs[:nUserOut], c.outputs)
				state = outs[nUserOut:]
			}
		})
	}
}

// TestSymbolsCheckedBeforeORT: ONNX Runtime does not check that inputs
// sharing a dim_param agree, so the runner binds every symbol itself and
// refuses a conflict or a size outside its range before ONNX Runtime runs.
func TestSymbolsCheckedBeforeORT(t *testing.T) {
	lib := orttest.Library(t)
	p := loadProgram(t, fixtures.ModelDir("gpt2_tiny"))
	tr, err := onnx.Translate(p)
	if err != nil {
		t.Fatal(err)
	}
	r, err := ortbackend.NewRunner(lib, tr.Model.Marshal(), p, ortbackend.Options{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ids := func(n int) value.Value {
		x, _ := tensor.New(tensor.Int64, 1, n)
		return value.FromTensor(x)
	}
	if _, err := r.Run([]value.Value{ids(5), ids(5)}); err != nil {
		t.Fatalf("consistent inputs: %v", err)
	}
	_, err = r.Run([]value.Value{ids(5), ids(6)})
	if err == nil || !strings.Contains(err.Error(), "input_ids") || !strings.Contains(err.Error(), "attention_mask") {
		t.Errorf("input_ids of length 5 with a mask of 6: %v", err)
	}
	if _, err := r.Run([]value.Value{ids(2000), ids(2000)}); err == nil || !strings.Contains(err.Error(), "s53") {
		t.Errorf("a length outside s53's range: %v", err)
	}
	if _, err := r.Run([]value.Value{ids(5)}); err == nil {
		t.Error("one input of two accepted")
	}
}
