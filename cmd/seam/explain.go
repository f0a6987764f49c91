package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/partition"
	"github.com/seam-rt/seam/report"
)

func explainCmd() *cobra.Command {
	var backendName, policyName string
	var groups []string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "explain MODEL.pt2 --backend NAME|FILE NODE [NODE ...]",
		Short: "Say why a node is or is not delegated, and what crosses the cut at it",
		Long: "explain answers, for each node named, what seam partition shows about it: whether\n" +
			"the backend takes it and why not, which partition holds it, and each value that\n" +
			"crosses a partition boundary at it (read from outside its partition, or made by it\n" +
			"and used outside). For a symbolic value it says what the backend's contract says of\n" +
			"that kind of placeholder and which policy lowering (--policy) would apply, as\n" +
			"partition's report judges it. NODE may also be a placeholder, or an output of a\n" +
			"multi-output node (a getitem in print_readable()). --json prints one JSON document.",
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			pl, err := planFor(cmd, args[0], backendName, policyName, groups)
			if err != nil {
				return err
			}
			defer pl.archive.Close()
			p, plan, prof, r := pl.program, pl.plan, pl.prof, pl.report
			ex := &explanation{Model: args[0], Backend: prof.Name, Policy: pl.policy.String(), Nodes: []nodeExplanation{}}
			for _, name := range args[1:] {
				found := explainName(p, plan, r, prof, name)
				if len(found) == 0 {
					return fmt.Errorf("%s has no node, placeholder or node output named %q%s", args[0], name, suggest(p, name))
				}
				ex.Nodes = append(ex.Nodes, found...)
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), ex)
			}
			return ex.writeText(cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&backendName, "backend", "", "backend profile: a built-in name or a JSON/YAML profile file (required)")
	cmd.Flags().StringVar(&policyName, "policy", "auto", "the lowering policy the crossings are judged under")
	cmd.Flags().StringArrayVar(&groups, "group", nil, "node names (comma-separated) that must stay together in one partition, as partition --group")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the explanation as one JSON document")
	return cmd
}

// explanation is what explain prints (--json: as is).
type explanation struct {
	Model   string            `json:"model"`
	Backend string            `json:"backend"`
	Policy  string            `json:"policy"`
	Nodes   []nodeExplanation `json:"nodes"`
}

// nodeExplanation is one name explained.
type nodeExplanation struct {
	Name string `json:"name"`
	// Graph is the nested graph's path ("" at the top level).
	Graph string `json:"graph,omitempty"`
	// Kind: "node", "placeholder" (with its signature kind in Target), or
	// "node output" (a value a multi-output node makes; Node names it).
	Kind   string `json:"kind"`
	Node   string `json:"node,omitempty"`
	Target string `json:"target"`
	// Delegated: in a partition (Partition is its id in the report).
	Delegated bool `json:"delegated"`
	Partition *int `json:"partition,omitempty"`
	// PartitionNodes counts the nodes of that partition.
	PartitionNodes int `json:"partition_nodes,omitempty"`
	// Reason and Detail are the partition report's; Why says it in a sentence.
	Reason    string     `json:"reason"`
	Detail    string     `json:"detail,omitempty"`
	Why       string     `json:"why"`
	Crossings []crossing `json:"crossings"`
}

// crossing is a value crossing a partition boundary at the node.
type crossing struct {
	Value      string `json:"value"`
	Type       string `json:"type"`
	Annotation string `json:"annotation"`
	Symbolic   bool   `json:"symbolic"`
	// Partition is the report's partition id; Into: the value enters it
	// (else it leaves it).
	Partition int  `json:"partition"`
	Into      bool `json:"into"`
	// Here says what the node does with the value: "reads" or "makes".
	Here string `json:"here"`
	// From is where an entering value comes from; To where a leaving one
	// goes and Users the nodes outside that use it, as the partition
	// report names them.
	From  string   `json:"from,omitempty"`
	To    []string `json:"to,omitempty"`
	Users []string `json:"users,omitempty"`
	// Contract is what the backend's contract says of a symbolic value's
	// kind (refuse, int, tensor); Accepted, Policy and PolicyDetail are
	// the judgement lowering would act on.
	Contract     string `json:"contract,omitempty"`
	Accepted     *bool  `json:"accepted,omitempty"`
	Policy       string `json:"policy,omitempty"`
	PolicyDetail string `json:"policy_detail,omitempty"`
}

