package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/bench"
	"github.com/seam-rt/seam/fixtures"
)

func benchCmd() *cobra.Command {
	var fixturesDir, torchTools string
	var minTime time.Duration
	var asJSON bool
	var threads, rounds int
	var models []string
	cmd := &cobra.Command{
		Use:   "bench run|gemm|partition",
		Short: "Time seam beside ONNX Runtime and PyTorch: running programs, the matrix kernel, and partitioning",
		Long: "bench run times every fixture's reference case and prints it beside PyTorch's\n" +
			"figures for the same graph; bench run MODEL.pt2 --case DIR ... times your own\n" +
			"program on your cases. bench partition times the partitioner on gpt2_l12 (stress\n" +
			"rule), dag_16000 and generated DAGs of 100,000 and 1,000,000 nodes beside\n" +
			"torch.fx's; bench partition MODEL.pt2 --backend B times it on your program.\n" +
			"Recorded torch figures are always shown; --torch DIR (the folder of torch_run.py)\n" +
			"also measures PyTorch here, side by side. A row that fails is named on stderr and\n" +
			"makes the exit status 1. --json prints the rows as one JSON document.",
	}
	cmd.PersistentFlags().StringVar(&fixturesDir, "fixtures", "", "the fixtures folder (default: the source tree's, else ../shared/fixtures)")
	cmd.PersistentFlags().StringVar(&torchTools, "torch", "", "folder of the PyTorch reference scripts, to measure torch here too")
	cmd.PersistentFlags().DurationVar(&minTime, "time", time.Second, "minimum time to spend on each case")
	cmd.PersistentFlags().BoolVar(&asJSON, "json", false, "print the rows as one JSON document")
	root := func() (string, error) {
		for _, d := range []string{fixturesDir, fixtures.Dir(), "../shared/fixtures"} {
			if d == "" {
				continue
			}
			if _, err := os.Stat(filepath.Join(d, "models")); err == nil {
				return d, nil
			}
			if d == fixturesDir {
				return "", fmt.Errorf("--fixtures %s has no models folder", d)
			}
		}
		return "", fmt.Errorf("no fixtures folder found: give --fixtures")
	}
	check := func() error {
		if minTime < 0 {
			return fmt.Errorf("--time %v: want a duration of 0 or more", minTime)
		}
		if torchTools != "" {
			if st, err := os.Stat(torchTools); err != nil || !st.IsDir() {
				return fmt.Errorf("--torch %s: no such folder", torchTools)
			}
		}
		return nil
	}

	var caseDirs []string
	run := &cobra.Command{
		Use:   "run [MODEL.pt2 --case DIR [--case DIR ...]]",
		Short: "Time the fixtures' reference cases (or a program's cases) beside ONNX Runtime and PyTorch",
		Long: "bench run times every fixture's reference case (or MODEL.pt2 on its --case folders) on one\n" +
			"thread, in --rounds interleaved rounds: seam, and (with --torch DIR) in turns of 20 ms with it\n" +
			"ONNX Runtime on the graph exported to ONNX (a node process making its session as ort_run.js does),\n" +
			"then (when ONNX Runtime loads) ONNX Runtime in this process on one thread running\n" +
			"seam's own export of the program, then seam on --threads goroutines when above 1 (on one, on\n" +
			"--threads as the program chooses, and with every run split, in turns of 20 ms); torch_run.py\n" +
			"once at the end.\n" +
			"Run it under taskset -c 0 for one-core figures (the scripts it starts inherit the core).",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := check(); err != nil {
				return err
			}
			o := bench.RunOptions{Tools: torchTools, Threads: threads, Rounds: rounds, MinRuns: 20, MinTime: minTime, Models: models}
			var rs []bench.RunResult
			if len(args) == 1 {
				if fixturesDir != "" {
					return fmt.Errorf("--fixtures times the fixtures: give it or a MODEL.pt2, not both")
				}
				if len(caseDirs) == 0 {
					return fmt.Errorf("give the cases to time %s on with --case DIR (DIR/in_*.npy)", args[0])
				}
				// A program that cannot be read is the input's fault, not a
				// row that failed.
				a, _, err := openProgram(args[0])
				if err != nil {
					return err
				}
				a.Close()
				for _, dir := range caseDirs {
					if _, err := readCaseDir(dir); err != nil {
						return err
					}
				}
				rs = bench.ModelRuns(args[0], caseDirs, o)
			} else {
				if len(caseDirs) > 0 {
					return fmt.Errorf("--case goes with a MODEL.pt2: seam bench run MODEL.pt2 --case DIR")
				}
				dir, err := root()
				if err != nil {
					return err
				}
				rs = bench.Runs(dir, o)
			}
			failed := 0
			for _, r := range rs {
				if r.Err != "" {
					failed++
					fmt.Fprintf(cmd.ErrOrStderr(), "seam: bench run: %s %s failed: %s\n", r.Model, r.Case, r.Err)
				}
			}
			if asJSON {
				if err := writeJSON(cmd.OutOrStdout(), runRows(rs, failed)); err != nil {
					return err
				}
			} else if err := bench.WriteRuns(cmd.OutOrStdout(), rs); err != nil {
				return err
			}
			if failed > 0 {
				return exitError{exitFailed}
			}
			return nil
		},
	}
	run.Flags().StringArrayVar(&caseDirs, "case", nil, "a case folder of MODEL.pt2 to time (DIR/in_*.npy); repeatable")
	run.Flags().IntVar(&threads, "threads", 0, "also time seam on this many goroutines (0 or 1: one thread only)")
	run.Flags().IntVar(&rounds, "rounds", 3, "interleaved rounds per case")
	run.Flags().StringSliceVar(&models, "model", nil, "time only these programs' cases (repeat or comma-separate)")
	cmd.AddCommand(run)
	var gemmThreads int
	gemmCmd := &cobra.Command{
		Use:   "gemm",
		Short: "Time the float32 matrix kernel beside OpenBLAS (through torch.mm), and on several goroutines",
		Long: "bench gemm times seam's Sgemm on square and transformer shapes on one thread in --rounds\n" +
			"rounds, and with --torch DIR (the folder of anchor_env.py) OpenBLAS through torch 1.13's\n" +
			"torch.mm in turns of 50 ms with it, then a 1024² product on one goroutine and on --threads.\n" +
			"Run it under taskset -c 0 for the one-thread figures, unpinned for the threads'.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if torchTools != "" {
				if err := bench.CheckTools(torchTools); err != nil {
					return err
				}
			}
			w := cmd.OutOrStdout()
			if gemmThreads <= 1 {
				rs, err := bench.Gemms(torchTools, rounds, minTime)
				if err != nil {
					return err
				}
				return bench.WriteGemms(w, rs)
			}
			one, many, fastOne, fastMany, speedup := bench.GemmThreads(gemmThreads, rounds, minTime)
			msec := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1e3 }
			_, err := fmt.Fprintf(w, "square-1024 on %d goroutines: %.2fx (median over %d interleaved rounds: %.2f ms on one, %.2f ms on %d); fastest runs %.2fx (%.2f ms, %.2f ms)\n",
				gemmThreads, speedup, rounds, msec(one), msec(many), gemmThreads, float64(fastOne)/float64(fastMany), msec(fastOne), msec(fastMany))
			return err
		},
	}
	gemmCmd.Flags().IntVar(&rounds, "rounds", 3, "interleaved rounds")
	gemmCmd.Flags().IntVar(&gemmThreads, "threads", 0, "time the 1024² product on one goroutine and on this many instead")
	cmd.AddCommand(gemmCmd)

	var backendName string
	part := &cobra.Command{
		Use:   "partition [MODEL.pt2 --backend NAME|FILE]",
		Short: "Time the partitioner beside torch.fx's CapabilityBasedPartitioner (or on a program)",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := check(); err != nil {
				return err
			}
			var cases []*bench.PartitionCase
			if len(args) == 1 {
				if fixturesDir != "" {
					return fmt.Errorf("--fixtures times the fixtures: give it or a MODEL.pt2, not both")
				}
				if backendName == "" {
					return fmt.Errorf("give the backend to partition %s for with --backend NAME|FILE", args[0])
				}
				prof, err := backend.Resolve(backendName)
				if err != nil {
					return err
				}
				c, err := bench.ProfileCase(args[0], prof)
				if err != nil {
					return err
				}
				cases = append(cases, c)
			} else {
				if backendName != "" {
					return fmt.Errorf("--backend goes with a MODEL.pt2: seam bench partition MODEL.pt2 --backend B")
				}
				dir, err := root()
				if err != nil {
					return err
				}
				if cases, err = bench.PartitionCases(dir); err != nil {
					return err
				}
			}
			var rs []bench.PartitionResult
			failed := 0
			for _, c := range cases {
				r := bench.TimePartition(c, 5, minTime)
				if torchTools != "" && r.Err == "" {
					if d, n, err := bench.TorchPartition(torchTools, c); err == nil {
						r.TorchLive, r.TorchParts = d, n
					}
				}
				if r.Err != "" {
					failed++
					fmt.Fprintf(cmd.ErrOrStderr(), "seam: bench partition: %s failed: %s\n", r.Name, r.Err)
				}
				rs = append(rs, r)
			}
			if asJSON {
				if err := writeJSON(cmd.OutOrStdout(), partitionRows(rs, failed)); err != nil {
					return err
				}
			} else if err := bench.WritePartitions(cmd.OutOrStdout(), rs); err != nil {
				return err
			}
			if failed > 0 {
				return exitError{exitFailed}
			}
			return nil
		},
	}
	part.Flags().StringVar(&backendName, "backend", "", "the backend profile to partition MODEL.pt2 for: a built-in name or a profile file")
	cmd.AddCommand(part)
	return cmd
}

