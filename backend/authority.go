package backend

import (
	"fmt"
	"slices"
	"strings"
)

// A lowered archive records, per module, the contract it was lowered
// under. The record is the archive's word, and an archive can lie: at run
// time the authority is the contract of the backend registered under the
// record's backend name. A recorded contract that differs from it is
// reported by verify and refused by run, unless the user trusts the record
// (--trust-recorded-contract). A backend nothing registers (one described
// only by a profile file, run on seam's kernels) has only its record.

// ContractDeclarer is a Compiler that declares its backend's contract.
// Register such a compiler and its contract is the authority for modules
// lowered for it; a compiler that does not declare one answers to the
// built-in profile of its name, if there is one.
type ContractDeclarer interface {
	Contract() *Profile
}

// RegisteredContract returns the contract of the backend registered under
// name: its compiler's declared one, else the built-in profile.
func RegisteredContract(name string) (*Profile, bool) {
	if c, ok := CompilerFor(name); ok {
		if d, ok := c.(ContractDeclarer); ok {
			if p := d.Contract(); p != nil {
				return p, true
			}
		}
	}
	return Builtin(name)
}

// Authority is what seam knows of one module's contract.
type Authority struct {
	Backend string
	// Registered is the registered backend's contract (nil when none is).
	Registered *Profile
	// Recorded is the contract the delegate record holds (nil when none).
	Recorded *Profile
	// Differences says where Recorded departs from Registered.
	Differences []string
}

// ContractAuthority gathers a module's contracts: the registered
// backend's and the one its delegate record holds (JSON, may be empty).
func ContractAuthority(backendName string, recorded []byte) (*Authority, error) {
	a := &Authority{Backend: backendName}
	a.Registered, _ = RegisteredContract(backendName)
	if len(recorded) > 0 {
		p, err := Parse(recorded)
		if err != nil {
			return nil, fmt.Errorf("its recorded contract does not parse: %w", err)
		}
		a.Recorded = p
	}
	if a.Registered != nil && a.Recorded != nil {
		a.Differences = a.Recorded.Differences(a.Registered)
	}
	return a, nil
}

// Contract is the contract calls are checked against: the registered
// one, unless there is none or trustRecorded asks for the recorded one.
// A recorded contract that differs is an error unless trusted.
func (a *Authority) Contract(trustRecorded bool) (*Profile, error) {
	switch {
	case a.Recorded != nil && (trustRecorded || a.Registered == nil):
		return a.Recorded, nil
	case len(a.Differences) > 0:
		return nil, a.DifferenceError()
	case a.Registered != nil:
		return a.Registered, nil
	}
	return nil, fmt.Errorf("backend %q is not registered or built in, and its delegate record has no contract", a.Backend)
}

// DifferenceError says how the recorded contract departs from the
// registered backend's, and how to run under the recorded one anyway.
func (a *Authority) DifferenceError() error {
	return &RecordedContractError{Backend: a.Backend, Differences: a.Differences}
}

// RecordedContractError is a delegate record whose contract differs from
// its registered backend's.
type RecordedContractError struct {
	Backend     string
	Differences []string
}

func (e *RecordedContractError) Error() string {
	return fmt.Sprintf("its recorded contract differs from the contract of the registered backend %s (%s); "+
		"calls are checked against the registered one: lower the program again, or pass "+
		"--trust-recorded-contract to run under the recorded one",
		e.Backend, strings.Join(e.Differences, "; "))
}

// Differences lists, in words, where p's contract departs from q's: what
// a module may contain (ops.include, ops.exclude) and what its calls may
// receive (placeholders, dtypes, dynamic_shapes), each as
// `placeholders.sym_int: int recorded, refuse registered`. Absent and
// empty lists are the same. How lowering cut the program (exclude_nodes,
// single_node_partitions, full_graph, weight and buffer ownership, compile
// options) is the lowering's choice, not part of what a call is checked
// against, and does not count.
func (p *Profile) Differences(q *Profile) []string {
	var out []string
	diff := func(field string, a, b any) {
		out = append(out, fmt.Sprintf("%s: %v recorded, %v registered", field, a, b))
	}
	lists := []struct {
		field string
		a, b  []string
	}{
		{"ops.include", p.Ops.Include, q.Ops.Include},
		{"ops.exclude", p.Ops.Exclude, q.Ops.Exclude},
		{"dtypes", dtypeNames(p.DTypes), dtypeNames(q.DTypes)},
	}
	for _, l := range lists {
		if !slices.Equal(l.a, l.b) && !(len(l.a) == 0 && len(l.b) == 0) {
			diff(l.field, listText(l.a), listText(l.b))
		}
	}
	if p.Placeholders.SymInt != q.Placeholders.SymInt {
		diff("placeholders.sym_int", p.Placeholders.SymInt, q.Placeholders.SymInt)
	}
	if p.Placeholders.SymBool != q.Placeholders.SymBool {
		diff("placeholders.sym_bool", p.Placeholders.SymBool, q.Placeholders.SymBool)
	}
	if p.Placeholders.SymFloat != q.Placeholders.SymFloat {
		diff("placeholders.sym_float", p.Placeholders.SymFloat, q.Placeholders.SymFloat)
	}
	if p.DynamicShapes != q.DynamicShapes {
		diff("dynamic_shapes", p.DynamicShapes, q.DynamicShapes)
	}
	return out
}

func dtypeNames(l DTypeList) []string {
	out := make([]string, len(l))
	for i, t := range l {
		out[i] = t.Short()
	}
	return out
}

func listText(l []string) string { return "[" + strings.Join(l, ", ") + "]" }
