package lower

import (
	"errors"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/sym"
	"github.com/seam-rt/seam/verify"
)

// rederive computes v's expression with em, from the sizes of the tensors
// em may read, as far as they determine it (sym.Knowledge: a dim that is
// the expression, symbols the dims determine, dims known as wholes). The
// nodes it adds are returned; a value standing for v (a literal, or a
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
func (gc *graphCut) emitterFor(k int) *emitter {
	if em, ok := gc.emitters[k]; ok {
		return em
	}
	tensors := gc.parentTensors()
	if k >= 0 {
		tensors = gc.tensorInputs(k)
	}
	em := &emitter{lw: gc.lw}
	em.sources = verify.GivenSizes(gc.g, tensors, gc.lw.parse)
	sizes := verify.Exprs(em.sources)
	em.know = sym.Know(sizes, gc.lw.ranges())
	gc.emitters[k] = em
	return em
}
