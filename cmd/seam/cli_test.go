package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/internal/hostile"
	"github.com/seam-rt/seam/kernels"
	"github.com/seam-rt/seam/lower"
	"github.com/seam-rt/seam/npy"
	"github.com/seam-rt/seam/runtime"
)

// oneJSON decodes stdout, which must hold exactly one JSON document.
func oneJSON(t *testing.T, what, stdout string, v any) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(stdout))
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: not JSON: %v\n%s", what, err, stdout)
	}
	var more json.RawMessage
	if err := dec.Decode(&more); err != io.EOF {
		t.Fatalf("%s: more than one JSON document (%v):\n%s", what, err, stdout)
	}
}

// jsonOf runs a command that must succeed and decodes its one document.
func jsonOf(t *testing.T, v any, args ...string) {
	t.Helper()
	all, stdout, code, err := seamSplit(t, args...)
	if code != 0 || err != nil {
		t.Fatalf("seam %s: exit %d, %v\n%s", strings.Join(args, " "), code, err, all)
	}
	oneJSON(t, strings.Join(args, " "), stdout, v)
}

func caseDir(model, c string) string { return filepath.Join(fixtures.ModelDir(model), "io", c) }

// hostileArchive writes one of package hostile's cases into a folder and
// returns its model.pt2.
func hostileArchive(t *testing.T, name string) string {
	t.Helper()
	cases, err := hostile.Cases()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if c.Name == name {
			dir := t.TempDir()
			if err := c.Make(dir); err != nil {
				t.Fatal(err)
			}
			return filepath.Join(dir, "model.pt2")
		}
	}
	t.Fatalf("no hostile case %s", name)
	return ""
}

