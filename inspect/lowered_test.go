package inspect_test

import (
	"strings"
	"testing"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/delegate"
	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/inspect"
	"github.com/seam-rt/seam/pt2"
)

// TestLoweredArchive: inspect shows a lowered program's modules with their
// backends, inputs and outputs, in JSON and text.
func TestLoweredArchive(t *testing.T) {
	a, err := pt2.Open(fixtures.Model("symint_input"))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	p, _ := a.Program()
	prof, _ := backend.Builtin("tensor-only")
	res, err := delegate.Program(p, prof, delegate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := inspect.SummarizeLowered(res.Lowered, inspect.Options{})
	if len(s.Modules) != 1 || s.Modules[0].Backend != "tensor-only" || s.Ops["higher_order.executorch_call_delegate"] != 1 {
		t.Fatalf("modules %+v, ops %v", s.Modules, s.Ops)
	}
	var box bool
	for _, in := range s.Modules[0].Inputs {
		box = box || (in.Name == "n_box" && in.Annotation == "i64[]" && in.Type == "tensor")
	}
	if !box {
		t.Errorf("module inputs %+v lack the boxed n", s.Modules[0].Inputs)
	}
	var sb strings.Builder
	if err := s.WriteText(&sb, "low.pt2"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"lowered module lowered_module_0 (backend tensor-only)", "n_box  i64[]", "s86  [0, 64]  n", "user inputs (2):"} {
		if !strings.Contains(sb.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, sb.String())
		}
	}
}
