package lower

import (
	"fmt"
	"slices"

	"github.com/seam-rt/seam/partition"
)

// groups says what became of each group asked to stay together: the
// partition that holds it whole (-1 for none), or why it could not be kept.
func (gc *graphCut) groups(excluded map[string]bool) ([]Group, []int) {
	var out []Group
	var parts []int
	groups := gc.plan.Groups
	for _, o := range groups {
		g := Group{Nodes: slices.Clone(o.Nodes)}
		parts = append(parts, -1)
		node := ""
		if o.Node >= 0 && int(o.Node) < len(gc.g.Nodes) {
			node = gc.g.Nodes[o.Node].Name
		}
		switch o.Status {
		case partition.GroupKept:
			g.Kept = true
			parts[len(parts)-1] = o.Partition
		case partition.GroupUnsupported:
			if excluded[node] {
				g.Reason = fmt.Sprintf("member %s is left to the parent by the policy: %s", node, gc.excludedBecause(node))
			} else {
				g.Reason = fmt.Sprintf("member %s is not supported (%s)", node, gc.lw.prof.Supports(gc.g, gc.g.Nodes[o.Node]))
			}
		case partition.GroupCrossing:
			g.Reason = fmt.Sprintf("a path between members leaves the group through %s, which is not delegated", node)
		case partition.GroupConflict:
			g.Reason = fmt.Sprintf("kept together with group %v, a path would leave and re-enter through %s", groups[o.Other].Nodes, node)
		default:
			g.Reason = o.Status.String()
		}
		out = append(out, g)
	}
	return out, parts
}

// excludedBecause says which crossing value made the policy drop node.
func (gc *graphCut) excludedBecause(node string) string {
	for _, c := range gc.earlier {
		if slices.Contains(c.Dropped, node) {
			return fmt.Sprintf("%s %s (%s) cannot cross into it", c.Type, c.Value, c.Expr)
		}
	}
	return "a symbolic value it uses cannot cross"
}
