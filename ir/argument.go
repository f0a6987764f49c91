package ir

// ArgKind says which member of the schema's Argument union an Argument holds.
type ArgKind uint8

// Argument kinds, one per member of the 2.11 Argument union, plus ArgToken,
// which appears only in token input/output specs (TokenArgument).
const (
	ArgInvalid ArgKind = iota
	ArgNone
	ArgTensor
	ArgTensors
	ArgInt
	ArgInts
	ArgFloat
	ArgFloats
	ArgString
	ArgStrings
	ArgSymInt
	ArgSymInts
	ArgScalarType
	ArgMemoryFormat
	ArgLayout
	ArgDevice
	ArgBool
	ArgBools
	ArgSymBool
	ArgSymBools
	ArgOptionalTensors
	ArgGraph
	ArgCustomObj
	ArgOperator
	ArgSymFloat
	ArgSymFloats
	ArgOptionalTensor
	ArgComplex
	ArgNestedTensors
	ArgIntLists
	ArgStringToArgument
	ArgToken
	numArgKinds
)

// argKindNames are the union member names, the JSON keys.
var argKindNames = [numArgKinds]string{
	ArgNone: "as_none", ArgTensor: "as_tensor", ArgTensors: "as_tensors", ArgInt: "as_int",
	ArgInts: "as_ints", ArgFloat: "as_float", ArgFloats: "as_floats", ArgString: "as_string",
	ArgStrings: "as_strings", ArgSymInt: "as_sym_int", ArgSymInts: "as_sym_ints",
	ArgScalarType: "as_scalar_type", ArgMemoryFormat: "as_memory_format", ArgLayout: "as_layout",
	ArgDevice: "as_device", ArgBool: "as_bool", ArgBools: "as_bools", ArgSymBool: "as_sym_bool",
	ArgSymBools: "as_sym_bools", ArgOptionalTensors: "as_optional_tensors", ArgGraph: "as_graph",
	ArgCustomObj: "as_custom_obj", ArgOperator: "as_operator", ArgSymFloat: "as_sym_float",
	ArgSymFloats: "as_sym_floats", ArgOptionalTensor: "as_optional_tensor", ArgComplex: "as_complex",
	ArgNestedTensors: "as_nested_tensors", ArgIntLists: "as_int_lists",
	ArgStringToArgument: "as_string_to_argument", ArgToken: "token",
}

func (k ArgKind) String() string {
	if k < numArgKinds && argKindNames[k] != "" {
		return argKindNames[k]
	}
	return "invalid"
}

// Argument is one value of the schema's Argument union. Kind selects the
// member; only the fields that member uses are set:
//
//   - ArgNone: nothing.
//   - ArgTensor, ArgCustomObj, ArgToken: Name (ArgCustomObj: Str is the class FQN).
//   - ArgSymInt, ArgSymFloat, ArgSymBool: Name when the value is a named
//     symbolic value, otherwise the literal in Int, Float or Bool.
//   - ArgOptionalTensor: Name, or "" for None.
//   - ArgInt, ArgScalarType, ArgMemoryFormat, ArgLayout: Int.
//   - ArgFloat: Float. ArgBool: Bool. ArgString, ArgOperator: Str.
//   - ArgInts: Ints.
//   - ArgTensors, ArgSymInts, ArgSymFloats, ArgSymBools, ArgOptionalTensors:
//     List, whose elements have the element kind (ArgTensor, ArgSymInt, ...).
//   - The rare members live in Extra (nil for every other kind), read
//     through the methods of the same name and built with their
//     constructors: ArgFloats, ArgBools, ArgStrings: Floats, Bools,
//     Strings. ArgDevice: Device. ArgComplex: Complex. ArgGraph: Graph.
//     ArgNestedTensors: Nested. ArgIntLists: IntLists.
//     ArgStringToArgument: Map.
//
// A program holds one Argument per node input and output, hundreds of
// thousands in a large export: the common members stay inline and the
// rare ones cost one pointer (112 bytes in all, against 272 with every
// member inline).
type Argument struct {
	Kind  ArgKind
	Bool  bool
	Name  string
	Str   string
	Int   int64
	Float float64
	Ints  []int64
	List  []Argument
	Extra *ArgExtra
}

