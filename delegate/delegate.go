// Package delegate hands a program's partitions to a backend: it proposes
// partitions (package partition), lowers them (package lower) and, when
// lowering must leave nodes to the parent because a symbolic value cannot
// cross a cut otherwise, proposes again without those nodes, round by
// round, until a proposal lowers as it is. Every round is kept in the
// result (lower.Result.Rounds): what it proposed and what it excluded and
// why.
//
// The rounds are the whole of it, so they can be driven again: for a list
// of backends in priority order (each lowering what the one before left in
// the parent: Program takes an ir.Lowered and keeps its modules), or once
// per specialization of a program (package specialize).
package delegate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/lower"
	"github.com/seam-rt/seam/partition"
)

// Options configure delegation.
type Options struct {
	Policy lower.Policy
	// Groups are node names of the top-level graph that must end up in one
	// lowered module together, or none of them delegated (`--group`);
	// Result.Groups says what became of each.
	Groups [][]string
}

// Program lowers for prof the partitions of p, a program without modules.
func Program(p *ir.Program, prof *backend.Profile, opt Options) (*lower.Result, error) {
	return Lowered(&ir.Lowered{Main: p}, prof, opt)
}

// Lowered lowers for prof the partitions of in's main program, keeping
// the modules in has. The input is not modified.
func Lowered(in *ir.Lowered, prof *backend.Profile, opt Options) (*lower.Result, error) {
	var excluded []lower.Exclusion
	var rounds []lower.Round
	names := map[string]bool{} // the excluded nodes, as partition names them
	for {
		plan, err := partition.ProposeProgram(in.Main, prof, partition.GraphOptions{Exclude: names, Groups: opt.Groups})
		if err != nil {
			return nil, err
		}
		res, more, err := lower.Lower(in, plan, prof, lower.Options{Policy: opt.Policy, Excluded: excluded})
		if err != nil {
			return nil, err
		}
		rounds = append(rounds, round(prof, plan, more))
		if res != nil {
			res.Rounds = rounds
			return res, nil
		}
		// Each round leaves at least one more node to the parent (one a
		// partition held), so the rounds end.
		before := len(names)
		if lower.ExcludeNames(names, more); len(names) == before {
			return nil, fmt.Errorf("delegate: round %d excluded no node it had not excluded before (a bug in seam)", len(rounds))
		}
		excluded = append(excluded, more...)
	}
}

// Backends lowers p for several backends in priority order, as ONNX
// Runtime takes a list of execution providers: the first takes the
// partitions it can, each next one partitions what the ones before left
// in the parent, and what none takes stays with seam. The result holds
// every module made (each names its backend), every crossing and round in
// order; Dropped lists the nodes a policy left to the parent that no later
// backend took. A group (Options.Groups) a backend keeps is not asked of
// the ones after it; Result.Groups says, per group, the backend that kept
// it, or why the last one could not.
func Backends(p *ir.Program, profs []*backend.Profile, opt Options) (*lower.Result, error) {
	if len(profs) == 0 {
		return nil, fmt.Errorf("delegate: no backend to lower for")
	}
	in := &ir.Lowered{Main: p}
	all := &lower.Result{}
	groups := map[string]lower.Group{} // by the group's nodes
	key := func(nodes []string) string { return strings.Join(nodes, "\x00") }
	pending := opt.Groups
	var dropped []string
	for _, prof := range profs {
		res, err := Lowered(in, prof, Options{Policy: opt.Policy, Groups: pending})
		if err != nil {
			return nil, fmt.Errorf("lowering for %s: %w", prof.Name, err)
		}
		in = res.Lowered
		all.Lowered = res.Lowered
		all.Modules = append(all.Modules, res.Modules...)
		all.Crossings = append(all.Crossings, res.Crossings...)
		all.Removed = append(all.Removed, res.Removed...)
		all.Rounds = append(all.Rounds, res.Rounds...)
		dropped = append(dropped, res.Dropped...)
		pending = nil
		for _, g := range res.Groups {
			groups[key(g.Nodes)] = g
			if !g.Kept {
				pending = append(pending, g.Nodes)
			}
		}
	}
	for _, g := range opt.Groups {
		if r, ok := groups[key(g)]; ok {
			all.Groups = append(all.Groups, r)
		}
	}
	taken := map[string]bool{}
	for _, m := range all.Modules {
		for _, n := range m.Nodes {
			taken[n] = true // Dropped names nodes as lowering does, without a graph path
		}
	}
	slices.Sort(dropped)
	for _, n := range slices.Compact(dropped) {
		if !taken[n] {
			all.Dropped = append(all.Dropped, n)
		}
	}
	return all, nil
}

// round describes one proposal and what lowering excluded from it.
func round(prof *backend.Profile, plan *partition.Plan, excluded []lower.Exclusion) lower.Round {
	r := lower.Round{Backend: prof.Name, Excluded: excluded}
	if r.Excluded == nil {
		r.Excluded = []lower.Exclusion{}
	}
	plan.Walk(func(pl *partition.Plan) {
		r.Partitions += len(pl.Partitions)
		for _, part := range pl.Partitions {
			r.Delegated += len(part)
		}
	})
	return r
}
