package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/seam-rt/seam/bench"
	"github.com/seam-rt/seam/fixtures"
)

func benchCmd() *cobra.Command {
	var fixturesDir, torchTools string
	var minTime time.Duration
	var threads, rounds int
	var models []string
	cmd := &cobra.Command{
		Use:   "bench run|gemm|partition",
		Short: "Time seam beside PyTorch: running the fixtures, and partitioning",
		Long: "bench run times every fixture's reference case and prints it beside PyTorch's\n" +
			"figures for the same graph; bench partition times the partitioner on gpt2_l12\n" +
			"(stress rule), dag_16000 and generated DAGs of 100,000 and 1,000,000 nodes beside\n" +
			"torch.fx's. Recorded torch figures are always shown; --torch DIR (the folder of\n" +
			"torch_run.py) also measures PyTorch here, side by side.",
	}
	cmd.PersistentFlags().StringVar(&fixturesDir, "fixtures", "", "the fixtures folder (default: the source tree's, else ../shared/fixtures)")
	cmd.PersistentFlags().StringVar(&torchTools, "torch", "", "folder of the PyTorch reference scripts, to measure torch here too")
	cmd.PersistentFlags().DurationVar(&minTime, "time", time.Second, "minimum time to spend on each case")
	root := func() (string, error) {
		for _, d := range []string{fixturesDir, fixtures.Dir(), "../shared/fixtures"} {
			if d == "" {
				continue
			}
			if _, err := os.Stat(filepath.Join(d, "models")); err == nil {
				return d, nil
			}
			if d == fixturesDir {
				return "", fmt.Errorf("%s has no models folder", d)
			}
		}
		return "", fmt.Errorf("no fixtures folder found: give --fixtures")
	}
	run := &cobra.Command{
		Use:   "run",
		Short: "Time the fixtures' reference cases beside ONNX Runtime and PyTorch",
		Long: "bench run times every fixture's reference case on one thread, in --rounds interleaved\n" +
			"rounds: seam, then (with --torch DIR) ONNX Runtime on the graph exported to ONNX, then\n" +
			"seam on --threads goroutines when above 1; torch_run.py once at the end. Run it under\n" +
			"taskset -c 0 for one-core figures (the scripts it starts inherit the core).",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := root()
			if err != nil {
				return err
			}
			o := bench.RunOptions{Tools: torchTools, Threads: threads, Rounds: rounds, MinRuns: 20, MinTime: minTime, Models: models}
			return bench.WriteRuns(cmd.OutOrStdout(), bench.Runs(dir, o))
		},
	}
	run.Flags().IntVar(&threads, "threads", 0, "also time seam on this many goroutines (0 or 1: one thread only)")
	run.Flags().IntVar(&rounds, "rounds", 3, "interleaved rounds per case")
	run.Flags().StringSliceVar(&models, "model", nil, "time only these programs' cases (repeat or comma-separate)")
	cmd.AddCommand(run)
	var gemmThreads int
	gemmCmd := &cobra.Command{
		Use:   "gemm",
		Short: "Time the float32 matrix kernel beside OpenBLAS (through torch.mm), and on several goroutines",
		Long: "bench gemm times seam's Sgemm on square and transformer shapes on one thread, in\n" +
			"--rounds interleaved rounds with OpenBLAS through torch 1.13's torch.mm (with --torch DIR,\n" +
			"the folder of anchor_env.py), then a 1024² product on one goroutine and on --threads.\n" +
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
	cmd.AddCommand(&cobra.Command{
		Use:   "partition",
		Short: "Time the partitioner beside torch.fx's CapabilityBasedPartitioner",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := root()
			if err != nil {
				return err
			}
			cases, err := bench.PartitionCases(dir)
			if err != nil {
				return err
			}
			var rs []bench.PartitionResult
			for _, c := range cases {
				r := bench.TimePartition(c, 5, minTime)
				if torchTools != "" && r.Err == "" {
					if d, n, err := bench.TorchPartition(torchTools, c); err == nil {
						r.TorchLive, r.TorchParts = d, n
					}
				}
				rs = append(rs, r)
			}
			return bench.WritePartitions(cmd.OutOrStdout(), rs)
		},
	})
	return cmd
}
