// Package ops is the operator table: for every target that an exported
// program may call (ATen ops, the Python scalar functions export records for
// symbolic arithmetic, higher-order ops), its schema as native_functions.yaml
// writes it, parsed at init into argument names, types, defaults and
// kwarg-only markers, returns, and aliasing. Targets are looked up in their
// serialized form without "torch.ops." ("aten.add.Tensor", "_operator.gt",
// "higher_order.cond").
//
// It also says, once for every package, what an op is (Class, ClassOf):
// compute, a view, a symbolic scalar op, a check or control flow, and
// whether the executor evaluates it itself (Schema.ExecutorOwned).
package ops

import (
	"fmt"
	"sort"
	"strings"

	"github.com/seam-rt/seam/value"
)

// Kind says what sort of callable a target is.
type Kind uint8

const (
	// ATen is an aten operator overload.
	ATen Kind = iota
	// Python is a Python scalar function (_operator.*, math.*, torch.sym_*),
	// run by the executor on ints, floats and bools.
	Python
	// HigherOrder is a torch.ops.higher_order operator taking subgraphs.
	HigherOrder
)

func (k Kind) String() string {
	return [...]string{"aten", "python", "higher_order"}[k]
}

// Base is an element type of the schema language.
type Base uint8

// The base types.
const (
	TensorT Base = iota
	IntT
	SymIntT
	FloatT
	ScalarT
	BoolT
	StrT
	ScalarTypeT
	LayoutT
	DeviceT
	MemoryFormatT
	GeneratorT
	GraphModuleT // a subgraph argument of a higher-order op
	AnyT
)

var baseNames = map[string]Base{
	"Tensor": TensorT, "int": IntT, "SymInt": SymIntT, "float": FloatT, "Scalar": ScalarT,
	"bool": BoolT, "str": StrT, "ScalarType": ScalarTypeT, "Layout": LayoutT, "Device": DeviceT,
	"MemoryFormat": MemoryFormatT, "Generator": GeneratorT, "GraphModule": GraphModuleT, "Any": AnyT,
}

func (b Base) String() string {
	for name, v := range baseNames {
		if v == b {
			return name
		}
	}
	return fmt.Sprintf("Base(%d)", uint8(b))
}

// Type is an argument or return type: Tensor, Tensor?, int[], int[2],
// SymInt[]?, Tensor?[] ...
type Type struct {
	Base         Base
	Optional     bool // T? (or T[]? for a list)
	List         bool // T[]
	Len          int  // N in T[N]; 0 when unsized
	ElemOptional bool // T?[] (Tensor?[])
	Variadic     bool // T... : the rest of the positional arguments
}

func (t Type) String() string {
	s := t.Base.String()
	if t.ElemOptional {
		s += "?"
	}
	if t.List {
		s += "["
		if t.Len > 0 {
			s += fmt.Sprint(t.Len)
		}
		s += "]"
	}
	if t.Optional {
		s += "?"
	}
	if t.Variadic {
		s += "..."
	}
	return s
}

// IsTensor reports Tensor or Tensor? (not lists).
func (t Type) IsTensor() bool { return t.Base == TensorT && !t.List }

// IsTensorList reports Tensor[] or Tensor?[].
func (t Type) IsTensorList() bool { return t.Base == TensorT && t.List }

// Alias is an alias annotation: Tensor(a) has Set "a"; Tensor(a!) also
// Write; Tensor(a -> *) has Set "a" and AfterSet "*".
type Alias struct {
	Set      string
	Write    bool
	AfterSet string
}

// Arg is one schema argument.
type Arg struct {
	Name        string
	Type        Type
	Default     value.Value // meaningful only when HasDefault
	HasDefault  bool
	DefaultText string // the default as the schema writes it
	KwargOnly   bool
	Alias       *Alias
}

// Return is one schema return.
type Return struct {
	Name  string // empty unless named, as in (Tensor values, Tensor indices)
	Type  Type
	Alias *Alias
}

// Schema is a parsed operator schema.
type Schema struct {
	Namespace string // aten, _operator, math, torch, higher_order
	Name      string // add
	Overload  string // Tensor; "default" when the schema names none
	Args      []Arg
	Returns   []Return
	Kind      Kind
	Core      bool   // tagged core in ATen's Core IR
	Text      string // the schema as written in the table
}

