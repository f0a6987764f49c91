package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/ops"
)

// warnf prints a warning on stderr: something seam goes on with, but that
// the user most likely did not mean.
func warnf(cmd *cobra.Command, format string, args ...any) {
	fmt.Fprintf(cmd.ErrOrStderr(), "seam: warning: "+format+"\n", args...)
}

// warnUnmatched warns of each part of a profile that selects nothing in
// the program at hand: an ops pattern that matches none of its ops nor
// any op seam knows, an exclude_nodes name no node of it has.
func warnUnmatched(cmd *cobra.Command, prof *backend.Profile, p *ir.Program, model string) {
	known := ops.Targets()
	var nodes []string
	_ = p.Graph.Walk(func(_ string, g *ir.Graph) error {
		for _, n := range g.Nodes {
			known = append(known, n.OpName())
			nodes = append(nodes, n.Name)
		}
		return nil
	})
	for _, u := range prof.Unmatched(known, nodes) {
		if u.Node {
			warnf(cmd, "backend %s: %s %q: %s has no node of that name, so it excludes nothing", prof.Name, u.Key, u.Value, model)
		} else {
			warnf(cmd, "backend %s: %s %q matches no op of %s nor any op seam knows, so it selects nothing", prof.Name, u.Key, u.Value, model)
		}
	}
}
