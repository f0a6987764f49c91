package verify

import (
	"fmt"
	"maps"
	"slices"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/sym"
)

// specializations checks what the runtime relies on to dispatch a run to
// a specialization (ir.Specialization) instead of the main program: every
// specialization binds the same symbols, each one the main program's user
// inputs determine (so a run's inputs tell it), to a value in its range;
// no two bind the same values; and each takes the inputs the main program
// takes at its binding and gives the outputs it gives, mutating the same
// buffers (the runtime keeps one state for all). Each specialization's
// program is verified as the main one is, its delegate calls resolved
// among the modules.
func specializations(l *ir.Lowered, modules map[string]*ir.Program) []Violation {
	if len(l.Specializations) == 0 || l.Main == nil {
		return nil
	}
	main := l.Main
	var users []string
	for _, s := range main.UserInputs() {
		users = append(users, s.PlaceholderName())
	}
	ranges := Ranges(main)
	know := sym.Know(Exprs(GivenSizes(main.Graph, users, nil)), ranges)
	var out []Violation
	var first []string
	seen := map[string]int{}
	for i, s := range l.Specializations {
		if s == nil || s.Main == nil || s.Main.Graph == nil {
			out = append(out, Violation{Rule: Specialization, Node: fmt.Sprintf("specialization %d", i), Msg: "has no program"})
			continue
		}
		where := "specialization " + sym.Bindings(s.Bind).String()
		flag := func(node, format string, args ...any) {
			out = append(out, Violation{Rule: Specialization, Graph: where, Node: node, Msg: fmt.Sprintf(format, args...)})
		}
		names := ir.SortedKeys(s.Bind)
		if len(names) == 0 {
			flag("bind", "binds no symbol")
		}
		if i == 0 {
			first = names
		} else if !slices.Equal(names, first) {
			flag("bind", "binds %v, the first specialization %v: every specialization binds the same symbols", names, first)
		}
		key := sym.Bindings(s.Bind).String()
		if j, ok := seen[key]; ok {
			flag("bind", "binds the same values as specialization %d: a run could not tell which to take", j)
		}
		seen[key] = i
		for _, name := range names {
			v := s.Bind[name]
			switch r, ok := ranges[name]; {
			case !know.Determined(name):
				flag(name, "binds %s, which the program's user inputs do not determine: no run could tell its value", name)
			case ok && !r.Contains(sym.IntValue(v)):
				flag(name, "%s = %d is outside its range %s", name, v, r)
			}
		}
		vs := Program(s.Main, Options{Modules: modules})
		vs = append(vs, sameInterface(main, s)...)
		for j := range vs {
			vs[j].Graph = joinPath(where, vs[j].Graph)
		}
		out = append(out, vs...)
	}
	return out
}

// sameInterface: a specialization takes the main program's user inputs,
// in order and by name, of the same types, with the sizes the main
// program's evaluate to at its binding (a SymInt input bound to one value
// is a constant input of that value), returns as many user outputs, and
// mutates the same buffers.
func sameInterface(main *ir.Program, s *ir.Specialization) []Violation {
	var out []Violation
	flag := func(node, format string, args ...any) {
		out = append(out, Violation{Rule: Specialization, Node: node, Msg: fmt.Sprintf(format, args...)})
	}
	type input struct {
		spec ir.InputSpec
		arg  ir.Argument
	}
	callerInputs := func(p *ir.Program) []input {
		var in []input
		for i, spec := range p.Signature.Inputs {
			if (spec.Kind == ir.InputUser || spec.Kind == ir.InputConstant) && i < len(p.Graph.Inputs) {
				in = append(in, input{spec, p.Graph.Inputs[i]})
			}
		}
		return in
	}
	want, got := callerInputs(main), callerInputs(s.Main)
	if len(want) != len(got) {
		flag("inputs", "takes %d inputs from the caller, the program %d", len(got), len(want))
		return out
	}
	bind := sym.Bindings(s.Bind)
	eval := func(se *ir.SymExpr) (int64, bool) {
		if se == nil {
			return 0, false
		}
		e, err := sym.Parse(se.Expr)
		if err != nil {
			return 0, false
		}
		v, err := e.Eval(bind)
		if err != nil {
			return 0, false
		}
		return v.Int(), v.Type() == sym.TypeInt
	}
	for i := range want {
		w, g := want[i], got[i]
		wn, gn := w.spec.PlaceholderName(), g.spec.PlaceholderName()
		if w.spec.Kind == ir.InputConstant {
			wn = w.spec.Name
		}
		if g.spec.Kind == ir.InputConstant {
			gn = g.spec.Name
		}
		if wn != gn {
			flag(gn, "input %d is %s, the program's %s", i, gn, wn)
			continue
		}
		wt, gt := main.Graph.TypeOf(wn), s.Main.Graph.TypeOf(gn)
		if g.spec.Kind == ir.InputConstant && w.spec.Kind == ir.InputUser && wt == ir.ValueSymInt {
			n, ok := eval(main.Graph.SymIntValues[wn].Expr)
			if !ok || g.arg.Kind != ir.ArgInt || g.arg.Int != n {
				flag(gn, "is a constant input other than %s, the program's SymInt input at the binding", evalText(n, ok))
			}
			continue
		}
		if wt != gt || w.spec.Kind != g.spec.Kind {
			flag(gn, "is a %s %s input, the program's a %s %s", gt, g.spec.Kind, wt, w.spec.Kind)
			continue
		}
		if wt != ir.ValueTensor {
			continue
		}
		wm, gm := main.Graph.TensorValues[wn], s.Main.Graph.TensorValues[gn]
		if wm == nil || gm == nil {
			continue // the metadata rules report it
		}
		if wm.DType != gm.DType || len(wm.Sizes) != len(gm.Sizes) {
			flag(gn, "is %s, the program's %s", annotate(gm), annotate(wm))
			continue
		}
		for d, ws := range wm.Sizes {
			gs := gm.Sizes[d]
			wv, wok := ws.Int, ws.Expr == nil
			if !wok {
				wv, wok = eval(ws.Expr)
			}
			if wok && gs.Expr == nil && gs.Int != wv {
				flag(gn, "dim %d is %d, the program's %s at the binding", d, gs.Int, evalText(wv, wok))
			}
			if wok && gs.Expr != nil {
				text := gs.Expr.Expr
				if e, err := sym.Parse(text); err == nil {
					text = e.String()
				}
				flag(gn, "dim %d is symbolic (%s), where the binding makes the program's %d", d, text, wv)
			}
		}
	}
	count := func(p *ir.Program) (users int, mutated map[string]bool) {
		mutated = map[string]bool{}
		for _, o := range p.Signature.Outputs {
			switch o.Kind {
			case ir.OutputUser:
				users++
			case ir.OutputBufferMutation:
				mutated[o.Target] = true
			}
		}
		return users, mutated
	}
	wu, wmut := count(main)
	gu, gmut := count(s.Main)
	if wu != gu {
		flag("outputs", "returns %d user outputs, the program %d", gu, wu)
	}
	if !maps.Equal(wmut, gmut) {
		flag("outputs", "mutates buffers %v, the program %v: a run keeps one state for both", ir.SortedKeys(gmut), ir.SortedKeys(wmut))
	}
	return out
}

func evalText(n int64, ok bool) string {
	if !ok {
		return "no number"
	}
	return fmt.Sprint(n)
}