// TestJSONDocuments: every command that reports prints exactly one JSON
// document with --json, in the shape the README documents.
func TestJSONDocuments(t *testing.T) {
	dir := t.TempDir()
	var backends struct {
		Backends []struct {
			Available bool
			Profile   struct{ Name string }
		}
	}
	jsonOf(t, &backends, "backends", "--json")
	var names []string
	for _, b := range backends.Backends {
		names = append(names, b.Profile.Name)
	}
	if !slices.Contains(names, "tensor-only") || !slices.Contains(names, "onnxruntime") || len(names) < 6 {
		t.Errorf("backends --json: %v", names)
	}
	var one struct{ Name string }
	jsonOf(t, &one, "backends", "tensor-only", "--json")
	if one.Name != "tensor-only" {
		t.Errorf("backends tensor-only --json: %+v", one)
	}

	var ver struct {
		File       string
		OK         bool
		Errors     int
		Violations []struct{ Rule, Node, Message string }
	}
	jsonOf(t, &ver, "verify", fixtures.Model("cond"), "--json")
	if !ver.OK || ver.Errors != 0 || ver.File != fixtures.Model("cond") {
		t.Errorf("verify --json: %+v", ver)
	}
	bad := hostileArchive(t, "used_before_defined")
	_, stdout, code, _ := seamSplit(t, "verify", bad, "--json")
	oneJSON(t, "verify --json of a bad program", stdout, &ver)
	if code != exitFailed || ver.OK || ver.Errors == 0 || ver.Violations[0].Rule != "defined-before-use" {
		t.Errorf("verify --json of a bad program: exit %d, %+v", code, ver)
	}

	type runDoc struct {
		Model string
		OK    bool
		Runs  []struct {
			Case    string
			OK      *bool
			Outputs []struct {
				Index          int
				Type           string
				MaxAbsError    *float64 `json:"max_abs_error"`
				OK             *bool
				PassedByAtol   bool `json:"passed_by_atol"`
				MismatchReason string
			}
		}
		Latency *struct {
			Runs      int
			MedianMS  float64 `json:"median_ms"`
			Delegates []struct{ Module, Backend string }
		}
	}
	var run runDoc
	jsonOf(t, &run, "run", fixtures.Model("mlp"), "--case", caseDir("mlp", "case0"), "--repeat", "2", "--json")
	if !run.OK || len(run.Runs) != 1 || run.Runs[0].Outputs[0].Type != "f32[4, 10]" || run.Runs[0].Outputs[0].MaxAbsError == nil ||
		run.Latency == nil || run.Latency.Runs != 2 || run.Latency.MedianMS <= 0 {
		t.Errorf("run --json: %+v", run)
	}
	c0, c1 := caseDir("buffer_mutation", "case0"), caseDir("buffer_mutation", "case1")
	run = runDoc{}
	jsonOf(t, &run, "run", fixtures.Model("buffer_mutation"), "--case", c0, "--case", c1, "--json")
	if len(run.Runs) != 2 || run.Runs[1].Case != c1 || !*run.Runs[1].OK {
		t.Errorf("run --json of a chain: %+v", run)
	}
	run = runDoc{}
	_, stdout, code, _ = seamSplit(t, "run", fixtures.Model("buffer_mutation"), "--case", c1, "--case", c0, "--json")
	oneJSON(t, "run --json of a chain out of order", stdout, &run)
	if code != exitFailed || run.OK || *run.Runs[0].OK {
		t.Errorf("run --json of a chain out of order: exit %d, %+v", code, run)
	}
	run = runDoc{}
	jsonOf(t, &run, "run", fixtures.Model("mlp"), "--input", filepath.Join(caseDir("mlp", "case0"), "in_0.npy"), "--json")
	if len(run.Runs) != 1 || run.Runs[0].OK != nil || run.Runs[0].Outputs[0].OK != nil {
		t.Errorf("run --json without a reference compares nothing: %+v", run)
	}

	var spec struct {
		Output     string
		Bind       map[string]int64
		NodesAfter int `json:"nodes_after"`
		Free       []string
	}
	jsonOf(t, &spec, "specialize", fixtures.Model("seed_like"), "--bind", "s53=4", "-o", filepath.Join(dir, "s.pt2"), "--json")
	if spec.Bind["s53"] != 4 || spec.NodesAfter == 0 {
		t.Errorf("specialize --json: %+v", spec)
	}

	var exp struct {
		Output string
		Opset  int
		Inputs []struct{ Name, Type string }
	}
	jsonOf(t, &exp, "export", "onnx", fixtures.Model("mlp"), "-o", filepath.Join(dir, "m.onnx"), "--json")
	if exp.Opset != 18 || len(exp.Inputs) != 1 || exp.Inputs[0].Type == "" {
		t.Errorf("export onnx --json: %+v", exp)
	}

	var low struct{ Modules []struct{ Name string } }
	jsonOf(t, &low, "lower", fixtures.Model("mlp"), "--backend", "tensor-only", "-o", filepath.Join(dir, "low.pt2"), "--json")
	var part struct{ Partitions []struct{ ID int } }
	jsonOf(t, &part, "partition", fixtures.Model("mlp"), "--backend", "tensor-only", "--json")
	var ins struct{ Nodes int }
	jsonOf(t, &ins, "inspect", fixtures.Model("mlp"), "--json")
	var ex struct{ Nodes []struct{ Name string } }
	jsonOf(t, &ex, "explain", fixtures.Model("mlp"), "--backend", "tensor-only", "addmm", "--json")

	var br struct {
		OK   bool
		Rows []struct {
			Model, Case string
			MedianMS    *float64 `json:"median_ms"`
			Runs        int
		}
	}
	jsonOf(t, &br, "bench", "run", fixtures.Model("mlp"), "--case", caseDir("mlp", "case0"), "--time", "1ms", "--json")
	if !br.OK || len(br.Rows) != 1 || br.Rows[0].MedianMS == nil || br.Rows[0].Runs < 20 {
		t.Errorf("bench run --json: %+v", br)
	}
	// On two threads, in how many rounds the program kept them.
	var bt struct {
		Rows []struct {
			Chosen *int `json:"threads_chosen_rounds"`
			Rounds int  `json:"threads_rounds"`
		}
	}
	jsonOf(t, &bt, "bench", "run", fixtures.Model("mlp"), "--case", caseDir("mlp", "case0"), "--time", "1ms", "--threads", "2", "--rounds", "2", "--json")
	if len(bt.Rows) != 1 || bt.Rows[0].Chosen == nil || *bt.Rows[0].Chosen > 2 || bt.Rows[0].Rounds != 2 {
		t.Errorf("bench run --threads 2 --rounds 2 --json: %+v", bt)
	}
	var bp struct {
		OK   bool
		Rows []struct {
			Graph      string
			Nodes      int
			Partitions int
		}
	}
	jsonOf(t, &bp, "bench", "partition", fixtures.Model("gpt2_tiny"), "--backend", "tensor-only", "--time", "1ms", "--json")
	if !bp.OK || len(bp.Rows) != 1 || bp.Rows[0].Nodes != 153 || bp.Rows[0].Partitions != 2 {
		t.Errorf("bench partition --json: %+v", bp)
	}
}

func TestDemoJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("the demo times its runs")
	}
	var d struct {
		OK    bool
		Naive struct {
			RunError string `json:"run_error"`
		}
		Policies []struct {
			Policy  string
			Refusal string
			Run     *struct{ Error string }
		}
	}
	jsonOf(t, &d, "demo", "--json")
	if !d.OK || !strings.Contains(d.Naive.RunError, "contract of tensor-only violated") || len(d.Policies) < 5 {
		t.Errorf("demo --json: %+v", d)
	}
}

