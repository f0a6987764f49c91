package backend

import (
	"fmt"

	"github.com/seam-rt/seam/ir"
)

// Reason says why a node is or is not supported.
type Reason uint8

// Reasons, in the order a node is checked.
const (
	Supported Reason = iota
	OpNotIncluded
	OpExcluded
	NodeExcluded
	DTypeRefused
	DynamicRefused
	ArgsRefused
)

var reasonText = map[Reason]string{
	Supported: "supported", OpNotIncluded: "op not included", OpExcluded: "op excluded",
	NodeExcluded: "excluded by name", DTypeRefused: "dtype refused", DynamicRefused: "dynamic size refused",
	ArgsRefused: "arguments refused",
}

func (r Reason) String() string { return reasonText[r] }

// Verdict is a profile's answer for one node.
type Verdict struct {
	Reason Reason
	// Detail names what decided it: the excluding pattern, the value with
	// a refused dtype or a dynamic size.
	Detail string
}

// OK reports support.
func (v Verdict) OK() bool { return v.Reason == Supported }

func (v Verdict) String() string {
	if v.Detail == "" {
		return v.Reason.String()
	}
	return v.Reason.String() + ": " + v.Detail
}

// Supports decides whether the backend can run node n of graph g: its op
// is included and not excluded, its name is not excluded, its tensors have
// accepted dtypes, without dynamic shapes none has a symbolic size, and
// the profile's NodeCheck, if any, takes its arguments.
func (p *Profile) Supports(g *ir.Graph, n *ir.Node) Verdict {
	op := n.OpName()
	if _, ok := p.include.first(op); !ok {
		return Verdict{OpNotIncluded, op}
	}
	if pat, ok := p.exclude.first(op); ok {
		return Verdict{OpExcluded, fmt.Sprintf("%s matches %q", op, pat)}
	}
	if p.excludeNodes[n.Name] {
		return Verdict{NodeExcluded, n.Name}
	}
	var v Verdict
	check := func(name string) {
		if v.Reason != Supported {
			return
		}
		m, ok := g.TensorValues[name]
		if !ok || m == nil {
			return
		}
		if !p.AcceptsDType(m.DType) {
			v = Verdict{DTypeRefused, fmt.Sprintf("%s is %s", name, m.DType.Short())}
		} else if !p.DynamicShapes && !m.IsStatic() {
			v = Verdict{DynamicRefused, name + " has a symbolic size"}
		}
	}
	n.ForEachInputRef(check)
	n.ForEachOutputRef(check)
	if v.OK() && p.NodeCheck != nil {
		if err := p.NodeCheck(g, n); err != nil {
			v = Verdict{ArgsRefused, err.Error()}
		}
	}
	return v
}
