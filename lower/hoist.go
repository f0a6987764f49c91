package lower

import (
	"fmt"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/ops"
)

// isScalarOp: the cheap scalar ops hoisting may copy, and the parent drops
// once nothing uses their values: symbolic ops (sizes, scalar arithmetic),
// and reads of a scalar out of a tensor (_local_scalar_dense).
func isScalarOp(target string) bool {
	switch ops.ClassOf(target) {
	case ops.Symbolic:
		return true
	case ops.Compute:
		s, ok := ops.Lookup(target)
		return ok && s.ScalarResult()
	}
	return false
}

// hoistInto copies the scalar chain producing v into partition k, when
// every tensor the chain reads is already an input of k. The copies go
// first in the module, so a chain through a value k itself makes cannot
// be hoisted (it would be defined twice).
func (gc *graphCut) hoistInto(k int, v string) ([]*created, error) {
	avail := map[string]bool{}
	for _, t := range gc.tensorInputs(k) {
		avail[t] = true
	}
	return gc.hoistChain(v, func(t string) bool { return avail[t] }, func(s string) (bool, error) {
		if i := gc.producer(s); i >= 0 && gc.part(i) == k {
			return false, fmt.Errorf("%s is made inside the module, after the point the chain must be computed", s)
		}
		return false, nil
	}, map[string]bool{})
}

// hoistToParent copies the scalar chain producing v (made in partition k)
// into the parent, when every tensor it reads is a graph input or made by
// a parent node. Symbolic values the parent makes itself are used as they
// are.
func (gc *graphCut) hoistToParent(v string) ([]*created, error) {
	inParent := func(s string) bool {
		i := gc.producer(s)
		return i < 0 || gc.part(i) < 0
	}
	return gc.hoistChain(v, inParent, func(s string) (bool, error) { return inParent(s), nil }, map[string]bool{})
}

// hoistChain copies the scalar nodes that compute v, depth first.
// tensorAvailable says which tensors the destination has; symAvailable
// whether a symbolic value is already there (no copy needed), or an error
// when copying its chain would be wrong.
func (gc *graphCut) hoistChain(v string, tensorAvailable func(string) bool, symAvailable func(string) (bool, error), done map[string]bool) ([]*created, error) {
	if done[v] {
		return nil, nil
	}
	i := gc.producer(v)
	if i < 0 {
		return nil, fmt.Errorf("%s is a graph input, not computed by scalar ops", v)
	}
	n := gc.g.Nodes[i]
	if !isScalarOp(n.Target) {
		return nil, fmt.Errorf("%s is made by %s, which is not a scalar op", v, n.OpName())
	}
	var out []*created
	var err error
	n.ForEachInputRef(func(r string) {
		if err != nil {
			return
		}
		switch t := gc.typeOf(r); {
		case t == ir.ValueTensor:
			if !tensorAvailable(r) {
				err = fmt.Errorf("%s needs tensor %s, which is not available there", n.Name, r)
			}
		case isSymbolic(t):
			var avail bool
			if avail, err = symAvailable(r); err != nil || avail {
				return
			}
			var sub []*created
			sub, err = gc.hoistChain(r, tensorAvailable, symAvailable, done)
			out = append(out, sub...)
		default:
			err = fmt.Errorf("%s needs %s (%s)", n.Name, r, t)
		}
	})
	if err != nil {
		return nil, err
	}
	done[v] = true
	c := &created{node: n.Clone()}
	n.ForEachOutputRef(func(o string) { gc.copyMeta(c, o) })
	return append(out, c), nil
}
