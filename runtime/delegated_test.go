package runtime_test

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/lower"
	"github.com/seam-rt/seam/pt2"
	"github.com/seam-rt/seam/runtime"
)

// TestDelegatedMatrix lowers every fixture for every built-in profile under
// every policy lowering accepts, writes the lowered program, reads it back,
// runs every reference case through the delegates, and compares with
// PyTorch's outputs: the cut program computes what the original computed.
func TestDelegatedMatrix(t *testing.T) {
	if testing.Short() {
		t.Skip("the full matrix runs without -short")
	}
	dir := t.TempDir()
	ran := 0
	for _, model := range fixtures.Models() {
		a, err := pt2.Open(fixtures.Model(model))
		if err != nil {
			t.Fatal(err)
		}
		orig, _ := a.Program()
		cases := loadCases(t, model)
		for _, bn := range backend.BuiltinNames() {
			prof, _ := backend.Builtin(bn)
			for _, pol := range lower.Policies() {
				name := model + "/" + bn + "/" + pol.String()
				res, err := lower.Lower(orig, prof, lower.Options{Policy: pol})
				var refusal *lower.Error
				if errors.As(err, &refusal) {
					// The default policy always finds a way (excluding
					// at worst); only the strict policies may refuse.
					if pol == lower.Auto {
						t.Errorf("%s: the default policy refused: %v", name, err)
					}
					continue
				}
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				path := filepath.Join(dir, "low.pt2")
				if err := pt2.WriteFile(path, res.Archive()); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				la, err := pt2.Open(path)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				p, err := runtime.LoadArchive(la)
				if err != nil {
					t.Errorf("%s: load: %v", name, err)
					la.Close()
					continue
				}
				ran += runCases(t, name, p, cases)
				la.Close()
			}
		}
		a.Close()
	}
	// 10 fixtures x 5 profiles x 6 policies, less the refusals, times the
	// cases: a floor that catches lowering refusing what it used to take.
	if ran < 700 {
		t.Errorf("only %d lowered runs compared", ran)
	}
	t.Logf("%d lowered runs compared with PyTorch's outputs", ran)
}
