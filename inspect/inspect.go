// Package inspect summarises a program for `seam inspect`: its inputs and
// outputs by kind with their annotations, its symbols with their ranges and
// the input dimensions that carry them, an op histogram, node count and
// weight bytes. The JSON form is a stable interface for scripts.
package inspect

import (
	"fmt"
	"strings"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/irtext"
	"github.com/seam-rt/seam/sym"
)

// Summary is what `seam inspect --json` prints.
type Summary struct {
	SchemaVersion string            `json:"schema_version"`
	TorchVersion  string            `json:"torch_version"`
	Inputs        []Value           `json:"inputs"`
	Outputs       []Value           `json:"outputs"`
	Symbols       map[string]Symbol `json:"symbols"`
	Ops           map[string]int    `json:"ops"`
	Nodes         int               `json:"nodes"`
	// Getitems counts the getitem nodes torch.fx shows (print_readable,
	// graph.txt) that the export schema folds into the outputs of the node
	// that makes them; Nodes does not count them.
	Getitems    int   `json:"getitems_folded"`
	WeightBytes int64 `json:"weight_bytes"`
	// Modules describes the lowered modules of a lowered program.
	Modules []Module `json:"modules,omitempty"`
	// Specializations lists a lowered program's specializations: the
	// binding each runs at, and the modules its delegate calls name.
	Specializations []Specialization `json:"specializations,omitempty"`
}

// Specialization summarises one specialization of a lowered program.
type Specialization struct {
	Bind    map[string]int64 `json:"bind"`
	Nodes   int              `json:"nodes"`
	Modules []string         `json:"modules"`
}

// Module summarises one lowered module: the backend that runs it and what
// it receives and returns.
type Module struct {
	Name           string            `json:"name"`
	Backend        string            `json:"backend"`
	CompileOptions map[string]string `json:"compile_options,omitempty"`
	Inputs         []Value           `json:"inputs"`
	Outputs        []Value           `json:"outputs"`
	Ops            map[string]int    `json:"ops"`
	Nodes          int               `json:"nodes"`
	WeightBytes    int64             `json:"weight_bytes"`
	// CompiledBytes is the size of what the backend compiled from the
	// module when it was lowered (data/delegates/NAME.bin), 0 for none.
	CompiledBytes int64 `json:"compiled_bytes"`
}

// SummarizeLowered summarises a program's main program and, for a lowered
// program, each of its modules.
func SummarizeLowered(l *ir.Lowered, opt Options) *Summary {
	s := Summarize(l.Main, opt)
	for _, name := range l.ModuleNames() {
		lm := l.Modules[name]
		ms := Summarize(lm.Program, opt)
		m := Module{Name: name, Inputs: ms.Inputs, Outputs: ms.Outputs, Ops: ms.Ops, Nodes: ms.Nodes, WeightBytes: ms.WeightBytes}
		if d := lm.Delegate; d != nil {
			m.Backend, m.CompileOptions = d.Backend, d.CompileOptions
			if d.Compiled != nil {
				m.CompiledBytes = d.Compiled.Size()
			}
		}
		s.Modules = append(s.Modules, m)
	}
	for _, sp := range l.Specializations {
		ss := Summarize(sp.Main, opt)
		s.Specializations = append(s.Specializations, Specialization{Bind: sp.Bind, Nodes: ss.Nodes, Modules: ir.SortedKeys(sp.Main.Calls())})
	}
	return s
}

// Value is one graph input or output.
type Value struct {
	Name       string `json:"name"`
	Kind       string `json:"kind"`
	Type       string `json:"type"`
	Annotation string `json:"annotation"`
	// Target is the state-dict or constant FQN, or what an output updates.
	Target string `json:"target,omitempty"`
}

// Symbol is a symbol's range (nil bounds are unbounded) and the user
// inputs that carry it (`input_ids dim 1`, or the name of a SymInt input).
type Symbol struct {
	Min     *int64   `json:"min"`
	Max     *int64   `json:"max"`
	Sources []string `json:"sources"`
}

// Options say how to print symbolic expressions and find their symbols;
// the zero value uses package sym for both.
type Options struct {
	Printer *irtext.Printer
	// Symbols lists the free symbols of a stored expression.
	Symbols func(expr string) []string
}

// Symbols lists the free symbols of a stored expression (none when it
// does not parse).
func Symbols(expr string) []string {
	if e, err := sym.Parse(expr); err == nil {
		return e.Symbols()
	}
	return nil
}

