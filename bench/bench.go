// Package bench measures seam against PyTorch on the same work: running
// the fixture programs (against torch's own ATen kernels) and partitioning
// (against torch.fx's CapabilityBasedPartitioner). `seam bench` prints the
// figures side by side: recorded reference figures always, and live ones
// when PyTorch and the reference scripts are at hand.
package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"time"

	"github.com/seam-rt/seam/npy"
	"github.com/seam-rt/seam/pt2"
	"github.com/seam-rt/seam/runtime"
	"github.com/seam-rt/seam/value"
)

// RunCase is a fixture case timed end to end, with PyTorch's figures for
// the same graph on one core (shared/tools/README.md: a 2-core dev machine,
// torch 1.13; OpenBLAS's AVX-512 kernels, and the generic BLAS milestone).
type RunCase struct {
	Model, Case string
	// Extra marks a program of fixtures/extra (else fixtures/models).
	Extra bool
	// TorchOpenBLAS and TorchGeneric are recorded medians, in ms (0: none).
	TorchOpenBLAS, TorchGeneric float64
}

// RunCases are the cases the issue names, plus the rest of the fixtures.
var RunCases = []RunCase{
	{"gpt2_tiny", "case3", false, 1.26, 7.5},
	{"bert_tiny", "case3", false, 0.66, 4.0},
	{"cnn", "case2", false, 0.09, 0},
	{"llama_tiny", "case2", true, 0, 0},
	{"mobilenet_tiny", "case0", true, 0, 0},
	{"mobilenet_tiny_b8", "case0", true, 0, 0},
	{"vit_tiny", "case0", true, 0, 0},
	{"gpt2_l12", "case1", false, 1.59, 0},
	{"mlp", "case0", false, 0, 0},
	{"seed_like", "case0", false, 0, 0},
	{"sym_float", "case0", false, 0, 0},
	{"symint_input", "case0", false, 0, 0},
	{"cond", "case0", false, 0, 0},
}

// RunResult is one case's measurement.
type RunResult struct {
	RunCase
	Median, Min time.Duration
	Runs        int
	// TorchLive and OrtLive are the medians torch_run.py and ort_run.js
	// (ONNX Runtime on the graph exported by onnx_export.py) measured here,
	// one thread each, when asked; AllThreads is seam's median with every
	// core (Median is on one thread).
	TorchLive, OrtLive, AllThreads time.Duration
	Err                            string
}

// Inputs reads a case folder's inputs in order, as a run takes them.
func Inputs(dir string) ([]value.Value, error) {
	c, err := npy.ReadCase(os.DirFS(dir))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	var vals []value.Value
	for _, t := range c.Inputs {
		vals = append(vals, runtime.InputValue(t))
	}
	return vals, nil
}

