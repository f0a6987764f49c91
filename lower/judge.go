package lower

import (
	"errors"
	"strings"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/partition"
)

// Judgement is what lowering would do with one symbolic value crossing a
// partition boundary of a proposal.
type Judgement struct {
	// Graph is the nested graph's path ("" for the top level); Partition
	// the partition's index in that graph's plan.
	Graph     string
	Partition int
	Value     string
	// Into: the value enters the partition (else it leaves it).
	Into bool
	// Accepted: the contract takes the value as a placeholder, as a plain
	// scalar ("int") or boxed ("tensor").
	Accepted bool
	// Policy is the way lowering would take it across (rederive, hoist,
	// pass, box, exclude), or "" when no allowed way can.
	Policy string
	// Detail says why, in a sentence; for a refusal, each way's reason.
	Detail string
}

// Judge says, for every symbolic value crossing a boundary of plan (a
// proposal partition.ProposeProgram made for prof), whether prof's
// contract accepts it and what the first round of lowering under policy
// would do with it, without lowering anything.
func Judge(p *ir.Program, plan *partition.Plan, prof *backend.Profile, policy Policy) []Judgement {
	lw := &lowerer{prof: prof, opt: Options{Policy: policy}, main: p, names: newNamer()}
	lw.names.reserveLater(p.Graph)
	var out []Judgement
	plan.Walk(func(pl *partition.Plan) {
		var prog *ir.Program
		if pl.Path == "" {
			prog = p
		}
		gc := newGraphCut(lw, pl, pl.Graph, prog)
		gc.onDecision = func(k int, v string, into bool, d *decided, err error) {
			j := Judgement{Graph: pl.Path, Partition: k, Value: v, Into: into,
				Accepted: prof.Placeholders.For(gc.typeOf(v)) != backend.Refuse}
			var refusal *Error
			switch {
			case errors.As(err, &refusal):
				j.Detail = strings.Join(refusal.Why, "; ")
			case err != nil:
				j.Detail = err.Error()
			default:
				j.Policy, j.Detail = d.how.String(), d.detail
			}
			out = append(out, j)
		}
		_, _ = gc.decide()
	})
	return out
}