// TestExitStatuses: 0 success, 1 the check failed, 2 bad usage or input,
// 3 a bug in seam, the same whatever the command.
func TestExitStatuses(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.pt2")
	os.WriteFile(garbage, []byte("not a zip archive"), 0o644)
	badProfile := filepath.Join(dir, "bad.json")
	os.WriteFile(badProfile, []byte(`{"name": "npu", "ops": {"include": ["aten.*"]}, "placeholders": {"sym_int": "refuze"}}`), 0o644)
	bad := hostileArchive(t, "used_before_defined")
	mlp := fixtures.Model("mlp")
	in0 := filepath.Join(caseDir("mlp", "case0"), "in_0.npy")
	for _, c := range []struct {
		want int
		args []string
	}{
		{exitOK, []string{"verify", mlp}},
		{exitOK, []string{"run", mlp, "--case", caseDir("mlp", "case0")}},
		{exitFailed, []string{"verify", bad}},
		{exitFailed, []string{"run", mlp, "--input", in0, "--expect", caseDir("mlp", "case1")}},
		{exitInput, []string{"run", mlp, "--bogus"}},
		{exitInput, []string{"run"}},
		{exitInput, []string{"bogus"}},
		{exitInput, []string{"bench", "bogus"}},
		{exitInput, []string{"verify", filepath.Join(dir, "missing.pt2")}},
		{exitInput, []string{"inspect", garbage}},
		{exitInput, []string{"verify", garbage}},
		{exitInput, []string{"partition", mlp, "--backend", badProfile}},
		{exitInput, []string{"partition", mlp, "--backend", "no-such-backend"}},
		{exitInput, []string{"lower", bad, "--backend", "tensor-only", "-o", filepath.Join(dir, "low.pt2")}},
		{exitInput, []string{"run", mlp, "--case", caseDir("mlp", "case0"), "--repeat", "-3"}},
		{exitInput, []string{"specialize", mlp, "--bind", "s77=4"}},
	} {
		out, code, err := seam(t, c.args...)
		if code != c.want {
			t.Errorf("seam %s: exit %d, want %d (%v)\n%s", strings.Join(c.args, " "), code, c.want, err, limitText(out))
		}
	}

	// A panic in any command is seam's bug: exit 3, said so.
	root := newRoot()
	root.AddCommand(&cobra.Command{Use: "boom", RunE: func(*cobra.Command, []string) error {
		var m map[string]int
		m["x"] = 1
		return nil
	}})
	guard(root)
	root.SetArgs([]string{"boom"})
	root.SetOut(io.Discard)
	err := root.Execute()
	if exitStatus(err) != exitBug || !strings.Contains(err.Error(), "a bug in seam") || !strings.Contains(err.Error(), "goroutine") {
		t.Errorf("a panic: exit %d, %v", exitStatus(err), err)
	}
	// Errors are classified by type, however deep they are wrapped.
	for _, c := range []struct {
		err  error
		want int
	}{
		{&lower.BugError{}, exitBug},
		{fmt.Errorf("x.pt2: %w", &lower.BugError{}), exitBug},
		{fmt.Errorf("lower: %w", &lower.BugError{Err: errors.New("the partitions are not convex: cycle among 3 nodes")}), exitBug},
		{&runtime.NodeError{Node: "mm", Err: &kernels.PanicError{Target: "aten.mm.default", Value: "index out of range"}}, exitBug},
		{fmt.Errorf("x.pt2: %w", &runtime.PlanError{Pass: "gelu", Err: errors.New("reads y")}), exitBug},
		{fmt.Errorf("x.pt2: %w", &runtime.PartsError{Err: errors.New("part 1 refused")}), exitBug},
		{&runtime.InputError{Input: "x", Msg: "dim 1 is 16, want 9"}, exitInput},
		{errors.New("anything else"), exitInput},
		{exitError{exitFailed}, exitFailed},
		{checkError{errors.New("the demo's run differs")}, exitFailed},
	} {
		if got := exitStatus(c.err); got != c.want {
			t.Errorf("exitStatus(%v) = %d, want %d", c.err, got, c.want)
		}
	}
}

