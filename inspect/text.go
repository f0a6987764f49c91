package inspect

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/sym"
)

var inputOrder = []string{"parameter", "buffer", "tensor_constant", "custom_obj", "token", "constant_input", "user_input"}

var kindTitles = map[string]string{
	"parameter": "parameters", "buffer": "buffers", "tensor_constant": "constants",
	"custom_obj": "custom objects", "token": "tokens", "constant_input": "constant inputs",
	"user_input": "user inputs", "user_output": "user outputs", "buffer_mutation": "buffer mutations",
	"user_input_mutation": "user input mutations", "loss_output": "loss outputs",
	"gradient_to_parameter": "gradients to parameters", "gradient_to_user_input": "gradients to user inputs",
	"parameter_mutation": "parameter mutations",
}

// WriteText prints the summary for a person.
func (s *Summary) WriteText(w io.Writer, file string) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "%s: torch %s, schema %s, %d nodes%s, %s of weights\n", file, s.TorchVersion, s.SchemaVersion, s.Nodes, foldedNote(s.Getitems), HumanBytes(s.WeightBytes))
	fmt.Fprintln(tw, "\ninputs:")
	writeGroups(tw, s.Inputs, inputOrder)
	if len(s.Symbols) > 0 {
		fmt.Fprintln(tw, "\nsymbols:")
		for _, name := range ir.SortedKeys(s.Symbols) {
			sym := s.Symbols[name]
			src := strings.Join(sym.Sources, ", ")
			if src == "" {
				src = "(no input carries it)"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", name, RangeText(sym.Min, sym.Max), src)
		}
	}
	fmt.Fprintln(tw, "\noutputs:")
	var outKinds []string
	for _, v := range s.Outputs {
		if !slices.Contains(outKinds, v.Kind) {
			outKinds = append(outKinds, v.Kind)
		}
	}
	writeGroups(tw, s.Outputs, outKinds)
	fmt.Fprintf(tw, "\nops (%d kinds, %d nodes", len(s.Ops), s.Nodes)
	if s.Getitems > 0 {
		fmt.Fprintf(tw, ", not counting %d folded getitems", s.Getitems)
	}
	fmt.Fprintln(tw, "):")
	names := ir.SortedKeys(s.Ops)
	sort.SliceStable(names, func(i, j int) bool { return s.Ops[names[i]] > s.Ops[names[j]] })
	for _, op := range names {
		fmt.Fprintf(tw, "  %d\t%s\n", s.Ops[op], op)
	}
	for _, m := range s.Modules {
		backend := m.Backend
		if backend == "" {
			backend = "no delegate record"
		}
		compiled := ""
		if m.CompiledBytes > 0 {
			compiled = fmt.Sprintf(", compiled by the backend into %s", HumanBytes(m.CompiledBytes))
		}
		fmt.Fprintf(tw, "\nlowered module %s (backend %s): %d nodes, %s of weights%s\n", m.Name, backend, m.Nodes, HumanBytes(m.WeightBytes), compiled)
		fmt.Fprintln(tw, "  inputs:")
		writeGroups(tw, m.Inputs, inputOrder)
		fmt.Fprintln(tw, "  outputs:")
		writeGroups(tw, m.Outputs, []string{"buffer_mutation", "user_output"})
	}
	if len(s.Specializations) > 0 {
		fmt.Fprintf(tw, "\nspecializations (%d; any other binding runs the program above):\n", len(s.Specializations))
		for _, sp := range s.Specializations {
			mods := "no module"
			if len(sp.Modules) > 0 {
				mods = strings.Join(sp.Modules, ", ")
			}
			fmt.Fprintf(tw, "  %s\t%d nodes\tcalls %s\n", sym.Bindings(sp.Bind), sp.Nodes, mods)
		}
	}
	return tw.Flush()
}

// foldedNote says how many getitem nodes of torch.fx the node count leaves
// out, so that it can be matched against print_readable.
func foldedNote(getitems int) string {
	switch getitems {
	case 0:
		return ""
	case 1:
		return " (+1 getitem node that torch.fx shows, folded into the node that makes it)"
	}
	return fmt.Sprintf(" (+%d getitem nodes that torch.fx shows, folded into the nodes that make them)", getitems)
}

func writeGroups(tw io.Writer, vals []Value, order []string) {
	for _, kind := range order {
		var group []Value
		for _, v := range vals {
			if v.Kind == kind {
				group = append(group, v)
			}
		}
		if len(group) == 0 {
			continue
		}
		title := kindTitles[kind]
		if title == "" {
			title = kind
		}
		fmt.Fprintf(tw, "  %s (%d):\n", title, len(group))
		for _, v := range group {
			ann := v.Annotation
			if ann == "" {
				ann = v.Type
			}
			if v.Target != "" {
				fmt.Fprintf(tw, "    %s\t%s\t%s\n", v.Name, ann, v.Target)
			} else {
				fmt.Fprintf(tw, "    %s\t%s\n", v.Name, ann)
			}
		}
	}
}

// RangeText prints a range as PyTorch's ValueRanges does: [2, 200], with
// int_oo for an unbounded side.
func RangeText(min, max *int64) string {
	lo, hi := "-int_oo", "int_oo"
	if min != nil {
		lo = fmt.Sprint(*min)
	}
	if max != nil {
		hi = fmt.Sprint(*max)
	}
	return "[" + lo + ", " + hi + "]"
}

// HumanBytes prints a byte count with a binary unit.
func HumanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
