package specialize

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/sym"
	"github.com/seam-rt/seam/verify"
)

// Result is a specialized program and what specializing it did.
type Result struct {
	Program *ir.Program
	// Bind is the binding it was specialized to.
	Bind sym.Bindings
	// Free lists the program's symbols left symbolic, sorted.
	Free []string
	// Folded lists the scalar nodes whose values became literals and that
	// were removed, in graph order (a nested graph's as cond.true_graph_0.sym).
	Folded []string
	// Asserts lists the assertions the binding satisfies, checked once here
	// and removed.
	Asserts []string
	// Inlined lists the conds replaced by the branch they take.
	Inlined []Inlined
	// Constants lists the user inputs that became constant inputs.
	Constants []string
}

// Inlined is a cond whose predicate became constant.
type Inlined struct {
	Node   string // the cond (path-qualified in a nested graph)
	Branch string // the branch taken (true_graph_0)
	Pred   bool
}

// Error is a binding the program cannot take: an unknown symbol, a value
// outside its symbol's range, a symbol its inputs do not determine, an
// assertion the binding fails, or a size it makes negative or undefined.
// Symbol or Node names what it is about.
type Error struct {
	Symbol string
	Node   string
	Msg    string
}

func (e *Error) Error() string { return e.Msg }

// Program specializes p to the binding b. It never modifies p; the result
// shares p's weights. Errors are *Error values (joined when several symbols
// are wrong at once), except for a program seam cannot specialize at all
// (a lowered program, an expression that does not parse), which is the
// input's fault too and says so.
func Program(p *ir.Program, b sym.Bindings) (*Result, error) {
	s := &specializer{bind: maps.Clone(b), parsed: map[string]*sym.Expr{}, evals: map[string]evalResult{}, done: map[*ir.Graph]bool{}}
	if s.bind == nil {
		s.bind = sym.Bindings{}
	}
	if err := s.checkProgram(p); err != nil {
		return nil, err
	}
	symbols, err := s.symbols(p)
	if err != nil {
		return nil, err
	}
	if err := s.checkBinding(p, symbols); err != nil {
		return nil, err
	}
	s.subst = make(map[string]*sym.Expr, len(s.bind))
	for name, v := range s.bind {
		s.subst[name] = sym.Int(v)
	}
	q := p.Clone()
	s.res = &Result{Program: q, Bind: s.bind}
	st, err := s.graph("", q.Graph)
	if err != nil {
		return nil, err
	}
	s.signature(q, st)
	for name := range s.bind {
		delete(q.RangeConstraints, name)
	}
	for _, name := range symbols {
		if _, ok := s.bind[name]; !ok {
			s.res.Free = append(s.res.Free, name)
		}
	}
	return s.res, nil
}

type specializer struct {
	bind   sym.Bindings
	subst  map[string]*sym.Expr
	parsed map[string]*sym.Expr
	evals  map[string]evalResult
	res    *Result
	// done holds the graphs already specialized (a cond's branch that was
	// specialized to be inlined and then could not be).
	done map[*ir.Graph]bool
}

func (s *specializer) parse(text string) (*sym.Expr, error) {
	if e, ok := s.parsed[text]; ok {
		return e, nil
	}
	e, err := sym.Parse(text)
	if err != nil {
		return nil, err
	}
	s.parsed[text] = e
	return e, nil
}

// checkProgram refuses programs that are not exported programs: a lowered
// program's delegate calls take modules specialized with it.
func (s *specializer) checkProgram(p *ir.Program) error {
	if p.Graph == nil {
		return fmt.Errorf("the program has no graph")
	}
	return p.Graph.Walk(func(path string, g *ir.Graph) error {
		for _, n := range g.Nodes {
			if m, ok := n.DelegateModule(); ok || n.Target == ir.DelegateTarget {
				return fmt.Errorf("node %s calls lowered module %q: specialize the exported program, then lower it", ir.PathName(path, n.Name), m)
			}
		}
		return nil
	})
}

// symbols lists every symbol of the program, sorted: those with a range
// constraint and those in any size or symbolic value of any graph.
func (s *specializer) symbols(p *ir.Program) ([]string, error) {
	set := map[string]bool{}
	for name := range p.RangeConstraints {
		set[name] = true
	}
	add := func(path, value string, se *ir.SymExpr) error {
		if se == nil {
			return nil
		}
		e, err := s.parse(se.Expr)
		if err != nil {
			return fmt.Errorf("value %s: expression %q does not parse: %w", ir.PathName(path, value), se.Expr, err)
		}
		for _, name := range e.Symbols() {
			set[name] = true
		}
		return nil
	}
	err := p.Graph.Walk(func(path string, g *ir.Graph) error {
		for _, name := range ir.SortedKeys(g.TensorValues) {
			m := g.TensorValues[name]
			if m == nil {
				continue
			}
			for _, x := range slices.Concat(m.Sizes, m.Strides, []ir.SymInt{m.StorageOffset}) {
				if err := add(path, name, x.Expr); err != nil {
					return err
				}
			}
		}
		for _, name := range ir.SortedKeys(g.SymIntValues) {
			if err := add(path, name, g.SymIntValues[name].Expr); err != nil {
				return err
			}
		}
		for _, name := range ir.SortedKeys(g.SymBoolValues) {
			if err := add(path, name, g.SymBoolValues[name].Expr); err != nil {
				return err
			}
		}
		for _, name := range ir.SortedKeys(g.SymFloatValues) {
			if err := add(path, name, g.SymFloatValues[name].Expr); err != nil {
				return err
			}
		}
		return nil
	})
	return ir.SortedKeys(set), err
}

