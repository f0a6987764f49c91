package lower

import (
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/sym"
)

// parse reads a stored expression once per text.
func (lw *lowerer) parse(text string) (*sym.Expr, error) {
	if lw.exprs == nil {
		lw.exprs = map[string]*sym.Expr{}
	}
	if e, ok := lw.exprs[text]; ok {
		return e, nil
	}
	e, err := sym.Parse(text)
	if err != nil {
		return nil, err
	}
	lw.exprs[text] = e
	return e, nil
}

// ranges are the program's symbol ranges, as package sym takes them.
func (lw *lowerer) ranges() map[string]sym.Range {
	if lw.symRanges == nil {
		lw.symRanges = map[string]sym.Range{}
		for name, rc := range lw.main.RangeConstraints {
			lw.symRanges[name] = sym.IntRangeBounds(rc.Min, rc.Max)
		}
	}
	return lw.symRanges
}

// printExpr is v's expression as annotations print it, or its literal.
func (gc *graphCut) printExpr(v string) string {
	text := gc.exprOf(v)
	if text == "" {
		switch gc.typeOf(v) {
		case ir.ValueSymInt:
			return sym.Int(gc.g.SymIntValues[v].Int).String()
		case ir.ValueSymFloat:
			return ir.FormatPyFloat(gc.g.SymFloatValues[v].Float)
		case ir.ValueSymBool:
			if gc.g.SymBoolValues[v].Bool {
				return "True"
			}
			return "False"
		}
		return ""
	}
	e, err := gc.lw.parse(text)
	if err != nil {
		return text
	}
	return e.String()
}

func names(cs []*created) []string {
	out := []string{}
	for _, c := range cs {
		out = append(out, c.node.Name)
	}
	return out
}

func (gc *graphCut) inCrossing(d *inDecision) Crossing {
	from := "parent"
	if i := gc.producer(d.value); i >= 0 && gc.part(i) >= 0 {
		from = gc.region(gc.part(i))
	}
	c := Crossing{
		Value: d.value, Type: gc.typeOf(d.value).String(), Expr: gc.printExpr(d.value),
		From: from, To: gc.region(d.part), Policy: d.how.String(),
		Added: names(d.added), Dropped: append([]string{}, d.dropped...), Detail: d.detail,
	}
	if d.box != "" {
		c.Added = append([]string{d.box}, c.Added...)
	}
	return c
}

func (gc *graphCut) outCrossing(d *outDecision) Crossing {
	c := Crossing{
		Value: d.value, Type: gc.typeOf(d.value).String(), Expr: gc.printExpr(d.value),
		From: gc.region(d.part), To: "parent", Policy: d.how.String(),
		Added: names(d.added), Dropped: append([]string{}, d.dropped...), Detail: d.detail,
	}
	if d.inside != nil {
		c.Added = append([]string{d.inside.node.Name}, c.Added...)
	}
	return c
}
