package backend

import (
	"fmt"

	"github.com/seam-rt/seam/internal/memo"
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
	// Delegated: the node is a delegate call, lowered already for
	// another backend (the one before in a priority list).
	Delegated
)

var reasonText = map[Reason]string{
	Supported: "supported", OpNotIncluded: "op not included", OpExcluded: "op excluded",
	NodeExcluded: "excluded by name", DTypeRefused: "dtype refused", DynamicRefused: "dynamic size refused",
	ArgsRefused: "arguments refused", Delegated: "delegated already",
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
// the profile's NodeCheck, if any, takes its arguments. A delegate call
// is no backend's: it runs a module lowered already; nor is a control
// node whose graphs hold one.
func (p *Profile) Supports(g *ir.Graph, n *ir.Node) Verdict {
	if v, done := p.opVerdict(n, true); done {
		return v
	}
	c := &valueCheck{p: p, g: g}
	n.ForEachInputRef(c.check)
	n.ForEachOutputRef(c.check)
	return p.nodeVerdict(g, n, c.v)
}

// SupportsIndexed is Supports for node i of g, reading the values it uses
// and defines from g's def-use index rather than from its arguments.
func (p *Profile) SupportsIndexed(g *ir.Graph, du *ir.DefUse, i int) Verdict {
	return p.Indexed(g, du).Supports(i)
}

// Indexed judges the nodes of g for p from g's def-use index (a
// partitioner's request for a large graph): each value's dtype and size
// are checked once, however many nodes use it.
func (p *Profile) Indexed(g *ir.Graph, du *ir.DefUse) *IndexedJudge {
	return &IndexedJudge{p: p, g: g, du: du, values: make([]Reason, du.Values()), ops: memo.New(func(op string) opJudgement {
		v, done := p.patternVerdict(op)
		return opJudgement{v, done}
	})}
}

// IndexedJudge is Supports for the nodes of one graph; see
// Profile.Indexed.
type IndexedJudge struct {
	p      *Profile
	g      *ir.Graph
	du     *ir.DefUse
	values []Reason // per value: Supported+1 once accepted
	// allAccepted: every tensor of the graph has a dtype and size the
	// profile takes (asked once, at the first node with values), so no
	// value needs looking up (0: not asked yet, 1: no, 2: yes).
	allAccepted uint8
	// ops remembers what the op patterns say of each op: a graph has
	// thousands of nodes for each of its few ops.
	ops *memo.Strings[opJudgement]
}

type opJudgement struct {
	v    Verdict
	done bool
}

// Supports is Profile.Supports for node i.
func (j *IndexedJudge) Supports(i int) Verdict {
	n := j.g.Nodes[i]
	if v, done := j.p.delegateVerdict(n, j.du.Nests(i)); done {
		return v
	}
	if o := j.ops.Get(n.OpName()); o.done {
		return o.v
	}
	if v, done := j.p.nameVerdict(n); done {
		return v
	}
	v := j.refused(j.du.Reads(i))
	if v.OK() {
		v = j.refused(j.du.Defines(i))
	}
	return j.p.nodeVerdict(j.g, n, v)
}

// refused is the first of ids whose dtype or size p refuses (the detail
// is written again for each node using a refused value; only the
// accepted ones are remembered).
func (j *IndexedJudge) refused(ids []ir.ValueID) Verdict {
	if j.allAccepted == 0 {
		j.allAccepted = 1
		if j.p.acceptsAll(j.g) {
			j.allAccepted = 2
		}
	}
	if j.allAccepted == 2 {
		return Verdict{}
	}
	for _, id := range ids {
		if j.values[id] == Supported+1 {
			continue
		}
		c := valueCheck{p: j.p}
		c.checkMeta(j.du.Value(id).Name, j.du.Tensor(id))
		if !c.v.OK() {
			return c.v
		}
		j.values[id] = Supported + 1
	}
	return Verdict{}
}

// acceptsAll reports whether p takes every tensor of g's tensor_values
// (a value that is not a tensor it always takes). On a large graph one
// pass over the table costs far less than finding each value a node uses
// in it. The entries are gathered a batch at a time and judged in a loop
// of a few instructions: judged as the map is walked, each entry's cache
// miss waited for the walk's next step; in the tight loop the processor
// has many in flight.
func (p *Profile) acceptsAll(g *ir.Graph) bool {
	if len(p.DTypes) == 0 && p.DynamicShapes {
		return true
	}
	// accepted[t] for the dtypes p takes; any other (or out of range) is
	// asked of AcceptsDType.
	var accepted [64]bool
	for t := range accepted {
		accepted[t] = p.AcceptsDType(ir.ScalarType(t))
	}
	judge := func(ms []*ir.TensorMeta) bool {
		for _, m := range ms {
			if t := m.DType; (uint(t) >= uint(len(accepted)) || !accepted[t]) && !p.AcceptsDType(t) {
				return false
			}
			if !p.DynamicShapes && !m.IsStatic() {
				return false
			}
		}
		return true
	}
	var batch [256]*ir.TensorMeta
	n := 0
	for _, m := range g.TensorValues {
		if m == nil {
			continue
		}
		batch[n] = m
		if n++; n == len(batch) {
			if !judge(batch[:]) {
				return false
			}
			n = 0
		}
	}
	return judge(batch[:n])
}

// opVerdict judges n by its op and name alone (and whether it calls a
// lowered module); done when that refuses it.
// nests says whether n has graph arguments (false skips looking for a
// delegate call in them).
func (p *Profile) opVerdict(n *ir.Node, nests bool) (v Verdict, done bool) {
	if v, done = p.delegateVerdict(n, nests); !done {
		if v, done = p.patternVerdict(n.OpName()); !done {
			v, done = p.nameVerdict(n)
		}
	}
	return v, done
}

// delegateVerdict refuses a delegate call, or a node whose graphs hold one.
func (p *Profile) delegateVerdict(n *ir.Node, nests bool) (v Verdict, done bool) {
	if m, ok := n.DelegateModule(); ok {
		return Verdict{Delegated, "it calls " + m}, true
	}
	if nests {
		if where, m, ok := callsDelegate(n); ok {
			return Verdict{Delegated, where + " calls " + m}, true
		}
	}
	return Verdict{}, false
}

// patternVerdict refuses an op ops.include does not admit or ops.exclude
// excludes.
func (p *Profile) patternVerdict(op string) (v Verdict, done bool) {
	if _, ok := p.include.first(op); !ok {
		return Verdict{OpNotIncluded, op}, true
	}
	if pat, ok := p.exclude.first(op); ok {
		return Verdict{OpExcluded, fmt.Sprintf("%s matches %q", op, pat)}, true
	}
	return Verdict{}, false
}

// nameVerdict refuses a node exclude_nodes names.
func (p *Profile) nameVerdict(n *ir.Node) (v Verdict, done bool) {
	if p.excludeNodes[n.Name] {
		return Verdict{NodeExcluded, n.Name}, true
	}
	return Verdict{}, false
}

// valueCheck judges a node's values' dtypes and shapes, the first refusal
// kept.
type valueCheck struct {
	p *Profile
	g *ir.Graph
	v Verdict
}

func (c *valueCheck) check(name string) { c.checkMeta(name, c.g.TensorValues[name]) }

// checkMeta judges value name, m its tensor_values entry (nil: not a
// tensor).
func (c *valueCheck) checkMeta(name string, m *ir.TensorMeta) {
	if c.v.Reason != Supported || m == nil {
		return
	}
	if !c.p.AcceptsDType(m.DType) {
		c.v = Verdict{DTypeRefused, fmt.Sprintf("%s is %s", name, m.DType.Short())}
	} else if !c.p.DynamicShapes && !m.IsStatic() {
		c.v = Verdict{DynamicRefused, name + " has a symbolic size"}
	}
}

// nodeVerdict is v, or the profile's NodeCheck refusing n.
func (p *Profile) nodeVerdict(g *ir.Graph, n *ir.Node, v Verdict) Verdict {
	if v.OK() && p.NodeCheck != nil {
		if err := p.NodeCheck(g, n); err != nil {
			v = Verdict{ArgsRefused, err.Error()}
		}
	}
	return v
}

// callsDelegate finds a delegate call in the graphs a control node runs
// (a cond whose branch a backend before took part of): a module cannot
// call a delegate, so the node stays in the parent, and its graphs are
// partitioned on their own. where names the node's graph holding it.
func callsDelegate(n *ir.Node) (where, module string, found bool) {
	for _, sub := range n.SubGraphs() {
		if m, ok := graphCallsDelegate(sub.Graph); ok {
			return sub.Name, m, true
		}
	}
	return "", "", false
}

// graphCallsDelegate finds a delegate call in g or a graph it nests,
// without building the nested graphs' paths (a deep nest would make that
// quadratic in its depth).
func graphCallsDelegate(g *ir.Graph) (string, bool) {
	if g == nil {
		return "", false
	}
	for _, n := range g.Nodes {
		if m, ok := n.DelegateModule(); ok {
			return m, true
		}
		for _, sub := range n.SubGraphs() {
			if m, ok := graphCallsDelegate(sub.Graph); ok {
				return m, true
			}
		}
	}
	return "", false
}

// IncludedBy returns the ops.include pattern that admits op, if any.
func (p *Profile) IncludedBy(op string) (string, bool) { return p.include.first(op) }

// Unmatched is a part of a profile that selects nothing in a program: an
// ops pattern no op matches, or an excluded node name no node has. A
// typo there changes nothing, silently, so callers warn about it.
type Unmatched struct {
	// Key is the key path in the profile ("ops.include[2]",
	// "exclude_nodes[0]"); Value the pattern or name.
	Key, Value string
	// Node: an exclude_nodes name (else an ops pattern).
	Node bool
}

// Unmatched lists each ops.include and ops.exclude pattern that matches
// none of ops, and each exclude_nodes name not among nodes.
func (p *Profile) Unmatched(ops, nodes []string) []Unmatched {
	var out []Unmatched
	for _, set := range []struct {
		key   string
		globs globSet
	}{{"ops.include", p.include}, {"ops.exclude", p.exclude}} {
		for i, g := range set.globs {
			matched := false
			for _, op := range ops {
				if g.match(op) {
					matched = true
					break
				}
			}
			if !matched {
				out = append(out, Unmatched{Key: fmt.Sprintf("%s[%d]", set.key, i), Value: g.text})
			}
		}
	}
	have := make(map[string]bool, len(nodes))
	for _, n := range nodes {
		have[n] = true
	}
	for i, n := range p.ExcludeNodes {
		if !have[n] {
			out = append(out, Unmatched{Key: fmt.Sprintf("exclude_nodes[%d]", i), Value: n, Node: true})
		}
	}
	return out
}
