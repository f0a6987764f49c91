package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/seam-rt/seam/atomicfile"
	"github.com/seam-rt/seam/onnx"
)

func exportCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "export FORMAT MODEL.pt2 -o OUT",
		Short: "Write a program in another format (onnx)",
	}
	cmd.AddCommand(exportONNXCmd())
	return cmd
}

func exportONNXCmd() *cobra.Command {
	var out string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "onnx MODEL.pt2 -o MODEL.onnx",
		Short: "Translate a whole program to ONNX (opset 18)",
		Long: "export onnx translates the program into an ONNX model, as the dynamo-based\n" +
			"torch.onnx exporter does. The graph's inputs are the user inputs in signature order\n" +
			"(a tensor's symbolic sizes become dim_params named by their symbols; a SymInt, SymBool\n" +
			"or SymFloat input is a rank-0 INT64, BOOL or FLOAT tensor), then one input per mutated\n" +
			"buffer, defaulting to its saved value; its outputs are the user outputs in order, then\n" +
			"each mutated buffer's new value. Weights are initializers named by their state-dict\n" +
			"names, sizes and scalar arithmetic are computed in the graph, cond is If. A program\n" +
			"with ops that have no translation is refused with every such node listed.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return fmt.Errorf("give the output file with -o MODEL.onnx")
			}
			a, p, err := openProgram(args[0])
			if err != nil {
				return err
			}
			defer a.Close()
			tr, err := onnx.Translate(p)
			if err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			data := tr.Model.Marshal()
			if err := atomicfile.WriteFile(out, data); err != nil {
				return err
			}
			sum := summarizeExport(out, len(data), tr)
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), sum)
			}
			sum.writeText(cmd.OutOrStdout())
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "the ONNX file to write (required)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print what was written as one JSON document")
	return cmd
}

// exportSummary is what export wrote (--json prints it).
type exportSummary struct {
	Output       string       `json:"output"`
	Bytes        int          `json:"bytes"`
	Opset        int          `json:"opset"`
	Nodes        int          `json:"nodes"`
	Initializers int          `json:"initializers"`
	Inputs       []exportPort `json:"inputs"`
	Outputs      []exportPort `json:"outputs"`
}

// exportPort is a graph input or output: its type, and the buffer it
// stands for when it is a mutated buffer's.
type exportPort struct {
	Name   string `json:"name"`
	Type   string `json:"type"`
	Buffer string `json:"buffer,omitempty"`
}

func summarizeExport(path string, size int, tr *onnx.Translation) *exportSummary {
	g := tr.Model.Graph
	s := &exportSummary{Output: path, Bytes: size, Opset: onnx.Opset, Initializers: len(g.Initializers)}
	var count func(g *onnx.Graph)
	count = func(g *onnx.Graph) {
		for _, n := range g.Nodes {
			s.Nodes++
			for _, a := range n.Attrs {
				if a.G != nil {
					count(a.G)
				}
			}
		}
	}
	count(g)
	ports := func(vis []*onnx.ValueInfo, roles []onnx.Port) []exportPort {
		out := []exportPort{}
		for i, vi := range vis {
			p := exportPort{Name: vi.Name, Type: typeText(vi.Type)}
			if i < len(roles) && roles[i].Role == onnx.BufferState {
				p.Buffer = roles[i].Target
			}
			out = append(out, p)
		}
		return out
	}
	s.Inputs, s.Outputs = ports(g.Inputs, tr.Inputs), ports(g.Outputs, tr.Outputs)
	return s
}

// writeText says what was written: sizes, and the graph's inputs and
// outputs with their types.
func (s *exportSummary) writeText(w io.Writer) {
	fmt.Fprintf(w, "wrote %s (%s): ONNX opset %d, %d nodes, %d initializers\n", s.Output, byteSize(s.Bytes), s.Opset, s.Nodes, s.Initializers)
	describe := func(label string, ports []exportPort) {
		for _, p := range ports {
			role := ""
			if p.Buffer != "" {
				role = " (buffer " + p.Buffer + ")"
			}
			fmt.Fprintf(w, "  %s %s %s%s\n", label, p.Name, p.Type, role)
		}
	}
	describe("input ", s.Inputs)
	describe("output", s.Outputs)
}

func typeText(t *onnx.TensorType) string {
	if t == nil {
		return "?"
	}
	dims := make([]string, len(t.Shape))
	for i, d := range t.Shape {
		dims[i] = d.String()
	}
	return fmt.Sprintf("%s[%s]", t.ElemType, strings.Join(dims, ", "))
}

func byteSize(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