// explainName finds name in every planned graph: as a node, a
// placeholder, or an output of a node; and, in a graph no plan covers
// (a branch of a delegated cond), says which delegated node holds it.
func explainName(p *ir.Program, plan *partition.Plan, r *report.Report, prof *backend.Profile, name string) []nodeExplanation {
	var out []nodeExplanation
	planned := map[string]bool{}
	var visit func(pl *partition.Plan)
	visit = func(pl *partition.Plan) {
		planned[pl.Path] = true
		g := pl.Graph
		if slices.Contains(g.InputNames(), name) {
			out = append(out, explainPlaceholder(p, pl, r, prof, name))
		}
		for i, n := range g.Nodes {
			if n.Name == name || slices.Contains(n.OutputNames(), name) {
				out = append(out, explainNode(pl, i, r, prof, name))
			}
		}
		for _, nested := range pl.Nested {
			visit(nested)
		}
	}
	visit(plan)
	// A graph nested in a delegated node goes whole into that node's
	// partition, without a plan of its own.
	_ = p.Graph.Walk(func(path string, g *ir.Graph) error {
		if planned[path] {
			return nil
		}
		for _, n := range g.Nodes {
			if n.Name == name || slices.Contains(n.OutputNames(), name) {
				out = append(out, explainInside(plan, r, prof, path, n, name))
			}
		}
		return nil
	})
	return out
}

// explainNode explains node i of a planned graph, found by name: its own,
// or one of its outputs'.
func explainNode(pl *partition.Plan, i int, r *report.Report, prof *backend.Profile, name string) nodeExplanation {
	n := pl.Graph.Nodes[i]
	v := pl.Verdict(i)
	e := nodeExplanation{Name: name, Graph: pl.Path, Kind: "node", Target: n.OpName(), Reason: v.Reason, Detail: v.Detail, Crossings: []crossing{}}
	part := reportPartition(r, pl.Path, n.Name)
	if part != nil {
		e.Delegated, e.Partition, e.PartitionNodes = true, &part.ID, len(part.Nodes)
	}
	e.Why = why(prof, n.OpName(), v, part)
	reads := map[string]bool{}
	n.ForEachInputRef(func(v string) { reads[v] = true })
	makes := map[string]bool{}
	n.ForEachOutputRef(func(v string) { makes[v] = true })
	if name != n.Name {
		// An output of a multi-output node (a getitem in print_readable):
		// what crosses at it is that value alone.
		e.Kind, e.Node = "node output", n.Name
		reads, makes = nil, map[string]bool{name: true}
	}
	e.Crossings = crossings(r, prof, pl.Path, part, reads, makes)
	return e
}

// explainPlaceholder explains a graph input: never delegated, it may
// enter partitions.
func explainPlaceholder(p *ir.Program, pl *partition.Plan, r *report.Report, prof *backend.Profile, name string) nodeExplanation {
	kind := "graph_input"
	if pl.Path == "" {
		for i := range p.Signature.Inputs {
			if s := &p.Signature.Inputs[i]; s.PlaceholderName() == name {
				kind = s.Kind.String()
			}
		}
	}
	e := nodeExplanation{Name: name, Graph: pl.Path, Kind: "placeholder", Target: kind, Reason: "placeholder",
		Why: fmt.Sprintf("a placeholder (%s) of the graph, not a node: placeholders are never delegated; a partition that reads it takes it as an input", kind)}
	e.Crossings = crossings(r, prof, pl.Path, nil, nil, map[string]bool{name: true})
	return e
}

