// Package demo is `seam demo`: the product in one minute, on a GPT-2-style
// model built into the binary. It shows the boundary problem first (a
// naive cut hands Sym(s53) to a tensor-only backend, and the runtime
// refuses the call), then what each policy does at the cut, and runs the
// original and the lowered programs on the same input.
package demo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/delegate"
	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/inspect"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/irtext"
	"github.com/seam-rt/seam/lower"
	"github.com/seam-rt/seam/npy"
	"github.com/seam-rt/seam/partition"
	"github.com/seam-rt/seam/pt2"
	"github.com/seam-rt/seam/report"
	"github.com/seam-rt/seam/runtime"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// Backend is the profile the demo lowers for.
const Backend = "tensor-only"

// Case is the reference case the demo runs (sequence length 128).
const Case = "case3"

// Result is everything the demo found, for the text and HTML renderings.
type Result struct {
	Model       string
	Program     *ir.Program
	Summary     *inspect.Summary
	SymSize     string // the sym_size node's line, as print_readable shows it
	SymSizeUses int
	Naive       Naive
	Policies    []PolicyResult
	Original    Timing
	// Auto is the lowered program under the default policy.
	Auto *lower.Result
}

// Naive is the cut today's tools make: sym_size stays on the CPU and its
// value reaches the tensor-only backend as a placeholder.
type Naive struct {
	Placeholders []string // module: name Sym(s53)
	RunError     string
}

// PolicyResult is one policy's lowering and run.
type PolicyResult struct {
	Policy    lower.Policy
	Refusal   string
	Modules   int
	Symbolic  []string // symbolic placeholders of the modules
	Boxes     []string // boxed inputs (i64[] tensors)
	Crossings map[string]int
	Dropped   []string
	Report    *lower.Report
	Timing    Timing
}

// Timing is a run's result against PyTorch's reference output.
type Timing struct {
	MaxAbsDiff float64
	Median     time.Duration
	Err        string
}

// Run performs the demo.
func Run(ctx context.Context) (*Result, error) {
	data, err := fixtures.Demo.ReadFile(fixtures.DemoModel)
	if err != nil {
		return nil, err
	}
	a, err := pt2.ReadBytes(data, "gpt2_tiny.pt2")
	if err != nil {
		return nil, err
	}
	p, err := a.Program()
	if err != nil {
		return nil, err
	}
	inputs, want, err := loadCase()
	if err != nil {
		return nil, err
	}
	prof, _ := backend.Builtin(Backend)
	opt := Options()
	r := &Result{Model: "gpt2_tiny (GPT-2, 2 layers, width 64)", Program: p, Summary: inspect.Summarize(p, opt)}
	r.findSymSize(opt.Printer)
	orig, err := runtime.Load(p, runtime.Options{})
	if err != nil {
		return nil, err
	}
	r.Original = measure(ctx, orig, inputs, want)
	r.Naive = naiveCut(ctx, p, prof, inputs)
	for _, pol := range lower.Policies() {
		pr := PolicyResult{Policy: pol, Crossings: map[string]int{}}
		res, err := delegate.Program(p, prof, delegate.Options{Policy: pol})
		if err != nil {
			var refusal *lower.Error
			if !errors.As(err, &refusal) {
				return nil, err
			}
			pr.Refusal = err.Error()
			r.Policies = append(r.Policies, pr)
			continue
		}
		if pol == lower.Auto {
			r.Auto = res
		}
		pr.Modules = len(res.Modules)
		pr.Dropped = res.Dropped
		pr.Report = res.Report(opt, prof.Name, pol)
		for _, c := range res.Crossings {
			pr.Crossings[c.Policy]++
		}
		for _, m := range pr.Report.Modules {
			for _, in := range m.Inputs {
				if strings.HasPrefix(in.Type, "sym_") {
					pr.Symbolic = append(pr.Symbolic, m.Name+": "+in.Name)
				}
				if strings.HasSuffix(in.Name, "_box") {
					pr.Boxes = append(pr.Boxes, m.Name+": "+in.Name+" "+in.Annotation)
				}
			}
		}
		prog, err := runtime.LoadLowered(res.Lowered, runtime.Options{})
		if err != nil {
			return nil, err
		}
		pr.Timing = measure(ctx, prog, inputs, want)
		r.Policies = append(r.Policies, pr)
	}
	return r, nil
}

// Options print expressions as annotations do.
func Options() inspect.Options { return inspect.Options{Printer: &irtext.Printer{}} }

func (r *Result) findSymSize(pr *irtext.Printer) {
	g := r.Program.Graph
	for _, n := range g.Nodes {
		if n.Target != "torch.ops.aten.sym_size.int" {
			continue
		}
		text := pr.Sprint(&ir.Program{Graph: &ir.Graph{Nodes: []*ir.Node{n}, TensorValues: g.TensorValues, SymIntValues: g.SymIntValues}})
		for _, line := range strings.Split(text, "\n") {
			if strings.Contains(line, "sym_size.int(") {
				r.SymSize = strings.TrimSpace(line)
			}
		}
		for _, m := range g.Nodes {
			m.ForEachInputRef(func(v string) {
				if v == n.Name {
					r.SymSizeUses++
				}
			})
		}
		return
	}
}