// TestExitStatusesOfMain: main exits with the same statuses, and says
// the error once on stderr (a check's failure is said by the command).
func TestExitStatusesOfMain(t *testing.T) {
	if testing.Short() {
		t.Skip("runs seam in child processes")
	}
	bad := hostileArchive(t, "used_before_defined")
	for _, c := range []struct {
		want int
		say  string
		args []string
	}{
		{exitOK, "OK:", []string{"verify", fixtures.Model("mlp")}},
		{exitFailed, "FAIL:", []string{"verify", bad}},
		{exitInput, "seam: run: unknown flag: --bogus (seam run --help lists the flags)", []string{"run", "--bogus"}},
		{exitInput, "seam: " + bad + " does not verify:\n", []string{"lower", bad, "--backend", "tensor-only"}},
	} {
		out, code, _ := runSeam(t, timeCap, nil, c.args...)
		if code != c.want || !strings.Contains(out, c.say) || strings.Count(out, "seam: ") > 1 {
			t.Errorf("seam %s: exit %d, want %d, saying %q:\n%s", strings.Join(c.args, " "), code, c.want, c.say, out)
		}
	}
}

// TestBenchAnyModel: bench times a user's program on its cases and
// partitions it for a backend; a row that fails makes the exit status 1,
// and says why on stderr.
func TestBenchAnyModel(t *testing.T) {
	mlp := fixtures.Model("mlp")
	out := mustSeam(t, "bench", "run", mlp, "--case", caseDir("mlp", "case0"), "--case", caseDir("mlp", "case1"), "--time", "1ms")
	if !strings.Contains(out, caseDir("mlp", "case0")) || !strings.Contains(out, caseDir("mlp", "case1")) {
		t.Errorf("bench run MODEL:\n%s", out)
	}
	out = mustSeam(t, "bench", "partition", fixtures.Model("gpt2_tiny"), "--backend", "tensor-only", "--time", "1ms")
	if !strings.Contains(out, "gpt2_tiny/model.pt2 for tensor-only") || !strings.Contains(out, "153") {
		t.Errorf("bench partition MODEL:\n%s", out)
	}
	for _, args := range [][]string{
		{"bench", "run", mlp},
		{"bench", "run", mlp, "--case", "/nonexistent"},
		{"bench", "run", "--case", caseDir("mlp", "case0")},
		{"bench", "partition", mlp},
		{"bench", "partition", mlp, "--backend", "no-such-backend"},
		{"bench", "run", "--fixtures", t.TempDir()},
	} {
		if out, code, _ := seam(t, args...); code != exitInput {
			t.Errorf("seam %s: exit %d, want %d\n%s", strings.Join(args, " "), code, exitInput, out)
		}
	}
	// A fixtures folder whose programs are missing: every row fails.
	empty := t.TempDir()
	os.Mkdir(filepath.Join(empty, "models"), 0o755)
	out, code, err := seam(t, "bench", "run", "--fixtures", empty, "--time", "1ms")
	if code != exitFailed || err != nil || !strings.Contains(out, "seam: bench run: gpt2_tiny case3 failed: ") {
		t.Errorf("bench run of missing fixtures: exit %d, %v\n%s", code, err, limitText(out))
	}
	// A row that fails among rows that pass.
	dir := t.TempDir()
	full := filepath.Join(dir, "npu.json")
	os.WriteFile(full, []byte(`{"name": "npu", "ops": {"include": ["aten.addmm.*"]}, "full_graph": true}`), 0o644)
	out, code, _ = seam(t, "bench", "partition", mlp, "--backend", full, "--time", "1ms")
	if code != exitFailed || !strings.Contains(out, "failed: full_graph") {
		t.Errorf("bench partition with a refusing full_graph backend: exit %d\n%s", code, out)
	}
}

