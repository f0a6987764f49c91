package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/pt2"
	"github.com/seam-rt/seam/specialize"
	"github.com/seam-rt/seam/sym"
	"github.com/seam-rt/seam/verify"
)

func specializeCmd() *cobra.Command {
	var binds []string
	var out string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "specialize MODEL.pt2 --bind SYMBOL=VALUE [--bind ...] -o STATIC.pt2",
		Short: "Write the program specialized to one binding of its symbols (static sizes)",
		Long: "specialize writes the program as it would have been exported with the given sizes\n" +
			"static, for backends that compile for static shapes: every size whose symbols are\n" +
			"bound becomes a number, sym_size and the Python scalar arithmetic on bound symbols are\n" +
			"folded away, asserts that become constant are checked once (a binding that fails one is\n" +
			"an error naming it), a cond whose predicate becomes constant is replaced by the branch\n" +
			"it takes, and the bound symbols' range constraints are removed. A SymInt user input\n" +
			"becomes a constant input: callers still pass it, and any other value is refused.\n\n" +
			"Only symbols the user inputs' sizes determine can be bound; a value outside the\n" +
			"symbol's range, an unknown symbol, or a symbol no input size tells on its own is an\n" +
			"error naming it. Symbols left unbound stay symbolic. `seam run` runs the result on\n" +
			"inputs of the bound sizes and refuses others, naming the input and the dim. The\n" +
			"archive's sample inputs (traced at other sizes) are not copied.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return fmt.Errorf("give the output file with -o STATIC.pt2")
			}
			if len(binds) == 0 {
				return fmt.Errorf("give at least one --bind SYMBOL=VALUE (seam inspect %s lists the symbols)", args[0])
			}
			bind := sym.Bindings{}
			for _, text := range binds {
				name, v, err := specialize.ParseBind(text)
				if err != nil {
					return err
				}
				if old, ok := bind[name]; ok && old != v {
					return fmt.Errorf("%s is bound twice, to %d and %d", name, old, v)
				}
				bind[name] = v
			}
			a, p, err := openProgram(args[0])
			if err != nil {
				return err
			}
			defer a.Close()
			if len(a.Programs) > 1 || len(a.Delegates) > 0 {
				return fmt.Errorf("%s is a lowered program: specialize the exported program, then lower it", args[0])
			}
			res, err := specialize.Program(p, bind)
			if err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			// A program seam writes must verify: refuse to write one that does not.
			if errs := verify.Errors(verify.Program(res.Program, verify.Options{})); len(errs) > 0 {
				lines := make([]string, len(errs))
				for i, v := range errs {
					lines[i] = v.String()
				}
				return &bugError{Msg: fmt.Sprintf("%s specialized to %s does not verify, so nothing was written:\n%s", args[0], specialize.String(bind), strings.Join(lines, "\n"))}
			}
			sa := &pt2.Archive{Programs: map[string]*ir.Program{pt2.MainModel: res.Program}, Extra: a.Extra}
			if err := pt2.WriteFile(out, sa); err != nil {
				return err
			}
			sum := summarizeSpecialization(args[0], out, p, res)
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), sum)
			}
			sum.writeText(cmd.OutOrStdout())
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&binds, "bind", nil, "a symbol's value, SYMBOL=VALUE (repeat the flag for each symbol)")
	cmd.Flags().StringVarP(&out, "output", "o", "", "the .pt2 file to write (required)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print what was written as one JSON document")
	return cmd
}

// specializeSummary is what specialize wrote (--json prints it).
type specializeSummary struct {
	Input  string       `json:"input"`
	Output string       `json:"output"`
	Bind   sym.Bindings `json:"bind"`
	// Inputs are the user inputs as the specialized program takes them:
	// an annotation, or a constant's value.
	Inputs      []specializedInput `json:"inputs"`
	NodesBefore int                `json:"nodes_before"`
	NodesAfter  int                `json:"nodes_after"`
	Folded      []string           `json:"folded"`
	Asserts     []string           `json:"asserts"`
	Inlined     []inlinedCond      `json:"conds_inlined"`
	// Free lists the symbols left symbolic.
	Free []string `json:"still_symbolic"`
}

