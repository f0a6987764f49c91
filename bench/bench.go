// Package bench measures seam against PyTorch on the same work: running
// the fixture programs (against torch's own ATen kernels) and partitioning
// (against torch.fx's CapabilityBasedPartitioner). `seam bench` prints the
// figures side by side: recorded reference figures always, and live ones
// when PyTorch and the reference scripts are at hand.
package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/seam-rt/seam/npy"
	"github.com/seam-rt/seam/onnx"
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
	// Median and Min are seam's on one thread: the median of the rounds'
	// medians, and the fastest run of all.
	Median, Min time.Duration
	Runs        int
	// OrtLive and OrtMin are ONNX Runtime's median (of the rounds'
	// medians) and fastest run on one thread, on the graph exported to
	// ONNX (Anchor says by what); OrtRatio is the median over rounds of
	// seam's median over ONNX Runtime's, measured one after the other.
	OrtLive, OrtMin time.Duration
	OrtRatio        float64
	Anchor          string
	// OrtSeam is ONNX Runtime's median (of the rounds' medians) on one
	// thread, in this process, on seam's own export of the program
	// (TimeORTSeamExport), measured in each round when the library loads;
	// OrtSeamRatio the median over rounds of seam's median over it;
	// OrtSeamMin its fastest run, to set beside seam's (Min).
	OrtSeam, OrtSeamMin time.Duration
	OrtSeamRatio        float64
	// OrtSeamErr says why that column is missing for a program whose
	// export does not run (one with ops seam cannot translate): the row
	// does not fail for it.
	OrtSeamErr string
	// TorchLive is torch_run.py's median, one thread.
	TorchLive time.Duration
	// Threads is the goroutines of the second seam figure (0: none);
	// ThreadsMedian its median and Speedup the median over rounds of the
	// one-thread median over it, both timed in turns (TimeThreads):
	// ThreadsOne is that one-thread median (over rounds).
	Threads       int
	ThreadsMedian time.Duration
	Speedup       float64
	ThreadsOne    time.Duration
	// ThreadsMin and ThreadsOneMin are the fastest runs on Threads
	// goroutines and on one, timed in turns.
	ThreadsMin, ThreadsOneMin time.Duration
	// On Threads goroutines a program measures its first runs both ways
	// and keeps the faster; SplitMedian and SplitSpeedup are the same
	// figures with every run split (runtime.Options.FixedThreads).
	SplitMedian  time.Duration
	SplitSpeedup float64
	// ThreadsChosen is how many of the ThreadRounds rounds timed on
	// Threads had the program choose Threads (the others kept one).
	ThreadsChosen, ThreadRounds int
	Err                         string
}