// checkBinding refuses unknown symbols, values outside their ranges and
// symbols the user inputs do not determine, all at once.
func (s *specializer) checkBinding(p *ir.Program, symbols []string) error {
	var users []string
	for _, spec := range p.Signature.Inputs {
		if spec.Kind == ir.InputUser {
			users = append(users, spec.PlaceholderName())
		}
	}
	given := verify.GivenSizes(p.Graph, users, s.parse)
	ranges := verify.Ranges(p)
	know := sym.Know(verify.Exprs(given), ranges)
	var errs []error
	for _, name := range ir.SortedKeys(s.bind) {
		v := s.bind[name]
		switch {
		case !slices.Contains(symbols, name):
			known := "it has none"
			if len(symbols) > 0 {
				known = "its symbols are " + strings.Join(symbols, ", ")
			}
			errs = append(errs, &Error{Symbol: name, Msg: fmt.Sprintf("unknown symbol %s: the program has no symbol of that name (%s)", name, known)})
		case !know.Determined(name):
			errs = append(errs, &Error{Symbol: name, Msg: fmt.Sprintf("%s cannot be bound on its own: %s", name, s.undetermined(p, name, given))})
		default:
			if r, ok := ranges[name]; ok && !r.Contains(sym.IntValue(v)) {
				errs = append(errs, &Error{Symbol: name, Msg: fmt.Sprintf("%s = %d is outside its range %s", name, v, r)})
			}
		}
	}
	return errors.Join(errs...)
}

// undetermined says why the user inputs do not determine a symbol.
func (s *specializer) undetermined(p *ir.Program, name string, given []verify.GivenSize) string {
	var in []string
	for _, g := range given {
		if slices.Contains(g.Expr.Symbols(), name) {
			in = append(in, fmt.Sprintf("%s (%s)", g, g.Expr))
		}
	}
	if len(in) > 0 {
		return fmt.Sprintf("the inputs carry it only in %s, which do not tell its value apart from the other symbols there", strings.Join(in, ", "))
	}
	var by string
	_ = p.Graph.Walk(func(path string, g *ir.Graph) error {
		for _, n := range g.Nodes {
			for _, o := range n.OutputNames() {
				if si, ok := g.SymIntValues[o]; ok && si.Expr != nil && by == "" {
					if e, err := s.parse(si.Expr.Expr); err == nil && e.Op() == sym.OpSymbol && e.Name() == name {
						by = ir.PathName(path, n.Name)
					}
				}
			}
		}
		return nil
	})
	if by != "" {
		return fmt.Sprintf("node %s computes it while the program runs, so no input size tells it", by)
	}
	return "no user input's size has it, so no input tells its value"
}

// signature makes the bound SymInt user inputs constant inputs, as
// torch.export writes an int input it specialised, and rewrites the output
// specs and the module call graph as the graph's outputs were.
func (s *specializer) signature(q *ir.Program, st *graphState) {
	g := q.Graph
	used := map[string]bool{}
	for _, n := range g.Nodes {
		n.ForEachInputRef(func(r string) { used[r] = true })
	}
	for i := range g.Outputs {
		g.Outputs[i].ForEachRef(func(r string) { used[r] = true })
	}
	for i := range q.Signature.Inputs {
		spec := &q.Signature.Inputs[i]
		v, ok := st.consts[spec.Arg.Name]
		if spec.Kind != ir.InputUser || !spec.Arg.IsSymbolic() || !ok || used[spec.Arg.Name] || i >= len(g.Inputs) {
			continue
		}
		lit, ok := literal(spec.Arg.Kind, v)
		if !ok {
			continue
		}
		name := spec.Arg.Name
		*spec = ir.InputSpec{Kind: ir.InputConstant, Name: name, Arg: scalarArg(lit)}
		g.Inputs[i] = scalarArg(lit)
		deleteMeta(g, name)
		s.res.Constants = append(s.res.Constants, name)
	}
	fix := func(a *ir.Argument) {
		a.Rename(st.renamed)
		foldArg(a, st.consts)
	}
	for i := range q.Signature.Outputs {
		fix(&q.Signature.Outputs[i].Arg)
	}
	for _, e := range q.ModuleCallGraph {
		if e.Signature == nil {
			continue
		}
		for i := range e.Signature.Inputs {
			fix(&e.Signature.Inputs[i])
		}
		for i := range e.Signature.Outputs {
			fix(&e.Signature.Outputs[i])
		}
	}
}

// ParseBind reads one binding as the command line gives it: s53=128.
func ParseBind(text string) (name string, v int64, err error) {
	name, val, ok := strings.Cut(text, "=")
	name, val = strings.TrimSpace(name), strings.TrimSpace(val)
	if !ok || name == "" || val == "" {
		return "", 0, fmt.Errorf("binding %q: want SYMBOL=VALUE, such as s53=128", text)
	}
	v, err = strconv.ParseInt(val, 10, 64)
	if err != nil {
		return "", 0, fmt.Errorf("binding %q: %s is not an integer", text, val)
	}
	return name, v, nil
}

// String prints a binding as s0 = 2, s1 = 9 (sorted).
func String(b sym.Bindings) string { return b.String() }