// Target is the serialized target without "torch.ops.": aten.add.Tensor,
// aten.relu.default, _operator.add, higher_order.cond.
func (s *Schema) Target() string {
	if s.Kind == ATen {
		return s.Namespace + "." + s.Name + "." + s.Overload
	}
	return s.Namespace + "." + s.Name
}

// String is the schema text.
func (s *Schema) String() string { return s.Text }

// Format renders the parsed schema back into schema syntax; it equals Text
// for every table entry (a check on the parser).
func (s *Schema) Format() string {
	var b strings.Builder
	b.WriteString(s.Namespace + "." + s.Name)
	if s.Kind == ATen && s.Overload != "default" {
		b.WriteString("." + s.Overload)
	}
	b.WriteByte('(')
	kw := false
	for i, a := range s.Args {
		if i > 0 {
			b.WriteString(", ")
		}
		if a.KwargOnly && !kw {
			kw = true
			b.WriteString("*, ")
		}
		b.WriteString(formatType(a.Type, a.Alias) + " " + a.Name)
		if a.HasDefault {
			b.WriteString("=" + a.DefaultText)
		}
	}
	b.WriteString(") -> ")
	switch {
	case len(s.Returns) == 1 && s.Returns[0].Name == "":
		b.WriteString(formatType(s.Returns[0].Type, s.Returns[0].Alias))
	default:
		b.WriteByte('(')
		for i, r := range s.Returns {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(formatType(r.Type, r.Alias))
			if r.Name != "" {
				b.WriteString(" " + r.Name)
			}
		}
		b.WriteByte(')')
	}
	return b.String()
}

func formatType(t Type, a *Alias) string {
	if a == nil {
		return t.String()
	}
	ann := a.Set
	if a.Write {
		ann += "!"
	}
	if a.AfterSet != "" {
		ann += " -> " + a.AfterSet
	}
	s := t.String()
	return s[:len(t.Base.String())] + "(" + ann + ")" + s[len(t.Base.String()):]
}

// ArgIndex finds an argument by name.
func (s *Schema) ArgIndex(name string) (int, bool) {
	for i := range s.Args {
		if s.Args[i].Name == name {
			return i, true
		}
	}
	return -1, false
}

// IsView reports an op whose tensor result aliases an input without writing
// it (view, permute, expand, split_with_sizes ...): the result shares the
// input's storage.
func (s *Schema) IsView() bool {
	for _, r := range s.Returns {
		if r.Alias != nil && !r.Alias.Write {
			return true
		}
	}
	return false
}

// Mutates reports an op that writes one of its arguments (Tensor(a!)).
func (s *Schema) Mutates() bool {
	for _, a := range s.Args {
		if a.Alias != nil && a.Alias.Write {
			return true
		}
	}
	return false
}

// ViewSource is the index of the argument a view result aliases, or -1.
func (s *Schema) ViewSource() int {
	if !s.IsView() {
		return -1
	}
	for i, a := range s.Args {
		if a.Alias != nil && !a.Alias.Write {
			return i
		}
	}
	return -1
}

var table = map[string]*Schema{}

func init() {
	for _, src := range []struct {
		text string
		kind Kind
	}{{atenSchemas, ATen}, {pythonSchemas, Python}, {higherOrderSchemas, HigherOrder}} {
		for _, line := range strings.Split(src.text, "\n") {
			line = strings.TrimSpace(line)
			if line == "" {
				continue
			}
			core := strings.HasPrefix(line, "core ")
			line = strings.TrimPrefix(line, "core ")
			ns := ""
			if src.kind == ATen {
				ns = "aten."
			}
			s, err := Parse(ns + line)
			if err != nil {
				panic(fmt.Sprintf("ops: bad table entry %q: %v", line, err))
			}
			s.Kind, s.Core = src.kind, core
			if _, dup := table[s.Target()]; dup {
				panic("ops: duplicate table entry " + s.Target())
			}
			table[s.Target()] = s
		}
	}
}

// Lookup finds a target's schema. It accepts the serialized form with or
// without "torch.ops." ("aten.add.Tensor", "torch.ops.aten.add.Tensor").
func Lookup(target string) (*Schema, bool) {
	s, ok := table[strings.TrimPrefix(target, "torch.ops.")]
	return s, ok
}

// Targets lists every target in the table, sorted.
func Targets() []string {
	out := make([]string, 0, len(table))
	for t := range table {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}