// TestNoSilentNoOps: what would change nothing, silently, is a warning or
// an error.
func TestNoSilentNoOps(t *testing.T) {
	dir := t.TempDir()
	model := fixtures.Model("gpt2_tiny")
	typo := filepath.Join(dir, "typo.json")
	os.WriteFile(typo, []byte(`{"name": "npu", "ops": {"include": ["aten.*", "aten.mm.defualt"], "exclude": ["aten.embeding*"]},
	  "exclude_nodes": ["addmm", "addmm_99"]}`), 0o644)
	for _, cmd := range []string{"partition", "lower", "explain"} {
		args := []string{cmd, model, "--backend", typo}
		if cmd == "explain" {
			args = append(args, "addmm")
		}
		out, code, err := seam(t, args...)
		if code != 0 {
			t.Fatalf("%s: exit %d, %v", cmd, code, err)
		}
		for _, want := range []string{
			`seam: warning: backend npu: ops.include[1] "aten.mm.defualt" matches no op of ` + model + ` nor any op seam knows, so it selects nothing`,
			`seam: warning: backend npu: ops.exclude[0] "aten.embeding*" matches no op`,
			`seam: warning: backend npu: exclude_nodes[1] "addmm_99": ` + model + ` has no node of that name, so it excludes nothing`,
		} {
			if !strings.Contains(out, want) {
				t.Errorf("%s does not warn %s:\n%s", cmd, want, limitText(out))
			}
		}
		if strings.Contains(out, `"addmm":`) {
			t.Errorf("%s warns of an exclude_nodes name the program has", cmd)
		}
	}
	// The built-in profiles select something in every fixture.
	for _, b := range []string{"reference", "tensor-only", "scalar-args", "static-shapes", "matmul-only", "onnxruntime"} {
		for _, m := range []string{"gpt2_tiny", "cnn", "cond"} {
			if out := mustSeam(t, "partition", fixtures.Model(m), "--backend", b); strings.Contains(out, "warning") {
				t.Errorf("%s on %s warns:\n%s", b, m, limitText(out))
			}
		}
	}

	// lower without -o writes nothing, and says so.
	out := mustSeam(t, "lower", fixtures.Model("mlp"), "--backend", "tensor-only")
	if !strings.Contains(out, "seam: warning: no -o OUT.pt2: the cut report only, nothing written") {
		t.Errorf("lower without -o:\n%s", out)
	}

	// Counts that mean nothing are refused, naming the flag.
	for _, args := range [][]string{
		{"--repeat", "-3"}, {"--threads", "-1"},
	} {
		_, code, err := seam(t, append([]string{"run", fixtures.Model("mlp"), "--case", caseDir("mlp", "case0")}, args...)...)
		if code != exitInput || err == nil || !strings.Contains(err.Error(), args[0]+" "+args[1]) {
			t.Errorf("%v: exit %d, %v", args, code, err)
		}
	}
	// --case brings its inputs: --input beside it is an error, not a
	// concatenation.
	_, code, err := seam(t, "run", fixtures.Model("mlp"), "--case", caseDir("mlp", "case0"), "--input", filepath.Join(caseDir("mlp", "case0"), "in_0.npy"))
	if code != exitInput || err == nil || !strings.Contains(err.Error(), "not both") {
		t.Errorf("--case with --input: exit %d, %v", code, err)
	}

	// A YAML profile whose name does not say so is read as YAML.
	yamlProfile := filepath.Join(dir, "npu.profile")
	os.WriteFile(yamlProfile, []byte("name: npu\nops:\n  include: ['aten.*']\nplaceholders: {sym_int: tensor}\n"), 0o644)
	out = mustSeam(t, "partition", fixtures.Model("symint_input"), "--backend", yamlProfile)
	if !strings.Contains(out, "for backend npu") {
		t.Errorf("partition with a YAML profile named npu.profile:\n%s", out)
	}

	// Every problem of a profile at once, each with its key path; dtypes
	// as profiles spell them.
	broken := filepath.Join(dir, "broken")
	os.WriteFile(broken, []byte("name: npu\nops: {include: ['aten.*']}\nplaceholders: {sym_int: refuze}\ndtypes: [f32, boolean]\n"), 0o644)
	_, code, err = seam(t, "partition", model, "--backend", broken)
	want := broken + ": 2 problems:\n" +
		`  dtypes[1]: unknown dtype "boolean" (use f32, f64, f16, bf16, i64, i32, i16, i8, u8, b8)` + "\n" +
		`  placeholders.sym_int: "refuze" is not one of "refuse", "int", "tensor"`
	if code != exitInput || err == nil || err.Error() != want {
		t.Errorf("broken profile: exit %d,\n%v\nwant\n%s", code, err, want)
	}
}