// TimeRun loads a model and times runs of one case: a warm-up, then runs
// until both minRuns runs and minTime have passed.
func TimeRun(model, dir string, threads, minRuns int, minTime time.Duration) (median, fastest time.Duration, runs int, err error) {
	a, err := pt2.Open(model)
	if err != nil {
		return 0, 0, 0, err
	}
	defer a.Close()
	l, err := a.Lowered()
	if err != nil {
		return 0, 0, 0, err
	}
	p, err := runtime.LoadLowered(l, runtime.Options{Threads: threads})
	if err != nil {
		return 0, 0, 0, err
	}
	inputs, err := Inputs(dir)
	if err != nil {
		return 0, 0, 0, err
	}
	ctx := context.Background()
	for i := 0; i < 3; i++ {
		if _, err := p.Run(ctx, inputs); err != nil {
			return 0, 0, 0, err
		}
	}
	var times []time.Duration
	start := time.Now()
	for len(times) < minRuns || time.Since(start) < minTime {
		t0 := time.Now()
		if _, err := p.Run(ctx, inputs); err != nil {
			return 0, 0, 0, err
		}
		times = append(times, time.Since(t0))
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	return times[len(times)/2], times[0], len(times), nil
}

// TorchRun times the same case with shared/tools/torch_run.py (one thread)
// when tools is the folder holding it and a Python with torch is at hand.
func TorchRun(tools, model, dir string, repeat int) (time.Duration, error) {
	script := filepath.Join(tools, "torch_run.py")
	if _, err := os.Stat(script); err != nil {
		return 0, err
	}
	cmd := exec.Command("/usr/bin/python3", script, model, dir, fmt.Sprint(repeat))
	cmd.Env = append(os.Environ(), "OPENBLAS_NUM_THREADS=1", "OMP_NUM_THREADS=1")
	out, err := cmd.Output()
	if err != nil {
		return 0, fmt.Errorf("torch_run.py: %w", err)
	}
	var r struct {
		MedianS float64 `json:"median_s"`
	}
	if err := json.Unmarshal(lastLine(out), &r); err != nil {
		return 0, fmt.Errorf("torch_run.py printed %q: %w", out, err)
	}
	return time.Duration(r.MedianS * float64(time.Second)), nil
}

// OrtRun exports the case's graph to ONNX with shared/tools/onnx_export.py
// (into a temporary folder) and times it with ort_run.js: ONNX Runtime on
// one thread with all graph optimisations.
func OrtRun(tools, model, dir string, repeat int) (time.Duration, error) {
	tmp, err := os.MkdirTemp("", "seam-ort")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(tmp)
	onnx := filepath.Join(tmp, "model.onnx")
	exp := exec.Command("/usr/bin/python3", filepath.Join(tools, "onnx_export.py"), model, dir, onnx)
	if out, err := exp.CombinedOutput(); err != nil {
		return 0, fmt.Errorf("onnx_export.py: %w: %s", err, lastLine(out))
	}
	out, err := exec.Command("node", filepath.Join(tools, "ort_run.js"), onnx, dir, fmt.Sprint(repeat)).Output()
	if err != nil {
		return 0, fmt.Errorf("ort_run.js: %w", err)
	}
	var r struct {
		MedianS float64 `json:"median_s"`
	}
	if err := json.Unmarshal(lastLine(out), &r); err != nil {
		return 0, fmt.Errorf("ort_run.js printed %q: %w", out, err)
	}
	return time.Duration(r.MedianS * float64(time.Second)), nil
}

func lastLine(b []byte) []byte {
	for len(b) > 0 && b[len(b)-1] == '\n' {
		b = b[:len(b)-1]
	}
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == '\n' {
			return b[i+1:]
		}
	}
	return b
}

// Runs measures every run case from the fixtures folder.
func Runs(root, torchTools string, minRuns int, minTime time.Duration) []RunResult {
	var out []RunResult
	for _, c := range RunCases {
		folder := "models"
		if c.Extra {
			folder = "extra"
		}
		model := filepath.Join(root, folder, c.Model, "model.pt2")
		dir := filepath.Join(root, folder, c.Model, "io", c.Case)
		out = append(out, timeCase(c, model, dir, torchTools, minRuns, minTime))
	}
	return out
}

// ModelRuns measures a program on each of its case folders, as Runs
// measures the fixtures (no torch figures are recorded for it).
func ModelRuns(model string, dirs []string, torchTools string, minRuns int, minTime time.Duration) []RunResult {
	var out []RunResult
	for _, dir := range dirs {
		out = append(out, timeCase(RunCase{Model: model, Case: dir}, model, dir, torchTools, minRuns, minTime))
	}
	return out
}

// timeCase measures one case: seam on one thread and on every core, and
// torch and ONNX Runtime here when torchTools is set.
func timeCase(c RunCase, model, dir, torchTools string, minRuns int, minTime time.Duration) RunResult {
	r := RunResult{RunCase: c}
	var err error
	r.Median, r.Min, r.Runs, err = TimeRun(model, dir, 1, minRuns, minTime)
	if err != nil {
		r.Err = err.Error()
	}
	if err == nil {
		r.AllThreads, _, _, _ = TimeRun(model, dir, 0, minRuns, minTime)
	}
	if torchTools != "" && err == nil {
		if d, err := TorchRun(torchTools, model, dir, 100); err == nil {
			r.TorchLive = d
		} else {
			r.Err = err.Error()
		}
		if d, err := OrtRun(torchTools, model, dir, 200); err == nil {
			r.OrtLive = d
		} else {
			r.Err = err.Error()
		}
	}
	return r
}
