package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/seam-rt/seam/kernels/gemm"
)

// GemmShape is one float32 product C[m×n] = A[m×k]·op(B) that seam bench
// gemm times: squares, and a transformer's Linear layers (B a weight
// [n, k], transposed) at M <= 128.
type GemmShape struct {
	Name    string
	M, N, K int
	TransB  bool
}

// GemmShapes are the shapes of the matrix-kernel targets.
var GemmShapes = []GemmShape{
	{"square-256", 256, 256, 256, false},
	{"square-512", 512, 512, 512, false},
	{"square-1024", 1024, 1024, 1024, false},
	{"gpt2-qkv-128", 128, 2304, 768, true},
	{"gpt2-mlp-down-128", 128, 768, 3072, true},
	{"bert-ffn-128", 128, 512, 128, true},
	{"tiny-qkv-128", 128, 192, 64, true},
	{"tiny-head-128", 128, 1000, 64, true},
	{"qkv-32", 32, 768, 256, true},
}

// GemmResult is one shape's throughput, in GFLOP/s: seam's (median of the
// rounds' medians, and best), OpenBLAS's through torch.mm on one thread
// when measured, Ratio the median over rounds of seam's median over
// OpenBLAS's.
type GemmResult struct {
	GemmShape
	Seam, SeamBest, Torch, TorchBest, Ratio float64
}

// gemmTorch serves torch.mm timings on one thread, with OpenBLAS's kernel
// choice set as anchor_env.py sets it: given the shapes as one JSON line,
// then lines "NAME SECONDS", it runs that shape once untimed and then for
// SECONDS (at least one call), and prints the calls' times as a JSON list.
const gemmTorch = `
import json, sys, time
sys.path.insert(0, sys.argv[1])
import anchor_env  # noqa: F401  (before torch: OpenBLAS's kernel choice)
import torch
torch.set_num_threads(1)
fs = {}
for s in json.loads(sys.stdin.readline()):
    a = torch.randn(s["M"], s["K"])
    b = torch.randn(s["N"], s["K"]) if s["TransB"] else torch.randn(s["K"], s["N"])
    fs[s["Name"]] = (lambda a=a, b=b: torch.mm(a, b.t())) if s["TransB"] else (lambda a=a, b=b: torch.mm(a, b))
for line in sys.stdin:
    name, secs = line.split()
    f = fs[name]
    f()
    ts = []
    end = time.perf_counter() + float(secs)
    while time.perf_counter() < end or not ts:
        t0 = time.perf_counter(); f(); ts.append(time.perf_counter() - t0)
    print(json.dumps(ts), flush=True)
`

// gemmTurn is how long seam and torch.mm each run a shape in their turn.
const gemmTurn = 50 * time.Millisecond

// startTorchMM starts gemmTorch and gives it the shapes.
func startTorchMM(tools string) (*turnTimer, error) {
	cmd := exec.Command("/usr/bin/python3", "-c", gemmTorch, tools)
	cmd.Env = append(os.Environ(), "OMP_NUM_THREADS=1")
	shapes, _ := json.Marshal(GemmShapes)
	t, err := startTurns(cmd, string(shapes), false)
	if err != nil {
		return nil, fmt.Errorf("torch.mm timing: %w", err)
	}
	return t, nil
}

// TimeGemm times seam's Sgemm (on threads goroutines) on s for about d:
// the median and fastest call.
func TimeGemm(s GemmShape, threads int, d time.Duration) (median, fastest time.Duration) {
	f := seamGemm(s, threads)
	median, fastest, _, _ = timeRuns(func() error { f(); return nil }, 5, d)
	return median, fastest
}

// seamGemm is a call of seam's Sgemm on s with operands of its own.
func seamGemm(s GemmShape, threads int) func() {
	r := rand.New(rand.NewPCG(1, 2))
	a, b, c := make([]float32, s.M*s.K), make([]float32, s.K*s.N), make([]float32, s.M*s.N)
	for i := range a {
		a[i] = r.Float32()
	}
	for i := range b {
		b[i] = r.Float32()
	}
	ldb := s.N
	if s.TransB {
		ldb = s.K
	}
	return func() { gemm.SgemmThreads(threads, false, s.TransB, s.M, s.N, s.K, 1, a, s.K, b, ldb, 0, c, s.N) }
}

// gemmTurns times s on seam (one thread) and on torch.mm in turns of
// gemmTurn each (a turn's first call untimed) until each has spent d: a
// drift in the machine's speed, 1.5-2x within seconds on a shared host,
// then falls on both alike. It returns the sorted times of each.
func gemmTurns(s GemmShape, t *turnTimer, d time.Duration) (seam, torch []time.Duration, err error) {
	f := seamGemm(s, 1)
	times, err := inTurns([]func() ([]time.Duration, error){
		callTurn(func() error { f(); return nil }, gemmTurn),
		func() ([]time.Duration, error) {
			ts, err := t.turn(fmt.Sprintf("%s %g", s.Name, gemmTurn.Seconds()))
			if err != nil {
				return nil, fmt.Errorf("torch.mm timing: %w", err)
			}
			return ts, nil
		},
	}, 1, d)
	if err != nil {
		return nil, nil, err
	}
	return times[0], times[1], nil
}