// TestMessages: the messages the issue quotes say what is wrong.
func TestMessages(t *testing.T) {
	mlp := fixtures.Model("mlp")
	in0 := filepath.Join(caseDir("mlp", "case0"), "in_0.npy")

	// --case of a missing folder names it.
	_, _, err := seam(t, "run", mlp, "--case", "/nonexistent")
	if err == nil || err.Error() != "case folder /nonexistent: no such folder" {
		t.Errorf("--case /nonexistent: %v", err)
	}

	// --expect of another shape says the shape, not a max abs error.
	out, code, _ := seam(t, "run", mlp, "--input", in0, "--expect", caseDir("cnn", "case0"))
	if code != exitFailed || !strings.Contains(out, "out_0 f32[4, 10]: MISMATCH: shape: got f32[4, 10], the reference is ") || strings.Contains(out, "max abs error") {
		t.Errorf("--expect of another shape: exit %d\n%s", code, out)
	}

	// -o into a missing folder names the folder, never a temporary file.
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing")
	for _, args := range [][]string{
		{"lower", mlp, "--backend", "tensor-only", "-o", filepath.Join(missing, "x.pt2")},
		{"specialize", fixtures.Model("seed_like"), "--bind", "s53=4", "-o", filepath.Join(missing, "x.pt2")},
		{"export", "onnx", mlp, "-o", filepath.Join(missing, "x.onnx")},
		{"partition", mlp, "--backend", "tensor-only", "--html", filepath.Join(missing, "x.html")},
	} {
		_, code, err := seam(t, args...)
		if code != exitInput || err == nil || !strings.Contains(err.Error(), "no folder "+missing) || strings.Contains(err.Error(), ".tmp") {
			t.Errorf("%s into a missing folder: exit %d, %v", args[0], code, err)
		}
	}

	// An output within tolerance only through atol says so.
	ref, err := npy.ReadFile(filepath.Join(caseDir("mlp", "case0"), "out_0.npy"))
	if err != nil {
		t.Fatal(err)
	}
	w := ref.Float64s()[0]
	// |error| = 0.8e-5 + 1e-4*|w| passes allclose (atol 1e-5, rtol 1e-4)
	// with a relative error above rtol.
	ref.SetFloat(w+math.Copysign(0.8e-5+1e-4*math.Abs(w), w), 0, 0)
	near := t.TempDir()
	if err := npy.WriteFile(filepath.Join(near, "out_0.npy"), ref); err != nil {
		t.Fatal(err)
	}
	out = mustSeam(t, "run", mlp, "--input", in0, "--expect", near)
	if !strings.Contains(out, "ok by atol (max rel error above rtol 0.0001; every element within atol 1e-05 + rtol*|want|)") {
		t.Errorf("a pass by atol:\n%s", out)
	}
	os.Link(in0, filepath.Join(near, "in_0.npy"))
	out = mustSeam(t, "run", mlp, "--case", near, "--case", caseDir("mlp", "case0"))
	if !strings.Contains(out, near+": ok by atol") || !strings.Contains(out, caseDir("mlp", "case0")+": ok, 1 output") {
		t.Errorf("a pass by atol in a chain:\n%s", out)
	}
	out = mustSeam(t, "run", mlp, "--case", caseDir("mlp", "case0"))
	if strings.Contains(out, "atol") {
		t.Errorf("an exact match:\n%s", out)
	}
}

// TestExplain: explain says what partition's report says about a node:
// delegated or why not, its partition, and the contract and policy of
// each symbolic value crossing at it.
func TestExplain(t *testing.T) {
	model := fixtures.Model("gpt2_tiny")
	out := mustSeam(t, "explain", model, "--backend", "tensor-only", "sym_size_int_24", "view", "index")
	for _, want := range []string{
		"sym_size_int_24 (aten.sym_size.int), for tensor-only (policy auto):\n" +
			"  not delegated: its op is excluded by tensor-only's ops.exclude (aten.sym_size.int matches \"aten.sym_*\")\n",
		"    sym_size_int_24 Sym(s53): made here, it enters partition 0\n" +
			"      contract of tensor-only: sym_int refuse (not taken as a placeholder)\n" +
			"      lowering (policy auto): rederive: ",
		"view (aten.view.default), for tensor-only (policy auto):\n" +
			"  delegated to tensor-only in partition 0 (28 nodes): its op aten.view.default is included by \"aten.*\"",
		"    sym_size_int_24 Sym(s53): read here, it enters partition 0 from node sym_size_int_24\n",
		"    view i64[1, s53]: made here, it leaves partition 0 to node (embedding)\n",
		"index (aten.index.Tensor), for tensor-only (policy auto):\n  not delegated: its op is excluded",
		"    index b8[1, 1, 1, s53]: made here, it enters partition 1\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("explain lacks\n%s\nin\n%s", want, out)
		}
	}
	// The README's example is what explain prints.
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	const prompt = "    $ seam explain gpt2_tiny.pt2 --backend tensor-only view\n"
	_, example, ok := strings.Cut(string(readme), prompt)
	if !ok {
		t.Fatal("the README has no explain example")
	}
	example, _, _ = strings.Cut(example, "\n\n")
	example = strings.ReplaceAll(example, "\n    ", "\n")[len("    "):] + "\n"
	if got := mustSeam(t, "explain", model, "--backend", "tensor-only", "view"); got != example {
		t.Errorf("the README's explain example is out of date:\n--- README\n%s--- seam\n%s", example, got)
	}
	// Under another contract, and another policy.
	out = mustSeam(t, "explain", model, "--backend", "scalar-args", "view")
	if !strings.Contains(out, "contract of scalar-args: sym_int int (taken as a placeholder)") || !strings.Contains(out, "lowering (policy auto): ") {
		t.Errorf("scalar-args:\n%s", out)
	}
	out = mustSeam(t, "explain", model, "--backend", "tensor-only", "--policy", "fail", "view")
	if !strings.Contains(out, "lowering (policy fail): refused: ") {
		t.Errorf("policy fail:\n%s", out)
	}
	// A placeholder, an output of a multi-output node, and a node of a
	// cond's branch, delegated with the cond or planned on its own.
	out = mustSeam(t, "explain", fixtures.Model("symint_input"), "--backend", "tensor-only", "n")
	if !strings.Contains(out, "n (user_input), for tensor-only") || !strings.Contains(out, "placeholders are never delegated") ||
		!strings.Contains(out, "n Sym(s86): made here, it enters partition 0") || !strings.Contains(out, "contract of tensor-only: sym_int refuse") {
		t.Errorf("a placeholder:\n%s", out)
	}
	out = mustSeam(t, "explain", model, "--backend", "tensor-only", "getitem_3")
	if !strings.Contains(out, "getitem_3 (an output of split_with_sizes, aten.split_with_sizes.default)") {
		t.Errorf("an output of a node:\n%s", out)
	}
	out = mustSeam(t, "explain", fixtures.Model("cond"), "--backend", "reference", "sin")
	if !strings.Contains(out, "sin (aten.sin.default) in graph cond.true_graph_0") || !strings.Contains(out, "which is delegated whole") {
		t.Errorf("a node of a delegated cond:\n%s", out)
	}
	out = mustSeam(t, "explain", fixtures.Model("cond"), "--backend", "tensor-only", "sin", "cond")
	if !strings.Contains(out, "sin (aten.sin.default) in graph cond.true_graph_0, for tensor-only (policy auto):\n  delegated") ||
		!strings.Contains(out, "cond (higher_order.cond), for tensor-only (policy auto):\n  not delegated: its op higher_order.cond matches none of tensor-only's ops.include (aten.*)") {
		t.Errorf("nodes of a cond left to the parent:\n%s", out)
	}
	// An unknown name is an input error, with names that look like it.
	_, code, err := seam(t, "explain", model, "--backend", "tensor-only", "adddmm")
	if code != exitInput || err == nil || !strings.Contains(err.Error(), `has no node, placeholder or node output named "adddmm"`) {
		t.Errorf("unknown node: exit %d, %v", code, err)
	}
	_, code, err = seam(t, "explain", model, "--backend", "tensor-only", "addmm_")
	if code != exitInput || err == nil || !strings.Contains(err.Error(), "addmm_1") {
		t.Errorf("a near name: exit %d, %v", code, err)
	}
}