// naiveCut lowers as the tools in use today do: symbolic values cross the
// cut as placeholders whatever the backend accepts. The modules still carry
// the backend's real contract, so the runtime refuses the first call.
func naiveCut(ctx context.Context, p *ir.Program, prof *backend.Profile, inputs []value.Value) Naive {
	var n Naive
	relaxed := *prof
	relaxed.Name += "-naive" // a name of its own: lowering refuses a registered name with another contract
	relaxed.Placeholders = backend.Placeholders{SymInt: backend.Scalar, SymBool: backend.Scalar, SymFloat: backend.Scalar}
	res, err := delegate.Program(p, &relaxed, delegate.Options{Policy: lower.Fail})
	if err != nil {
		n.RunError = err.Error()
		return n
	}
	real, _ := backend.Builtin(prof.Name)
	for _, m := range res.Modules {
		g := m.Program.Graph
		for _, in := range g.InputNames() {
			if t := g.TypeOf(in); t == ir.ValueSymInt || t == ir.ValueSymBool || t == ir.ValueSymFloat {
				ann := Options().Printer.Annotation(g, in)
				n.Placeholders = append(n.Placeholders, fmt.Sprintf("%s: %s: %q (%s)", m.Name, in, ann, t))
			}
		}
		m.Delegate.Backend, m.Delegate.Contract = real.Name, mustJSON(real)
	}
	prog, err := runtime.LoadLowered(res.Lowered, runtime.Options{})
	if err == nil {
		_, err = prog.Run(ctx, inputs)
	}
	if err != nil {
		n.RunError = err.Error()
	}
	return n
}

func mustJSON(p *backend.Profile) []byte {
	var sb strings.Builder
	_ = p.WriteJSON(&sb)
	return []byte(sb.String())
}

func loadCase() ([]value.Value, []*tensor.Tensor, error) {
	dir, err := fs.Sub(fixtures.Demo, path.Join(path.Dir(fixtures.DemoModel), "io", Case))
	if err != nil {
		return nil, nil, err
	}
	c, err := npy.ReadCase(dir)
	if err != nil {
		return nil, nil, err
	}
	var inputs []value.Value
	for _, t := range c.Inputs {
		inputs = append(inputs, runtime.InputValue(t))
	}
	return inputs, c.Outputs, nil
}

// measure runs a program a few times: its largest difference from the
// reference output and its median latency.
func measure(ctx context.Context, p *runtime.Program, inputs []value.Value, want []*tensor.Tensor) Timing {
	var t Timing
	var times []time.Duration
	for i := 0; i < 15; i++ {
		start := time.Now()
		outs, err := p.Run(ctx, inputs)
		times = append(times, time.Since(start))
		if err != nil {
			t.Err = err.Error()
			return t
		}
		if i == 0 {
			if t.MaxAbsDiff, err = compareWithPyTorch(outs, want); err != nil {
				t.Err = err.Error()
				return t
			}
		}
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	t.Median = times[len(times)/2]
	return t
}

// compareWithPyTorch compares a run's outputs with PyTorch's (rtol 1e-4,
// atol 1e-5): the largest difference, and an error for the first output
// that is missing, of another dtype or shape, NaN where PyTorch has a
// number, or outside tolerance. Any of these makes the distance +Inf or
// larger than the tolerance, never 0.
func compareWithPyTorch(outs []value.Value, want []*tensor.Tensor) (float64, error) {
	if len(outs) != len(want) {
		return math.Inf(1), fmt.Errorf("%d outputs, PyTorch has %d", len(outs), len(want))
	}
	maxAbs := 0.0
	var first error
	for j := range want {
		got, err := runtime.OutputTensor(outs[j])
		if err != nil {
			return math.Inf(1), fmt.Errorf("output %d: %w", j, err)
		}
		d, err := tensor.AllClose(got, want[j], 1e-4, 1e-5)
		maxAbs = math.Max(maxAbs, d.MaxAbs)
		if err != nil && first == nil {
			first = fmt.Errorf("output %d differs from PyTorch: %w", j, err)
		}
	}
	return maxAbs, first
}

// Err is the first run that did not reproduce PyTorch's output, or nil.
func (r *Result) Err() error {
	if r.Original.Err != "" {
		return fmt.Errorf("the original program: %s", r.Original.Err)
	}
	for _, pr := range r.Policies {
		if pr.Refusal == "" && pr.Timing.Err != "" {
			return fmt.Errorf("lowered with policy %s: %s", pr.Policy, pr.Timing.Err)
		}
	}
	return nil
}

// WriteHTML writes the demo as one page: the story as text, then the
// partition report of the default lowering's cut, with its picture.
func (r *Result) WriteHTML(w io.Writer) error {
	var text strings.Builder
	if err := r.WriteText(&text); err != nil {
		return err
	}
	prof, _ := backend.Builtin(Backend)
	plan, err := partition.ProposeProgram(r.Program, prof, partition.GraphOptions{})
	if err != nil {
		return err
	}
	rep := report.Build(r.Program, plan, report.Options{Model: "gpt2_tiny (built in)", Backend: Backend, Printer: Options().Printer})
	return rep.WriteHTML(w, report.HTMLOptions{
		Intro:  text.String(),
		Footer: "Made by seam demo. The picture is the cut seam partition proposes for tensor-only; the text above is what lowering does about the symbolic values crossing it.",
	})
}