// ms is a duration in milliseconds for JSON, nil when not measured.
func msOrNil(d time.Duration) *float64 {
	if d <= 0 {
		return nil
	}
	return ptr(float64(d.Nanoseconds()) / 1e6)
}

func recordedOrNil(v float64) *float64 {
	if v == 0 {
		return nil
	}
	return &v
}

// benchRuns is what bench run --json prints: a row per case.
type benchRuns struct {
	OK     bool          `json:"ok"`
	Failed int           `json:"failed"`
	Rows   []benchRunRow `json:"rows"`
}

// benchRunRow is one case: seam's figures (one thread, and every core),
// PyTorch's and ONNX Runtime's measured here with --torch, the recorded
// torch figures, and why the row failed. Times are in ms; null: not measured.
type benchRunRow struct {
	Model           string   `json:"model"`
	Case            string   `json:"case"`
	MedianMS        *float64 `json:"median_ms"`
	MinMS           *float64 `json:"min_ms"`
	Runs            int      `json:"runs"`
	Threads         int      `json:"threads,omitempty"`
	ThreadsOneMS    *float64 `json:"threads_one_median_ms"`
	ThreadsMS       *float64 `json:"threads_median_ms"`
	Speedup         *float64 `json:"threads_speedup"`
	SplitMS         *float64 `json:"threads_split_median_ms"`
	SplitSpeedup    *float64 `json:"threads_split_speedup"`
	ThreadsChosen   *int     `json:"threads_chosen_rounds"`
	ThreadRounds    int      `json:"threads_rounds,omitempty"`
	OrtRatio        *float64 `json:"seam_over_onnxruntime"`
	TorchHereMS     *float64 `json:"torch_here_ms"`
	OrtHereMS       *float64 `json:"onnxruntime_here_ms"`
	OrtSeamMS       *float64 `json:"onnxruntime_seam_export_ms"`
	OrtSeamMinMS    *float64 `json:"onnxruntime_seam_export_min_ms"`
	OrtSeamRatio    *float64 `json:"seam_over_onnxruntime_seam_export"`
	OrtSeamError    string   `json:"onnxruntime_seam_export_error,omitempty"`
	TorchOpenBLASMS *float64 `json:"torch_openblas_recorded_ms"`
	TorchGenericMS  *float64 `json:"torch_generic_blas_recorded_ms"`
	Error           string   `json:"error,omitempty"`
}

