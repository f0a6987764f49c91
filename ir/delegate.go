package ir

import "github.com/seam-rt/seam/limits"

// DelegateTarget is the target of a delegate call, as ExecuTorch names it:
// its first argument names the lowered module it calls, the rest are the
// module's inputs.
const DelegateTarget = "torch.ops.higher_order.executorch_call_delegate"

// DelegateModule returns the lowered module a delegate call names, and
// false for any other node (or a delegate call without a module name).
func (n *Node) DelegateModule() (string, bool) {
	if n.Target != DelegateTarget || len(n.Inputs) == 0 || n.Inputs[0].Arg.Kind != ArgString {
		return "", false
	}
	return n.Inputs[0].Arg.Str, true
}

// Lowered is a lowered program: the parent program, whose delegate calls
// name lowered modules, and those modules. Package lower makes one, pt2
// writes and reads it (the parent as the archive's main program), verify
// checks it and runtime runs it. A program nothing was delegated from is
// a Lowered without modules.
type Lowered struct {
	Main *Program
	// Modules are the lowered modules by name, as delegate calls name them
	// (Main's and every specialization's).
	Modules map[string]*LoweredModule
	// Specializations are Main at bindings of its symbols, each lowered on
	// its own; a run whose inputs bind the symbols to one's values runs it,
	// any other runs Main (the general path). See Specialization.
	Specializations []*Specialization
}

// LoweredModule is one lowered module: the partition as a program of its
// own, and its delegate record.
type LoweredModule struct {
	Program *Program
	// Delegate is nil when the module has no record (an archive can lack
	// one): verify reports it, and the runtime refuses to call the module.
	Delegate *Delegate
}

// Delegate is a lowered module's record: the backend that runs it, how it
// is compiled, the contract it was lowered under and what the backend made
// of it when lowering, if anything.
type Delegate struct {
	Backend        string
	CompileOptions map[string]string
	// Contract is the backend's declared contract as lowering used it (a
	// backend profile in its JSON form), so that a module can be checked
	// and run even for a backend described only in a profile file. The
	// registered backend's contract is the authority over it
	// (backend.ContractAuthority).
	Contract []byte
	// Compiled is what the backend produced from the module at lowering
	// time (ExecuTorch's processed_bytes), nil when it produced nothing;
	// the module's program stays the authority on what it computes.
	Compiled Blob
}

// ModuleNames lists the modules, sorted.
func (l *Lowered) ModuleNames() []string { return SortedKeys(l.Modules) }

// Called names the modules the main program's delegate calls name, in
// any graph, and those its specializations' calls name.
func (l *Lowered) Called() map[string]bool {
	called := map[string]bool{}
	for _, p := range l.Mains() {
		for name := range p.Calls() {
			called[name] = true
		}
	}
	return called
}

// Calls names the modules the program's delegate calls name, in any graph.
func (p *Program) Calls() map[string]bool {
	called := map[string]bool{}
	if p == nil || p.Graph == nil {
		return called
	}
	_ = p.Graph.Walk(func(_ string, g *Graph) error {
		for _, n := range g.Nodes {
			if name, ok := n.DelegateModule(); ok {
				called[name] = true
			}
		}
		return nil
	})
	return called
}

// ReadCompiled reads the module's compiled form whole (a read archive
// checks its CRC as it reads): nil without one. Its size is checked
// against the compiled-bytes limit first.
func (d *Delegate) ReadCompiled() ([]byte, error) {
	if d == nil || d.Compiled == nil {
		return nil, nil
	}
	if err := limits.CompiledBytes.Check(d.Compiled.Size()); err != nil {
		return nil, err
	}
	return ReadBlob(d.Compiled)
}
