package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/onnx"
	"github.com/seam-rt/seam/onnx/ort"
	"github.com/seam-rt/seam/onnx/ort/orttest"
	"github.com/seam-rt/seam/pt2"
)

func TestExportONNX(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "gpt2.onnx")
	text := mustSeam(t, "export", "onnx", fixtures.Model("gpt2_tiny"), "-o", out)
	for _, want := range []string{"wrote " + out, "opset 18", "input  input_ids INT64[1, s53]", "input  attention_mask INT64[1, s53]", "output"} {
		if !strings.Contains(text, want) {
			t.Errorf("summary lacks %q:\n%s", want, text)
		}
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	m, err := onnx.Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Graph.Inputs) != 2 || m.OpsetImports[0].Version != onnx.Opset {
		t.Errorf("model: %d inputs, opsets %v", len(m.Graph.Inputs), m.OpsetImports)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("the folder holds %d files, want only the model (no temporary left)", len(ents))
	}
	if _, code, err := seam(t, "export", "onnx", fixtures.Model("mlp")); err == nil || code == 0 {
		t.Error("export without -o succeeded")
	}
}

// TestExportRefusesUntranslatable: every node without a translation is
// named, and nothing is written.
func TestExportRefusesUntranslatable(t *testing.T) {
	a, err := pt2.Open(fixtures.Model("gpt2_tiny"))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	p := a.Programs[pt2.MainModel]
	n := 0
	for _, node := range p.Graph.Nodes {
		if strings.HasSuffix(node.Target, "aten.tanh.default") {
			node.Target = "torch.ops.aten.nonzero.default"
			n++
		}
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.pt2")
	if err := pt2.WriteFile(bad, a); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "bad.onnx")
	_, code, err := seam(t, "export", "onnx", bad, "-o", out)
	if err == nil || code == 0 {
		t.Fatal("an untranslatable program exported")
	}
	if got := strings.Count(err.Error(), "aten.nonzero.default"); got != n || n != 2 {
		t.Errorf("the error names %d of the %d nonzero nodes:\n%v", got, n, err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a refused export left %s", out)
	}
}

// TestLowerForONNXRuntimeAndRun: lower symint_input (its SymInt user
// input must reach ONNX Runtime as a boxed tensor) and run every case.
func TestLowerForONNXRuntimeAndRun(t *testing.T) {
	orttest.Library(t)
	dir := t.TempDir()
	for _, model := range []string{"symint_input", "cond", "sym_float"} {
		lowered := filepath.Join(dir, model+".pt2")
		report := mustSeam(t, "lower", fixtures.Model(model), "--backend", "onnxruntime", "-o", lowered)
		if model == "symint_input" && !strings.Contains(report, "box") {
			t.Errorf("the SymInt n was not boxed:\n%s", report)
		}
		cases, _ := filepath.Glob(filepath.Join(fixtures.ModelDir(model), "io", "case*"))
		for _, c := range cases {
			out := mustSeam(t, "run", lowered, "--case", c)
			if strings.Contains(out, "MISMATCH") {
				t.Errorf("%s %s:\n%s", model, filepath.Base(c), out)
			}
		}
	}
}

// TestLowerForSeveralBackends: seam lower --backend onnxruntime,reference
// says which backend took which nodes (text and JSON), seam verify accepts
// the result and seam run matches PyTorch on every case.
func TestLowerForSeveralBackends(t *testing.T) {
	orttest.Library(t)
	model := "symint_input"
	lowered := filepath.Join(t.TempDir(), model+".pt2")
	report := mustSeam(t, "lower", fixtures.Model(model), "--backend", "onnxruntime,reference", "-o", lowered)
	for _, want := range []string{"lowered for onnxruntime,reference", "onnxruntime:", "reference:", "(onnxruntime)", "(reference)"} {
		if !strings.Contains(report, want) {
			t.Errorf("the report does not say %q:\n%s", want, report)
		}
	}
	var rep struct {
		Backend  string
		Backends []struct {
			Backend string
			Modules []string
			Nodes   int
		}
		Modules []struct{ Name, Backend string }
	}
	if err := json.Unmarshal([]byte(mustSeam(t, "lower", fixtures.Model(model), "--backend", "onnxruntime,reference", "--json", "-o", lowered+".again.pt2")), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Backend != "onnxruntime,reference" || len(rep.Backends) != 2 || rep.Backends[0].Nodes == 0 || len(rep.Backends[1].Modules) == 0 {
		t.Errorf("--json: %+v", rep)
	}
	mustSeam(t, "verify", lowered)
	cases, _ := filepath.Glob(filepath.Join(fixtures.ModelDir(model), "io", "case*"))
	for _, c := range cases {
		if out := mustSeam(t, "run", lowered, "--case", c); strings.Contains(out, "MISMATCH") {
			t.Errorf("%s:\n%s", filepath.Base(c), out)
		}
	}
}

// TestBenchRunORTOnSeamExport: with ONNX Runtime at hand, bench run
// times it on seam's own export of the program beside seam, in the text
// and in --json.
func TestBenchRunORTOnSeamExport(t *testing.T) {
	orttest.Library(t)
	model, c := fixtures.Model("symint_input"), filepath.Join(fixtures.ModelDir("symint_input"), "io", "case0")
	out := mustSeam(t, "bench", "run", model, "--case", c, "--time", "1ms")
	if !strings.Contains(out, "ORT on seam's export") || strings.Contains(out, "no ONNX Runtime figure") {
		t.Errorf("bench run:\n%s", out)
	}
	var br struct {
		OK   bool
		Rows []struct {
			OrtSeamMS    *float64 `json:"onnxruntime_seam_export_ms"`
			OrtSeamRatio *float64 `json:"seam_over_onnxruntime_seam_export"`
		}
	}
	if err := json.Unmarshal([]byte(mustSeam(t, "bench", "run", model, "--case", c, "--time", "1ms", "--json")), &br); err != nil {
		t.Fatal(err)
	}
	if !br.OK || len(br.Rows) != 1 || br.Rows[0].OrtSeamMS == nil || *br.Rows[0].OrtSeamMS <= 0 || br.Rows[0].OrtSeamRatio == nil {
		t.Errorf("bench run --json: %+v", br)
	}
}

// TestMissingONNXRuntime runs seam with a library that cannot load:
// backends lists onnxruntime as unavailable with the install command, and
// running a program lowered for it says the same.
func TestMissingONNXRuntime(t *testing.T) {
	if os.Getenv("SEAM_HELPER_ARGS") != "" {
		t.Skip("helper process")
	}
	dir := t.TempDir()
	lowered := filepath.Join(dir, "mlp.pt2")
	mustSeam(t, "lower", fixtures.Model("mlp"), "--backend", "onnxruntime", "-o", lowered)
	run := func(args ...string) (string, error) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestSeamHelper$")
		cmd.Env = append(os.Environ(), ort.EnvVar+"=/nonexistent/libonnxruntime.so.1", "SEAM_HELPER_ARGS="+strings.Join(args, "\x1f"))
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := run("backends")
	if err != nil || !strings.Contains(out, "available     no:") || !strings.Contains(out, ort.InstallCommand()) {
		t.Errorf("seam backends (%v):\n%s", err, out)
	}
	cases, _ := filepath.Glob(filepath.Join(fixtures.ModelDir("mlp"), "io", "case0"))
	out, err = run("run", lowered, "--case", cases[0])
	if err == nil || !strings.Contains(out, ort.InstallCommand()) {
		t.Errorf("seam run of a program lowered for onnxruntime (%v):\n%s", err, out)
	}
}

// TestSeamHelper is seam itself, in a process of its own, for the tests
// above that need a fresh process (the library is loaded once per process).
func TestSeamHelper(t *testing.T) {
	args := os.Getenv("SEAM_HELPER_ARGS")
	if args == "" {
		t.Skip("run by other tests")
	}
	out, code, err := seam(t, strings.Split(args, "\x1f")...)
	os.Stdout.WriteString(out)
	if err != nil {
		os.Stdout.WriteString("seam: " + err.Error() + "\n")
		os.Exit(1)
	}
	os.Exit(code)
}
