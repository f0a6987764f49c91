package report

import (
	"fmt"
	"strings"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/irtext"
	"github.com/seam-rt/seam/partition"
)

// ExecuTorchTags is a plan in the form an ExecuTorch partitioner hands
// back: the `delegation_tag` of every FX node that goes to a delegate, and
// the backend of every tag. A Partitioner.partition sets
// node.meta["delegation_tag"] from Tags and returns Partitions as
// PartitionResult.partition_tags (the README shows the Python).
type ExecuTorchTags struct {
	// Tags maps FX node names, as print_readable() shows them, to tags:
	// every node of a partition, the getitem nodes that take its results
	// (the export schema folds them into the node), the get_attr nodes of
	// the graphs a delegated higher-order op runs, and the parameters,
	// buffers and constants all of whose users carry one tag. Nodes of a
	// nested graph (a cond branch left to the parent) are named
	// "MODULE.NODE", MODULE as named_modules() names the graph module.
	Tags map[string]string `json:"tags"`
	// Partitions maps each tag to the backend that runs it.
	Partitions map[string]string `json:"partitions"`
}

// ExecuTorchTag names partition id's tag: "tag3" is the report's
// partition 3.
func ExecuTorchTag(id int) string { return fmt.Sprintf("tag%d", id) }

// ExecuTorch tags plan (of program p, for the backend named backend) and
// says, one line each, which constants it left untagged because their
// users carry different tags: ExecuTorch's tag_constant_data refuses those
// (one constant cannot be owned by two delegates), so they stay with the
// parent program and reach the delegates as inputs.
func ExecuTorch(p *ir.Program, plan *partition.Plan, backend string) (*ExecuTorchTags, []string) {
	t := &etTagger{
		out:     &ExecuTorchTags{Tags: map[string]string{}, Partitions: map[string]string{}},
		backend: backend,
		modules: map[*ir.Graph]string{},
		kinds:   map[string]string{},
	}
	if p != nil {
		for i := range p.Signature.Inputs {
			s := &p.Signature.Inputs[i]
			t.kinds[s.PlaceholderName()] = s.Kind.String()
		}
	}
	t.plan(plan, true)
	return t.out, t.notes
}

type etTagger struct {
	out     *ExecuTorchTags
	backend string
	next    int // the next partition id, in the order Build numbers them
	// modules names each nested graph's module path.
	modules map[*ir.Graph]string
	// kinds are the top-level placeholders' signature kinds.
	kinds map[string]string
	notes []string
}

func (t *etTagger) plan(plan *partition.Plan, top bool) {
	g := plan.Graph
	module := t.modules[g]
	key := func(name string) string { return ir.PathName(module, name) }
	for _, n := range g.Nodes {
		for _, sub := range n.SubGraphs() {
			t.modules[sub.Graph] = key(sub.Name)
		}
	}
	tagOf := make([]string, len(g.Nodes))
	for k, part := range plan.Partitions {
		tag := ExecuTorchTag(t.next + k)
		t.out.Partitions[tag] = t.backend
		for _, i := range part {
			n := g.Nodes[i]
			tagOf[i] = tag
			t.out.Tags[key(n.Name)] = tag
			for _, name := range irtext.Getitems(n) {
				t.out.Tags[key(name)] = tag
			}
			// The get_attr nodes that fetch the graphs (or the lowered
			// module) the node runs have it as their only user.
			for _, sub := range n.SubGraphs() {
				t.out.Tags[key(sub.Name)] = tag
			}
			if mod, ok := n.DelegateModule(); ok {
				t.out.Tags[key(mod)] = tag
			}
		}
	}
	t.next += len(plan.Partitions)
	if top {
		t.constants(g, tagOf)
	}
	for _, nested := range plan.Nested {
		t.plan(nested, false)
	}
}

// constants tags parameters, buffers and lifted constants as
// tag_constant_data does: with the tag of their users when all have the
// same one.
func (t *etTagger) constants(g *ir.Graph, tagOf []string) {
	users := map[string]map[string]bool{} // placeholder -> tags of its users ("" untagged)
	for _, name := range g.InputNames() {
		switch t.kinds[name] {
		case "parameter", "buffer", "tensor_constant":
			users[name] = map[string]bool{}
		}
	}
	for i, n := range g.Nodes {
		n.ForEachInputRef(func(v string) {
			if tags, ok := users[v]; ok {
				tags[tagOf[i]] = true
			}
		})
	}
	for i := range g.Outputs {
		g.Outputs[i].ForEachRef(func(v string) {
			if tags, ok := users[v]; ok {
				tags[""] = true // the output node has no tag
			}
		})
	}
	for _, name := range g.InputNames() {
		tags, ok := users[name]
		if !ok {
			continue
		}
		switch {
		case len(tags) == 1 && !tags[""]:
			for tag := range tags {
				t.out.Tags[name] = tag
			}
		case len(tags) > 1:
			var owners []string
			for _, tag := range ir.SortedKeys(tags) {
				if tag == "" {
					owners = append(owners, "the parent program")
				} else {
					owners = append(owners, tag)
				}
			}
			t.notes = append(t.notes, fmt.Sprintf("%s (%s) is used by %s: left untagged, as ExecuTorch's tag_constant_data "+
				"cannot give one constant to two owners; the delegates receive it as an input", name, t.kinds[name], strings.Join(owners, " and ")))
		}
	}
}