// RunOptions says what Runs measures besides seam on one thread.
type RunOptions struct {
	// Tools is the folder of torch_run.py, onnx_export.py and ort_run.js
	// (whose ONNX Runtime session ortTurns makes as it does); "": seam
	// alone.
	Tools string
	// Threads, when above 1, also times seam on that many goroutines.
	Threads int
	// Rounds of interleaved measurements per case, each spending MinTime
	// (and MinRuns runs) on each seam figure.
	Rounds  int
	MinRuns int
	MinTime time.Duration
	// Models, when set, limits the cases to those of these programs.
	Models []string
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

// Timing is what TimeRun measures: the median and fastest of Runs runs,
// and how many goroutines those runs used once the program had chosen
// (Options.Threads for a program that does not choose).
type Timing struct {
	Median, Fastest time.Duration
	Runs            int
	Uses            int
}

// TimeRun loads a model and times runs of one case on threads goroutines:
// a warm-up, then runs until both minRuns runs and minTime have passed.
func TimeRun(model, dir string, threads, minRuns int, minTime time.Duration) (Timing, error) {
	return TimeRunWith(model, dir, runtime.Options{Threads: threads}, minRuns, minTime)
}

// TimeRunWith is TimeRun with the runtime's options. The warm-up lasts
// until the program has chosen its threads for the case (ThreadChoices),
// so the timed runs are the ones a user gets from then on.
func TimeRunWith(model, dir string, opt runtime.Options, minRuns int, minTime time.Duration) (Timing, error) {
	w, err := loadWarm(model, dir, opt)
	if err != nil {
		return Timing{}, err
	}
	var t Timing
	t.Median, t.Fastest, t.Runs, err = timeRuns(w.run, minRuns, minTime)
	t.Uses = w.uses()
	return t, err
}

// ThreadTimings is what TimeThreads measures: seam on one goroutine, on
// several as the program chooses, and on several with every run split.
type ThreadTimings struct{ One, Chosen, Split Timing }

// turnFor is how long each program runs in its turn in TimeThreads.
const turnFor = 20 * time.Millisecond

// TimeThreads times one case on one goroutine and on threads (the
// program's choice, and every run split: runtime.Options.FixedThreads),
// in turns of about turnFor each (after an untimed run) until every way
// has had minRuns timed runs and minTime. On a shared host whose speed drifts 1.5-2x within seconds,
// ways timed one after the other compare spells as much as thread counts;
// in turns, a slow spell falls on all of them alike.
func TimeThreads(model, dir string, threads, minRuns int, minTime time.Duration) (ThreadTimings, error) {
	var ways []func() ([]time.Duration, error)
	var warm []*warmProgram
	for _, opt := range []runtime.Options{{Threads: 1}, {Threads: threads}, {Threads: threads, FixedThreads: true}} {
		w, err := loadWarm(model, dir, opt)
		if err != nil {
			return ThreadTimings{}, err
		}
		warm = append(warm, w)
		ways = append(ways, callTurn(w.run, turnFor))
	}
	times, err := inTurns(ways, minRuns, minTime)
	if err != nil {
		return ThreadTimings{}, err
	}
	var t [3]Timing
	for i, w := range warm {
		t[i] = timing(times[i])
		t[i].Uses = w.uses()
	}
	return ThreadTimings{One: t[0], Chosen: t[1], Split: t[2]}, nil
}

// timing is the median and fastest of sorted times.
func timing(ts []time.Duration) Timing {
	return Timing{Median: ts[len(ts)/2], Fastest: ts[0], Runs: len(ts)}
}

// warmProgram is a program loaded for timing, its case's inputs at hand,
// warmed up.
type warmProgram struct {
	p      *runtime.Program
	opt    runtime.Options
	inputs []value.Value
}

// loadWarm loads a model with opt and runs it on the case until it has
// chosen its threads for the case (ThreadChoices), so the timed runs are
// the ones a user gets from then on.
func loadWarm(model, dir string, opt runtime.Options) (*warmProgram, error) {
	a, err := pt2.Open(model)
	if err != nil {
		return nil, err
	}
	defer a.Close()
	l, err := a.Lowered()
	if err != nil {
		return nil, err
	}
	p, err := runtime.LoadLowered(l, opt)
	if err != nil {
		return nil, err
	}
	inputs, err := Inputs(dir)
	if err != nil {
		return nil, err
	}
	w := &warmProgram{p: p, opt: opt, inputs: inputs}
	for i := 0; i < 64 && (i == 0 || measuring(p)); i++ {
		if err := w.run(); err != nil {
			return nil, err
		}
	}
	return w, nil
}

func (w *warmProgram) run() error {
	_, err := w.p.Run(context.Background(), w.inputs)
	return err
}

// uses is how many goroutines the program's runs use now it has chosen
// (Options.Threads for one that does not choose).
func (w *warmProgram) uses() int {
	n := max(w.opt.Threads, 1)
	for _, c := range w.p.ThreadChoices() {
		if c.Use > 0 {
			n = min(n, c.Use)
		}
	}
	return n
}

// TorchRun times the same case with shared/tools/torch_run.py (one thread)
// when tools is the folder holding it and a Python with torch is at hand.
func TorchRun(tools, model, dir string, repeat int) (time.Duration, error) {
	script := filepath.Join(tools, "torch_run.py")
	if _, err := os.Stat(script); err != nil {
		return 0, err
	}
	cmd := anchorCommand(script, model, dir, fmt.Sprint(repeat))
	cmd.Env = append(os.Environ(), "OPENBLAS_NUM_THREADS=1", "OMP_NUM_THREADS=1")
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return 0, fmt.Errorf("torch_run.py: %w: %s", err, lastLine(ee.Stderr))
		}
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

// ExportONNX writes the case's graph as ONNX into a temporary folder for
// ONNX Runtime (ortTurns): with shared/tools/onnx_export.py (torch 1.13's exporter at
// the case's static sizes, ONNX Runtime's best case), or where that
// exporter fails, with seam's own translation (package onnx, symbolic
// sizes). It returns the file, what wrote it, and a cleanup.
func ExportONNX(tools, model, dir string) (file, by string, cleanup func(), err error) {
	tmp, err := os.MkdirTemp("", "seam-ort")
	if err != nil {
		return "", "", nil, err
	}
	cleanup = func() { os.RemoveAll(tmp) }
	file = filepath.Join(tmp, "model.onnx")
	exp := anchorCommand(filepath.Join(tools, "onnx_export.py"), model, dir, file)
	out, err := exp.CombinedOutput()
	if err == nil {
		return file, "onnx_export.py", cleanup, nil
	}
	if serr := seamExport(model, file); serr != nil {
		cleanup()
		return "", "", nil, fmt.Errorf("onnx_export.py: %w: %s; seam export: %v", err, lastLine(out), serr)
	}
	return file, "seam export onnx", cleanup, nil
}

func seamExport(model, file string) error {
	a, err := pt2.Open(model)
	if err != nil {
		return err
	}
	defer a.Close()
	p, err := a.Program()
	if err != nil {
		return err
	}
	tr, err := onnx.Translate(p)
	if err != nil {
		return err
	}
	return os.WriteFile(file, tr.Model.Marshal(), 0o644)
}

// ortTurns serves ONNX Runtime timings of an exported case in turns: the
// session and the inputs made as ../shared/tools/ort_run.js makes them (one
// intra-op and inter-op thread, all graph optimisations, sequential;
// onnxruntime-node from SEAM_ORT_DIR or ~/.cache/seam-anchors/ort), twenty
// warm-up runs, "ready", then for each line "SECONDS" one untimed run and
// runs for SECONDS (at least one), their times printed as a JSON list.
const ortTurns = `
const fs = require('fs'); const path = require('path'); const os = require('os'); const readline = require('readline');
const ortDir = process.env.SEAM_ORT_DIR || path.join(os.homedir(), '.cache', 'seam-anchors', 'ort');
const ort = require(require.resolve('onnxruntime-node', { paths: [ortDir] }));
function readNpy(p) {
  const b = fs.readFileSync(p); const hl = b.readUInt16LE(8); const h = b.slice(10, 10 + hl).toString();
  const descr = /'descr':\s*'([^']+)'/.exec(h)[1]; const shape = /'shape':\s*\(([^)]*)\)/.exec(h)[1].split(',').map(s => s.trim()).filter(s => s).map(Number);
  const data = b.slice(10 + hl); const ab = data.buffer.slice(data.byteOffset, data.byteOffset + data.length);
  const m = {'<f4': ['float32', Float32Array], '<i8': ['int64', BigInt64Array], '|b1': ['bool', Uint8Array], '<f8': ['float64', Float64Array], '<i4': ['int32', Int32Array]}[descr];
  return { type: m[0], arr: new m[1](ab), shape };
}
(async () => {
  const [model, cas] = process.argv.slice(1);
  const s = await ort.InferenceSession.create(model, { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all', executionMode: 'sequential' });
  const ins = fs.readdirSync(cas).filter(f => f.startsWith('in_')).sort((a, b) => parseInt(a.slice(3)) - parseInt(b.slice(3)));
  const feeds = {};
  ins.forEach((f, i) => { const n = readNpy(path.join(cas, f)); feeds[s.inputNames[i]] = new ort.Tensor(n.type, n.type === 'bool' ? Uint8Array.from(n.arr).map(x => x) : n.arr, n.shape); });
  for (let i = 0; i < 21; i++) await s.run(feeds);
  console.log('ready');
  for await (const line of readline.createInterface({ input: process.stdin })) {
    const end = process.hrtime.bigint() + BigInt(Math.round(parseFloat(line) * 1e9));
    await s.run(feeds);
    const ts = [];
    while (process.hrtime.bigint() < end || ts.length === 0) { const t0 = process.hrtime.bigint(); await s.run(feeds); ts.push(Number(process.hrtime.bigint() - t0) / 1e9); }
    console.log(JSON.stringify(ts));
  }
})().catch(e => { console.error(String(e)); process.exit(1); });
`

// startORT starts ortTurns on an exported case.
func startORT(onnxFile, dir string) (*turnTimer, error) {
	t, err := startTurns(exec.Command("node", "-e", ortTurns, onnxFile, dir), "", true)
	if err != nil {
		return nil, fmt.Errorf("ONNX Runtime timing: %w", err)
	}
	return t, nil
}

// anchorError is a failure of the anchor's side of turns, not seam's.
type anchorError struct{ err error }

func (e *anchorError) Error() string { return e.err.Error() }
func (e *anchorError) Unwrap() error { return e.err }

// timeWithAnchor times the case on seam (one thread) and on the anchor in
// turns of turnFor each until each has had minRuns runs and minTime.
func timeWithAnchor(model, dir string, anchor *turnTimer, minRuns int, minTime time.Duration) (seam, other Timing, err error) {
	w, err := loadWarm(model, dir, runtime.Options{Threads: 1})
	if err != nil {
		return Timing{}, Timing{}, err
	}
	times, err := inTurns([]func() ([]time.Duration, error){
		callTurn(w.run, turnFor),
		func() ([]time.Duration, error) {
			ts, err := anchor.turn(fmt.Sprint(turnFor.Seconds()))
			if err != nil {
				return nil, &anchorError{fmt.Errorf("ONNX Runtime timing: %w", err)}
			}
			return ts, nil
		},
	}, minRuns, minTime)
	if err != nil {
		return Timing{}, Timing{}, err
	}
	seam, other = timing(times[0]), timing(times[1])
	seam.Uses = 1
	return seam, other, nil
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

// Runs measures every run case from the fixtures folder: per case, o.Rounds
// rounds of seam on one thread, ONNX Runtime (with o.Tools) and seam on
// o.Threads goroutines, one after the other, so that a machine whose speed
// drifts (other jobs) slows all of a round alike; then torch once.
func Runs(root string, o RunOptions) []RunResult {
	var out []RunResult
	o.Rounds = max(o.Rounds, 1)
	for _, c := range RunCases {
		if len(o.Models) > 0 && !slices.Contains(o.Models, c.Model) {
			continue
		}
		folder := "models"
		if c.Extra {
			folder = "extra"
		}
		model := filepath.Join(root, folder, c.Model, "model.pt2")
		dir := filepath.Join(root, folder, c.Model, "io", c.Case)
		out = append(out, runCase(c, model, dir, o))
	}
	return out
}

// ModelRuns measures a program on each of its case folders, as Runs
// measures the fixtures (no torch figures are recorded for it).
func ModelRuns(model string, dirs []string, o RunOptions) []RunResult {
	var out []RunResult
	o.Rounds = max(o.Rounds, 1)
	for _, dir := range dirs {
		out = append(out, runCase(RunCase{Model: model, Case: dir}, model, dir, o))
	}
	return out
}

// runCase measures one case in o.Rounds interleaved rounds.
func runCase(c RunCase, model, dir string, o RunOptions) RunResult {
	r := RunResult{RunCase: c}
	var onnxFile string
	if o.Tools != "" {
		f, by, cleanup, err := ExportONNX(o.Tools, model, dir)
		if err != nil {
			r.Err = err.Error()
		} else {
			defer cleanup()
			onnxFile, r.Anchor = f, by
		}
	}
	if o.Threads > 1 {
		r.Threads = o.Threads
	}
	var meds, ortMeds, oneMeds, thrMeds, ortRatios, speedups, seamExpMeds, seamExpRatios, splitMeds, splitSpeedups []float64
	seamExport := ORTAvailable()
	r.Min, r.OrtMin, r.ThreadsMin = time.Duration(math.MaxInt64), time.Duration(math.MaxInt64), time.Duration(math.MaxInt64)
	r.ThreadsOneMin = time.Duration(math.MaxInt64)
	r.OrtSeamMin = time.Duration(math.MaxInt64)
	var ortTimer *turnTimer
	if onnxFile != "" {
		t, err := startORT(onnxFile, dir)
		if err != nil {
			r.Err = err.Error()
		} else {
			ortTimer = t
			defer t.close()
		}
	}
	for round := 0; round < o.Rounds; round++ {
		// seam on one thread, and ONNX Runtime in turns with it.
		var one Timing
		var err error
		if ortTimer != nil {
			var ort Timing
			one, ort, err = timeWithAnchor(model, dir, ortTimer, o.MinRuns, o.MinTime)
			if err == nil {
				ortMeds = append(ortMeds, float64(ort.Median))
				ortRatios = append(ortRatios, float64(one.Median)/float64(ort.Median))
				r.OrtMin = min(r.OrtMin, ort.Fastest)
			} else if ae := (*anchorError)(nil); errors.As(err, &ae) {
				// The anchor failed, not seam: seam is timed alone from now on.
				r.Err, ortTimer = err.Error(), nil
				one, err = TimeRun(model, dir, 1, o.MinRuns, o.MinTime)
			}
		} else {
			one, err = TimeRun(model, dir, 1, o.MinRuns, o.MinTime)
		}
		if err != nil {
			r.Err = err.Error()
			return r
		}
		med, fastest, runs := one.Median, one.Fastest, one.Runs
		meds = append(meds, float64(med))
		r.Min, r.Runs = min(r.Min, fastest), r.Runs+runs
		if seamExport {
			om, of, err := TimeORTSeamExport(model, dir, o.MinRuns, o.MinTime)
			if err != nil {
				r.OrtSeamErr, seamExport = err.Error(), false
			} else {
				seamExpMeds = append(seamExpMeds, float64(om))
				seamExpRatios = append(seamExpRatios, float64(med)/float64(om))
				r.OrtSeamMin = min(r.OrtSeamMin, of)
			}
		}
		if r.Threads > 0 {
			if tt, err := TimeThreads(model, dir, r.Threads, o.MinRuns, o.MinTime); err == nil {
				oneMeds = append(oneMeds, float64(tt.One.Median))
				r.ThreadsOneMin = min(r.ThreadsOneMin, tt.One.Fastest)
				thrMeds = append(thrMeds, float64(tt.Chosen.Median))
				speedups = append(speedups, float64(tt.One.Median)/float64(tt.Chosen.Median))
				r.ThreadsMin = min(r.ThreadsMin, tt.Chosen.Fastest)
				r.ThreadRounds++
				if tt.Chosen.Uses == r.Threads {
					r.ThreadsChosen++
				}
				splitMeds = append(splitMeds, float64(tt.Split.Median))
				splitSpeedups = append(splitSpeedups, float64(tt.One.Median)/float64(tt.Split.Median))
			}
		}
	}
	r.Median = time.Duration(median(meds))
	r.OrtLive, r.OrtRatio = time.Duration(median(ortMeds)), median(ortRatios)
	r.ThreadsMedian, r.Speedup = time.Duration(median(thrMeds)), median(speedups)
	r.SplitMedian, r.SplitSpeedup = time.Duration(median(splitMeds)), median(splitSpeedups)
	r.OrtSeam, r.OrtSeamRatio = time.Duration(median(seamExpMeds)), median(seamExpRatios)
	if r.OrtSeam == 0 {
		r.OrtSeamMin = 0
	}
	if r.OrtLive == 0 {
		r.OrtMin = 0
	}
	r.ThreadsOne = time.Duration(median(oneMeds))
	if r.ThreadsMedian == 0 {
		r.ThreadsMin, r.ThreadsOneMin = 0, 0
	}
	if o.Tools != "" {
		if d, err := TorchRun(o.Tools, model, dir, 100); err == nil {
			r.TorchLive = d
		} else if r.Err == "" {
			r.Err = err.Error()
		}
	}
	return r
}

// median is the middle of v (the mean of the two middle values for an
// even count), 0 for none.
func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// measuring says whether p is still timing both ways at some binding.
func measuring(p *runtime.Program) bool {
	for _, c := range p.ThreadChoices() {
		if c.Use == 0 {
			return true
		}
	}
	return false
}
