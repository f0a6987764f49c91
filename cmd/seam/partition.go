package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/seam-rt/seam/atomicfile"
	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/lower"
	"github.com/seam-rt/seam/partition"
	"github.com/seam-rt/seam/pt2"
	"github.com/seam-rt/seam/report"
)

func partitionCmd() *cobra.Command {
	var (
		backendName string
		asJSON      bool
		dotFile     string
		htmlFile    string
		groups      []string
		policyName  string
		etTags      bool
		collapse    int
	)
	cmd := &cobra.Command{
		Use:   "partition MODEL.pt2 --backend NAME|FILE",
		Short: "Show how a backend would partition a program, and what crosses each cut",
		Long: "partition proposes the partitions a backend would run and prints, for each, its\n" +
			"nodes and the values crossing its boundary with their kinds and annotations\n" +
			"(symbolic inputs are marked with !), then the nodes left to the parent grouped\n" +
			"by reason. Each symbolic value crossing a boundary is judged against the backend's\n" +
			"contract: whether it accepts the value, and what lowering (under --policy) would do.\n" +
			"--dot and --html also write a picture; the HTML page is\n" +
			"self-contained, and finds nodes by name, zooms, pans and says why a clicked\n" +
			"node is or is not delegated. Graphs of more than --collapse-above nodes are\n" +
			"drawn with each partition as one box. A full_graph backend that cannot take the whole graph is an\n" +
			"error listing the nodes it refuses.\n\n" +
			"--executorch-tags prints the plan for an ExecuTorch partitioner instead:\n" +
			"{\"tags\": {FX_NODE_NAME: TAG}, \"partitions\": {TAG: BACKEND}}, with node names as\n" +
			"print_readable() shows them (getitem nodes included) and the parameters, buffers\n" +
			"and constants tagged as tag_constant_data would tag them.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if asJSON && etTags {
				return fmt.Errorf("--json and --executorch-tags each print one JSON document: choose one")
			}
			if collapse <= 0 {
				return fmt.Errorf("--collapse-above %d: want a positive node count", collapse)
			}
			pl, err := planFor(cmd, args[0], backendName, policyName, groups)
			if err != nil {
				return err
			}
			defer pl.archive.Close()
			p, plan, prof, r := pl.program, pl.plan, pl.prof, pl.report
			if dotFile != "" {
				err := atomicfile.Write(dotFile, func(w io.Writer) error {
					return r.WriteDOTWith(w, report.DOTOptions{CollapseAbove: collapse})
				})
				if err != nil {
					return err
				}
			}
			if htmlFile != "" {
				err := atomicfile.Write(htmlFile, func(w io.Writer) error { return r.WriteHTML(w, report.HTMLOptions{CollapseAbove: collapse}) })
				if err != nil {
					return err
				}
			}
			if etTags {
				tags, notes := report.ExecuTorch(p, plan, prof.Name)
				for _, note := range notes {
					fmt.Fprintln(cmd.ErrOrStderr(), "seam: warning:", note)
				}
				return writeJSON(cmd.OutOrStdout(), tags)
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
	cmd.Flags().StringVar(&policyName, "policy", "auto", "the lowering policy the crossings are judged under")
	cmd.Flags().IntVar(&collapse, "collapse-above", report.DefaultCollapseAbove,
		"in --dot and --html pictures, draw each partition as one box in graphs of more than `N` nodes")
	cmd.Flags().BoolVar(&etTags, "executorch-tags", false, "print the delegation tags an ExecuTorch partitioner applies, as JSON")
	cmd.Flags().StringArrayVar(&groups, "group", nil, "node names (comma-separated) that must stay together in one partition, or none of them delegated; repeatable")
	return cmd
}

// planned is a program proposed for a backend and described as the
// partition report describes it: what partition and explain print from.
type planned struct {
	archive *pt2.Archive
	program *ir.Program
	prof    *backend.Profile
	policy  lower.Policy
	plan    *partition.Plan
	report  *report.Report
}

// planFor reads the program and the profile, warns of what in the profile
// selects nothing in it, proposes partitions (keeping groups, each a
// comma-separated list of node names) and judges the crossings under the
// policy. The caller closes the archive.
func planFor(cmd *cobra.Command, model, backendName, policyName string, groups []string) (*planned, error) {
	if backendName == "" {
		return nil, fmt.Errorf("--backend is required: a built-in profile name or a profile file")
	}
	prof, err := backend.Resolve(backendName)
	if err != nil {
		return nil, err
	}
	policy, err := lower.ParsePolicy(policyName)
	if err != nil {
		return nil, err
	}
	a, p, err := openProgram(model)
	if err != nil {
		return nil, err
	}
	warnUnmatched(cmd, prof, p, model)
	opt := partition.GraphOptions{}
	for _, g := range groups {
		opt.Groups = append(opt.Groups, strings.Split(g, ","))
	}
	plan, r, err := planProgram(p, prof, policy, opt, model)
	if err != nil {
		a.Close()
		return nil, fmt.Errorf("%s: %w", model, err)
	}
	return &planned{archive: a, program: p, prof: prof, policy: policy, plan: plan, report: r}, nil
}

// planProgram is planFor once the program is read: the proposal, the
// judgements of its crossings and the report built from them.
func planProgram(p *ir.Program, prof *backend.Profile, policy lower.Policy, opt partition.GraphOptions, model string) (*partition.Plan, *report.Report, error) {
	plan, err := partition.ProposeProgram(p, prof, opt)
	if err != nil {
		return nil, nil, err
	}
	r := report.Build(p, plan, report.Options{Model: model, Backend: prof.Name, Printer: printer(), Judgements: judge(p, plan, prof, policy)})
	return plan, r, nil
}

// judge is lower.Judge's verdicts on a plan, in the form the report takes.
func judge(p *ir.Program, plan *partition.Plan, prof *backend.Profile, policy lower.Policy) []report.Judgement {
	out := []report.Judgement{}
	for _, j := range lower.Judge(p, plan, prof, policy) {
		out = append(out, report.Judgement(j))
	}
	return out
}
