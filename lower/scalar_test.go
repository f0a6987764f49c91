package lower

import (
	"testing"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/sym"
	"github.com/seam-rt/seam/verify"
)

func mustParse(t *testing.T, s string) *sym.Expr {
	t.Helper()
	e, err := sym.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestEmitterSharesAndRollsBack: expressions with a common subexpression
// share its nodes, and an attempt that fails halfway leaves nothing behind
// that a later expression could refer to.
func TestEmitterSharesAndRollsBack(t *testing.T) {
	lw := &lowerer{names: newNamer()}
	s0 := mustParse(t, "s0")
	em := &emitter{lw: lw, know: sym.Know([]*sym.Expr{s0}, nil), sources: []verify.GivenSize{{Input: "x", Dim: 0, Expr: s0}}}
	// s1 is nowhere: nothing is derived.
	if _, err := em.emitRoot(mustParse(t, "s0 + s1"), "a"); err == nil || err.Error() != "no tensor it receives determines s1" {
		t.Fatalf("s0 + s1: %v", err)
	}
	// s0 + 2**s0 fails halfway (no scalar op raises to a symbolic power):
	// rolled back, nothing may stay behind.
	n, k := em.mark()
	size := &sym.Derivation{Expr: s0, Size: 0}
	pow := &sym.Derivation{Expr: mustParse(t, "2**s0"), Size: -1, Op: sym.OpPow,
		Args: []*sym.Derivation{{Expr: sym.Int(2), Size: -1, Op: sym.OpInteger}, size}}
	sum := &sym.Derivation{Expr: mustParse(t, "s0 + 2**s0"), Size: -1, Op: sym.OpAdd, Args: []*sym.Derivation{size, pow}}
	if _, err := em.emit(sum, "a", nil); err == nil {
		t.Fatal("2**s0 was emitted")
	}
	if len(em.nodes) == 0 {
		t.Fatal("the attempt failed before emitting anything; the test tests nothing")
	}
	em.rollback(n, k)
	if len(em.nodes) != 0 || len(em.done) != 0 {
		t.Fatalf("a failed attempt left %d nodes and %d memos", len(em.nodes), len(em.done))
	}
	if _, err := em.emitRoot(mustParse(t, "2*s0 + 1"), "b"); err != nil {
		t.Fatal(err)
	}
	first := len(em.nodes)
	repl, err := em.emitRoot(mustParse(t, "2*s0"), "c")
	if err != nil {
		t.Fatal(err)
	}
	if repl == nil || len(em.nodes) != first {
		t.Errorf("2*s0 was computed again (%d new nodes) instead of reused", len(em.nodes)-first)
	}
	defined := map[string]bool{"x": true}
	for _, c := range em.nodes {
		c.node.ForEachInputRef(func(v string) {
			if !defined[v] {
				t.Errorf("node %s uses %s before it is defined", c.node.Name, v)
			}
		})
		c.node.ForEachOutputRef(func(v string) { defined[v] = true })
	}
	if repl != nil && repl.Kind == ir.ArgSymInt && !defined[repl.Name] {
		t.Errorf("2*s0 stands for %s, which no node defines", repl.Name)
	}
}
