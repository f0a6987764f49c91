package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strings"
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/npy"
	"github.com/seam-rt/seam/runtime"
	"github.com/seam-rt/seam/tensor"
)

// seam runs the command line in process and returns what it printed
// (stdout and stderr together), its exit status as main would exit with
// it, and the error main would print (nil when the command printed its
// own failure: a check that failed).
func seam(t *testing.T, args ...string) (string, int, error) {
	t.Helper()
	out, _, code, err := seamSplit(t, args...)
	return out, code, err
}

// seamSplit is seam with stdout and stderr apart: the first is all of
// stdout and stderr together, the second stdout alone.
func seamSplit(t *testing.T, args ...string) (string, string, int, error) {
	t.Helper()
	root := newRoot()
	var all, stdout bytes.Buffer
	root.SetOut(io.MultiWriter(&all, &stdout))
	root.SetErr(&all)
	root.SetArgs(args)
	err := root.Execute()
	code := exitStatus(err)
	if errors.As(err, new(exitError)) {
		err = nil
	}
	return all.String(), stdout.String(), code, err
}

func mustSeam(t *testing.T, args ...string) string {
	t.Helper()
	out, code, err := seam(t, args...)
	if err != nil || code != 0 {
		t.Fatalf("seam %s: exit %d, %v\n%s", strings.Join(args, " "), code, err, out)
	}
	return out
}

func TestInspectJSON(t *testing.T) {
	out := mustSeam(t, "inspect", "--json", fixtures.Model("seed_like"))
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got["schema_version"] != "8.17" || got["nodes"].(float64) != 15 {
		t.Errorf("%v", got)
	}
}

func TestVerifyExitStatus(t *testing.T) {
	out := mustSeam(t, "verify", fixtures.Model("cond"))
	if !strings.HasPrefix(out, "OK:") {
		t.Errorf("verify printed %q", out)
	}
	_, code, err := seam(t, "verify", filepath.Join(t.TempDir(), "missing.pt2"))
	if err == nil || code != exitInput {
		t.Errorf("verify of a missing file: exit %d, %v", code, err)
	}
}

func TestPartitionFullGraphRefuses(t *testing.T) {
	dir := t.TempDir()
	prof := filepath.Join(dir, "npu.json")
	os.WriteFile(prof, []byte(`{"name": "npu", "ops": {"include": ["aten.*"], "exclude": ["aten.embedding.*"]}, "full_graph": true}`), 0o644)
	_, code, err := seam(t, "partition", fixtures.Model("gpt2_tiny"), "--backend", prof)
	if err == nil || code == 0 || !strings.Contains(err.Error(), "embedding") {
		t.Errorf("full_graph partition: exit %d, %v", code, err)
	}
	html := filepath.Join(dir, "cut.html")
	out := mustSeam(t, "partition", fixtures.Model("gpt2_tiny"), "--backend", "tensor-only", "--html", html, "--group", "view_2,addmm")
	if !strings.Contains(out, "sym_size_int_24") {
		t.Errorf("report lacks the symbolic input:\n%s", out)
	}
	if b, err := os.ReadFile(html); err != nil || !bytes.Contains(b, []byte("<svg")) {
		t.Errorf("html: %v", err)
	}
}