// explainInside explains a node of a graph nested in a delegated node.
func explainInside(plan *partition.Plan, r *report.Report, prof *backend.Profile, path string, n *ir.Node, name string) nodeExplanation {
	e := nodeExplanation{Name: name, Graph: path, Kind: "node", Target: n.OpName(), Crossings: []crossing{}}
	if name != n.Name {
		e.Kind, e.Node = "node output", n.Name
	}
	var owner *ir.Node
	var ownerPlan *partition.Plan
	var visit func(pl *partition.Plan)
	visit = func(pl *partition.Plan) {
		for _, m := range pl.Graph.Nodes {
			for _, sub := range m.SubGraphs() {
				sp := joinPath(pl.Path, m.Name+"."+sub.Name)
				if path == sp || strings.HasPrefix(path, sp+".") {
					owner, ownerPlan = m, pl
				}
			}
		}
		for _, nested := range pl.Nested {
			visit(nested)
		}
	}
	visit(plan)
	if owner == nil {
		e.Reason, e.Why = "not planned", "in a graph no plan covers"
		return e
	}
	part := reportPartition(r, ownerPlan.Path, owner.Name)
	e.Reason = "delegated"
	e.Why = fmt.Sprintf("in graph %s of %s (%s), which is delegated whole, with every node of its graphs", path, owner.Name, owner.OpName())
	if part != nil {
		e.Delegated, e.Partition, e.PartitionNodes = true, &part.ID, len(part.Nodes)
		e.Why += fmt.Sprintf(", in partition %d", part.ID)
	}
	return e
}

func joinPath(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}

// reportPartition finds the report's partition of graph path holding node.
func reportPartition(r *report.Report, path, node string) *report.Partition {
	for i := range r.Partitions {
		if part := &r.Partitions[i]; part.Graph == path && slices.Contains(part.Nodes, node) {
			return part
		}
	}
	return nil
}

// crossings lists the values crossing a boundary at a node: those it reads
// from outside its partition, those it makes that leave it, and, for a
// node outside every partition, those it makes that enter one and those
// it reads that leave one.
func crossings(r *report.Report, prof *backend.Profile, path string, own *report.Partition, reads, makes map[string]bool) []crossing {
	out := []crossing{}
	for i := range r.Partitions {
		part := &r.Partitions[i]
		if part.Graph != path {
			continue
		}
		mine := own != nil && own.ID == part.ID
		for _, v := range part.Inputs {
			switch {
			case mine && reads[v.Name]:
				out = append(out, crossingOf(prof, part.ID, v, true, "reads"))
			case own == nil && makes[v.Name]:
				out = append(out, crossingOf(prof, part.ID, v, true, "makes"))
			}
		}
		for _, v := range part.Outputs {
			switch {
			case mine && makes[v.Name]:
				out = append(out, crossingOf(prof, part.ID, v, false, "makes"))
			case own == nil && reads[v.Name]:
				out = append(out, crossingOf(prof, part.ID, v, false, "reads"))
			}
		}
	}
	return out
}

func crossingOf(prof *backend.Profile, id int, v report.Value, into bool, here string) crossing {
	c := crossing{Value: v.Name, Type: v.Type, Annotation: v.Annotation, Symbolic: v.Symbolic, Partition: id, Into: into,
		Here: here, Accepted: v.Accepted, Policy: v.Policy, PolicyDetail: v.PolicyDetail}
	if into {
		c.From = v.From
		if v.Producer != "" {
			c.From += " " + v.Producer
		}
	} else {
		c.To, c.Users = v.To, v.Users
	}
	for _, t := range []ir.ValueType{ir.ValueSymInt, ir.ValueSymBool, ir.ValueSymFloat} {
		if t.String() == v.Type {
			c.Contract = prof.Placeholders.For(t).String()
		}
	}
	return c
}