// roundsOrNil is n, or null where no round was timed on several threads.
func roundsOrNil(n, rounds int) *int {
	if rounds == 0 {
		return nil
	}
	return &n
}

func runRows(rs []bench.RunResult, failed int) benchRuns {
	out := benchRuns{OK: failed == 0, Failed: failed, Rows: []benchRunRow{}}
	for _, r := range rs {
		out.Rows = append(out.Rows, benchRunRow{Model: r.Model, Case: r.Case, MedianMS: msOrNil(r.Median), MinMS: msOrNil(r.Min), Runs: r.Runs,
			Threads: r.Threads, ThreadsOneMS: msOrNil(r.ThreadsOne), ThreadsMS: msOrNil(r.ThreadsMedian), Speedup: recordedOrNil(r.Speedup), SplitMS: msOrNil(r.SplitMedian), SplitSpeedup: recordedOrNil(r.SplitSpeedup),
			ThreadsChosen: roundsOrNil(r.ThreadsChosen, r.ThreadRounds), ThreadRounds: r.ThreadRounds, OrtRatio: recordedOrNil(r.OrtRatio), TorchHereMS: msOrNil(r.TorchLive), OrtHereMS: msOrNil(r.OrtLive),
			OrtSeamMS: msOrNil(r.OrtSeam), OrtSeamMinMS: msOrNil(r.OrtSeamMin), OrtSeamRatio: recordedOrNil(r.OrtSeamRatio), OrtSeamError: r.OrtSeamErr,
			TorchOpenBLASMS: recordedOrNil(r.TorchOpenBLAS), TorchGenericMS: recordedOrNil(r.TorchGeneric), Error: r.Err})
	}
	return out
}