// TestLowerThenRun: lower, write, run the lowered program on a reference
// case, and compare; then make the expectation wrong and see exit 1.
func TestLowerThenRun(t *testing.T) {
	dir := t.TempDir()
	low := filepath.Join(dir, "low.pt2")
	out := mustSeam(t, "lower", fixtures.Model("gpt2_tiny"), "--backend", "tensor-only", "-o", low)
	if !strings.Contains(out, "rederive") {
		t.Errorf("cut report:\n%s", out)
	}
	mustSeam(t, "verify", low)
	caseDir := filepath.Join(fixtures.ModelDir("gpt2_tiny"), "io", "case1")
	out = mustSeam(t, "run", low, "--case", caseDir, "--repeat", "2")
	if !strings.Contains(out, "ok") || !strings.Contains(out, "lowered_module_1 (tensor-only)") {
		t.Errorf("run:\n%s", out)
	}
	// Expect another case's outputs: a mismatch, exit status 1.
	other := filepath.Join(fixtures.ModelDir("gpt2_tiny"), "io", "case2")
	in0, in1 := filepath.Join(caseDir, "in_0.npy"), filepath.Join(caseDir, "in_1.npy")
	out, code, err := seam(t, "run", low, "--input", in0, "--input", in1, "--expect", other)
	if err == nil && code != 1 {
		t.Errorf("mismatch: exit %d, %v\n%s", code, err, out)
	}
	// A malformed input file is an error naming it.
	bad := filepath.Join(dir, "bad.npy")
	os.WriteFile(bad, []byte("not numpy"), 0o644)
	_, _, err = seam(t, "run", low, "--input", bad, "--input", in1)
	if err == nil || !strings.Contains(err.Error(), "bad.npy") {
		t.Errorf("malformed npy: %v", err)
	}
}

// TestRunExpectFailsLoudly: --expect fails (exit 1, MISMATCH) when an
// expected output is NaN where the program computes numbers, and when the
// folder holds an expected output the program does not produce.
func TestRunExpectFailsLoudly(t *testing.T) {
	caseDir := filepath.Join(fixtures.ModelDir("mlp"), "io", "case0")
	ref, err := npy.ReadFile(filepath.Join(caseDir, "out_0.npy"))
	if err != nil {
		t.Fatal(err)
	}
	inputs := []string{"--input", filepath.Join(caseDir, "in_0.npy")}
	nanDir, extraDir := t.TempDir(), t.TempDir()
	nan, _ := tensor.Clone(ref)
	for i := 0; i < nan.Numel(); i++ {
		nan.SetFloat(math.NaN(), i/nan.Size(1), i%nan.Size(1))
	}
	for _, f := range []struct {
		dir, name string
		t         *tensor.Tensor
	}{{nanDir, "out_0.npy", nan}, {extraDir, "out_0.npy", ref}, {extraDir, "out_1.npy", ref}} {
		if err := npy.WriteFile(filepath.Join(f.dir, f.name), f.t); err != nil {
			t.Fatal(err)
		}
	}
	for _, dir := range []string{nanDir, extraDir} {
		out, code, err := seam(t, append([]string{"run", fixtures.Model("mlp"), "--expect", dir}, inputs...)...)
		if code != 1 || !strings.Contains(out, "MISMATCH") {
			t.Errorf("--expect %s: exit %d, %v\n%s", filepath.Base(dir), code, err, out)
		}
	}
	out := mustSeam(t, append([]string{"run", fixtures.Model("mlp"), "--expect", caseDir}, inputs...)...)
	if strings.Contains(out, "MISMATCH") {
		t.Errorf("the reference itself:\n%s", out)
	}
}

func TestLowerRefusal(t *testing.T) {
	_, _, err := seam(t, "lower", fixtures.Model("gpt2_tiny"), "--backend", "tensor-only", "--policy", "fail")
	if err == nil || !strings.Contains(err.Error(), "sym_size_int_24") {
		t.Errorf("policy fail: %v", err)
	}
	_, _, err = seam(t, "lower", fixtures.Model("gpt2_tiny"), "--backend", "tensor-only", "--policy", "sometimes")
	if err == nil || !strings.Contains(err.Error(), "unknown policy") {
		t.Errorf("bad policy: %v", err)
	}
}

func TestBackendsAndDemo(t *testing.T) {
	out := mustSeam(t, "backends")
	for _, name := range []string{"reference", "tensor-only", "scalar-args", "static-shapes", "matmul-only"} {
		if !strings.Contains(out, name) {
			t.Errorf("backends lacks %s", name)
		}
	}
	out = mustSeam(t, "demo")
	if !strings.Contains(out, "contract of tensor-only violated") {
		t.Errorf("demo:\n%s", out)
	}
}

