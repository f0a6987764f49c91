package lower

import (
	"fmt"
	"strings"
)

// Policy selects how symbolic values that cross a cut are handled.
type Policy uint8

const (
	// Auto tries rederive, hoist, pass (where the contract accepts the
	// value as a scalar), box, then exclude, and reports which one worked.
	Auto Policy = iota
	// Rederive recomputes the value inside from the sizes of a tensor
	// that already crosses (sym_size.int and scalar arithmetic).
	Rederive
	// Hoist copies the chain of scalar ops that produces the value, when
	// everything the chain needs is already available on the other side.
	Hoist
	// Box passes a rank-0 tensor made with aten.scalar_tensor and unboxes
	// it on the other side with aten._local_scalar_dense.
	Box
	// Exclude drops the nodes that would need the value from the
	// partition (its consumers, or for an output its producer).
	Exclude
	// Fail refuses: any symbolic value the contract does not accept as it
	// is makes lowering fail, naming the value, producer and consumer.
	Fail
)

var policyNames = [...]string{Auto: "auto", Rederive: "rederive", Hoist: "hoist", Box: "box", Exclude: "exclude", Fail: "fail"}

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
func Policies() []Policy { return []Policy{Auto, Rederive, Hoist, Box, Exclude, Fail} }

// outcome is what was done with one crossing: a policy, or "pass" when
// the value reached the backend as the scalar its contract accepts.
type outcome uint8

const (
	doRederive outcome = iota
	doHoist
	doPass
	doBox
	doExclude
)

var outcomeNames = [...]string{doRederive: "rederive", doHoist: "hoist", doPass: "pass", doBox: "box", doExclude: "exclude"}

func (o outcome) String() string { return outcomeNames[o] }

// chain is the order in which outcomes are tried under a policy. An
// explicit policy still lets a value through that the contract accepts
// as it is (pass): it is only what the contract refuses that must be
// handled by the chosen policy.
func (p Policy) chain(fullGraph bool) []outcome {
	switch p {
	case Rederive:
		return []outcome{doRederive, doPass}
	case Hoist:
		return []outcome{doHoist, doPass}
	case Box:
		return []outcome{doBox, doPass}
	case Exclude:
		if fullGraph {
			return []outcome{doPass}
		}
		return []outcome{doExclude}
	case Fail:
		return []outcome{doPass}
	}
	if fullGraph {
		return []outcome{doRederive, doHoist, doPass, doBox}
	}
	return []outcome{doRederive, doHoist, doPass, doBox, doExclude}
}
