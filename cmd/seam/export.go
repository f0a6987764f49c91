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
			return writeExportSummary(cmd.OutOrStdout(), out, len(data), tr)
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "the ONNX file to write (required)")
	return cmd
}

// writeExportSummary says what was written: sizes, and the graph's inputs
// and outputs with their types.
func writeExportSummary(w io.Writer, path string, size int, tr *onnx.Translation) error {
	g := tr.Model.Graph
	nodes := 0
	var count func(g *onnx.Graph)
	count = func(g *onnx.Graph) {
		for _, n := range g.Nodes {
			nodes++
			for _, a := range n.Attrs {
				if a.G != nil {
					count(a.G)
				}
			}
		}
	}
	count(g)
	fmt.Fprintf(w, "wrote %s (%s): ONNX opset %d, %d nodes, %d initializers\n", path, byteSize(size), onnx.Opset, nodes, len(g.Initializers))
	describe := func(label string, vis []*onnx.ValueInfo, ports []onnx.Port) {
		for i, vi := range vis {
			role := ""
			if i < len(ports) && ports[i].Role == onnx.BufferState {
				role = " (buffer " + ports[i].Target + ")"
			}
			fmt.Fprintf(w, "  %s %s %s%s\n", label, vi.Name, typeText(vi.Type), role)
		}
	}
	describe("input ", g.Inputs, tr.Inputs)
	describe("output", g.Outputs, tr.Outputs)
	return nil
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
