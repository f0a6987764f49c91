package runtime_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/delegate"
	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/runtime"
)

// passPrograms are the fixtures and generated programs each pass is
// tried on: together they exercise every pass.
func passPrograms(t *testing.T) map[string]*ir.Program {
	t.Helper()
	progs := map[string]*ir.Program{}
	for _, m := range fixtures.Models() {
		progs[m] = fixtures.Load(t, fixtures.Model(m))
	}
	for _, m := range []string{"mobilenet_tiny", "vit_tiny", "llama_tiny"} {
		progs[m] = fixtures.Load(t, filepath.Join(fixtures.ExtraDir(m), "model.pt2"))
	}
	return progs
}

func caseDir(name string) string {
	if slices.Contains(fixtures.Models(), name) {
		return fixtures.ModelDir(name)
	}
	return fixtures.ExtraDir(name)
}

// Every pass can be switched off on its own, and every program still
// matches PyTorch's outputs on every reference case; each pass changes
// the plan of at least one of them, so that each switch is seen to work.
func TestEachPassOff(t *testing.T) {
	progs := passPrograms(t)
	full := map[string]string{}
	for name, prog := range progs {
		p, err := runtime.Load(prog, runtime.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		full[name] = runtime.PlanSummary(p)
	}
	for _, pass := range runtime.PassNames() {
		t.Run(pass, func(t *testing.T) {
			changed := 0
			for name, prog := range progs {
				p, err := runtime.Load(prog, runtime.Options{Disable: []string{pass}})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if runtime.PlanSummary(p) != full[name] {
					changed++
				}
				runCases(t, name+" without "+pass, p, loadCasesIn(t, caseDir(name)))
			}
			if changed == 0 {
				t.Errorf("switching %s off changes no program's plan", pass)
			}
		})
	}
}

// A pass name Disable does not know is refused, naming the passes.
func TestDisableUnknownPass(t *testing.T) {
	_, err := runtime.Load(fixtures.Load(t, fixtures.Model("mlp")), runtime.Options{Disable: []string{"fusion"}})
	if err == nil || !strings.Contains(err.Error(), `no pass "fusion"`) || !strings.Contains(err.Error(), "gelu") {
		t.Fatalf("err = %v", err)
	}
	var pe *runtime.PlanError
	if errors.As(err, &pe) {
		t.Fatal("a bad option is the caller's fault, not a PlanError")
	}
}

// The package documentation lists every pass, by name, in order.
func TestDocListsPasses(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, line := range strings.Split(string(doc), "\n") {
		if name, ok := strings.CutPrefix(line, "//   - "); ok {
			if i := strings.Index(name, ":"); i > 0 {
				listed = append(listed, name[:i])
			}
		}
	}
	if !slices.Equal(listed, runtime.PassNames()) {
		t.Errorf("doc.go lists the passes %v, Load runs %v", listed, runtime.PassNames())
	}
}

// A lowered module that runs on seam's kernels is compiled with the
// parent's options: a pass switched off for the program is off in its
// modules too, and they still match.
func TestDisableReachesModules(t *testing.T) {
	prof, _ := backend.Builtin("reference")
	res, err := delegate.Program(fixtures.Load(t, fixtures.Model("gpt2_tiny")), prof, delegate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	full, err := runtime.LoadLowered(res.Lowered, runtime.Options{})
	if err != nil {
		t.Fatal(err)
	}
	off, err := runtime.LoadLowered(res.Lowered, runtime.Options{Disable: []string{"gelu"}, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	a, b := runtime.PlanSummary(full), runtime.PlanSummary(off)
	if !strings.Contains(a, "  ") || a == b {
		t.Fatalf("the module's plan is the same with gelu off:\n%s", b)
	}
	runCases(t, "gpt2_tiny lowered, gelu off", off, loadCasesIn(t, fixtures.ModelDir("gpt2_tiny")))
}