// TestRunCaseChain: --case folders run in order on one loaded program, so
// buffer_mutation's state carries from case 0 to case 1 (lowered or not);
// in the wrong order they mismatch; a missing folder is an error naming it.
func TestRunCaseChain(t *testing.T) {
	dir := t.TempDir()
	io := filepath.Join(fixtures.ModelDir("buffer_mutation"), "io")
	c0, c1 := filepath.Join(io, "case0"), filepath.Join(io, "case1")
	low := filepath.Join(dir, "low.pt2")
	mustSeam(t, "lower", fixtures.Model("buffer_mutation"), "--backend", "reference", "-o", low)
	for _, model := range []string{fixtures.Model("buffer_mutation"), low} {
		out := mustSeam(t, "run", model, "--case", c0, "--case", c1)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) != 2 || !strings.HasPrefix(lines[0], c0+": ok") || !strings.HasPrefix(lines[1], c1+": ok") {
			t.Errorf("%s:\n%s", model, out)
		}
		out, code, err := seam(t, "run", model, "--case", c1, "--case", c0)
		if err != nil || code != 1 || !strings.Contains(out, c1+": MISMATCH") {
			t.Errorf("%s in the wrong order: exit %d, %v\n%s", model, code, err, out)
		}
	}
	missing := filepath.Join(dir, "case9")
	_, _, err := seam(t, "run", low, "--case", c0, "--case", missing)
	if err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing case folder: %v", err)
	}
}

