package delegate

import (
	"bytes"
	"fmt"
	"io"
	"reflect"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/lower"
	"github.com/seam-rt/seam/specialize"
	"github.com/seam-rt/seam/sym"
	"github.com/seam-rt/seam/verify"
)

// Specialized is a program lowered for one backend as it is (the general
// path) and once per binding of its symbols (package specialize), in one
// lowered program that dispatches on the bindings at run time
// (ir.Specialization).
type Specialized struct {
	// Program is the program specialized and lowered.
	Program *ir.Program
	// Lowered is the general path as its Main, the specializations, and
	// every module any of them calls, each content stored once.
	Lowered *ir.Lowered
	// General is the program lowered without specializing it.
	General *lower.Result
	// Specializations are the lowerings at each binding, in order. Their
	// Modules are named as Lowered stores them: a module identical to one
	// lowered before takes that one's name.
	Specializations []*Specialization
}

// Specialization is one binding's lowering.
type Specialization struct {
	Bind sym.Bindings
	// Specialized is what specializing the program did (folded nodes,
	// checked asserts, inlined conds).
	Specialized *specialize.Result
	*lower.Result
	// Reused names the modules found identical to one lowered before
	// (the general path's or an earlier specialization's), by the name it
	// was lowered under and the one it is stored under.
	Reused map[string]string
}

// Specialize lowers p for prof once as it is and once at each binding
// (package specialize: sizes constant, scalar arithmetic folded), so that a
// static-shape backend takes at each binding what the symbolic sizes kept
// from it. A binding's error names its symbol (*specialize.Error): an
// unknown one, a value outside its range, one the inputs do not determine.
// Every binding must bind the same symbols, and no two the same values.
func Specialize(p *ir.Program, prof *backend.Profile, opt Options, binds []sym.Bindings) (*Specialized, error) {
	if len(binds) == 0 {
		return nil, fmt.Errorf("no binding to specialize at")
	}
	seen := map[string]bool{}
	for _, b := range binds {
		if len(b) == 0 {
			return nil, fmt.Errorf("a specialization binds no symbol")
		}
		if !sameSymbols(b, binds[0]) {
			return nil, fmt.Errorf("specializations at %s and %s bind different symbols: each must bind the same ones", b, binds[0])
		}
		if seen[b.String()] {
			return nil, fmt.Errorf("the specialization at %s is given twice", b)
		}
		seen[b.String()] = true
	}
	general, err := Program(p, prof, opt)
	if err != nil {
		return nil, err
	}
	out := &Specialized{Program: p, General: general, Lowered: &ir.Lowered{Main: general.Lowered.Main, Modules: general.Lowered.Modules}}
	stored := newModuleStore(out.Lowered.Modules)
	for _, b := range binds {
		sp, err := specialize.Program(p, b)
		if err != nil {
			return nil, fmt.Errorf("specializing at %s: %w", b, err)
		}
		at := opt
		at.Groups = groupsAt(opt.Groups, sp)
		res, err := Lowered(&ir.Lowered{Main: sp.Program, Modules: out.Lowered.Modules}, prof, at)
		if err != nil {
			return nil, fmt.Errorf("lowering the specialization at %s: %w", b, err)
		}
		s := &Specialization{Bind: b, Specialized: sp, Result: res, Reused: map[string]string{}}
		for _, m := range res.Modules {
			if name, ok := stored.find(m.LoweredModule); ok {
				s.Reused[m.Name] = name
				delete(res.Lowered.Modules, m.Name)
				m.Name = name
				continue
			}
			stored.add(m.Name, m.LoweredModule)
		}
		renameCalls(res.Lowered.Main, s.Reused)
		out.Lowered.Modules = res.Lowered.Modules
		out.Lowered.Specializations = append(out.Lowered.Specializations, &ir.Specialization{Bind: b, Main: res.Lowered.Main})
		out.Specializations = append(out.Specializations, s)
	}
	// Each lowering was verified as made; the modules it reused and the
	// calls renamed to them are verified here, with the dispatch.
	if vs := verify.Errors(verify.Lowered(out.Lowered)); len(vs) > 0 {
		return nil, &lower.BugError{Violations: vs}
	}
	return out, nil
}

