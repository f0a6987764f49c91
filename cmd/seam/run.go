package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/spf13/cobra"

	"github.com/seam-rt/seam/npy"
	"github.com/seam-rt/seam/pt2"
	"github.com/seam-rt/seam/runtime"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

func runCmd() *cobra.Command {
	var inputs, caseDirs []string
	var outDir, expectDir string
	var repeat, threads int
	var trustRecorded bool
	cmd := &cobra.Command{
		Use:   "run MODEL.pt2 --input A.npy [--input B.npy ...] [--out DIR] [--expect DIR] [--repeat N] [--threads N] [--trust-recorded-contract] | --case DIR [--case DIR ...]",
		Short: "Run a program (or a lowered program through its delegates) on .npy inputs",
		Long: "run executes the program on its user inputs, given in signature order as .npy files\n" +
			"(a 0-d int64 array for an int user input). --out writes out_0.npy, out_1.npy, ...;\n" +
			"--expect compares with DIR/out_J.npy (rtol 1e-4, atol 1e-5 for floats, exact for\n" +
			"integers and bools), prints the largest error per output and exits 1 on a mismatch.\n" +
			"--case DIR takes the inputs from DIR/in_*.npy and expects DIR/out_*.npy. Several\n" +
			"--case folders run in order on one loaded program, so state a program keeps (a\n" +
			"mutated buffer) carries from case to case; each prints one line, ok or MISMATCH.\n" +
			"--repeat N runs N more times and prints latency figures (and time per delegate).\n" +
			"--threads N lets one run use N goroutines inside large kernels (default: the cores\n" +
			"available); results are the same whatever N.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var vals []value.Value
			for _, path := range inputs {
				t, err := npy.ReadFile(path)
				if err != nil {
					return err
				}
				vals = append(vals, runtime.InputValue(t))
			}
			if len(caseDirs) > 1 && (len(inputs) > 0 || expectDir != "" || outDir != "") {
				return fmt.Errorf("several --case folders each bring their inputs and expected outputs: --input, --expect and --out go with one run")
			}
			cases := make([]*npy.Case, len(caseDirs))
			for i, dir := range caseDirs {
				c, err := readCaseDir(dir)
				if err != nil {
					return err
				}
				cases[i] = c
			}
			if len(caseDirs) == 1 {
				for _, t := range cases[0].Inputs {
					vals = append(vals, runtime.InputValue(t))
				}
				if expectDir == "" {
					expectDir = caseDirs[0]
				}
			}
			a, err := pt2.Open(args[0])
			if err != nil {
				return err
			}
			defer a.Close()
			l, err := a.Lowered()
			if err != nil {
				return &pt2.Error{File: args[0], Err: err}
			}
			prog, err := runtime.LoadLowered(l, runtime.Options{Threads: threads, TrustRecordedContract: trustRecorded})
			if err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			ctx := context.Background()
			w := cmd.OutOrStdout()
			if len(caseDirs) > 1 {
				mismatch, err := runCases(ctx, w, prog, caseDirs, cases)
				if err == nil && repeat > 0 {
					err = timeRuns(w, ctx, prog, caseValues(cases[len(cases)-1]), repeat)
				}
				if err == nil && mismatch {
					err = exitError{1}
				}
				return err
			}
			outs, err := prog.Run(ctx, vals)
			if err != nil {
				return err
			}
			if outDir != "" {
				if err := writeOutputs(outDir, outs); err != nil {
					return err
				}
			}
			mismatch := false
			if expectDir != "" {
				if mismatch, err = compareOutputs(w, expectDir, outs); err != nil {
					return err
				}
			} else {
				for j, o := range outs {
					fmt.Fprintf(w, "out_%d: %s\n", j, describeValue(o))
				}
			}
			if repeat > 0 {
				if err := timeRuns(w, ctx, prog, vals, repeat); err != nil {
					return err
				}
			}
			if mismatch {
				return exitError{1}
			}
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&inputs, "input", nil, "a user input as .npy, in signature order (repeat the flag)")
	cmd.Flags().StringVar(&outDir, "out", "", "write outputs to DIR/out_J.npy")
	cmd.Flags().StringVar(&expectDir, "expect", "", "compare outputs with DIR/out_J.npy")
	cmd.Flags().StringArrayVar(&caseDirs, "case", nil, "a reference case folder: DIR/in_*.npy as inputs, DIR/out_*.npy expected; repeat to run cases in order on one program")
	cmd.Flags().IntVar(&repeat, "repeat", 0, "time N more runs and print latency figures")
	cmd.Flags().IntVar(&threads, "threads", 0, "goroutines one run may use inside a kernel (default: the cores available; 1: none)")
	cmd.Flags().BoolVar(&trustRecorded, "trust-recorded-contract", false,
		"check each lowered module's calls against the contract its delegate record holds, even where it differs from the registered backend's")
	return cmd
}

// readCaseDir reads a reference case folder, which must exist and hold
// inputs.
func readCaseDir(dir string) (*npy.Case, error) {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("case folder %s: no such folder", dir)
	}
	c, err := npy.ReadCase(os.DirFS(dir))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	if len(c.Inputs) == 0 {
		return nil, fmt.Errorf("case folder %s has no in_0.npy", dir)
	}
	return c, nil
}

func caseValues(c *npy.Case) []value.Value {
	vals := make([]value.Value, len(c.Inputs))
	for i, t := range c.Inputs {
		vals[i] = runtime.InputValue(t)
	}
	return vals
}

