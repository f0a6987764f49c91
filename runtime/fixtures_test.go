package runtime_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/fixtures/refcase"
	"github.com/seam-rt/seam/pt2"
	"github.com/seam-rt/seam/runtime"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// Case is one reference case of a fixture: its inputs and the outputs
// PyTorch computed.
type Case struct {
	Dir     string
	Inputs  []value.Value
	Outputs []*tensor.Tensor
}

func loadCases(t testing.TB, model string) []Case {
	t.Helper()
	return loadCasesIn(t, fixtures.ModelDir(model))
}

// loadCasesIn reads the reference cases under dir/io (caseK/in_I.npy,
// out_J.npy), failing the test when there are none.
func loadCasesIn(t testing.TB, dir string) []Case {
	t.Helper()
	var cases []Case
	for _, fc := range refcase.Read(t, dir) {
		if len(fc.Inputs) == 0 || len(fc.Outputs) == 0 {
			t.Fatalf("%s: no inputs or outputs", fc.Dir)
		}
		c := Case{Dir: fc.Dir, Outputs: fc.Outputs}
		for _, x := range fc.Inputs {
			c.Inputs = append(c.Inputs, runtime.InputValue(x))
		}
		cases = append(cases, c)
	}
	return cases
}

func loadProgram(t testing.TB, model string) *runtime.Program {
	t.Helper()
	a, err := pt2.Open(fixtures.Model(model))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	prog, err := a.Program()
	if err != nil {
		t.Fatal(err)
	}
	p, err := runtime.Load(prog, runtime.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestFixtureCases runs every case of every fixture and compares with
// PyTorch's outputs (rtol 1e-4, atol 1e-5; exact for ints and bools).
// buffer_mutation's cases run in order on one program: each sees the
// state the one before left.
func TestFixtureCases(t *testing.T) {
	models, ran := 0, 0
	for _, model := range fixtures.Models() {
		t.Run(model, func(t *testing.T) {
			p := loadProgram(t, model)
			cases := loadCases(t, model)
			for _, c := range cases {
				if len(c.Inputs) == 0 || len(c.Outputs) == 0 {
					t.Fatalf("%s: no inputs or outputs", c.Dir)
				}
				outs, err := p.Run(context.Background(), c.Inputs)
				if err != nil {
					t.Fatalf("%s: %v", filepath.Base(c.Dir), err)
				}
				checkOutputs(t, filepath.Base(c.Dir), outs, c.Outputs)
				ran++
			}
		})
		models++
	}
	if models < fixtures.MinModels || ran < fixtures.MinCases {
		t.Errorf("ran %d models and %d cases; the fixtures have %d and %d", models, ran, fixtures.MinModels, fixtures.MinCases)
	}
}

// runCases runs every case on p and compares with PyTorch's outputs,
// returning how many ran.
func runCases(t reporter, name string, p *runtime.Program, cases []Case) int {
	t.Helper()
	for i, c := range cases {
		outs, err := p.Run(context.Background(), c.Inputs)
		if err != nil {
			t.Errorf("%s %s: %v", name, filepath.Base(c.Dir), err)
			return i
		}
		checkOutputs(t, name+" "+filepath.Base(c.Dir), outs, c.Outputs)
	}
	return len(cases)
}

// reporter is what checkOutputs needs of a *testing.T or a *rapid.T.
type reporter interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

func checkOutputs(t reporter, name string, got []value.Value, want []*tensor.Tensor) {
	t.Helper()
	if len(got) != len(want) {
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

func fixtureModel(name string) string { return fixtures.Model(name) }