type specializedInput struct {
	Name       string `json:"name"`
	Annotation string `json:"annotation,omitempty"`
	// Constant is a constant input's value, as Python writes it.
	Constant string `json:"constant,omitempty"`
}

type inlinedCond struct {
	Node   string `json:"node"`
	Branch string `json:"branch"`
}

func summarizeSpecialization(in, out string, before *ir.Program, res *specialize.Result) *specializeSummary {
	q := res.Program
	s := &specializeSummary{Input: in, Output: out, Bind: res.Bind, Inputs: []specializedInput{},
		NodesBefore: countNodes(before.Graph), NodesAfter: countNodes(q.Graph),
		Folded: nonNil(res.Folded), Asserts: nonNil(res.Asserts), Inlined: []inlinedCond{}, Free: nonNil(res.Free)}
	for i := range q.Signature.Inputs {
		switch spec := &q.Signature.Inputs[i]; spec.Kind {
		case ir.InputUser:
			s.Inputs = append(s.Inputs, specializedInput{Name: spec.Arg.Name, Annotation: printer().Annotation(q.Graph, spec.Arg.Name)})
		case ir.InputConstant:
			s.Inputs = append(s.Inputs, specializedInput{Name: spec.Name, Constant: constantText(spec.Arg)})
		}
	}
	for _, c := range res.Inlined {
		s.Inlined = append(s.Inlined, inlinedCond{Node: c.Node, Branch: c.Branch})
	}
	return s
}

func nonNil(list []string) []string {
	if list == nil {
		return []string{}
	}
	return list
}

// writeText says what was written: the binding, the user inputs as the
// specialized program takes them, and what was folded.
func (s *specializeSummary) writeText(w io.Writer) {
	fmt.Fprintf(w, "wrote %s: %s specialized to %s\n", s.Output, s.Input, specialize.String(s.Bind))
	for _, in := range s.Inputs {
		if in.Constant != "" {
			fmt.Fprintf(w, "  input %s: the constant %s (callers pass exactly this value)\n", in.Name, in.Constant)
		} else {
			fmt.Fprintf(w, "  input %s: %s\n", in.Name, in.Annotation)
		}
	}
	fmt.Fprintf(w, "  nodes: %d -> %d\n", s.NodesBefore, s.NodesAfter)
	fmt.Fprintf(w, "  folded scalar nodes (%d)%s\n", len(s.Folded), names(s.Folded))
	fmt.Fprintf(w, "  asserts checked once (%d)%s\n", len(s.Asserts), names(s.Asserts))
	var conds []string
	for _, c := range s.Inlined {
		conds = append(conds, fmt.Sprintf("%s took %s", c.Node, c.Branch))
	}
	fmt.Fprintf(w, "  conds inlined (%d)%s\n", len(conds), names(conds))
	if len(s.Free) > 0 {
		fmt.Fprintf(w, "  still symbolic: %s\n", strings.Join(s.Free, ", "))
	} else {
		fmt.Fprintln(w, "  every size is static")
	}
}

// names lists up to 8 names after a colon.
func names(list []string) string {
	if len(list) == 0 {
		return ""
	}
	if len(list) > 8 {
		return fmt.Sprintf(": %s and %d more", strings.Join(list[:8], ", "), len(list)-8)
	}
	return ": " + strings.Join(list, ", ")
}

func countNodes(g *ir.Graph) int {
	n := 0
	_ = g.Walk(func(_ string, g *ir.Graph) error {
		n += len(g.Nodes)
		return nil
	})
	return n
}

// constantText prints a constant input's value as Python would.
func constantText(a ir.Argument) string {
	switch a.Kind {
	case ir.ArgInt:
		return fmt.Sprint(a.Int)
	case ir.ArgFloat:
		return fmt.Sprint(a.Float)
	case ir.ArgBool:
		if a.Bool {
			return "True"
		}
		return "False"
	case ir.ArgString:
		return fmt.Sprintf("%q", a.Str)
	}
	return "None"
}