// runCases runs the cases in order on one program and prints one line
// each; it reports whether any output was outside tolerance.
func runCases(ctx context.Context, w io.Writer, prog *runtime.Program, dirs []string, cases []*npy.Case) (bool, error) {
	mismatch := false
	for i, c := range cases {
		outs, err := prog.Run(ctx, caseValues(c))
		if err != nil {
			return mismatch, fmt.Errorf("%s: %w", dirs[i], err)
		}
		line, ok := caseLine(outs, c.Outputs)
		mismatch = mismatch || !ok
		fmt.Fprintf(w, "%s: %s\n", dirs[i], line)
	}
	return mismatch, nil
}

// caseLine compares a run's outputs with a case's: "ok, 2 outputs, max
// abs error ..." or "MISMATCH out_1 f32[...]: ...".
func caseLine(outs []value.Value, want []*tensor.Tensor) (string, bool) {
	if len(outs) != len(want) {
		return fmt.Sprintf("MISMATCH: %d outputs, the case has %d", len(outs), len(want)), false
	}
	maxAbs, maxRel := 0.0, 0.0
	for j, o := range outs {
		got, err := runtime.OutputTensor(o)
		if err != nil {
			return fmt.Sprintf("MISMATCH out_%d: %v", j, err), false
		}
		d, err := tensor.AllClose(got, want[j], 1e-4, 1e-5)
		if err != nil {
			return fmt.Sprintf("MISMATCH out_%d %s: %v", j, got.Type(), err), false
		}
		maxAbs, maxRel = math.Max(maxAbs, d.MaxAbs), math.Max(maxRel, d.MaxRel)
	}
	n := fmt.Sprintf("%d outputs", len(outs))
	if len(outs) == 1 {
		n = "1 output"
	}
	return fmt.Sprintf("ok, %s, max abs error %.3g, max rel error %.3g", n, maxAbs, maxRel), true
}

func describeValue(v value.Value) string {
	if v.Kind() == value.Tensor {
		return v.Tensor().Type()
	}
	return v.String()
}

func writeOutputs(dir string, outs []value.Value) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for j, o := range outs {
		t, err := runtime.OutputTensor(o)
		if err != nil {
			return fmt.Errorf("output %d: %w", j, err)
		}
		if err := npy.WriteFile(filepath.Join(dir, fmt.Sprintf("out_%d.npy", j)), t); err != nil {
			return err
		}
	}
	return nil
}

// compareOutputs prints the largest error of each output against the
// expected files and reports whether any is outside tolerance.
func compareOutputs(w io.Writer, dir string, outs []value.Value) (bool, error) {
	mismatch := false
	for j, o := range outs {
		path := filepath.Join(dir, fmt.Sprintf("out_%d.npy", j))
		want, err := npy.ReadFile(path)
		if err != nil {
			return false, fmt.Errorf("%s: %w", path, err)
		}
		got, err := runtime.OutputTensor(o)
		if err != nil {
			return false, fmt.Errorf("output %d: %w", j, err)
		}
		d, err := tensor.AllClose(got, want, 1e-4, 1e-5)
		status := "ok"
		if err != nil {
			status, mismatch = "MISMATCH: "+err.Error(), true
		}
		fmt.Fprintf(w, "out_%d %s: max abs error %.3g, max rel error %.3g: %s\n", j, got.Type(), d.MaxAbs, d.MaxRel, status)
	}
	if len(outs) == 0 {
		fmt.Fprintln(w, "no outputs")
	}
	// Every expected output is compared: a reference the program does not
	// produce is a mismatch too.
	if files, _ := filepath.Glob(filepath.Join(dir, "out_*.npy")); len(files) > len(outs) {
		fmt.Fprintf(w, "MISMATCH: %s holds %d expected outputs, the program produced %d\n", dir, len(files), len(outs))
		mismatch = true
	}
	return mismatch, nil
}

func timeRuns(w io.Writer, ctx context.Context, prog *runtime.Program, vals []value.Value, n int) error {
	times := make([]float64, 0, n)
	delegates := map[string]*runtime.DelegateTime{}
	var order []string
	for i := 0; i < n; i++ {
		start := time.Now()
		_, dts, err := prog.RunTimed(ctx, vals)
		if err != nil {
			return err
		}
		times = append(times, float64(time.Since(start).Nanoseconds()))
		for _, dt := range dts {
			if delegates[dt.Module] == nil {
				delegates[dt.Module] = &runtime.DelegateTime{Module: dt.Module, Backend: dt.Backend}
				order = append(order, dt.Module)
			}
			delegates[dt.Module].Calls += dt.Calls
			delegates[dt.Module].Nanos += dt.Nanos
		}
	}
	sort.Float64s(times)
	q := func(p float64) float64 {
		return times[int(math.Min(float64(len(times)-1), p*float64(len(times))))] / 1e6
	}
	mean := 0.0
	for _, t := range times {
		mean += t
	}
	mean /= float64(len(times)) * 1e6
	fmt.Fprintf(w, "latency over %d runs: median %.3f ms, min %.3f ms, p90 %.3f ms, mean %.3f ms\n", n, q(0.5), times[0]/1e6, q(0.9), mean)
	for _, m := range order {
		d := delegates[m]
		fmt.Fprintf(w, "  %s (%s): %.3f ms per run, %d calls\n", m, d.Backend, float64(d.Nanos)/1e6/float64(n), d.Calls)
	}
	return nil
}
