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

// WriteRuns prints run timings, ratios first: seam on one thread over
// ONNX Runtime and torch (below 1 means seam is faster), then the figures
// themselves, then seam on several goroutines when measured. Without live
// torch figures, the recorded ones stand in.
func WriteRuns(w io.Writer, rs []RunResult) error {
	live, threads, seamExport := false, 0, false
	for _, r := range rs {
		live = live || r.OrtLive > 0 || r.TorchLive > 0
		threads = max(threads, r.Threads)
		seamExport = seamExport || r.OrtSeam > 0
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	head := "model\tcase\t"
	switch {
	case threads > 0:
		head += fmt.Sprintf("speedup\tfastest/fastest\tseam 1 thread\tseam %d threads\tfastest 1\tfastest %d\tchose %d\tevery run split\tits speedup\t", threads, threads, threads)
	case live:
		head += "seam/ORT\tfastest/fastest\tseam/torch\tseam\tONNX Runtime\ttorch\tseam fastest\tORT fastest\tONNX by\t"
	default:
		head += "seam\tseam fastest\ttorch+OpenBLAS\tratio\ttorch generic BLAS\tratio\t"
	}
	if seamExport {
		head += "seam/ORT on seam's export\tORT on seam's export\tits fastest\t"
	}
	fmt.Fprintln(tw, head+"runs\t")
	dur := func(d time.Duration) string {
		if d <= 0 {
			return "-"
		}
		return ms(d)
	}
	x := func(v float64) string {
		if v <= 0 || v != v {
			return "-"
		}
		return fmt.Sprintf("%.2fx", v)
	}
	over := func(a, b time.Duration) float64 {
		if a <= 0 || b <= 0 {
			return 0
		}
		return float64(a) / float64(b)
	}
	for _, r := range rs {
		if r.Err != "" && r.Median == 0 {
			fmt.Fprintf(tw, "%s\t%s\terror: %s\t\n", r.Model, r.Case, r.Err)
			continue
		}
		row := fmt.Sprintf("%s\t%s\t", r.Model, r.Case)
		switch {
		case threads > 0:
			chose := "-"
			if r.ThreadRounds > 0 {
				chose = fmt.Sprintf("%d/%d", r.ThreadsChosen, r.ThreadRounds)
			}
			row += fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t", x(r.Speedup), x(over(r.ThreadsOneMin, r.ThreadsMin)), dur(r.ThreadsOne), dur(r.ThreadsMedian),
				dur(r.ThreadsOneMin), dur(r.ThreadsMin), chose, dur(r.SplitMedian), x(r.SplitSpeedup))
		case live:
			anchor := r.Anchor
			if anchor == "" {
				anchor = "-"
			}
			row += fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t", x(r.OrtRatio), x(over(r.Min, r.OrtMin)), x(over(r.Median, r.TorchLive)),
				ms(r.Median), dur(r.OrtLive), dur(r.TorchLive), ms(r.Min), dur(r.OrtMin), anchor)
		default:
			ref := func(v float64) string {
				if v == 0 {
					return "-"
				}
				return fmt.Sprintf("%.2f ms", v)
			}
			row += fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t%s\t", ms(r.Median), ms(r.Min), ref(r.TorchOpenBLAS), ratio(r.Median, r.TorchOpenBLAS),
				ref(r.TorchGeneric), ratio(r.Median, r.TorchGeneric))
		}
		if seamExport {
			row += fmt.Sprintf("%s\t%s\t%s\t", x(r.OrtSeamRatio), dur(r.OrtSeam), dur(r.OrtSeamMin))
		}
		fmt.Fprintln(tw, row+fmt.Sprintf("%d\t", r.Runs))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range rs {
		if r.Err != "" && r.Median > 0 {
			fmt.Fprintf(w, "note: %s %s: %s\n", r.Model, r.Case, r.Err)
		}
		if r.OrtSeamErr != "" {
			fmt.Fprintf(w, "note: %s %s: no ONNX Runtime figure on seam's export: %s\n", r.Model, r.Case, r.OrtSeamErr)
		}
	}
	note := "\nseam/ORT is the median over interleaved rounds of seam's median on one thread over ONNX Runtime's\n" +
		"(one thread, all graph optimisations, on the graph exported to ONNX, its session made as ort_run.js\n" +
		fmt.Sprintf("makes it), the two timed in turns of %v within a round so that a drift in the machine's speed\n", turnFor) +
		"falls on both; fastest/fastest compares the fastest runs, the figure least disturbed by other jobs.\n" +
		"Below 1: seam is faster."
	switch {
	case threads > 0:
		note = fmt.Sprintf("\nspeedup is the median over interleaved rounds of seam's median on one thread over its median on %d,\n"+
			"the ways timed in turns of %v within a round so that a drift in the machine's speed falls on all;\n"+
			"fastest/fastest compares the fastest runs (above 1: more threads are faster). On %d a program times its\n"+
			"first runs on one thread and on %d and keeps the faster (timed after it has chosen; chose %d says in how\n"+
			"many rounds it kept %d); every run split is the median with each run split (--fixed-threads), and its\n"+
			"speedup the same ratio for it.", threads, turnFor, threads, threads, threads, threads)
	case !live:
		note = "\nrecorded torch figures: shared/tools/README.md (torch 1.13); --torch DIR measures torch and ONNX Runtime here."
	}
	if seamExport {
		note += "\nseam/ORT on seam's export is the median over interleaved rounds of seam's median on one thread over\n" +
			"ONNX Runtime's in this process (one intra-op and inter-op thread, all graph optimisations) running\n" +
			"seam's own export of the program (seam export onnx, symbolic sizes), its inputs' symbols bound and\n" +
			"checked first as the onnxruntime backend does. Below 1: seam is faster."
	}
	_, err := fmt.Fprintln(w, note)
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
