package backend

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// Contract sums up a profile's placeholder contract in a line:
// "sym_int refuse, sym_bool refuse, sym_float refuse".
func (p *Profile) Contract() string {
	return fmt.Sprintf("sym_int %s, sym_bool %s, sym_float %s", p.Placeholders.SymInt, p.Placeholders.SymBool, p.Placeholders.SymFloat)
}

// DTypesText lists the accepted dtypes, or "all".
func (p *Profile) DTypesText() string {
	if len(p.DTypes) == 0 {
		return "all"
	}
	names := make([]string, len(p.DTypes))
	for i, t := range p.DTypes {
		names[i] = t.Short()
	}
	return strings.Join(names, " ")
}

// maxListedOps is the longest op list the table prints in full.
const maxListedOps = 16

// WriteTable lists profiles with their contracts, one block per profile.
func WriteTable(w io.Writer, profiles []*Profile) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for i, p := range profiles {
		if i > 0 {
			fmt.Fprintln(tw)
		}
		fmt.Fprintf(tw, "%s\t%s\n", p.Name, p.Description)
		if err := Available(p.Name); err != nil {
			fmt.Fprintf(tw, "  available\tno: %s\n", strings.Join(strings.Fields(err.Error()), " "))
		}
		ops := "include " + strings.Join(p.Ops.Include, " ")
		if len(p.Ops.Include) > maxListedOps {
			ops = fmt.Sprintf("include %d ops (seam backends %s --json lists them)", len(p.Ops.Include), p.Name)
		}
		if len(p.Ops.Exclude) > 0 {
			ops += "; exclude " + strings.Join(p.Ops.Exclude, " ")
		}
		fmt.Fprintf(tw, "  ops\t%s\n", ops)
		fmt.Fprintf(tw, "  placeholders\t%s\n", p.Contract())
		fmt.Fprintf(tw, "  dtypes\t%s\n", p.DTypesText())
		fmt.Fprintf(tw, "  shapes\t%s\n", map[bool]string{true: "dynamic allowed", false: "static only"}[p.DynamicShapes])
		fmt.Fprintf(tw, "  partitions\tsingle-node %s, full graph %s\n", yesNo(p.SingleNodePartitions), yesNo(p.FullGraph))
		fmt.Fprintf(tw, "  ownership\tweights %s, mutable buffers %s\n", yesNo(p.OwnsWeights), yesNo(p.OwnsBuffers))
	}
	return tw.Flush()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
