package demo

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/seam-rt/seam/inspect"
)

// WriteText prints the demo for a terminal.
func (r *Result) WriteText(w io.Writer) error {
	s := r.Summary
	p := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	p("seam demo: %s, exported by torch.export (PyTorch %s), built into this binary.\n\n", r.Model, s.TorchVersion)

	p("1. The program\n")
	var users []string
	for _, in := range s.Inputs {
		if in.Kind == "user_input" {
			users = append(users, in.Name+": "+in.Annotation)
		}
	}
	p("   %d nodes; user inputs %s; ", s.Nodes, strings.Join(users, ", "))
	for _, name := range sortedKeys(s.Symbols) {
		sym := s.Symbols[name]
		p("%s in %s", name, inspect.RangeText(sym.Min, sym.Max))
	}
	p(".\n   Its first node, used by %d nodes downstream:\n       %s\n\n", r.SymSizeUses, r.SymSize)

	p("2. The problem: a naive cut for %s (a Core ML / XNNPACK-like backend: tensors only)\n", Backend)
	p("   The partitioner leaves sym_size on the CPU, so the partitions receive its value:\n")
	for _, ph := range r.Naive.Placeholders {
		p("       %s\n", ph)
	}
	p("   Running that program, the delegate call is refused before the backend runs:\n")
	p("       %s\n", wrap(r.Naive.RunError, 100, "       "))
	p("   (a backend that only takes tensors would otherwise fail at run time, inside itself)\n\n")

	p("3. seam lowers the cut under each policy, so every module obeys %s's contract\n", Backend)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "   policy\tmodules\tsymbolic placeholders\twhat crossed the cut\tdropped\tmax |diff|\tmedian")
	var refused []PolicyResult
	for _, pr := range r.Policies {
		if pr.Refusal != "" {
			fmt.Fprintf(tw, "   %s\t-\t-\trefused, see below\t\t\t\n", pr.Policy)
			refused = append(refused, pr)
			continue
		}
		symb := "none"
		if len(pr.Symbolic) > 0 {
			symb = strings.Join(pr.Symbolic, ", ")
		}
		fmt.Fprintf(tw, "   %s\t%d\t%s\t%s\t%d nodes\t%.2g\t%s\n", pr.Policy, pr.Modules, symb, crossingText(pr), len(pr.Dropped),
			pr.Timing.MaxAbsDiff, durationOrErr(pr.Timing))
	}
	tw.Flush()
	for _, pr := range refused {
		p("   %s refuses: %s\n", pr.Policy, wrap(pr.Refusal, 100, "       "))
	}
	p("\n")
	if r.Auto != nil {
		rep := r.Policies[0].Report
		p("   The default policy's modules and what %s receives:\n", Backend)
		for _, m := range rep.Modules {
			var ins []string
			for _, in := range m.Inputs {
				if in.Kind == "user_input" {
					ins = append(ins, in.Name+" "+in.Annotation)
				}
			}
			p("       %s (%d nodes): %s\n", m.Name, len(m.Nodes), short(strings.Join(ins, ", "), 110))
		}
		for _, c := range rep.Crossings {
			p("       %s = %s: %s into %s (%s)\n", c.Value, c.Expr, c.Policy, c.To, c.Detail)
		}
		p("\n")
	}
	p("4. Original and lowered (default policy) programs on the same input (%s, sequence length 128)\n", Case)
	p("       original: max |diff| from PyTorch %.2g, median %s\n", r.Original.MaxAbsDiff, durationOrErr(r.Original))
	if len(r.Policies) > 0 && r.Policies[0].Refusal == "" {
		a := r.Policies[0].Timing
		p("       lowered:  max |diff| from PyTorch %.2g, median %s\n", a.MaxAbsDiff, durationOrErr(a))
	}
	p("\nNext: seam partition MODEL.pt2 --backend %s --html cut.html, seam lower ... -o low.pt2, seam run low.pt2 ...\n", Backend)
	return nil
}

func crossingText(pr PolicyResult) string {
	var parts []string
	for _, k := range sortedKeys(pr.Crossings) {
		parts = append(parts, fmt.Sprintf("%s ×%d", k, pr.Crossings[k]))
	}
	if len(pr.Boxes) > 0 {
		parts = append(parts, fmt.Sprintf("(%d i64[] box inputs)", len(pr.Boxes)))
	}
	if len(parts) == 0 {
		return "nothing symbolic"
	}
	return strings.Join(parts, ", ")
}

func durationOrErr(t Timing) string {
	if t.Err != "" {
		return "error: " + t.Err
	}
	return fmt.Sprintf("%.2f ms", float64(t.Median.Microseconds())/1000)
}

func short(s string, n int) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) <= n {
		return s
	}
	return s[:n-3] + "..."
}

func wrap(s string, width int, indent string) string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		if len(line)+len(word)+1 > width && line != "" {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	if line != "" {
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n"+indent)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
