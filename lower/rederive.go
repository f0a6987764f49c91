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
// that compute them. It derives from the symbolic dims of the tensors the
// region receives, in order of first use.
func (gc *graphCut) emitterFor(p *plan, k int) *emitter {
	if em, ok := gc.emitters[k]; ok {
		return em
	}
	tensors := gc.parentTensors()
	if k >= 0 {
		tensors = gc.tensorInputs(p, k)
	}
	em := &emitter{lw: gc.lw}
	var sizes []*sym.Expr
	for _, t := range tensors {
		m := gc.g.TensorValues[t]
		if m == nil {
			continue
		}
		for d, size := range m.Sizes {
			if size.Expr == nil {
				continue
			}
			if e, err := gc.lw.parse(size.Expr.Expr); err == nil {
				em.sources = append(em.sources, sizeSource{tensor: t, dim: d, expr: e})
				sizes = append(sizes, e)
			}
		}
	}
	em.know = sym.Know(sizes, gc.lw.ranges())
	gc.emitters[k] = em
	return em
}