func gflops(s GemmShape, d time.Duration) float64 {
	return 2 * float64(s.M) * float64(s.N) * float64(s.K) / d.Seconds() / 1e9
}

// Gemms times every shape in rounds rounds: seam alone, or with tools
// (the folder of anchor_env.py) seam and torch.mm in turns (gemmTurns).
func Gemms(tools string, rounds int, d time.Duration) ([]GemmResult, error) {
	res := make([]GemmResult, len(GemmShapes))
	seam := make([][]float64, len(GemmShapes))
	torch := make([][]float64, len(GemmShapes))
	for i, s := range GemmShapes {
		res[i].GemmShape = s
	}
	var t *turnTimer
	if tools != "" {
		var err error
		if t, err = startTorchMM(tools); err != nil {
			return nil, err
		}
		defer t.close()
	}
	for round := 0; round < max(rounds, 1); round++ {
		for i, s := range GemmShapes {
			if t == nil {
				med, best := TimeGemm(s, 1, d)
				seam[i] = append(seam[i], gflops(s, med))
				res[i].SeamBest = max(res[i].SeamBest, gflops(s, best))
				continue
			}
			ss, ts, err := gemmTurns(s, t, d)
			if err != nil {
				return nil, err
			}
			seam[i] = append(seam[i], gflops(s, ss[len(ss)/2]))
			res[i].SeamBest = max(res[i].SeamBest, gflops(s, ss[0]))
			torch[i] = append(torch[i], gflops(s, ts[len(ts)/2]))
			res[i].TorchBest = max(res[i].TorchBest, gflops(s, ts[0]))
		}
	}
	for i := range res {
		res[i].Seam = median(seam[i])
		res[i].Torch = median(torch[i])
		var r []float64
		for k := range torch[i] {
			r = append(r, seam[i][k]/torch[i][k])
		}
		res[i].Ratio = median(r)
	}
	return res, nil
}

// GemmThreads times the 1024² product on one goroutine and on threads, in
// rounds rounds: the medians, the fastest calls, and the speedup, the
// median over rounds of their medians' ratio.
func GemmThreads(threads, rounds int, d time.Duration) (one, many, fastOne, fastMany time.Duration, speedup float64) {
	s := GemmShape{"square-1024", 1024, 1024, 1024, false}
	var m1, mn, sp []float64
	fastOne, fastMany = time.Hour, time.Hour
	for round := 0; round < max(rounds, 1); round++ {
		a, fa := TimeGemm(s, 1, d)
		b, fb := TimeGemm(s, threads, d)
		m1, mn, sp = append(m1, float64(a)), append(mn, float64(b)), append(sp, float64(a)/float64(b))
		fastOne, fastMany = min(fastOne, fa), min(fastMany, fb)
	}
	return time.Duration(median(m1)), time.Duration(median(mn)), fastOne, fastMany, median(sp)
}

// WriteGemms prints the shapes' throughput, the ratio to OpenBLAS first.
func WriteGemms(w io.Writer, rs []GemmResult) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "shape\tm\tn\tk\tseam/OpenBLAS\tbest/best\tseam GFLOP/s\tOpenBLAS GFLOP/s\tseam best\tOpenBLAS best\t")
	for _, r := range rs {
		x := func(v float64) string {
			if v <= 0 || v != v {
				return "-"
			}
			return fmt.Sprintf("%.2fx", v)
		}
		g := func(v float64) string {
			if v <= 0 {
				return "-"
			}
			return fmt.Sprintf("%.1f", v)
		}
		best := 0.0
		if r.TorchBest > 0 {
			best = r.SeamBest / r.TorchBest
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.Name, r.M, r.N, r.K, x(r.Ratio), x(best),
			g(r.Seam), g(r.Torch), g(r.SeamBest), g(r.TorchBest))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, "\nfloat32, one thread each; OpenBLAS through torch 1.13's torch.mm with anchor_env.py's kernel choice.\n"+
		"seam/OpenBLAS is the median over rounds of the two medians' ratio (above 1: seam is faster), the two timed\n"+
		fmt.Sprintf("in turns of %v within a round so that a drift in the machine's speed falls on both.", gemmTurn))
	return err
}

// CheckTools reports a tools folder without anchor_env.py, whose kernel
// choice the torch timings need.
func CheckTools(tools string) error {
	if _, err := os.Stat(filepath.Join(tools, "anchor_env.py")); err != nil {
		return fmt.Errorf("%s: no anchor_env.py: %w", tools, err)
	}
	return nil
}