// TestLowerGroupAndPass: lower takes --group and --policy pass.
func TestLowerGroupAndPass(t *testing.T) {
	out := mustSeam(t, "lower", fixtures.Model("gpt2_tiny"), "--backend", "scalar-args", "--policy", "pass",
		"--group", "view_2,addmm", "--group", "embedding,add_15")
	for _, want := range []string{"policy pass", "view_2, addmm: kept together in lowered_module_", "embedding, add_15: not kept: member embedding"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

// TestPartitionJudgesCrossings: the partition report judges each symbolic
// crossing against the backend's own contract, in JSON per crossing input.
func TestPartitionJudgesCrossings(t *testing.T) {
	for _, c := range []struct {
		backend, policy string
		accepted        bool
		want            string
	}{
		{"scalar-args", "auto", true, "pass"},
		{"tensor-only", "auto", false, "box"},
		{"tensor-only", "fail", false, "refused"},
	} {
		out := mustSeam(t, "partition", fixtures.Model("symint_input"), "--backend", c.backend, "--policy", c.policy, "--json")
		var r struct {
			Partitions []struct {
				Inputs []struct {
					Name     string
					Accepted *bool
					Policy   string
				}
			}
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		found := false
		for _, p := range r.Partitions {
			for _, in := range p.Inputs {
				if in.Name == "n" {
					found = true
					if in.Accepted == nil || *in.Accepted != c.accepted || in.Policy != c.want {
						t.Errorf("%s/%s: n accepted %v, policy %q; want %v, %q", c.backend, c.policy, in.Accepted, in.Policy, c.accepted, c.want)
					}
				}
			}
		}
		if !found {
			t.Errorf("%s: no partition takes n:\n%s", c.backend, out)
		}
	}
}

// --disable-pass runs the program without the named rewrites (--json
// lists the ones that ran), still matching the reference; a name that is
// not a pass's is the user's error, naming the passes there are.
func TestRunDisablePass(t *testing.T) {
	model := fixtures.Model("gpt2_tiny")
	caseDir := filepath.Join(filepath.Dir(model), "io", "case0")
	all := runPasses(t, mustSeam(t, "run", model, "--case", caseDir, "--json"))
	if !slices.Equal(all, runtime.PassNames()) {
		t.Fatalf("without --disable-pass the passes that ran are %v, want %v", all, runtime.PassNames())
	}
	some := runPasses(t, mustSeam(t, "run", model, "--case", caseDir, "--json", "--disable-pass", "gelu,softmax", "--disable-pass", "moves"))
	want := slices.DeleteFunc(slices.Clone(all), func(n string) bool { return n == "gelu" || n == "softmax" || n == "moves" })
	if !slices.Equal(some, want) {
		t.Fatalf("--disable-pass gelu,softmax,moves ran %v, want %v", some, want)
	}
	out, code, err := seam(t, "run", model, "--case", caseDir, "--disable-pass", "fuse")
	if code != 2 || err == nil || !strings.Contains(err.Error(), `--disable-pass "fuse"`) || !strings.Contains(err.Error(), "lifetimes") {
		t.Fatalf("--disable-pass fuse: exit %d, %v\n%s", code, err, out)
	}
}

func runPasses(t *testing.T, out string) []string {
	t.Helper()
	var r struct {
		OK     bool     `json:"ok"`
		Passes []string `json:"passes"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || !r.OK {
		t.Fatalf("seam run --json: ok=%v, %v\n%s", r.OK, err, out)
	}
	return r.Passes
}

// On two threads, --repeat shows what the program measured and which it
// uses; --fixed-threads splits every run and measures nothing.
func TestRunThreadsChoice(t *testing.T) {
	t.Run("batch parts", testRunBatchParts)
	model := fixtures.Model("gpt2_tiny")
	caseDir := filepath.Join(filepath.Dir(model), "io", "case0")
	type doc struct {
		Latency struct {
			Threads []struct {
				Bind    map[string]int64 `json:"bind"`
				Threads int              `json:"threads"`
				Use     int              `json:"use"`
				One     float64          `json:"one_thread_min_ms"`
				Many    float64          `json:"threads_min_ms"`
				Splits  bool             `json:"splits"`
			} `json:"threads"`
		} `json:"latency"`
	}
	var d doc
	out := mustSeam(t, "run", model, "--case", caseDir, "--threads", "2", "--repeat", "24", "--json")
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	th := d.Latency.Threads
	if len(th) != 1 || th[0].Threads != 2 || (th[0].Use != 1 && th[0].Use != 2) || th[0].One <= 0 || th[0].Many <= 0 || len(th[0].Bind) == 0 || !th[0].Splits {
		t.Fatalf("--threads 2 --repeat 24: threads %+v\n%s", th, out)
	}
	text := mustSeam(t, "run", model, "--case", caseDir, "--threads", "2", "--repeat", "3")
	if !strings.Contains(text, "still measuring one against 2") {
		t.Fatalf("--repeat 3 on two threads does not say it is still measuring:\n%s", text)
	}
	d = doc{}
	out = mustSeam(t, "run", model, "--case", caseDir, "--threads", "2", "--fixed-threads", "--repeat", "12", "--json")
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Latency.Threads) != 0 {
		t.Fatalf("--fixed-threads measured %+v", d.Latency.Threads)
	}
	// A program no kernel of which splits says so, and runs on one.
	mlp := fixtures.Model("mlp")
	text = mustSeam(t, "run", mlp, "--case", filepath.Join(filepath.Dir(mlp), "io", "case0"), "--threads", "2", "--repeat", "12")
	if !strings.Contains(text, "no kernel is large enough to split on 2") || !strings.Contains(text, "runs use 1") {
		t.Fatalf("mlp on two threads does not say that nothing splits:\n%s", text)
	}
}

// seam run says when a program runs its batch in parts: one per core, at
// most one sample each (none on one core), in the text and as batch_parts.
func testRunBatchParts(t *testing.T) {
	dir := fixtures.ExtraDir("mobilenet_tiny_b8")
	want := min(8, goruntime.NumCPU())
	var d struct {
		Latency struct {
			Parts int `json:"batch_parts"`
		} `json:"latency"`
	}
	out := mustSeam(t, "run", filepath.Join(dir, "model.pt2"), "--case", filepath.Join(dir, "io", "case0"), "--repeat", "3", "--json")
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	text := mustSeam(t, "run", filepath.Join(dir, "model.pt2"), "--case", filepath.Join(dir, "io", "case0"), "--repeat", "3")
	said := strings.Contains(text, fmt.Sprintf("cuts it into %d parts", want))
	if want < 2 {
		if d.Latency.Parts != 0 || strings.Contains(text, "parts") {
			t.Errorf("on one core: batch_parts %d, and the text:\n%s", d.Latency.Parts, text)
		}
		return
	}
	if d.Latency.Parts != want || !said {
		t.Errorf("batch_parts %d, want %d; the text:\n%s", d.Latency.Parts, want, text)
	}
}
