package ir_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/pt2"
)

func TestCloneIsDeepAndEqual(t *testing.T) {
	for _, name := range []string{"gpt2_tiny", "cond", "sym_float"} {
		a, err := pt2.Open(fixtures.Model(name))
		if err != nil {
			t.Fatal(err)
		}
		p, _ := a.Program()
		c := p.Clone()
		opts := cmp.Options{cmpopts.EquateEmpty(), cmp.Comparer(func(x, y ir.Blob) bool { return x == y })}
		if diff := cmp.Diff(p, c, opts); diff != "" {
			t.Fatalf("%s: clone differs:\n%s", name, diff)
		}
		// Mutating every part of the clone leaves the original alone.
		before := p.Graph.Nodes[0].Inputs[0].Arg.Name
		c.Graph.Nodes[0].Inputs[0].Arg.Name = "changed"
		c.Graph.Nodes[0].Metadata.Set("x", "y")
		for i := range c.Graph.Nodes[0].Metadata {
			c.Graph.Nodes[0].Metadata[i].Value = "changed"
		}
		for _, m := range c.Graph.TensorValues {
			if len(m.Sizes) > 0 {
				m.Sizes[0] = ir.IntSym(-1)
			}
		}
		c.Signature.Inputs[0].Arg.Name = "changed"
		_ = c.Graph.Walk(func(_ string, g *ir.Graph) error {
			for _, n := range g.Nodes {
				n.Name = "changed"
			}
			return nil
		})
		if p.Graph.Nodes[0].Inputs[0].Arg.Name != before || p.Signature.Inputs[0].Arg.Name == "changed" {
			t.Errorf("%s: clone shares arguments", name)
		}
		if md := p.Graph.Nodes[0].Metadata; md.Get("x") != "" || len(md) > 0 && md[0].Value == "changed" {
			t.Errorf("%s: clone shares metadata", name)
		}
		_ = p.Graph.Walk(func(_ string, g *ir.Graph) error {
			for _, n := range g.Nodes {
				if n.Name == "changed" {
					t.Errorf("%s: clone shares nested nodes", name)
				}
			}
			for k, m := range g.TensorValues {
				if len(m.Sizes) > 0 && m.Sizes[0].Int == -1 && m.Sizes[0].Expr == nil {
					t.Errorf("%s: clone shares tensor meta %s", name, k)
				}
			}
			return nil
		})
		a.Close()
	}
}