// why says in a sentence why a node is or is not delegated.
func why(prof *backend.Profile, op string, v partition.NodeVerdict, part *report.Partition) string {
	switch v.Reason {
	case "delegated":
		if part == nil {
			return "delegated"
		}
		s := fmt.Sprintf("delegated to %s in partition %d (%d nodes)", prof.Name, part.ID, len(part.Nodes))
		if pat, ok := prof.IncludedBy(op); ok {
			s += fmt.Sprintf(": its op %s is included by %q and not excluded, and %s takes its dtypes and sizes", op, pat, prof.Name)
		}
		return s
	case backend.OpNotIncluded.String():
		return fmt.Sprintf("not delegated: its op %s matches none of %s's ops.include (%s)", op, prof.Name, strings.Join(prof.Ops.Include, ", "))
	case backend.OpExcluded.String():
		return fmt.Sprintf("not delegated: its op is excluded by %s's ops.exclude (%s)", prof.Name, v.Detail)
	case backend.NodeExcluded.String():
		return fmt.Sprintf("not delegated: %s's exclude_nodes names it", prof.Name)
	case backend.DTypeRefused.String():
		return fmt.Sprintf("not delegated: %s does not take the dtype (%s; it takes %s)", prof.Name, v.Detail, prof.DTypesText())
	case backend.DynamicRefused.String():
		return fmt.Sprintf("not delegated: %s compiles static shapes only (dynamic_shapes false) and %s", prof.Name, v.Detail)
	case backend.ArgsRefused.String():
		return fmt.Sprintf("not delegated: %s refuses its arguments: %s", prof.Name, v.Detail)
	case partition.TooSmall.String():
		return fmt.Sprintf("not delegated: %s supports it, but its partition would hold a single compute node and %s sets single_node_partitions false", prof.Name, prof.Name)
	case partition.GroupRefused.String():
		return "not delegated: a --group holding it cannot be kept whole in one partition (partition's report says why)"
	}
	s := "not delegated: " + v.Reason
	if v.Detail != "" {
		s += ": " + v.Detail
	}
	return s
}

func (ex *explanation) writeText(w io.Writer) error {
	for i, e := range ex.Nodes {
		if i > 0 {
			fmt.Fprintln(w)
		}
		where := ""
		if e.Graph != "" {
			where = " in graph " + e.Graph
		}
		what := e.Target
		if e.Kind == "node output" {
			what = fmt.Sprintf("an output of %s, %s", e.Node, e.Target)
		}
		fmt.Fprintf(w, "%s (%s)%s, for %s (policy %s):\n", e.Name, what, where, ex.Backend, ex.Policy)
		fmt.Fprintf(w, "  %s\n", e.Why)
		if len(e.Crossings) == 0 {
			fmt.Fprintln(w, "  no value crosses a partition boundary here")
			continue
		}
		fmt.Fprintln(w, "  crossing a partition boundary here:")
		for _, c := range e.Crossings {
			fmt.Fprintf(w, "    %s %s: %s\n", c.Value, c.Annotation, c.text())
			if !c.Symbolic {
				continue
			}
			accepted := "not taken as a placeholder"
			if c.Accepted != nil && *c.Accepted {
				accepted = "taken as a placeholder"
			}
			fmt.Fprintf(w, "      contract of %s: %s %s (%s)\n", ex.Backend, c.Type, c.Contract, accepted)
			switch {
			case c.Policy == "refused":
				fmt.Fprintf(w, "      lowering (policy %s): refused: %s\n", ex.Policy, c.PolicyDetail)
			case c.Policy != "":
				fmt.Fprintf(w, "      lowering (policy %s): %s: %s\n", ex.Policy, c.Policy, c.PolicyDetail)
			}
		}
	}
	return nil
}

// text says how the value crosses, from the node's side.
func (c crossing) text() string {
	switch {
	case c.Into && c.Here == "reads":
		return fmt.Sprintf("read here, it enters partition %d from %s", c.Partition, c.From)
	case c.Into:
		return fmt.Sprintf("made here, it enters partition %d", c.Partition)
	}
	to := strings.Join(c.To, ", ")
	if len(c.Users) > 0 {
		to += " (" + strings.Join(c.Users, ", ") + ")"
	}
	if c.Here == "makes" {
		return fmt.Sprintf("made here, it leaves partition %d to %s", c.Partition, to)
	}
	return fmt.Sprintf("read here, it leaves partition %d", c.Partition)
}

// suggest names nodes whose names hold name, to help with a typo.
func suggest(p *ir.Program, name string) string {
	var near []string
	_ = p.Graph.Walk(func(_ string, g *ir.Graph) error {
		for _, n := range g.Nodes {
			if len(near) < 5 && (strings.Contains(n.Name, name) || strings.Contains(name, n.Name)) {
				near = append(near, n.Name)
			}
		}
		return nil
	})
	if len(near) == 0 {
		return " (seam print lists the nodes)"
	}
	return " (nodes with similar names: " + strings.Join(near, ", ") + ")"
}
