package verify

import (
	"fmt"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/sym"
)

// GivenSize is a symbolic size a graph is given: a dim of a tensor input
// (Dim >= 0), or a SymInt input (Dim < 0).
type GivenSize struct {
	Input string
	Dim   int
	Expr  *sym.Expr
}

func (s GivenSize) String() string {
	if s.Dim < 0 {
		return s.Input
	}
	return fmt.Sprintf("%s dim %d", s.Input, s.Dim)
}

// GivenSizes lists the symbolic sizes of the named values of g, in order:
// each symbolic dim of a tensor, each SymInt with an expression. Sizes
// that do not parse are left out (the metadata rules report them).
func GivenSizes(g *ir.Graph, names []string, parse func(string) (*sym.Expr, error)) []GivenSize {
	if parse == nil {
		parse = sym.Parse
	}
	var out []GivenSize
	for _, name := range names {
		if m := g.TensorValues[name]; m != nil {
			for d, s := range m.Sizes {
				if s.Expr == nil {
					continue
				}
				if e, err := parse(s.Expr.Expr); err == nil {
					out = append(out, GivenSize{name, d, e})
				}
			}
			continue
		}
		if s, ok := g.SymIntValues[name]; ok && s.Expr != nil {
			if e, err := parse(s.Expr.Expr); err == nil {
				out = append(out, GivenSize{name, -1, e})
			}
		}
	}
	return out
}

// Exprs are the sizes' expressions.
func Exprs(sizes []GivenSize) []*sym.Expr {
	out := make([]*sym.Expr, len(sizes))
	for i, s := range sizes {
		out[i] = s.Expr
	}
	return out
}

// Ranges are a program's range constraints as package sym takes them.
func Ranges(p *ir.Program) map[string]sym.Range {
	out := make(map[string]sym.Range, len(p.RangeConstraints))
	for name, rc := range p.RangeConstraints {
		out[name] = sym.IntRangeBounds(rc.Min, rc.Max)
	}
	return out
}
