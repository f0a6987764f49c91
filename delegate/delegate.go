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