// TestExplainAgreesWithPartition: for every node of a program, explain
// says what the partition report says: delegated in the same partition,
// or left to the parent for the same reason; and each symbolic crossing
// carries the report's judgement.
func TestExplainAgreesWithPartition(t *testing.T) {
	for _, c := range []struct{ model, backend string }{{"gpt2_tiny", "tensor-only"}, {"gpt2_tiny", "scalar-args"}, {"cond", "tensor-only"}} {
		var rep struct {
			Partitions []struct {
				ID     int
				Graph  string
				Nodes  []string
				Inputs []struct {
					Name     string
					Symbolic bool
					Policy   string
				}
			}
			Unsupported []struct{ Node, Reason, Graph string }
		}
		jsonOf(t, &rep, "partition", fixtures.Model(c.model), "--backend", c.backend, "--json")
		partOf := map[string]int{}
		reason := map[string]string{}
		var names []string
		for _, p := range rep.Partitions {
			for _, n := range p.Nodes {
				partOf[p.Graph+"/"+n] = p.ID
				names = append(names, n)
			}
		}
		for _, u := range rep.Unsupported {
			reason[u.Graph+"/"+u.Node] = u.Reason
			names = append(names, u.Node)
		}
		slices.Sort(names)
		names = slices.Compact(names)
		var ex struct {
			Nodes []struct {
				Name, Graph, Kind, Reason string
				Delegated                 bool
				Partition                 *int
				Crossings                 []struct {
					Value     string
					Symbolic  bool
					Partition int
					Into      bool
					Policy    string
				}
			}
		}
		jsonOf(t, &ex, append([]string{"explain", fixtures.Model(c.model), "--backend", c.backend, "--json"}, names...)...)
		seen := 0
		for _, e := range ex.Nodes {
			if e.Kind != "node" {
				continue
			}
			seen++
			key := e.Graph + "/" + e.Name
			id, delegated := partOf[key]
			switch {
			case delegated != e.Delegated:
				t.Errorf("%s %s: explain says delegated %v, partition %v", c.model, key, e.Delegated, delegated)
			case delegated && *e.Partition != id:
				t.Errorf("%s %s: explain says partition %d, partition %d", c.model, key, *e.Partition, id)
			case !delegated && e.Reason != reason[key]:
				t.Errorf("%s %s: explain says %q, partition %q", c.model, key, e.Reason, reason[key])
			}
			for _, x := range e.Crossings {
				if !x.Symbolic || !x.Into {
					continue
				}
				for _, in := range rep.Partitions[x.Partition].Inputs {
					if in.Name == x.Value && in.Policy != x.Policy {
						t.Errorf("%s %s: %s into partition %d: explain says %q, partition %q", c.model, key, x.Value, x.Partition, x.Policy, in.Policy)
					}
				}
			}
		}
		if seen != len(partOf)+len(reason) {
			t.Errorf("%s: explained %d nodes, the report has %d", c.model, seen, len(partOf)+len(reason))
		}
	}
}

