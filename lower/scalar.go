package lower

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/sym"
	"github.com/seam-rt/seam/verify"
)

// created is a node lowering made, with the metadata of what it defines.
type created struct {
	node      *ir.Node
	tensors   map[string]*ir.TensorMeta
	symInts   map[string]ir.SymInt
	symBools  map[string]ir.SymBool
	symFloats map[string]ir.SymFloat
}

// addTo puts the node's value metadata into g's tables.
func (c *created) addTo(g *ir.Graph) {
	for k, v := range c.tensors {
		g.TensorValues[k] = v
	}
	for k, v := range c.symInts {
		g.SymIntValues[k] = v
	}
	for k, v := range c.symBools {
		g.SymBoolValues[k] = v
	}
	for k, v := range c.symFloats {
		g.SymFloatValues[k] = v
	}
}

// symValue records a symbolic value's metadata on c.
func (c *created) symValue(name string, t ir.ValueType, expr string) {
	se := &ir.SymExpr{Expr: expr}
	switch t {
	case ir.ValueSymInt:
		c.symInts = map[string]ir.SymInt{name: {Expr: se}}
	case ir.ValueSymBool:
		c.symBools = map[string]ir.SymBool{name: {Expr: se}}
	case ir.ValueSymFloat:
		c.symFloats = map[string]ir.SymFloat{name: {Expr: se}}
	}
}

func symRef(name string, t ir.ValueType) ir.Argument {
	switch t {
	case ir.ValueSymBool:
		return ir.SymBoolRef(name)
	case ir.ValueSymFloat:
		return ir.SymFloatRef(name)
	}
	return ir.SymIntRef(name)
}

func valueTypeOf(t sym.Type) ir.ValueType {
	switch t {
	case sym.TypeBool:
		return ir.ValueSymBool
	case sym.TypeFloat:
		return ir.ValueSymFloat
	}
	return ir.ValueSymInt
}

func positional(name string, a ir.Argument) ir.NamedArgument {
	return ir.NamedArgument{Name: name, Arg: a, Kind: ir.KindPositional}
}

// symSizeNode is `name = aten.sym_size.int(tensor, dim)`.
func symSizeNode(name, tensor string, dim int, expr string) *created {
	c := &created{node: &ir.Node{
		Name:     name,
		Target:   "torch.ops.aten.sym_size.int",
		Inputs:   []ir.NamedArgument{positional("self", ir.TensorArg(tensor)), positional("dim", ir.IntArg(int64(dim)))},
		Outputs:  []ir.Argument{ir.SymIntRef(name)},
		Metadata: ir.Metadata{},
	}}
	c.symValue(name, ir.ValueSymInt, expr)
	return c
}

// scalarOps maps expression operations to the Python scalar functions
// export itself uses for them, with their parameter names.
var scalarOps = map[sym.Op]struct {
	target string
	params []string
}{
	sym.OpAdd:          {"_operator.add", []string{"a", "b"}},
	sym.OpMul:          {"_operator.mul", []string{"a", "b"}},
	sym.OpPow:          {"_operator.pow", []string{"a", "b"}},
	sym.OpFloorDiv:     {"_operator.floordiv", []string{"a", "b"}},
	sym.OpCleanDiv:     {"_operator.floordiv", []string{"a", "b"}},
	sym.OpMod:          {"_operator.mod", []string{"a", "b"}},
	sym.OpPythonMod:    {"_operator.mod", []string{"a", "b"}},
	sym.OpMax:          {"torch.sym_max", []string{"a", "b"}},
	sym.OpMin:          {"torch.sym_min", []string{"a", "b"}},
	sym.OpEq:           {"_operator.eq", []string{"a", "b"}},
	sym.OpNe:           {"_operator.ne", []string{"a", "b"}},
	sym.OpLt:           {"_operator.lt", []string{"a", "b"}},
	sym.OpLe:           {"_operator.le", []string{"a", "b"}},
	sym.OpGt:           {"_operator.gt", []string{"a", "b"}},
	sym.OpGe:           {"_operator.ge", []string{"a", "b"}},
	sym.OpAnd:          {"_operator.and_", []string{"a", "b"}},
	sym.OpOr:           {"_operator.or_", []string{"a", "b"}},
	sym.OpNot:          {"torch.sym_not", []string{"a"}},
	sym.OpToFloat:      {"torch.sym_float", []string{"a"}},
	sym.OpFloatTrueDiv: {"_operator.truediv", []string{"a", "b"}},
	sym.OpIntTrueDiv:   {"_operator.truediv", []string{"a", "b"}},
	sym.OpTruncToInt:   {"math.trunc", []string{"x"}},
	sym.OpFloorToInt:   {"math.floor", []string{"x"}},
	sym.OpCeilToInt:    {"math.ceil", []string{"x"}},
	sym.OpAbs:          {"_operator.abs", []string{"a"}},
	sym.OpWhere:        {"torch.sym_ite", []string{"b", "t", "f"}},
}

// emitter writes the nodes that compute expressions from the sizes of the
// tensors a region receives (rederive), as the region's Knowledge derives
// them. It remembers what it has computed, by canonical key, so expressions
// sharing subexpressions share their nodes.
type emitter struct {
	lw *lowerer
	// know derives expressions from sources, the symbolic dims of the
	// tensors the region receives.
	know    *sym.Knowledge
	sources []verify.GivenSize
	done    map[string]ir.Argument
	nodes   []*created
	// keys lists what done learned, in order, so a failed attempt can be
	// forgotten (mark and rollback).
	keys []string
}

func (em *emitter) remember(e *sym.Expr, a ir.Argument) ir.Argument {
	if em.done == nil {
		em.done = map[string]ir.Argument{}
	}
	k := e.Canonical().Key()
	if _, ok := em.done[k]; !ok {
		em.keys = append(em.keys, k)
	}
	em.done[k] = a
	return a
}

// mark and rollback undo an attempt that failed halfway: its nodes and
// what it remembered are dropped.
func (em *emitter) mark() (nodes, keys int) { return len(em.nodes), len(em.keys) }

func (em *emitter) rollback(nodes, keys int) {
	em.nodes = em.nodes[:nodes]
	for _, k := range em.keys[keys:] {
		delete(em.done, k)
	}
	em.keys = em.keys[:keys]
}

type notDerivable struct{ why string }

func (e notDerivable) Error() string { return e.why }

// emitRoot computes e into a node named name, or returns what stands for
// it: the literal it folds to, or the value already computing it.
func (em *emitter) emitRoot(e *sym.Expr, name string) (*ir.Argument, error) {
	if a, ok := em.done[e.Canonical().Key()]; ok {
		return &a, nil
	}
	d, err := em.know.Plan(e)
	if err != nil {
		return nil, em.undetermined(err)
	}
	a, err := em.emit(d, name, e)
	if err != nil {
		return nil, err
	}
	if a.Name == "" {
		return &a, nil
	}
	return nil, nil
}

// undetermined says which symbol no received tensor determines, and in
// which sizes it appears only as part of a whole.
func (em *emitter) undetermined(err error) error {
	var ue *sym.UndeterminedError
	if !errors.As(err, &ue) {
		return notDerivable{err.Error()}
	}
	why := fmt.Sprintf("no tensor it receives determines %s", ue.Symbol)
	var wholes []string
	seen := map[string]bool{}
	for _, i := range em.know.Units() {
		src := em.sources[i]
		if text := src.Expr.String(); !seen[text] && slices.Contains(src.Expr.Symbols(), ue.Symbol) {
			seen[text] = true
			wholes = append(wholes, fmt.Sprintf("%s (%s)", text, src))
		}
	}
	if len(wholes) > 0 {
		why += "; it receives " + strings.Join(wholes, ", ") + " only as a whole"
	}
	return notDerivable{why}
}

// emit returns an argument holding d's value: a literal, or a reference to
// a node it adds. The outermost node is named root, with the expression
// meta, when root is not "".
func (em *emitter) emit(d *sym.Derivation, root string, meta *sym.Expr) (ir.Argument, error) {
	if a, ok := em.done[d.Expr.Key()]; ok && root == "" {
		return a, nil
	}
	if meta == nil {
		meta = d.Expr
	}
	if d.Size >= 0 {
		src := em.sources[d.Size]
		name := root
		if name == "" {
			name = em.lw.names.fresh("sym_size_int")
		}
		em.nodes = append(em.nodes, symSizeNode(name, src.Input, src.Dim, meta.Srepr()))
		return em.remember(d.Expr, ir.SymIntRef(name)), nil
	}
	e := d.Expr
	switch {
	case d.IsNumber():
		switch e.Op() {
		case sym.OpInteger:
			v, ok := e.Int64()
			if !ok {
				return ir.Argument{}, notDerivable{"an integer beyond int64"}
			}
			return ir.IntArg(v), nil
		case sym.OpFloat:
			v, _ := e.Float64()
			return ir.FloatArg(v), nil
		case sym.OpTrue, sym.OpFalse:
			v, _ := e.BoolValue()
			return ir.BoolArg(v), nil
		}
		return ir.Argument{}, notDerivable{fmt.Sprintf("no literal holds %s", e)}
	case d.Op == sym.OpCeilDiv:
		// ceil(a / b) == -((-a) // b)
		a, b := d.Args[0], d.Args[1]
		fd, err := sym.New(sym.OpFloorDiv, sym.Neg(a.Expr), b.Expr)
		if err != nil {
			return ir.Argument{}, notDerivable{err.Error()}
		}
		floor := &sym.Derivation{Expr: fd, Size: -1, Op: sym.OpFloorDiv, Args: []*sym.Derivation{negate(a), b}}
		return em.emit(negate(floor), root, meta)
	}
	spec, ok := scalarOps[d.Op]
	if !ok {
		return ir.Argument{}, notDerivable{fmt.Sprintf("no scalar op computes %s", e)}
	}
	if d.Op == sym.OpPow {
		if v, ok := d.Args[1].Expr.Int64(); !ok || v < 0 {
			return ir.Argument{}, notDerivable{fmt.Sprintf("%s needs a non-negative integer power", e)}
		}
	}
	vals := make([]ir.Argument, len(d.Args))
	for i, a := range d.Args {
		v, err := em.emit(a, "", nil)
		if err != nil {
			return ir.Argument{}, err
		}
		vals[i] = v
	}
	t := valueTypeOf(e.Type())
	// n-ary sums, products, max, min, and, or fold left, pairwise.
	if len(spec.params) == 2 && len(vals) > 2 {
		acc := vals[0]
		for i := 1; i < len(vals); i++ {
			name, m := "", partialExpr(d, i)
			if i == len(vals)-1 {
				name, m = root, meta
			}
			acc = em.node(spec.target, spec.params, []ir.Argument{acc, vals[i]}, t, m, name)
		}
		return em.remember(e, acc), nil
	}
	if len(vals) != len(spec.params) {
		return ir.Argument{}, notDerivable{fmt.Sprintf("%s has %d arguments", e, len(vals))}
	}
	return em.remember(e, em.node(spec.target, spec.params, vals, t, meta, root)), nil
}

// negate is -d, as a product with -1.
func negate(d *sym.Derivation) *sym.Derivation {
	return &sym.Derivation{Expr: sym.Neg(d.Expr), Size: -1, Op: sym.OpMul,
		Args: []*sym.Derivation{{Expr: sym.Int(-1), Size: -1, Op: sym.OpInteger}, d}}
}

// partialExpr is the expression of the first i+1 arguments of an n-ary
// derivation.
func partialExpr(d *sym.Derivation, i int) *sym.Expr {
	if i == len(d.Args)-1 {
		return d.Expr
	}
	args := make([]*sym.Expr, i+1)
	for j := range args {
		args[j] = d.Args[j].Expr
	}
	p, err := sym.New(d.Op, args...)
	if err != nil {
		return d.Expr
	}
	return p
}

func (em *emitter) node(target string, params []string, args []ir.Argument, t ir.ValueType, e *sym.Expr, name string) ir.Argument {
	if name == "" {
		name = em.lw.names.fresh(baseName(target))
	}
	n := &ir.Node{Name: name, Target: target, Outputs: []ir.Argument{symRef(name, t)}, Metadata: ir.Metadata{}}
	for i, a := range args {
		n.Inputs = append(n.Inputs, positional(params[i], a))
	}
	c := &created{node: n}
	c.symValue(name, t, e.Srepr())
	em.nodes = append(em.nodes, c)
	return symRef(name, t)
}

// baseName is how FX names a node calling target: `_operator.floordiv`
// becomes floordiv, `torch.sym_float` sym_float.
func baseName(target string) string {
	for i := len(target) - 1; i >= 0; i-- {
		if target[i] == '.' {
			return trimUnderscore(target[i+1:])
		}
	}
	return target
}

func trimUnderscore(s string) string {
	for len(s) > 1 && s[len(s)-1] == '_' {
		s = s[:len(s)-1]
	}
	return s
}