// Summarize builds the summary of a program.
func Summarize(p *ir.Program, opt Options) *Summary {
	pr := opt.Printer
	if pr == nil {
		pr = &irtext.Printer{}
	}
	g := p.Graph
	s := &Summary{
		SchemaVersion: fmt.Sprintf("%d.%d", p.SchemaVersion.Major, p.SchemaVersion.Minor),
		TorchVersion:  p.TorchVersion,
		Inputs:        []Value{},
		Outputs:       []Value{},
		Symbols:       map[string]Symbol{},
		Ops:           map[string]int{},
	}
	for i := range p.Signature.Inputs {
		spec := &p.Signature.Inputs[i]
		v := describe(pr, g, &spec.Arg)
		v.Kind, v.Target = spec.Kind.String(), spec.Target
		if spec.Kind == ir.InputConstant {
			v.Name = spec.Name
		}
		s.Inputs = append(s.Inputs, v)
	}
	for i := range p.Signature.Outputs {
		spec := &p.Signature.Outputs[i]
		v := describe(pr, g, &spec.Arg)
		v.Kind, v.Target = spec.Kind.String(), spec.Target
		s.Outputs = append(s.Outputs, v)
	}
	for name, rc := range p.RangeConstraints {
		s.Symbols[name] = Symbol{Min: rc.Min, Max: rc.Max, Sources: []string{}}
	}
	symbols := opt.Symbols
	if symbols == nil {
		symbols = Symbols
	}
	s.addSources(p, symbols)
	_ = g.Walk(func(_ string, g *ir.Graph) error {
		for _, n := range g.Nodes {
			s.Ops[n.OpName()]++
			s.Nodes++
			s.Getitems += len(irtext.Getitems(n))
		}
		return nil
	})
	s.WeightBytes = WeightBytes(p)
	return s
}

// addSources records, for each symbol, the user inputs whose sizes are
// exactly that symbol, and the SymInt user inputs that are it.
func (s *Summary) addSources(p *ir.Program, symbols func(string) []string) {
	g := p.Graph
	for _, spec := range p.UserInputs() {
		name := spec.Arg.Name
		if m, ok := g.TensorValues[name]; ok && spec.Arg.Kind == ir.ArgTensor {
			for d, size := range m.Sizes {
				if size.Expr == nil {
					continue
				}
				if syms := symbols(size.Expr.Expr); len(syms) == 1 {
					s.addSource(syms[0], fmt.Sprintf("%s dim %d", name, d))
				}
			}
		}
		if si, ok := g.SymIntValues[name]; ok && si.Expr != nil {
			if syms := symbols(si.Expr.Expr); len(syms) == 1 {
				s.addSource(syms[0], name)
			}
		}
	}
}

func (s *Summary) addSource(sym, src string) {
	e := s.Symbols[sym]
	if e.Sources == nil {
		e.Sources = []string{}
	}
	e.Sources = append(e.Sources, src)
	s.Symbols[sym] = e
}

func describe(pr *irtext.Printer, g *ir.Graph, a *ir.Argument) Value {
	v := Value{Name: a.Name, Type: TypeOf(g, a)}
	switch a.Kind {
	case ir.ArgTensor, ir.ArgSymInt, ir.ArgSymFloat, ir.ArgSymBool:
		if a.Name != "" {
			v.Annotation = pr.Annotation(g, a.Name)
		}
	case ir.ArgCustomObj:
		v.Annotation = a.Str
	}
	return v
}

// TypeOf names an input's or output's type as `seam inspect --json` does:
// tensor, sym_int, sym_bool, sym_float, int, float, bool, str, none,
// custom_obj or token.
func TypeOf(g *ir.Graph, a *ir.Argument) string {
	switch a.Kind {
	case ir.ArgTensor, ir.ArgOptionalTensor:
		return "tensor"
	case ir.ArgSymInt:
		if a.Name == "" {
			return "int"
		}
		return "sym_int"
	case ir.ArgSymFloat:
		if a.Name == "" {
			return "float"
		}
		return "sym_float"
	case ir.ArgSymBool:
		if a.Name == "" {
			return "bool"
		}
		return "sym_bool"
	case ir.ArgInt:
		return "int"
	case ir.ArgFloat:
		return "float"
	case ir.ArgBool:
		return "bool"
	case ir.ArgString:
		return "str"
	case ir.ArgNone:
		return "none"
	case ir.ArgCustomObj:
		return "custom_obj"
	case ir.ArgToken:
		return "token"
	}
	return strings.TrimPrefix(a.Kind.String(), "as_")
}

// WeightBytes sums the stored tensor data of the weights and constants,
// each stored file once (views of one storage share a file).
func WeightBytes(p *ir.Program) int64 {
	var n int64
	for _, table := range []map[string]*ir.Weight{p.Weights, p.Constants} {
		seen := map[string]bool{}
		for _, w := range table {
			if w.Meta == nil || seen[w.Path] || w.Data == nil {
				continue
			}
			seen[w.Path] = true
			n += w.Data.Size()
		}
	}
	return n
}
