package verify

import (
	"fmt"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/sym"
)

// Lowered verifies a lowered program: the main program, each module (the
// modules are the delegate calls' targets), and each module against the
// contract its delegate record holds (or its built-in backend's).
// Violations in a module name it in their Graph. What the runtime refuses
// when it loads a lowered program or calls a delegate is an error here: a
// called module without a record or a contract, a module calling a
// delegate, an argument that does not fit its placeholder, a range
// narrower than the program's. Each specialization is verified as the
// main program is, and against it (specializations): violations in one
// name it in their Graph (`specialization s53 = 16`). A program without
// modules is verified as Program verifies it.
func Lowered(l *ir.Lowered) []Violation {
	modules := map[string]*ir.Program{}
	for name, m := range l.Modules {
		modules[name] = m.Program
	}
	called := l.Called()
	var out []Violation
	if l.Main != nil {
		out = Program(l.Main, Options{Modules: modules})
	}
	out = append(out, specializations(l, modules)...)
	mains := l.Mains()
	calls := make([]map[string]bool, len(mains))
	for i, main := range mains {
		calls[i] = main.Calls()
	}
	for _, name := range l.ModuleNames() {
		m := l.Modules[name]
		vs := Program(m.Program, Options{Module: name})
		vs = append(vs, moduleContract(name, m.Program, m.Delegate, called[name])...)
		vs = append(vs, moduleCompiled(name, m.Program, m.Delegate, called[name])...)
		for i, main := range mains {
			if calls[i][name] {
				vs = append(vs, moduleRanges(name, m.Program, main)...)
			}
		}
		for i := range vs {
			vs[i].Graph = joinPath(name, vs[i].Graph)
		}
		out = append(out, vs...)
	}
	return out
}

// moduleContract checks a module against its backend's contract: the
// registered backend's (backend.ContractAuthority), or the recorded one
// where no backend of that name is registered. A recorded contract that
// differs from the registered one is a violation: seam run refuses it. A
// module the program calls must have a record and a contract: the runtime
// loads it through them.
func moduleContract(name string, m *ir.Program, d *ir.Delegate, called bool) []Violation {
	flag := func(format string, args ...any) []Violation {
		return []Violation{{Rule: DelegateCall, Node: name, Msg: fmt.Sprintf(format, args...), Warning: !called}}
	}
	if d == nil {
		return flag("no delegate record (data/delegates/%s.json): no backend can run it and its contract is not checked", name)
	}
	a, err := backend.ContractAuthority(d.Backend, d.Contract)
	if err != nil {
		return []Violation{{Rule: DelegateCall, Node: name, Msg: err.Error()}}
	}
	var out []Violation
	prof := a.Registered
	if len(a.Differences) > 0 {
		out = append(out, Violation{Rule: ContractRecorded, Node: "delegate record", Msg: a.DifferenceError().Error()})
	}
	if prof == nil {
		prof = a.Recorded
	}
	if prof == nil {
		return append(out, flag("backend %q records no contract and is not registered or built in: its contract is unknown", d.Backend)...)
	}
	return append(out, Contract(m, prof)...)
}

// moduleCompiled checks the compiled form of a module whose backend
// compiles at lowering time (backend.Preprocessor): it must be there, read
// whole (its CRC checked), and be a form of this module the backend can
// load, so that what verify accepts loads at run time.
func moduleCompiled(name string, m *ir.Program, d *ir.Delegate, called bool) []Violation {
	if d == nil {
		return nil
	}
	pre, ok := backend.PreprocessorFor(d.Backend)
	if !ok {
		return nil
	}
	flag := func(format string, args ...any) []Violation {
		return []Violation{{Rule: Compiled, Node: name, Msg: fmt.Sprintf(format, args...), Warning: !called}}
	}
	if d.Compiled == nil {
		return flag("no compiled form (data/delegates/%s.bin), which backend %s compiles when lowering and needs to run it: lower the program again", name, d.Backend)
	}
	blob, err := d.ReadCompiled()
	if err != nil {
		return flag("its compiled form cannot be read: %v", err)
	}
	if err := pre.CheckCompiled(m, blob); err != nil {
		return flag("its compiled form is not a form of this module backend %s can load: %v", d.Backend, err)
	}
	return nil
}

// moduleRanges: every value the program admits for a symbol, the module
// it calls admits too (the runtime checks each call's sizes against the
// module's ranges).
func moduleRanges(name string, m, main *ir.Program) []Violation {
	if main == nil {
		return nil
	}
	var out []Violation
	for _, s := range ir.SortedKeys(m.RangeConstraints) {
		outer, ok := main.RangeConstraints[s]
		if !ok {
			continue
		}
		inner := m.RangeConstraints[s]
		r := sym.IntRangeBounds(inner.Min, inner.Max)
		o := sym.IntRangeBounds(outer.Min, outer.Max)
		if !covers(r, o) {
			out = append(out, Violation{Rule: ModuleRange, Node: s, Msg: fmt.Sprintf("the module admits %s in %s, the program %s", s, r, o)})
		}
	}
	return out
}

// covers reports whether range r holds every value of o.
func covers(r, o sym.Range) bool {
	lo := r.Lo.Infinite() < 0 || (o.Lo.Infinite() == 0 && r.Lo.Infinite() == 0 && r.Lo.Int() <= o.Lo.Int())
	hi := r.Hi.Infinite() > 0 || (o.Hi.Infinite() == 0 && r.Hi.Infinite() == 0 && r.Hi.Int() >= o.Hi.Int())
	return lo && hi
}

func joinPath(a, b string) string {
	if b == "" {
		return a
	}
	return a + "." + b
}
