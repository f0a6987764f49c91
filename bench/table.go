package bench

import (
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"
	"time"
)

func ms(d time.Duration) string { return fmt.Sprintf("%.3f ms", float64(d.Nanoseconds())/1e6) }

func ratio(a time.Duration, b float64) string {
	if b == 0 || a == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2fx", float64(a.Nanoseconds())/1e6/b)
}

// WriteRuns prints run timings beside PyTorch's: ratios are seam / torch
// (below 1 means seam is faster).
func WriteRuns(w io.Writer, rs []RunResult) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "model\tcase\tseam/ORT\tseam/torch\tseam 1 thread\tONNX Runtime\ttorch here\tseam all threads\tseam min\truns\ttorch+OpenBLAS\tratio\ttorch generic BLAS\tratio\t")
	for _, r := range rs {
		if r.Err != "" && r.Median == 0 {
			fmt.Fprintf(tw, "%s\t%s\terror: %s\t\t\t\t\t\t\t\t\t\t\t\t\n", r.Model, r.Case, r.Err)
			continue
		}
		ref := func(v float64) string {
			if v == 0 {
				return "-"
			}
			return fmt.Sprintf("%.2f ms", v)
		}
		live := func(d time.Duration) (string, string) {
			if d <= 0 {
				return "-", "-"
			}
			return ms(d), ratio(r.Median, float64(d.Nanoseconds())/1e6)
		}
		torch, torchRatio := live(r.TorchLive)
		ort, ortRatio := live(r.OrtLive)
		all := "-"
		if r.AllThreads > 0 {
			all = ms(r.AllThreads)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t\n", r.Model, r.Case, ortRatio, torchRatio,
			ms(r.Median), ort, torch, all, ms(r.Min), r.Runs,
			ref(r.TorchOpenBLAS), ratio(r.Median, r.TorchOpenBLAS), ref(r.TorchGeneric), ratio(r.Median, r.TorchGeneric))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, "\nratios are seam on one thread / the other (below 1: seam is faster); ONNX Runtime and 'torch here' are\n"+
		"measured with --torch (one thread each); recorded torch figures: shared/tools/README.md (torch 1.13).")
	return err
}

// PartitionCases builds the cases the issue names: gpt2_l12 with the
// stress rule, dag_16000, and generated DAGs of 100,000 and 1,000,000 nodes.
func PartitionCases(root string) ([]*PartitionCase, error) {
	gpt2, err := ModelCase(filepath.Join(root, "models", "gpt2_l12", "model.pt2"), 2080*time.Millisecond, "torch 2.11, 16-core Xeon")
	if err != nil {
		return nil, err
	}
	dag, err := DAGCase(filepath.Join(root, "synthetic", "dag_16000.json"), 15500*time.Millisecond, "torch 1.13, 2-core dev machine")
	if err != nil {
		return nil, err
	}
	return []*PartitionCase{gpt2, dag, GeneratedCase(100_000), GeneratedCase(1_000_000)}, nil
}

// WritePartitions prints partitioning times beside torch.fx's, and the
// growth exponent fitted between the two generated graphs.
func WritePartitions(w io.Writer, rs []PartitionResult) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "graph\tnodes\tseam median\truns\tpartitions\ttorch.fx\tspeedup\twhere torch was timed\ttorch here\tpartitions\tspeedup\t")
	var gen []PartitionResult
	for _, r := range rs {
		if r.Err != "" {
			fmt.Fprintf(tw, "%s\t%d\terror: %s\t\t\t\t\t\t\n", r.Name, r.Nodes, r.Err)
			continue
		}
		torch, speed := "-", "-"
		if r.Torch > 0 {
			torch = fmt.Sprintf("%.2f s", r.Torch.Seconds())
			speed = fmt.Sprintf("%.0fx", float64(r.Torch)/float64(r.Median))
		}
		live, liveParts, liveSpeed := "-", "-", "-"
		if r.TorchLive > 0 {
			live = ms(r.TorchLive)
			liveParts = fmt.Sprint(r.TorchParts)
			liveSpeed = fmt.Sprintf("%.0fx", float64(r.TorchLive)/float64(r.Median))
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.Name, r.Nodes, ms(r.Median), r.Runs, r.Partitions,
			torch, speed, r.TorchWhere, live, liveParts, liveSpeed)
		if r.Torch == 0 {
			gen = append(gen, r)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(gen) == 2 {
		k := GrowthExponent(gen[0].Nodes, gen[0].Median, gen[1].Nodes, gen[1].Median)
		fmt.Fprintf(w, "\ngrowth from %d to %d nodes: time ∝ n^%.2f\n", gen[0].Nodes, gen[1].Nodes, k)
	}
	return nil
}
