package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/seam-rt/seam/npy"
	"github.com/seam-rt/seam/pt2"
	"github.com/seam-rt/seam/runtime"
	"github.com/seam-rt/seam/sym"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// The tolerances seam run compares floating-point outputs with, as
// torch.allclose does: |got - want| <= atol + rtol*|want|.
const (
	runRtol = 1e-4
	runAtol = 1e-5
)

func runCmd() *cobra.Command {
	var inputs, caseDirs []string
	var outDir, expectDir string
	var repeat, threads int
	var trustRecorded, asJSON, fixedThreads bool
	var disable []string
	cmd := &cobra.Command{
		Use:   "run MODEL.pt2 --input A.npy [--input B.npy ...] [--out DIR] [--expect DIR] [--repeat N] [--threads N [--fixed-threads]] [--disable-pass NAME] [--trust-recorded-contract] | --case DIR [--case DIR ...]",
		Short: "Run a program (or a lowered program through its delegates) on .npy inputs",
		Long: "run executes the program on its user inputs, given in signature order as .npy files\n" +
			"(a 0-d int64 array for an int user input). --out writes out_0.npy, out_1.npy, ...;\n" +
			"--expect compares with DIR/out_J.npy (rtol 1e-4, atol 1e-5 for floats, exact for\n" +
			"integers and bools), prints the largest error per output and exits 1 on a mismatch;\n" +
			"an output that passes only through atol (its largest relative error above rtol)\n" +
			"says so. --case DIR takes the inputs from DIR/in_*.npy and expects DIR/out_*.npy.\n" +
			"Several --case folders run in order on one loaded program, so state a program keeps\n" +
			"(a mutated buffer) carries from case to case; each prints one line, ok or MISMATCH.\n" +
			"--repeat N runs N more times and prints latency figures (and time per delegate).\n" +
			"--threads N lets one run use N goroutines inside large kernels (default: the cores\n" +
			"available); results are the same whatever N. A program run on more than one thread\n" +
			"times its first runs at each input size on N and on one thread (three untimed\n" +
			"warm-ups, then ten each way in blocks of five) and keeps the faster (one, untimed,\n" +
			"when no kernel split in the runs on N), measuring again after 0.2 s, then every ten\n" +
			"seconds (every second after a close call or a changed choice), so that threads do\n" +
			"not make it slower;\n" +
			"--repeat says what it measured, and --fixed-threads splits every run instead.\n" +
			"A program that computes each sample of a static batch apart (a conv net, a ViT)\n" +
			"runs its batch in as many parts as there are cores, each part a run of the whole\n" +
			"program on its samples: at once on several threads, in turn on one.\n" +
			"--disable-pass NAME runs the program without one of the runtime's plan rewrites\n" +
			"(fusions, folds, buffer reuse; the names are under Flags below), to tell whether a\n" +
			"wrong or slow result comes from one of them.\n" +
			"--json prints one JSON document (with the rewrites that ran, under \"passes\").",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if repeat < 0 {
				return fmt.Errorf("--repeat %d: want a number of runs to time, 0 or more", repeat)
			}
			if threads < 0 {
				return fmt.Errorf("--threads %d: want a number of goroutines, 1 or more (0: the cores available)", threads)
			}
			if len(caseDirs) > 0 && len(inputs) > 0 {
				return fmt.Errorf("--case brings its inputs (DIR/in_*.npy): give --input or --case, not both")
			}
			if len(caseDirs) > 1 && (expectDir != "" || outDir != "") {
				return fmt.Errorf("several --case folders each bring their inputs and expected outputs: --expect and --out go with one run")
			}
			if err := checkPassNames(disable); err != nil {
				return err
			}
			var vals []value.Value
			for _, path := range inputs {
				t, err := npy.ReadFile(path)
				if err != nil {
					return err
				}
				vals = append(vals, runtime.InputValue(t))
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
				vals = caseValues(cases[0])
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
			prog, err := runtime.LoadLowered(l, runtime.Options{Threads: threads, FixedThreads: fixedThreads, TrustRecordedContract: trustRecorded, Disable: disable})
			if err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			ctx := context.Background()
			rep := &runReport{Model: args[0], OK: true, Runs: []runRecord{}, Passes: prog.Passes()}
			last := vals
			if len(caseDirs) > 1 {
				for i, c := range cases {
					outs, err := prog.Run(ctx, caseValues(c))
					if err != nil {
						return fmt.Errorf("%s: %w", caseDirs[i], err)
					}
					rec := runRecord{Case: caseDirs[i], Expect: caseDirs[i], Dispatch: dispatchOf(prog, caseValues(c))}
					rec.compare(outs, c.Outputs, "")
					rep.add(rec)
				}
				last = caseValues(cases[len(cases)-1])
			} else {
				outs, err := prog.Run(ctx, vals)
				if err != nil {
					return err
				}
				if outDir != "" {
					if err := writeOutputs(outDir, outs); err != nil {
						return err
					}
				}
				rec := runRecord{Expect: expectDir, Dispatch: dispatchOf(prog, vals)}
				if len(caseDirs) == 1 {
					rec.Case = caseDirs[0]
				}
				if expectDir != "" {
					want, err := readExpected(expectDir, len(outs))
					if err != nil {
						return err
					}
					rec.compare(outs, want, expectDir)
				} else {
					rec.describe(outs)
				}
				rep.add(rec)
			}
			if repeat > 0 {
				if rep.Latency, err = timeRuns(ctx, prog, last, repeat); err != nil {
					return err
				}
			}
			w := cmd.OutOrStdout()
			if asJSON {
				if err := writeJSON(w, rep); err != nil {
					return err
				}
			} else {
				rep.writeText(w, len(caseDirs) > 1)
			}
			if !rep.OK {
				return exitError{exitFailed}
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
	cmd.Flags().BoolVar(&fixedThreads, "fixed-threads", false, "split every run across --threads goroutines, without first measuring whether it pays")
	cmd.Flags().BoolVar(&trustRecorded, "trust-recorded-contract", false,
		"check each lowered module's calls against the contract its delegate record holds, even where it differs from the registered backend's")
	cmd.Flags().StringSliceVar(&disable, "disable-pass", nil, "run without this plan rewrite (repeat or comma-separate): "+strings.Join(runtime.PassNames(), ", "))
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the runs (and latency) as one JSON document")
	return cmd
}

// checkPassNames refuses a --disable-pass name that is not a pass's,
// naming the ones there are.
func checkPassNames(names []string) error {
	for _, n := range names {
		if !slices.Contains(runtime.PassNames(), n) {
			return fmt.Errorf("--disable-pass %q: no such plan rewrite (the rewrites: %s)", n, strings.Join(runtime.PassNames(), ", "))
		}
	}
	return nil
}

// runReport is what seam run found: one record per run, and the latency
// of the timed runs. --json prints it.
type runReport struct {
	Model string `json:"model"`
	// OK: every compared output is within tolerance.
	OK      bool        `json:"ok"`
	Runs    []runRecord `json:"runs"`
	Latency *latency    `json:"latency,omitempty"`
	// Passes names the runtime's plan rewrites that ran (--disable-pass
	// leaves some out).
	Passes []string `json:"passes"`
}

func (r *runReport) add(rec runRecord) {
	r.Runs = append(r.Runs, rec)
	r.OK = r.OK && (rec.OK == nil || *rec.OK)
}

// runRecord is one run: its outputs, and how they compare with the
// expected ones when there are any.
type runRecord struct {
	// Case is the --case folder the inputs came from; Expect the folder
	// the outputs were compared with ("" when they were not).
	Case    string         `json:"case,omitempty"`
	Expect  string         `json:"expect,omitempty"`
	Outputs []outputRecord `json:"outputs"`
	// OK is set when outputs were compared: all within tolerance.
	OK *bool `json:"ok,omitempty"`
	// Mismatch says what is wrong beyond single outputs (a count that differs).
	Mismatch string `json:"mismatch,omitempty"`
	// Dispatch says, for a program with specializations, which one ran.
	Dispatch *dispatchRecord `json:"dispatch,omitempty"`
}

// outputRecord is one output, and its comparison with the expected one.
type outputRecord struct {
	Index int `json:"index"`
	// Type is the output's annotation (f32[4, 10]) or, for a scalar, its value.
	Type string `json:"type"`
	// MaxAbs and MaxRel are the largest absolute and relative errors;
	// null when not a finite number (a NaN or infinity that differs) or not
	// compared.
	MaxAbs *number `json:"max_abs_error,omitempty"`
	MaxRel *number `json:"max_rel_error,omitempty"`
	// OK is set when compared. ByAtol: within tolerance only through
	// atol (the largest relative error is above rtol).
	OK       *bool  `json:"ok,omitempty"`
	ByAtol   bool   `json:"passed_by_atol,omitempty"`
	Mismatch string `json:"mismatch,omitempty"`
}

// number is a float that encodes as null when it is not finite.
type number float64

func (n number) MarshalJSON() ([]byte, error) {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return []byte(fmt.Sprint(f)), nil
}

func ptr[T any](v T) *T { return &v }

func (rec *runRecord) describe(outs []value.Value) {
	rec.Outputs = make([]outputRecord, len(outs))
	for j, o := range outs {
		rec.Outputs[j] = outputRecord{Index: j, Type: describeValue(o)}
	}
}

// compare compares outs with want; dir, when set, is where want came
// from, for the count message.
func (rec *runRecord) compare(outs []value.Value, want []*tensor.Tensor, dir string) {
	rec.describe(outs)
	ok := true
	for j := range rec.Outputs {
		o := &rec.Outputs[j]
		if j >= len(want) {
			o.OK, o.Mismatch = ptr(false), "no expected output"
			ok = false
			continue
		}
		got, err := runtime.OutputTensor(outs[j])
		if err != nil {
			o.OK, o.Mismatch = ptr(false), err.Error()
			ok = false
			continue
		}
		compareOutput(o, got, want[j])
		ok = ok && *o.OK
	}
	if len(want) != len(outs) {
		where := "the case has"
		if dir != "" {
			where = dir + " holds"
		}
		rec.Mismatch = fmt.Sprintf("the program produced %d outputs, %s %d", len(outs), where, len(want))
		ok = false
	}
	rec.OK = &ok
}

// compareOutput compares one output with its reference: a dtype or shape
// that differs is said as such, without error figures.
func compareOutput(o *outputRecord, got, want *tensor.Tensor) {
	switch {
	case got.DType() != want.DType():
		o.OK, o.Mismatch = ptr(false), fmt.Sprintf("dtype: got %s, the reference is %s", got.Type(), want.Type())
		return
	case !got.SameShape(want):
		o.OK, o.Mismatch = ptr(false), fmt.Sprintf("shape: got %s, the reference is %s", got.Type(), want.Type())
		return
	}
	d, err := tensor.AllClose(got, want, runRtol, runAtol)
	o.MaxAbs, o.MaxRel = ptr(number(d.MaxAbs)), ptr(number(d.MaxRel))
	o.OK = ptr(err == nil)
	if err != nil {
		o.Mismatch = err.Error()
		return
	}
	o.ByAtol = want.DType().IsFloat() && d.MaxRel > runRtol
}

// byAtolNote says that an output passed only through atol.
var byAtolNote = fmt.Sprintf("by atol (max rel error above rtol %g; every element within atol %g + rtol*|want|)", runRtol, runAtol)

// status is an output's verdict in words.
func (o *outputRecord) status() string {
	switch {
	case o.OK == nil:
		return ""
	case !*o.OK:
		return "MISMATCH: " + o.Mismatch
	case o.ByAtol:
		return "ok " + byAtolNote
	}
	return "ok"
}

func (o *outputRecord) errors() string {
	if o.MaxAbs == nil {
		return ""
	}
	return fmt.Sprintf("max abs error %.3g, max rel error %.3g", float64(*o.MaxAbs), float64(*o.MaxRel))
}

// writeText prints the report: per output, or one line per case in a chain.
func (r *runReport) writeText(w io.Writer, chain bool) {
	for _, rec := range r.Runs {
		if chain {
			ran := ""
			if rec.Dispatch != nil {
				ran = "; ran " + rec.Dispatch.String()
			}
			fmt.Fprintf(w, "%s: %s%s\n", rec.Case, rec.line(), ran)
			continue
		}
		for _, o := range rec.Outputs {
			switch {
			case o.OK == nil:
				fmt.Fprintf(w, "out_%d: %s\n", o.Index, o.Type)
			case o.MaxAbs == nil:
				fmt.Fprintf(w, "out_%d %s: %s\n", o.Index, o.Type, o.status())
			default:
				fmt.Fprintf(w, "out_%d %s: %s: %s\n", o.Index, o.Type, o.errors(), o.status())
			}
		}
		if len(rec.Outputs) == 0 {
			fmt.Fprintln(w, "no outputs")
		}
		if rec.Mismatch != "" {
			fmt.Fprintf(w, "MISMATCH: %s\n", rec.Mismatch)
		}
		if rec.Dispatch != nil {
			fmt.Fprintf(w, "ran %s\n", rec.Dispatch)
		}
	}
	if r.Latency != nil {
		r.Latency.writeText(w)
	}
}

// line sums up a case of a chain: "ok, 2 outputs, max abs error ...",
// or "MISMATCH out_1 f32[...]: ...".
func (rec *runRecord) line() string {
	if rec.Mismatch != "" {
		return "MISMATCH: " + rec.Mismatch
	}
	maxAbs, maxRel, byAtol := 0.0, 0.0, false
	for _, o := range rec.Outputs {
		if !*o.OK {
			return fmt.Sprintf("MISMATCH out_%d %s: %s", o.Index, o.Type, o.Mismatch)
		}
		if o.MaxAbs != nil {
			maxAbs, maxRel = math.Max(maxAbs, float64(*o.MaxAbs)), math.Max(maxRel, float64(*o.MaxRel))
		}
		byAtol = byAtol || o.ByAtol
	}
	n := fmt.Sprintf("%d outputs", len(rec.Outputs))
	if len(rec.Outputs) == 1 {
		n = "1 output"
	}
	verdict := "ok"
	if byAtol {
		verdict = "ok " + byAtolNote
	}
	return fmt.Sprintf("%s, %s, max abs error %.3g, max rel error %.3g", verdict, n, maxAbs, maxRel)
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

// readExpected reads the expected outputs of a folder: out_0.npy, ...,
// each that exists, and at least as many as the program produced.
func readExpected(dir string, n int) ([]*tensor.Tensor, error) {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("expected outputs %s: no such folder", dir)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "out_*.npy"))
	var want []*tensor.Tensor
	for j := 0; j < max(n, len(files)); j++ {
		path := filepath.Join(dir, fmt.Sprintf("out_%d.npy", j))
		if _, err := os.Stat(path); err != nil && j >= n {
			break
		}
		t, err := npy.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		want = append(want, t)
	}
	return want, nil
}

func caseValues(c *npy.Case) []value.Value {
	vals := make([]value.Value, len(c.Inputs))
	for i, t := range c.Inputs {
		vals[i] = runtime.InputValue(t)
	}
	return vals
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

// latency is what --repeat measured: figures over the timed runs, and the
// time spent in each delegate.
type latency struct {
	Runs      int             `json:"runs"`
	MedianMS  float64         `json:"median_ms"`
	MinMS     float64         `json:"min_ms"`
	P90MS     float64         `json:"p90_ms"`
	MeanMS    float64         `json:"mean_ms"`
	Delegates []delegateTimes `json:"delegates"`
	// Threads says, for a program run on more than one thread, what it
	// measured per binding of its symbols and which it uses.
	Threads []threadsRecord `json:"threads,omitempty"`
	// BatchParts, when above 1, is how many parts each run cuts the batch
	// into (runtime.Program.BatchParts).
	BatchParts int `json:"batch_parts,omitempty"`
}

type threadsRecord struct {
	Bind      map[string]int64 `json:"bind"`
	Threads   int              `json:"threads"`
	OneMinMS  float64          `json:"one_thread_min_ms"`
	ManyMinMS float64          `json:"threads_min_ms"`
	Use       int              `json:"use"`
	Splits    bool             `json:"splits"`
}

type delegateTimes struct {
	Module   string  `json:"module"`
	Backend  string  `json:"backend"`
	MSPerRun float64 `json:"ms_per_run"`
	Calls    int     `json:"calls"`
}

func timeRuns(ctx context.Context, prog *runtime.Program, vals []value.Value, n int) (*latency, error) {
	times := make([]float64, 0, n)
	delegates := map[string]*runtime.DelegateTime{}
	var order []string
	for i := 0; i < n; i++ {
		start := time.Now()
		_, dts, err := prog.RunTimed(ctx, vals)
		if err != nil {
			return nil, err
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
	l := &latency{Runs: n, MedianMS: q(0.5), MinMS: times[0] / 1e6, P90MS: q(0.9), MeanMS: mean, Delegates: []delegateTimes{}}
	for _, m := range order {
		d := delegates[m]
		l.Delegates = append(l.Delegates, delegateTimes{Module: m, Backend: d.Backend, MSPerRun: float64(d.Nanos) / 1e6 / float64(n), Calls: d.Calls})
	}
	for _, c := range prog.ThreadChoices() {
		l.Threads = append(l.Threads, threadsRecord{Bind: c.Bind, Threads: c.Threads, OneMinMS: ms(c.One), ManyMinMS: ms(c.Many), Use: c.Use, Splits: c.Splits})
	}
	sort.Slice(l.Threads, func(i, j int) bool { return fmt.Sprint(l.Threads[i].Bind) < fmt.Sprint(l.Threads[j].Bind) })
	if k, _ := prog.BatchParts(vals); k > 1 {
		l.BatchParts = k
	}
	return l, nil
}

func (l *latency) writeText(w io.Writer) {
	fmt.Fprintf(w, "latency over %d runs: median %.3f ms, min %.3f ms, p90 %.3f ms, mean %.3f ms\n", l.Runs, l.MedianMS, l.MinMS, l.P90MS, l.MeanMS)
	for _, t := range l.Threads {
		at := ""
		if len(t.Bind) > 0 {
			at = fmt.Sprintf(" at %v", sym.Bindings(t.Bind))
		}
		if t.Use == 0 {
			fmt.Fprintf(w, "  threads%s: still measuring one against %d (fastest so far %.3f ms and %.3f ms)\n", at, t.Threads, t.OneMinMS, t.ManyMinMS)
			continue
		}
		if !t.Splits {
			fmt.Fprintf(w, "  threads%s: no kernel is large enough to split on %d (fastest run %.3f ms): runs use %d\n", at, t.Threads, t.ManyMinMS, t.Use)
			continue
		}
		fmt.Fprintf(w, "  threads%s: fastest run %.3f ms on one, %.3f ms on %d: runs use %d\n", at, t.OneMinMS, t.ManyMinMS, t.Threads, t.Use)
	}
	if l.BatchParts > 1 {
		fmt.Fprintf(w, "  batch: each run cuts it into %d parts, each a run of the whole program on its samples (at once on several threads, in turn on one)\n", l.BatchParts)
	}
	for _, d := range l.Delegates {
		fmt.Fprintf(w, "  %s (%s): %.3f ms per run, %d calls\n", d.Module, d.Backend, d.MSPerRun, d.Calls)
	}
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }
