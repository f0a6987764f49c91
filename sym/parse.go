package sym

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
)

// Parse reads an expression in either form PyTorch writes: SymPy srepr text
// (Symbol('s53', positive=True, integer=True), Mul(Integer(2), ...)), as
// export has written SymExpr.expr_str since 2.9, or the str() form of older
// files and of print_readable (2*s0 + 1, s77 > 4, (s0//2), FloorDiv(s0, 2)).
// Both are Python expressions; Add, Mul and Pow evaluate as SymPy's
// constructors do, as sympify would on loading.
func Parse(text string) (*Expr, error) {
	toks, err := lex(text)
	if err != nil {
		return nil, err
	}
	p := &parser{text: text, toks: toks}
	v, err := p.expr()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tokEOF {
		return nil, p.errAt(t.pos, "unexpected %s", describe(t))
	}
	return p.want(v)
}

// maxDepth bounds nesting, so hostile input cannot exhaust the stack.
const maxDepth = 200

type parser struct {
	text  string
	toks  []token
	i     int
	depth int
}

// value is a parsed operand: an expression or a string literal (the
// argument of Symbol and Float).
type value struct {
	e     *Expr
	str   string
	isStr bool
	pos   int
}

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tokEOF {
		p.i++
	}
	return t
}

func (p *parser) isOp(s string) bool {
	t := p.peek()
	return t.kind == tokOp && t.text == s
}

func (p *parser) errAt(pos int, format string, args ...any) error {
	return &ParseError{Text: p.text, Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

func describe(t token) string {
	switch t.kind {
	case tokEOF:
		return "end of input"
	case tokString:
		return "string"
	}
	return fmt.Sprintf("%q", t.text)
}

func (p *parser) want(v value) (*Expr, error) {
	if v.isStr {
		return nil, p.errAt(v.pos, "a string is not an expression")
	}
	return v.e, nil
}

// expr: comparison, the lowest precedence level used (Python's and/or/not
// keywords never appear in SymPy output).
func (p *parser) expr() (value, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		return value{}, p.errAt(p.peek().pos, "expression nested too deeply")
	}
	return p.comparison()
}

var compareOps = map[string]Op{"<": OpLt, "<=": OpLe, ">": OpGt, ">=": OpGe, "==": OpEq, "!=": OpNe}

func (p *parser) comparison() (value, error) {
	left, err := p.binary(0)
	if err != nil {
		return value{}, err
	}
	var parts []*Expr
	for {
		t := p.peek()
		op, ok := compareOps[t.text]
		if t.kind != tokOp || !ok {
			break
		}
		p.next()
		right, err := p.binary(0)
		if err != nil {
			return value{}, err
		}
		l, err := p.want(left)
		if err != nil {
			return value{}, err
		}
		r, err := p.want(right)
		if err != nil {
			return value{}, err
		}
		parts = append(parts, rawNode(op, []*Expr{l, r}))
		left = right
	}
	switch len(parts) {
	case 0:
		return left, nil
	case 1:
		return value{e: parts[0], pos: left.pos}, nil
	}
	// a < b < c means (a < b) & (b < c), as in Python.
	return value{e: rawNode(OpAnd, parts), pos: left.pos}, nil
}

// Binary operator levels, loosest first: | & + * (Python's order; ^, << and
// >> do not occur in SymPy's str form).
var binaryLevels = [][]string{{"|"}, {"&"}, {"+", "-"}, {"*", "/", "//", "%"}}

func (p *parser) binary(level int) (value, error) {
	if level == len(binaryLevels) {
		return p.unary()
	}
	left, err := p.binary(level + 1)
	if err != nil {
		return value{}, err
	}
	for {
		t := p.peek()
		if t.kind != tokOp || !contains(binaryLevels[level], t.text) {
			if t.kind == tokOp && (t.text == "^" || t.text == "<<" || t.text == ">>") {
				return value{}, p.errAt(t.pos, "unsupported operator %q", t.text)
			}
			return left, nil
		}
		p.next()
		right, err := p.binary(level + 1)
		if err != nil {
			return value{}, err
		}
		l, err := p.want(left)
		if err != nil {
			return value{}, err
		}
		r, err := p.want(right)
		if err != nil {
			return value{}, err
		}
		left = value{e: applyBinary(t.text, l, r), pos: left.pos}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func applyBinary(op string, l, r *Expr) *Expr {
	switch op {
	case "+":
		return Add(l, r)
	case "-":
		return Sub(l, r)
	case "*":
		return Mul(l, r)
	case "/":
		return Div(l, r)
	case "//":
		return rawNode(OpFloorDiv, []*Expr{l, r})
	case "%":
		return rawNode(OpPythonMod, []*Expr{l, r})
	case "&":
		return flatLogic(OpAnd, l, r)
	}
	return flatLogic(OpOr, l, r)
}

// flatLogic joins a & b & c into one And, as SymPy does.
func flatLogic(op Op, l, r *Expr) *Expr {
	var args []*Expr
	for _, x := range []*Expr{l, r} {
		if x.op == op {
			args = append(args, x.args...)
		} else {
			args = append(args, x)
		}
	}
	return rawNode(op, args)
}

func (p *parser) unary() (value, error) {
	t := p.peek()
	if t.kind == tokOp && (t.text == "-" || t.text == "+" || t.text == "~") {
		p.next()
		p.depth++
		defer func() { p.depth-- }()
		if p.depth > maxDepth {
			return value{}, p.errAt(t.pos, "expression nested too deeply")
		}
		v, err := p.unary()
		if err != nil {
			return value{}, err
		}
		x, err := p.want(v)
		if err != nil {
			return value{}, err
		}
		switch t.text {
		case "-":
			x = Neg(x)
		case "~":
			x = rawNode(OpNot, []*Expr{x})
		}
		return value{e: x, pos: t.pos}, nil
	}
	return p.power()
}

func (p *parser) power() (value, error) {
	base, err := p.primary()
	if err != nil {
		return value{}, err
	}
	if !p.isOp("**") {
		return base, nil
	}
	p.next()
	// The exponent binds to the right and may carry a sign: 2**-x**2.
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		return value{}, p.errAt(p.peek().pos, "expression nested too deeply")
	}
	exp, err := p.unary()
	if err != nil {
		return value{}, err
	}
	b, err := p.want(base)
	if err != nil {
		return value{}, err
	}
	x, err := p.want(exp)
	if err != nil {
		return value{}, err
	}
	return value{e: Pow(b, x), pos: base.pos}, nil
}

func (p *parser) primary() (value, error) {
	t := p.next()
	switch t.kind {
	case tokInt:
		v, ok := new(big.Int).SetString(t.text, 10)
		if !ok {
			return value{}, p.errAt(t.pos, "bad integer %q", t.text)
		}
		return value{e: newInteger(v), pos: t.pos}, nil
	case tokFloat:
		f, err := strconv.ParseFloat(t.text, 64)
		if err != nil || math.IsInf(f, 0) {
			return value{}, p.errAt(t.pos, "float %q out of range", t.text)
		}
		return value{e: floatPrec(f, 53), pos: t.pos}, nil
	case tokString:
		return value{str: t.text, isStr: true, pos: t.pos}, nil
	case tokName:
		if p.isOp("(") {
			return p.call(t)
		}
		e, err := p.name(t)
		return value{e: e, pos: t.pos}, err
	case tokOp:
		if t.text == "(" {
			v, err := p.expr()
			if err != nil {
				return value{}, err
			}
			if !p.isOp(")") {
				return value{}, p.errAt(p.peek().pos, "expected ')', found %s", describe(p.peek()))
			}
			p.next()
			return value{e: v.e, str: v.str, isStr: v.isStr, pos: t.pos}, nil
		}
	}
	return value{}, p.errAt(t.pos, "unexpected %s", describe(t))
}

// name resolves a bare name: SymPy's constants, else a symbol.
func (p *parser) name(t token) (*Expr, error) {
	switch t.text {
	case "true", "True":
		return Bool(true), nil
	case "false", "False":
		return Bool(false), nil
	case "oo":
		return Infinity(), nil
	case "int_oo":
		return IntInfinity(), nil
	case "nan":
		return NaN(), nil
	case "zoo", "I", "E", "pi", "None":
		return nil, p.errAt(t.pos, "unsupported constant %s", t.text)
	}
	return Sym(t.text), nil
}