// TestREADMEDocumentsEveryJSONField: every field a command's --json prints
// is named in the README's table of documents.
func TestREADMEDocumentsEveryJSONField(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]map[string]bool{}
	quoted := regexp.MustCompile(`"([a-z0-9_]+)"`)
	for _, line := range strings.Split(string(readme), "\n") {
		cells := strings.Split(line, " | ")
		if len(cells) < 2 || !strings.HasPrefix(cells[0], "| `") || !strings.Contains(cells[1], `{"`) {
			continue
		}
		cmd := strings.Trim(strings.TrimPrefix(cells[0], "| "), "`")
		documented[cmd] = map[string]bool{}
		for _, m := range quoted.FindAllStringSubmatch(cells[1], -1) {
			documented[cmd][m[1]] = true
		}
	}
	dir := t.TempDir()
	bad := hostileArchive(t, "used_before_defined")
	spec := filepath.Join(dir, "spec.pt2")
	if out, code, err := seam(t, "lower", fixtures.Model("mlp"), "--backend", "static-shapes", "--specialize", "s77=4", "-o", spec); code != 0 {
		t.Fatalf("lower --specialize: exit %d, %v\n%s", code, err, out)
	}
	runs := []struct {
		doc  string
		args []string
	}{
		{"verify --json", []string{"verify", bad, "--json"}},
		{"backends --json", []string{"backends", "--json"}},
		{"explain --json", []string{"explain", fixtures.Model("gpt2_tiny"), "--backend", "tensor-only", "view", "input_ids", "getitem_3", "--json"}},
		{"specialize --json", []string{"specialize", fixtures.Model("seed_like"), "--bind", "s53=4", "-o", filepath.Join(dir, "s.pt2"), "--json"}},
		{"run --json", []string{"run", fixtures.Model("mlp"), "--case", caseDir("mlp", "case0"), "--repeat", "1", "--json"}},
		{"run --json", []string{"run", spec, "--case", caseDir("mlp", "case0"), "--case", caseDir("mlp", "case1"), "--json"}},
		{"lower --json", []string{"lower", fixtures.Model("gpt2_tiny"), "--backend", "tensor-only", "--group", "view,embedding", "--json"}},
		{"lower --json", []string{"lower", fixtures.Model("mlp"), "--backend", "static-shapes", "--specialize", "s77=4,7", "--json"}},
		{"run --json", []string{"run", fixtures.Model("mlp"), "--input", filepath.Join(caseDir("mlp", "case0"), "in_0.npy"), "--expect", caseDir("cnn", "case0"), "--json"}},
		{"export onnx --json", []string{"export", "onnx", fixtures.Model("buffer_mutation"), "-o", filepath.Join(dir, "m.onnx"), "--json"}},
		{"bench run --json", []string{"bench", "run", fixtures.Model("mlp"), "--case", caseDir("mlp", "case0"), "--time", "1ms", "--json"}},
		{"bench partition --json", []string{"bench", "partition", fixtures.Model("mlp"), "--backend", "tensor-only", "--time", "1ms", "--json"}},
		{"demo --json", []string{"demo", "--json"}},
	}
	for _, r := range runs {
		doc := documented[r.doc]
		if doc == nil {
			t.Errorf("the README documents no %s", r.doc)
			continue
		}
		all, stdout, code, err := seamSplit(t, r.args...)
		if err != nil || code > exitFailed {
			t.Fatalf("seam %s: exit %d, %v\n%s", strings.Join(r.args, " "), code, err, limitText(all))
		}
		var v any
		oneJSON(t, r.doc, stdout, &v)
		var walk func(v any)
		walk = func(v any) {
			switch v := v.(type) {
			case map[string]any:
				for k, x := range v {
					if !doc[k] {
						t.Errorf("%s prints %q, which the README does not document", r.doc, k)
					}
					// Maps keyed by data, and the profile's file form
					// (documented in docs/backend-contract.md).
					if k != "bind" && k != "among" && k != "profile" {
						walk(x)
					}
				}
			case []any:
				for _, x := range v {
					walk(x)
				}
			}
		}
		walk(v)
	}
}
