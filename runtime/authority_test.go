package runtime_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/delegate"
	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/lower"
	"github.com/seam-rt/seam/pt2"
	"github.com/seam-rt/seam/runtime"
)

// TestRecordedContractRefused: a lowered archive whose record says the
// tensor-only backend takes SymInts does not get to hand it one: loading
// refuses it, naming the difference, unless the caller trusts the record.
func TestRecordedContractRefused(t *testing.T) {
	a, err := pt2.Open(fixtures.Model("gpt2_tiny"))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	p, _ := a.Program()
	prof, _ := backend.Builtin("tensor-only")
	res, err := delegate.Program(p, prof, delegate.Options{Policy: lower.Auto})
	if err != nil {
		t.Fatal(err)
	}
	la := res.Lowered
	if _, err := runtime.LoadLowered(la, runtime.Options{}); err != nil {
		t.Fatalf("the honest archive: %v", err)
	}
	lying := *prof
	lying.Placeholders.SymInt = backend.Scalar
	rec, _ := json.Marshal(&lying)
	for _, m := range la.Modules {
		m.Delegate.Contract = rec
	}
	_, err = runtime.LoadLowered(la, runtime.Options{})
	if err == nil || !strings.Contains(err.Error(), "placeholders.sym_int: int recorded, refuse registered") ||
		!strings.Contains(err.Error(), "--trust-recorded-contract") {
		t.Errorf("a recorded contract that differs: %v", err)
	}
	if _, err := runtime.LoadLowered(la, runtime.Options{TrustRecordedContract: true}); err != nil {
		t.Errorf("trusted: %v", err)
	}
}
