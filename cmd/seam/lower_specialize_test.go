package main

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/fixtures/multisym"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/pt2"
	"github.com/seam-rt/seam/sym"
)

// TestLowerSpecialize: seam lower --specialize writes a program that
// verifies, reports the dispatch table, and runs each case through its
// specialization or, for a binding outside the set, the general path,
// saying which in text and JSON.
func TestLowerSpecialize(t *testing.T) {
	dir := t.TempDir()
	low := filepath.Join(dir, "low.pt2")
	out, code, err := seam(t, "lower", fixtures.Model("mlp"), "--backend", "static-shapes", "--specialize", "s77=4,7", "-o", low)
	if code != 0 || err != nil {
		t.Fatalf("exit %d, %v\n%s", code, err, out)
	}
	for _, want := range []string{"dispatch (2 specializations):", "s77 = 4: 5 of 5 nodes delegated in lowered_module_",
		"s77 = 7: 5 of 5 nodes delegated", "otherwise: the general path, 2 of 5 nodes delegated", "wrote " + low} {
		if !strings.Contains(out, want) {
			t.Errorf("lower does not say %q:\n%s", want, out)
		}
	}
	if out, code, _ := seam(t, "verify", low); code != 0 {
		t.Fatalf("verify: exit %d\n%s", code, out)
	}
	out, code, _ = seam(t, "run", low, "--case", caseDir("mlp", "case0"), "--case", caseDir("mlp", "case1"), "--case", caseDir("mlp", "case2"))
	if code != 0 {
		t.Fatalf("run: exit %d\n%s", code, out)
	}
	for _, want := range []string{"case0: ok, 1 output", "ran the specialization at s77 = 4\n",
		"case1: ok", "ran the general path, no specialization being at s77 = 1 (they are at s77 = 4; s77 = 7)",
		"ran the specialization at s77 = 7\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("run does not say %q:\n%s", want, out)
		}
	}
	var run struct {
		Runs []struct {
			Dispatch struct {
				Path  string
				Bind  map[string]int64
				Among []map[string]int64
			}
		}
	}
	jsonOf(t, &run, "run", low, "--case", caseDir("mlp", "case1"), "--json")
	if d := run.Runs[0].Dispatch; d.Path != "general" || d.Bind["s77"] != 1 || len(d.Among) != 2 {
		t.Errorf("run --json: dispatch %+v", d)
	}
	run.Runs = nil
	jsonOf(t, &run, "run", low, "--case", caseDir("mlp", "case0"), "--json")
	if d := run.Runs[0].Dispatch; d.Path != "specialization" || d.Bind["s77"] != 4 || d.Among != nil {
		t.Errorf("run --json: dispatch %+v", d)
	}
	// An input of the specialized size, single run: the text says so too.
	out, _, _ = seam(t, "run", low, "--input", filepath.Join(caseDir("mlp", "case2"), "in_0.npy"))
	if !strings.Contains(out, "ran the specialization at s77 = 7") {
		t.Errorf("run --input:\n%s", out)
	}
	if out, code, _ := seam(t, "inspect", low); code != 0 || !strings.Contains(out, "s77 = 4  1 nodes  calls lowered_module_1") {
		t.Errorf("inspect: exit %d\n%s", code, out)
	}
	if out, code, err := seam(t, "lower", low, "--backend", "static-shapes"); code != exitInput || err == nil || !strings.Contains(err.Error(), "already lowered, with 2 specializations") {
		t.Errorf("lowering a specialized program again: exit %d, %v\n%s", code, err, out)
	}
}

// TestLowerSpecializeJSON: the cross product of two symbols' values, one
// specialization per binding, each listed with what it delegates.
func TestLowerSpecializeJSON(t *testing.T) {
	var rep struct {
		Backend         string
		Delegated       int
		Modules         []struct{ Name string }
		Specializations []struct {
			Bind      map[string]int64
			Delegated int
			Nodes     int
			Modules   []struct {
				Name  string
				Nodes []string
			}
			Reused []string
			Rounds []struct{ Partitions int }
		}
	}
	jsonOf(t, &rep, "lower", fixtures.Model("symint_input"), "--backend", "static-shapes", "--specialize", "s27=16,40", "--specialize", "s86=5,4", "--json")
	var binds []string
	for _, s := range rep.Specializations {
		binds = append(binds, sym.Bindings(s.Bind).String())
		if s.Delegated != 3 || s.Nodes != 3 || len(s.Modules) != 1 || len(s.Modules[0].Nodes) != 3 || len(s.Rounds) == 0 || s.Reused == nil {
			t.Errorf("at %s: %+v", sym.Bindings(s.Bind), s)
		}
	}
	want := "s27 = 16, s86 = 5; s27 = 16, s86 = 4; s27 = 40, s86 = 5; s27 = 40, s86 = 4"
	if strings.Join(binds, "; ") != want || rep.Delegated != 0 || rep.Backend != "static-shapes" {
		t.Errorf("specializations %s, want %s; general path delegates %d", strings.Join(binds, "; "), want, rep.Delegated)
	}
}

// TestLowerSpecializeRefuses: a binding the program cannot take, or a
// flag that does not say one, is the input's fault, named.
func TestLowerSpecializeRefuses(t *testing.T) {
	b := multisym.New(1)
	s0, s1 := b.Symbol("s0", 1, 4), b.Symbol("s1", 2, 8)
	b.Output(b.Relu(b.Input("x", ir.Float32, sym.Mul(s0, s1), 4)))
	product := filepath.Join(t.TempDir(), "product.pt2")
	if err := pt2.WriteFile(product, pt2.NewArchive(map[string]*ir.Program{pt2.MainModel: b.Program()})); err != nil {
		t.Fatal(err)
	}
	mlp := fixtures.Model("mlp")
	for _, c := range []struct {
		model string
		flags []string
		want  string
	}{
		{mlp, []string{"s9=4"}, "unknown symbol s9"},
		{mlp, []string{"s77=0,4"}, "s77 = 0 is outside its range [1, 64]"},
		{product, []string{"s0=2"}, "s0 cannot be bound on its own"},
		{mlp, []string{"s77"}, "want SYMBOL=V1,V2"},
		{mlp, []string{"s77=4,x"}, `"x" is not an integer`},
		{mlp, []string{"s77=4", "s77=7"}, "s77 is given twice"},
	} {
		args := []string{"lower", c.model, "--backend", "static-shapes"}
		for _, f := range c.flags {
			args = append(args, "--specialize", f)
		}
		out, code, err := seam(t, args...)
		msg := out
		if err != nil {
			msg += err.Error()
		}
		if code != exitInput || !strings.Contains(msg, c.want) {
			t.Errorf("--specialize %v: exit %d, %s; want %q", c.flags, code, msg, c.want)
		}
	}
	values := func(n int) string {
		var vs []string
		for i := 1; i <= n; i++ {
			vs = append(vs, strconv.Itoa(i))
		}
		return strings.Join(vs, ",")
	}
	out, code, err := seam(t, "lower", mlp, "--backend", "static-shapes", "--specialize", "s0="+values(33), "--specialize", "s1="+values(32))
	if code != exitInput || err == nil || !strings.Contains(err.Error(), "more than 1024 specializations") {
		t.Errorf("a cross product of 1056: exit %d, %v\n%s", code, err, out)
	}
}
