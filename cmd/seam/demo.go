package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/seam-rt/seam/atomicfile"
	"github.com/seam-rt/seam/demo"
)

func demoCmd() *cobra.Command {
	var htmlFile string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Show the boundary problem and seam's answer on a GPT-2-style model built into the binary",
		Long: "demo shows, on a GPT-2-style model built into the binary: the symbolic size every\n" +
			"Hugging Face model computes first; a naive cut that hands it to a tensor-only\n" +
			"backend, and the runtime refusing that call; what each policy does at the cut;\n" +
			"and the original and lowered programs run on the same input. --html FILE also\n" +
			"writes it as a page with the partition picture.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := demo.Run(cmd.Context())
			if err != nil {
				return err
			}
			if htmlFile != "" {
				if err := atomicfile.Write(htmlFile, func(w io.Writer) error { return r.WriteHTML(w) }); err != nil {
					return err
				}
			}
			if asJSON {
				if err := writeJSON(cmd.OutOrStdout(), summarizeDemo(r)); err != nil {
					return err
				}
			} else if err := r.WriteText(cmd.OutOrStdout()); err != nil {
				return err
			}
			// A run that does not reproduce PyTorch's output fails the check.
			if err := r.Err(); err != nil {
				return checkError{err}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&htmlFile, "html", "", "also write the demo as an HTML page to `FILE`")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print what the demo found as one JSON document")
	return cmd
}

// demoSummary is what demo --json prints: the naive cut and its failure,
// and each policy's lowering and run against PyTorch's output.
type demoSummary struct {
	Model       string       `json:"model"`
	SymSize     string       `json:"sym_size"`
	SymSizeUses int          `json:"sym_size_uses"`
	Naive       demoNaive    `json:"naive"`
	Original    demoRun      `json:"original"`
	Policies    []demoPolicy `json:"policies"`
	// OK: every run reproduced PyTorch's output.
	OK bool `json:"ok"`
}

type demoNaive struct {
	Placeholders []string `json:"placeholders"`
	RunError     string   `json:"run_error"`
}

type demoRun struct {
	MaxAbsDiff *number `json:"max_abs_diff,omitempty"`
	MedianMS   float64 `json:"median_ms,omitempty"`
	Error      string  `json:"error,omitempty"`
}

type demoPolicy struct {
	Policy  string `json:"policy"`
	Refusal string `json:"refusal,omitempty"`
	Modules int    `json:"modules"`
	// Symbolic and Boxes are the modules' symbolic placeholders and boxed
	// (rank-0 tensor) inputs; Dropped the nodes lowering left to the parent.
	Symbolic []string `json:"symbolic_placeholders"`
	Boxes    []string `json:"boxes"`
	Dropped  []string `json:"dropped"`
	Run      *demoRun `json:"run,omitempty"`
}

func demoTiming(t demo.Timing) *demoRun {
	r := &demoRun{MedianMS: float64(t.Median.Nanoseconds()) / 1e6, Error: t.Err}
	if t.Err == "" {
		r.MaxAbsDiff = ptr(number(t.MaxAbsDiff))
	}
	return r
}

func summarizeDemo(r *demo.Result) *demoSummary {
	s := &demoSummary{Model: r.Model, SymSize: r.SymSize, SymSizeUses: r.SymSizeUses,
		Naive:    demoNaive{Placeholders: nonNil(r.Naive.Placeholders), RunError: r.Naive.RunError},
		Original: *demoTiming(r.Original), Policies: []demoPolicy{}, OK: r.Err() == nil}
	for _, pr := range r.Policies {
		p := demoPolicy{Policy: pr.Policy.String(), Refusal: pr.Refusal, Modules: pr.Modules,
			Symbolic: nonNil(pr.Symbolic), Boxes: nonNil(pr.Boxes), Dropped: nonNil(pr.Dropped)}
		if pr.Refusal == "" {
			p.Run = demoTiming(pr.Timing)
		}
		s.Policies = append(s.Policies, p)
	}
	return s
}