// benchPartitions is what bench partition --json prints: a row per graph.
type benchPartitions struct {
	OK     bool                `json:"ok"`
	Failed int                 `json:"failed"`
	Rows   []benchPartitionRow `json:"rows"`
}

type benchPartitionRow struct {
	Graph      string   `json:"graph"`
	Nodes      int      `json:"nodes"`
	MedianMS   *float64 `json:"median_ms"`
	Runs       int      `json:"runs"`
	Partitions int      `json:"partitions"`
	// TorchFXMS is torch.fx's recorded time, TorchWhere where it was taken;
	// TorchHereMS and TorchHerePartitions measured here with --torch.
	TorchFXMS           *float64 `json:"torch_fx_recorded_ms"`
	TorchWhere          string   `json:"torch_where,omitempty"`
	TorchHereMS         *float64 `json:"torch_here_ms"`
	TorchHerePartitions int      `json:"torch_here_partitions,omitempty"`
	Error               string   `json:"error,omitempty"`
}

func partitionRows(rs []bench.PartitionResult, failed int) benchPartitions {
	out := benchPartitions{OK: failed == 0, Failed: failed, Rows: []benchPartitionRow{}}
	for _, r := range rs {
		out.Rows = append(out.Rows, benchPartitionRow{Graph: r.Name, Nodes: r.Nodes, MedianMS: msOrNil(r.Median), Runs: r.Runs,
			Partitions: r.Partitions, TorchFXMS: msOrNil(r.Torch), TorchWhere: r.TorchWhere, TorchHereMS: msOrNil(r.TorchLive),
			TorchHerePartitions: r.TorchParts, Error: r.Err})
	}
	return out
}