// ArgExtra holds the members of the Argument union that programs seldom
// use; an Argument of one of their kinds points to one.
type ArgExtra struct {
	Complex  complex128
	Device   *Device
	Floats   []float64
	Bools    []bool
	Strings  []string
	Graph    *GraphArgument
	IntLists [][]int64
	Nested   [][]string
	Map      map[string]Argument
}

// Readers of the rare members: each is the zero value when the argument
// holds another kind.

func (a Argument) Complex() complex128 {
	if a.Extra == nil {
		return 0
	}
	return a.Extra.Complex
}

func (a Argument) Device() *Device {
	if a.Extra == nil {
		return nil
	}
	return a.Extra.Device
}

func (a Argument) Floats() []float64 {
	if a.Extra == nil {
		return nil
	}
	return a.Extra.Floats
}

func (a Argument) Bools() []bool {
	if a.Extra == nil {
		return nil
	}
	return a.Extra.Bools
}

func (a Argument) Strings() []string {
	if a.Extra == nil {
		return nil
	}
	return a.Extra.Strings
}

func (a Argument) Graph() *GraphArgument {
	if a.Extra == nil {
		return nil
	}
	return a.Extra.Graph
}

func (a Argument) IntLists() [][]int64 {
	if a.Extra == nil {
		return nil
	}
	return a.Extra.IntLists
}

func (a Argument) Nested() [][]string {
	if a.Extra == nil {
		return nil
	}
	return a.Extra.Nested
}

func (a Argument) Map() map[string]Argument {
	if a.Extra == nil {
		return nil
	}
	return a.Extra.Map
}

// GraphArgument is a nested graph passed to a higher-order op (a cond branch).
type GraphArgument struct {
	Name  string `json:"name"`
	Graph *Graph `json:"graph"`
}

// Constructors for the common members.

func NoneArg() Argument                   { return Argument{Kind: ArgNone} }
func TensorArg(name string) Argument      { return Argument{Kind: ArgTensor, Name: name} }
func IntArg(v int64) Argument             { return Argument{Kind: ArgInt, Int: v} }
func FloatArg(v float64) Argument         { return Argument{Kind: ArgFloat, Float: v} }
func BoolArg(v bool) Argument             { return Argument{Kind: ArgBool, Bool: v} }
func StringArg(s string) Argument         { return Argument{Kind: ArgString, Str: s} }
func IntsArg(v []int64) Argument          { return Argument{Kind: ArgInts, Ints: v} }
func SymIntRef(name string) Argument      { return Argument{Kind: ArgSymInt, Name: name} }
func SymIntLit(v int64) Argument          { return Argument{Kind: ArgSymInt, Int: v} }
func SymFloatRef(name string) Argument    { return Argument{Kind: ArgSymFloat, Name: name} }
func SymBoolRef(name string) Argument     { return Argument{Kind: ArgSymBool, Name: name} }
func ScalarTypeArg(t ScalarType) Argument { return Argument{Kind: ArgScalarType, Int: int64(t)} }
func FloatsArg(v []float64) Argument {
	return Argument{Kind: ArgFloats, Extra: &ArgExtra{Floats: v}}
}
func BoolsArg(v []bool) Argument { return Argument{Kind: ArgBools, Extra: &ArgExtra{Bools: v}} }
func StringsArg(v []string) Argument {
	return Argument{Kind: ArgStrings, Extra: &ArgExtra{Strings: v}}
}
func DeviceArg(d *Device) Argument { return Argument{Kind: ArgDevice, Extra: &ArgExtra{Device: d}} }
func ComplexArg(v complex128) Argument {
	return Argument{Kind: ArgComplex, Extra: &ArgExtra{Complex: v}}
}
func GraphArg(g *GraphArgument) Argument {
	return Argument{Kind: ArgGraph, Extra: &ArgExtra{Graph: g}}
}
func NestedTensorsArg(v [][]string) Argument {
	return Argument{Kind: ArgNestedTensors, Extra: &ArgExtra{Nested: v}}
}
func IntListsArg(v [][]int64) Argument {
	return Argument{Kind: ArgIntLists, Extra: &ArgExtra{IntLists: v}}
}
func StringToArgumentArg(m map[string]Argument) Argument {
	return Argument{Kind: ArgStringToArgument, Extra: &ArgExtra{Map: m}}
}
func TensorsArg(names ...string) Argument {
	l := make([]Argument, len(names))
	for i, n := range names {
		l[i] = TensorArg(n)
	}
	return Argument{Kind: ArgTensors, List: l}
}

