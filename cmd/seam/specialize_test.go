package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/fixtures/multisym"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/npy"
	"github.com/seam-rt/seam/pt2"
	"github.com/seam-rt/seam/runtime"
	"github.com/seam-rt/seam/sym"
	"github.com/seam-rt/seam/value"
)

// caseBinding is what the case's inputs bind the program's symbols to.
func caseBinding(t *testing.T, model, dir string) sym.Bindings {
	t.Helper()
	a, err := pt2.Open(model)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	l, err := a.Lowered()
	if err != nil {
		t.Fatal(err)
	}
	p, err := runtime.LoadLowered(l, runtime.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := npy.ReadCase(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	var in []value.Value
	for _, x := range c.Inputs {
		in = append(in, runtime.InputValue(x))
	}
	b, err := p.Bindings(in)
	if err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	return b
}

func bindFlags(b sym.Bindings) []string {
	var out []string
	for _, name := range ir.SortedKeys(b) {
		out = append(out, "--bind", fmt.Sprintf("%s=%d", name, b[name]))
	}
	return out
}

// TestSpecializeEveryFixture: `seam specialize` of every fixture with a
// symbol, at each reference case's binding, writes a program `seam verify`
// accepts and `seam run --case` runs to PyTorch's outputs; the program
// refuses another case's inputs, naming the input and the dim.
// buffer_mutation's later cases expect the state the earlier ones left, so
// only its first case runs here (package specialize carries the state
// across specializations).
func TestSpecializeEveryFixture(t *testing.T) {
	dirs := []string{}
	for _, name := range fixtures.Models() {
		dirs = append(dirs, fixtures.ModelDir(name))
	}
	for _, name := range fixtures.Extras() {
		dirs = append(dirs, fixtures.ExtraDir(name))
	}
	out := t.TempDir()
	programs, cases := 0, 0
	for _, dir := range dirs {
		model := filepath.Join(dir, "model.pt2")
		caseDirs := fixtures.CasesIn(dir)
		first := caseBinding(t, model, caseDirs[0])
		if len(first) == 0 {
			continue
		}
		programs++
		for i, c := range caseDirs {
			if i > 0 && filepath.Base(dir) == "buffer_mutation" {
				break
			}
			bind := caseBinding(t, model, c)
			static := filepath.Join(out, fmt.Sprintf("%s_%d.pt2", filepath.Base(dir), i))
			msg := mustSeam(t, append([]string{"specialize", model, "-o", static}, bindFlags(bind)...)...)
			if !strings.Contains(msg, "every size is static") {
				t.Errorf("%s: %s", static, msg)
			}
			if v := mustSeam(t, "verify", static); !strings.HasPrefix(v, "OK:") {
				t.Errorf("%s: %s", static, v)
			}
			if r := mustSeam(t, "run", static, "--case", c); strings.Contains(r, "MISMATCH") {
				t.Errorf("%s on %s: %s", static, c, r)
			}
			cases++
			other := caseDirs[(i+1)%len(caseDirs)]
			if ob := caseBinding(t, model, other); fmt.Sprint(ob) != fmt.Sprint(bind) {
				_, code, err := seam(t, "run", static, "--case", other)
				if err == nil || code == 0 || !strings.Contains(err.Error(), "input ") ||
					!(strings.Contains(err.Error(), " dim ") || strings.Contains(err.Error(), "constant input")) {
					t.Errorf("%s given %s: exit %d, %v; want a refusal naming the input and the dim", static, other, code, err)
				}
			}
		}
	}
	if programs < 14 || cases < 46 {
		t.Errorf("specialized %d programs at %d cases; want the 14 fixtures with symbols and their 46 first-run cases", programs, cases)
	}
}

func TestSpecializeRefusals(t *testing.T) {
	dir := t.TempDir()
	static := filepath.Join(dir, "static.pt2")
	seed := fixtures.Model("seed_like")
	// A program whose input carries s0 only in a product.
	b := multisym.New(1)
	s0, s1 := b.Symbol("s0", 1, 4), b.Symbol("s1", 2, 8)
	b.Output(b.Relu(b.Input("x", ir.Float32, sym.Mul(s0, s1), 4)))
	product := filepath.Join(dir, "product.pt2")
	if err := pt2.WriteFile(product, pt2.NewArchive(map[string]*ir.Program{pt2.MainModel: b.Program()})); err != nil {
		t.Fatal(err)
	}
	lowered := filepath.Join(dir, "lowered.pt2")
	mustSeam(t, "lower", seed, "--backend", "tensor-only", "-o", lowered)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{seed, "--bind", "s53=500"}, "s53 = 500 is outside its range [2, 200]"},
		{[]string{seed, "--bind", "s9=4"}, "unknown symbol s9"},
		{[]string{seed, "--bind", "s53=4", "--bind", "s53=5"}, "s53 is bound twice"},
		{[]string{seed, "--bind", "s53"}, "want SYMBOL=VALUE"},
		{[]string{seed}, "at least one --bind"},
		{[]string{product, "--bind", "s0=2"}, "s0 cannot be bound on its own: the inputs carry it only in x dim 0 (s0*s1)"},
		{[]string{lowered, "--bind", "s53=4"}, "lowered program"},
	} {
		_, code, err := seam(t, append(append([]string{"specialize"}, c.args...), "-o", static)...)
		if err == nil || code != exitInput || !strings.Contains(err.Error(), c.want) {
			t.Errorf("specialize %v: exit %d, %v; want %q", c.args, code, err, c.want)
		}
		if _, err := os.Stat(static); err == nil {
			t.Fatalf("specialize %v wrote %s", c.args, static)
		}
	}
	if _, code, err := seam(t, "specialize", seed, "--bind", "s53=4"); err == nil || code != exitInput || !strings.Contains(err.Error(), "-o") {
		t.Errorf("specialize without -o: exit %d, %v", code, err)
	}
	// Only the temporary files it made are gone: nothing else in dir changed.
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 {
		t.Errorf("%s holds %d files after the refusals, want the 2 inputs", dir, len(ents))
	}
}

// TestSpecializeSymIntInput: the SymInt input n becomes a constant input;
// `seam run` takes it from the case and refuses another value, naming both.
func TestSpecializeSymIntInput(t *testing.T) {
	static := filepath.Join(t.TempDir(), "static.pt2")
	msg := mustSeam(t, "specialize", fixtures.Model("symint_input"), "--bind", "s27=16", "--bind", "s86=5", "-o", static)
	if !strings.Contains(msg, "input n: the constant 5") {
		t.Errorf("the summary does not show n as the constant 5:\n%s", msg)
	}
	cases := fixtures.Cases("symint_input")
	mustSeam(t, "run", static, "--case", cases[0])
	_, _, err := seam(t, "run", static, "--case", cases[1])
	if err == nil || !strings.Contains(err.Error(), "input n: is 4, but the program takes only n = 5") {
		t.Errorf("n = 4: %v", err)
	}
}