// groupsAt are the groups as the specialized program has them: without
// the nodes specializing removed (scalar nodes folded, conds replaced by
// their branch), which no backend is given.
func groupsAt(groups [][]string, sp *specialize.Result) [][]string {
	gone := map[string]bool{}
	for _, n := range sp.Folded {
		gone[n] = true
	}
	for _, c := range sp.Inlined {
		gone[c.Node] = true
	}
	var out [][]string
	for _, g := range groups {
		var kept []string
		for _, n := range g {
			if !gone[n] {
				kept = append(kept, n)
			}
		}
		if len(kept) > 0 {
			out = append(out, kept)
		}
	}
	return out
}

func sameSymbols(a, b sym.Bindings) bool {
	if len(a) != len(b) {
		return false
	}
	for name := range a {
		if _, ok := b[name]; !ok {
			return false
		}
	}
	return true
}

// renameCalls points the program's delegate calls at the stored names.
func renameCalls(p *ir.Program, to map[string]string) {
	if len(to) == 0 {
		return
	}
	_ = p.Graph.Walk(func(_ string, g *ir.Graph) error {
		for _, n := range g.Nodes {
			if name, ok := n.DelegateModule(); ok {
				if s, ok := to[name]; ok {
					n.Inputs[0].Arg.Str = s
				}
			}
		}
		return nil
	})
}

// moduleStore finds a module of the same content as one already stored:
// the same program (as the archive encodes it), delegate record, and
// weights (the same bytes under the same names).
type moduleStore struct {
	byJSON map[string][]storedModule
}

type storedModule struct {
	name string
	m    *ir.LoweredModule
}

func newModuleStore(modules map[string]*ir.LoweredModule) *moduleStore {
	s := &moduleStore{byJSON: map[string][]storedModule{}}
	for _, name := range ir.SortedKeys(modules) {
		s.add(name, modules[name])
	}
	return s
}

func encoded(m *ir.LoweredModule) string {
	data, err := ir.EncodeProgram(m.Program)
	if err != nil {
		return "" // never equal to anything: stored as it is
	}
	return string(data)
}

func (s *moduleStore) add(name string, m *ir.LoweredModule) {
	if key := encoded(m); key != "" {
		s.byJSON[key] = append(s.byJSON[key], storedModule{name, m})
	}
}

func (s *moduleStore) find(m *ir.LoweredModule) (string, bool) {
	key := encoded(m)
	if key == "" {
		return "", false
	}
	for _, c := range s.byJSON[key] {
		if sameDelegate(c.m.Delegate, m.Delegate) && sameWeights(c.m.Program.Weights, m.Program.Weights) &&
			sameWeights(c.m.Program.Constants, m.Program.Constants) {
			return c.name, true
		}
	}
	return "", false
}

func sameDelegate(a, b *ir.Delegate) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Backend == b.Backend && reflect.DeepEqual(a.CompileOptions, b.CompileOptions) &&
		bytes.Equal(a.Contract, b.Contract) && sameBlob(a.Compiled, b.Compiled)
}

func sameWeights(a, b map[string]*ir.Weight) bool {
	if len(a) != len(b) {
		return false
	}
	for fqn, x := range a {
		y, ok := b[fqn]
		if !ok || x.IsParam != y.IsParam || x.UsePickle != y.UsePickle || !reflect.DeepEqual(x.Meta, y.Meta) || !sameBlob(x.Data, y.Data) {
			return false
		}
	}
	return true
}

// sameBlob compares stored bytes: the same blob, or the same content.
func sameBlob(a, b ir.Blob) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	if reflect.TypeOf(a) == reflect.TypeOf(b) && reflect.TypeOf(a).Comparable() && a == b {
		return true
	}
	if a.Size() != b.Size() {
		return false
	}
	const chunk = 1 << 16
	x, y := make([]byte, chunk), make([]byte, chunk)
	for off := int64(0); off < a.Size(); off += chunk {
		n := min(chunk, a.Size()-off)
		if _, err := a.ReadAt(x[:n], off); err != nil && err != io.EOF {
			return false
		}
		if _, err := b.ReadAt(y[:n], off); err != nil && err != io.EOF {
			return false
		}
		if !bytes.Equal(x[:n], y[:n]) {
			return false
		}
	}
	return true
}
