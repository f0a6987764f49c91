package lower

import (
	"fmt"
	"slices"
	"strings"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/ir"
)

// Policy selects how symbolic values that cross a cut are handled. Each
// policy applies to what the contract does not accept as it is: a value
// the contract takes (a plain scalar under "int", a rank-0 tensor under
// "tensor") goes the way the contract says unless the policy is one of the
// ways that need no placeholder at all (rederive, hoist) or box, tried
// first.
type Policy uint8

const (
	// Auto tries the profile's policy_order, by default rederive, hoist,
	// pass (where the contract accepts the value as a scalar), box, then
	// exclude, and reports which one worked.
	Auto Policy = iota
	// Rederive recomputes the value inside from the sizes of a tensor
	// that already crosses (sym_size.int and scalar arithmetic).
	Rederive
	// Hoist copies the chain of scalar ops that produces the value, when
	// everything the chain needs is already available on the other side.
	Hoist
	// Pass hands the value over the way the contract takes it: a plain
	// scalar ("int"), or a rank-0 tensor ("tensor"); a value it refuses
	// makes lowering fail.
	Pass
	// Box passes a rank-0 tensor made with aten.scalar_tensor and unboxes
	// it on the other side with aten._local_scalar_dense.
	Box
	// Exclude drops the nodes that would need a value the contract
	// refuses from the partition (its consumers, or for an output its
	// producer); values the contract takes go the way it says.
	Exclude
	// Fail refuses: any symbolic value the contract does not accept as it
	// is (a plain scalar) makes lowering fail, naming the value, producer
	// and consumer.
	Fail
)

var policyNames = [...]string{Auto: "auto", Rederive: "rederive", Hoist: "hoist", Pass: "pass", Box: "box", Exclude: "exclude", Fail: "fail"}

func (p Policy) String() string {
	if int(p) < len(policyNames) {
		return policyNames[p]
	}
	return fmt.Sprintf("policy(%d)", int(p))
}

// ParsePolicy reads a policy name.
func ParsePolicy(s string) (Policy, error) {
	for i, n := range policyNames {
		if n == s || (s == "default" && i == int(Auto)) {
			return Policy(i), nil
		}
	}
	return Auto, fmt.Errorf("unknown policy %q (want one of %s)", s, strings.Join(policyNames[:], ", "))
}

// Policies lists the selectable policies.
func Policies() []Policy { return []Policy{Auto, Rederive, Hoist, Pass, Box, Exclude, Fail} }

// outcome is what was done with one crossing.
type outcome uint8

const (
	doRederive outcome = iota
	doHoist
	doPass
	doBox
	doExclude
)

// outcomeNames are the steps a profile's policy_order names
// (backend.PolicySteps).
var outcomeNames = [...]string{doRederive: "rederive", doHoist: "hoist", doPass: "pass", doBox: "box", doExclude: "exclude"}

func (o outcome) String() string { return outcomeNames[o] }

func parseOutcome(s string) (outcome, bool) {
	for i, n := range outcomeNames {
		if n == s {
			return outcome(i), true
		}
	}
	return 0, false
}

// chain is the order in which outcomes are tried for a value of type t
// under a policy and a contract.
func (p Policy) chain(prof *backend.Profile, t ir.ValueType) []outcome {
	// own is the way the contract takes the value: a plain scalar, a
	// rank-0 tensor, or (refused) a pass that fails and says why.
	own := doPass
	if prof.Placeholders.For(t) == backend.Tensor {
		own = doBox
	}
	switch p {
	case Rederive:
		return []outcome{doRederive, own}
	case Hoist:
		return []outcome{doHoist, own}
	case Pass:
		return []outcome{own}
	case Box:
		return []outcome{doBox, doPass}
	case Exclude:
		if prof.FullGraph {
			return []outcome{own}
		}
		return []outcome{own, doExclude}
	case Fail:
		return []outcome{doPass}
	}
	order := []outcome{doRederive, doHoist, doPass, doBox, doExclude}
	if len(prof.PolicyOrder) > 0 {
		order = order[:0]
		for _, s := range prof.PolicyOrder {
			if o, ok := parseOutcome(s); ok {
				order = append(order, o)
			}
		}
	}
	if prof.FullGraph {
		order = slices.DeleteFunc(slices.Clone(order), func(o outcome) bool { return o == doExclude })
	}
	return order
}
