package verify

import (
	"fmt"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/pt2"
)

// Archive verifies every program of an archive: the main program, and for
// a lowered program each module (the modules are the delegate calls'
// targets), and each module against the contract its delegate record
// holds (or its built-in backend's). Violations in a module name it in
// their Graph.
func Archive(a *pt2.Archive) []Violation {
	modules := map[string]*ir.Program{}
	for name, p := range a.Programs {
		if name != pt2.MainModel {
			modules[name] = p
		}
	}
	var out []Violation
	for _, name := range a.ModelNames() {
		p := a.Programs[name]
		vs := Program(p, Options{Modules: modules})
		if name != pt2.MainModel {
			vs = append(vs, moduleContract(name, p, a.Delegates[name])...)
			for i := range vs {
				vs[i].Graph = joinPath(name, vs[i].Graph)
			}
		}
		out = append(out, vs...)
	}
	return out
}

// moduleContract checks a module against its backend's contract: the
// registered backend's (backend.Authority), or the recorded one where no
// backend of that name is registered. A recorded contract that differs
// from the registered one is a violation: seam run refuses it.
func moduleContract(name string, m *ir.Program, d *pt2.Delegate) []Violation {
	warn := func(format string, args ...any) []Violation {
		return []Violation{{Rule: DelegateCall, Node: name, Msg: fmt.Sprintf(format, args...), Warning: true}}
	}
	if d == nil {
		return warn("no delegate record: its contract is not checked")
	}
	a, err := backend.ContractAuthority(d.Backend, d.Profile)
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
		return warn("backend %q records no contract and is not registered or built in: its contract is not checked", d.Backend)
	}
	return append(out, Contract(m, prof)...)
}

func joinPath(a, b string) string {
	if b == "" {
		return a
	}
	return a + "." + b
}
