package lower

import (
	"errors"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/sym"
)

// rederive computes v's expression with em, from the sizes of the tensors
// em may read: each symbol must be exactly the size of some dim of one.
// The nodes it adds are returned; a value standing for v (a literal, or a
// value with the same expression made for an earlier crossing) instead.
func (gc *graphCut) rederive(v string, em *emitter) (*ir.Argument, []*created, error) {
	text := gc.exprOf(v)
	if text == "" {
		return nil, nil, errors.New("the value has no expression")
	}
	e, err := gc.lw.parse(text)
	if err != nil {
		return nil, nil, err
	}
	nodes, keys := em.mark()
	repl, err := em.emitRoot(e, v)
	if err != nil {
		em.rollback(nodes, keys)
		return nil, nil, err
	}
	return repl, em.nodes[nodes:], nil
}

// emitterFor is the emitter of one region for the current plan (k < 0:
// the parent), so that values with shared subexpressions share the nodes
// that compute them.
func (gc *graphCut) emitterFor(p *plan, k int) *emitter {
	if em, ok := gc.emitters[k]; ok {
		return em
	}
	tensors := gc.parentTensors()
	if k >= 0 {
		tensors = gc.tensorInputs(p, k)
	}
	em := &emitter{lw: gc.lw, find: func(s string) (string, int, bool) {
		return gc.findSymbol(s, tensors)
	}}
	gc.emitters[k] = em
	return em
}

// findSymbol finds the first tensor (in the given order) with a dim whose
// size is exactly symbol s.
func (gc *graphCut) findSymbol(s string, tensors []string) (string, int, bool) {
	for _, t := range tensors {
		m := gc.g.TensorValues[t]
		if m == nil {
			continue
		}
		for d, size := range m.Sizes {
			if size.Expr == nil {
				continue
			}
			e, err := gc.lw.parse(size.Expr.Expr)
			if err == nil && e.Op() == sym.OpSymbol && e.Name() == s {
				return t, d, true
			}
		}
	}
	return "", 0, false
}
