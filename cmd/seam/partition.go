package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/seam-rt/seam/atomicfile"
	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/partition"
	"github.com/seam-rt/seam/report"
)

func partitionCmd() *cobra.Command {
	var (
		backendName string
		asJSON      bool
		dotFile     string
		htmlFile    string
		groups      []string
	)
	cmd := &cobra.Command{
		Use:   "partition MODEL.pt2 --backend NAME|FILE",
		Short: "Show how a backend would partition a program, and what crosses each cut",
		Long: "partition proposes the partitions a backend would run and prints, for each, its\n" +
			"nodes and the values crossing its boundary with their kinds and annotations\n" +
			"(symbolic inputs are marked with !), then the nodes left to the parent grouped\n" +
			"by reason. --dot and --html also write a picture; the HTML page is\n" +
			"self-contained. A full_graph backend that cannot take the whole graph is an\n" +
			"error listing the nodes it refuses.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if backendName == "" {
				return fmt.Errorf("--backend is required: a built-in profile name or a profile file")
			}
			prof, err := backend.Resolve(backendName)
			if err != nil {
				return err
			}
			a, p, err := openProgram(args[0])
			if err != nil {
				return err
			}
			defer a.Close()
			opt := partition.GraphOptions{}
			for _, g := range groups {
				opt.Groups = append(opt.Groups, strings.Split(g, ","))
			}
			plan, err := partition.ProposeProgram(p, prof, opt)
			if err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			r := report.Build(p, plan, report.Options{Model: args[0], Backend: prof.Name, Printer: printer()})
			if dotFile != "" {
				if err := atomicfile.Write(dotFile, r.WriteDOT); err != nil {
					return err
				}
			}
			if htmlFile != "" {
				err := atomicfile.Write(htmlFile, func(w io.Writer) error { return r.WriteHTML(w, report.HTMLOptions{}) })
				if err != nil {
					return err
				}
			}
			if asJSON {
				return r.WriteJSON(cmd.OutOrStdout())
			}
			return r.WriteText(cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&backendName, "backend", "", "backend profile: a built-in name or a JSON/YAML profile file")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	cmd.Flags().StringVar(&dotFile, "dot", "", "write the partitioned graph as Graphviz text to `FILE`")
	cmd.Flags().StringVar(&htmlFile, "html", "", "write a self-contained HTML report to `FILE`")
	cmd.Flags().StringArrayVar(&groups, "group", nil, "node names (comma-separated) that must stay together in one partition, or none of them delegated; repeatable")
	return cmd
}
