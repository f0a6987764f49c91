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
	cmd := &cobra.Command{
		Use:   "bench run|partition",
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
	cmd.AddCommand(&cobra.Command{
		Use:   "run",
		Short: "Time the fixtures' reference cases beside PyTorch",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := root()
			if err != nil {
				return err
			}
			return bench.WriteRuns(cmd.OutOrStdout(), bench.Runs(dir, torchTools, 20, minTime))
		},
	})
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