// IntList reads an int list argument (an int reads as a list of one):
// symbolic when an element is a symbolic value, ok false for another kind.
func (a *Argument) IntList() (v []int64, symbolic, ok bool) {
	switch a.Kind {
	case ArgInts:
		return a.Ints, false, true
	case ArgInt:
		return []int64{a.Int}, false, true
	case ArgSymInts:
		out := make([]int64, len(a.List))
		for i, e := range a.List {
			if e.Name != "" {
				return nil, true, true
			}
			out[i] = e.Int
		}
		return out, false, true
	}
	return nil, false, false
}

// IsSymbolic reports whether the argument is a single symbolic scalar
// (SymInt, SymFloat or SymBool) referring to a named value.
func (a *Argument) IsSymbolic() bool {
	switch a.Kind {
	case ArgSymInt, ArgSymFloat, ArgSymBool:
		return a.Name != ""
	}
	return false
}

// ForEachRef calls fn with the name of every value the argument refers to,
// in order. Nested graphs are not entered: their values are their own.
func (a *Argument) ForEachRef(fn func(name string)) {
	switch a.Kind {
	case ArgTensor, ArgCustomObj, ArgToken, ArgSymInt, ArgSymFloat, ArgSymBool, ArgOptionalTensor:
		if a.Name != "" {
			fn(a.Name)
		}
	case ArgTensors, ArgSymInts, ArgSymFloats, ArgSymBools, ArgOptionalTensors:
		for i := range a.List {
			a.List[i].ForEachRef(fn)
		}
	case ArgNestedTensors:
		for _, l := range a.Nested() {
			for _, n := range l {
				fn(n)
			}
		}
	case ArgStringToArgument:
		m := a.Map()
		for _, k := range sortedKeys(m) {
			v := m[k]
			v.ForEachRef(fn)
		}
	}
}

// Refs returns the names ForEachRef visits.
func (a *Argument) Refs() []string {
	var out []string
	a.ForEachRef(func(n string) { out = append(out, n) })
	return out
}

// Rename rewrites every reference through fn (names fn does not know stay).
func (a *Argument) Rename(fn func(string) string) {
	switch a.Kind {
	case ArgTensor, ArgCustomObj, ArgToken, ArgSymInt, ArgSymFloat, ArgSymBool, ArgOptionalTensor:
		if a.Name != "" {
			a.Name = fn(a.Name)
		}
	case ArgTensors, ArgSymInts, ArgSymFloats, ArgSymBools, ArgOptionalTensors:
		for i := range a.List {
			a.List[i].Rename(fn)
		}
	case ArgNestedTensors:
		for _, l := range a.Nested() {
			for j := range l {
				l[j] = fn(l[j])
			}
		}
	case ArgStringToArgument:
		m := a.Map()
		for k, v := range m {
			v.Rename(fn)
			m[k] = v
		}
	}
}
