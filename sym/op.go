package sym

// Op is the kind of an expression node: an atom (symbol, number, boolean,
// infinity) or an operation. The names are SymPy's and PyTorch's class names
// (torch/utils/_sympy/functions.py), because those are what export writes.
type Op uint8

// Atoms.
const (
	OpInvalid        Op = iota
	OpSymbol            // Symbol('s0', integer=True, positive=True)
	OpInteger           // Integer(4), arbitrary precision
	OpRational          // Rational(1, 2), denominator > 1
	OpFloat             // Float('0.5', precision=53)
	OpTrue              // true
	OpFalse             // false
	OpInfinity          // oo
	OpNegInfinity       // -oo
	OpIntInfinity       // int_oo, torch's integer infinity
	OpNegIntInfinity    // -int_oo
	OpNaN               // nan

	// Arithmetic, evaluated as SymPy does when built.
	OpAdd
	OpMul
	OpPow

	// Integer division and remainders.
	OpFloorDiv        // Python a // b
	OpCleanDiv        // a // b known to divide exactly
	OpCeilDiv         // -(-a // b)
	OpMod             // a % b, arguments non-negative
	OpPythonMod       // a % b with the sign of b
	OpModularIndexing // (a // b) % c

	OpMax
	OpMin

	// Relations and logic.
	OpEq
	OpNe
	OpLt
	OpLe
	OpGt
	OpGe
	OpAnd
	OpOr
	OpNot
	OpWhere // Where(cond, a, b)

	// Conversions between int and float.
	OpToFloat
	OpFloatTrueDiv
	OpIntTrueDiv
	OpTruncToFloat
	OpTruncToInt
	OpFloorToInt
	OpCeilToInt
	OpRoundToInt
	OpRoundDecimal
	OpFloatPow
	OpPowByNatural

	OpAbs
	OpIdentity
	OpLShift
	OpRShift
	OpBitwiseAnd
	OpBitwiseOr
	OpBitwiseXor

	// OpaqueUnaryFn_*: math functions on floats.
	OpSqrt
	OpCos
	OpCosh
	OpSin
	OpSinh
	OpTan
	OpTanh
	OpAsin
	OpAcos
	OpAtan
	OpExp
	OpLog
	OpAsinh
	OpLog2

	numOps
)

// Type is the kind of value an expression has.
type Type uint8

const (
	TypeInt Type = iota
	TypeFloat
	TypeBool
)

func (t Type) String() string {
	switch t {
	case TypeInt:
		return "int"
	case TypeFloat:
		return "float"
	case TypeBool:
		return "bool"
	}
	return "invalid"
}

// SymPy's printing precedences (sympy/printing/precedence.py).
const (
	precOr         = 20
	precAnd        = 30
	precRelational = 35
	precBitwiseOr  = 36
	precBitwiseXor = 37
	precBitwiseAnd = 38
	precAdd        = 40
	precMul        = 50
	precPow        = 60
	precFunc       = 70
	precNot        = 100
	precAtom       = 1000
)

// opInfo describes one Op: its names, arity and how SymPy orders and prints it.
type opInfo struct {
	name     string // SymPy/torch class name, as srepr writes it
	minArgs  int
	maxArgs  int // -1: any number
	prec     int // str() precedence of an application
	classA   int // class_key() = (classA, classB, name): SymPy's sort order
	classB   int
	result   Type // result type when it does not depend on the arguments
	argTyped bool // result type follows the arguments (int unless one is float)
}

const variadic = -1

// fn is a torch function with a fixed arity: class_key (4, 10000, name).
func fn(name string, n, prec int, result Type) opInfo {
	return opInfo{name: name, minArgs: n, maxArgs: n, prec: prec, classA: 4, classB: 10000, result: result}
}

var ops = [numOps]opInfo{
	OpSymbol:         {name: "Symbol", classA: 2, prec: precAtom},
	OpInteger:        {name: "Integer", classA: 1, prec: precAtom},
	OpRational:       {name: "Rational", classA: 1, prec: precMul, result: TypeFloat},
	OpFloat:          {name: "Float", classA: 1, prec: precAtom, result: TypeFloat},
	OpTrue:           {name: "BooleanTrue", classA: 5, prec: precAtom, result: TypeBool},
	OpFalse:          {name: "BooleanFalse", classA: 5, prec: precAtom, result: TypeBool},
	OpInfinity:       {name: "Infinity", classA: 1, prec: precAtom, result: TypeFloat},
	OpNegInfinity:    {name: "NegativeInfinity", classA: 1, prec: precAdd, result: TypeFloat},
	OpIntInfinity:    {name: "IntInfinity", classA: 1, prec: precAtom},
	OpNegIntInfinity: {name: "NegativeIntInfinity", classA: 1, prec: precAtom},
	OpNaN:            {name: "NaN", classA: 1, prec: precAtom, result: TypeFloat},

	OpAdd: {name: "Add", minArgs: 2, maxArgs: variadic, prec: precAdd, classA: 3, classB: 1, argTyped: true},
	OpMul: {name: "Mul", minArgs: 2, maxArgs: variadic, prec: precMul, classA: 3, classB: 0, argTyped: true},
	OpPow: {name: "Pow", minArgs: 2, maxArgs: 2, prec: precPow, classA: 3, classB: 2, argTyped: true},

	OpFloorDiv:        withArgTyped(fn("FloorDiv", 2, precRelational, TypeInt)),
	OpCleanDiv:        withArgTyped(fn("CleanDiv", 2, precRelational, TypeInt)),
	OpCeilDiv:         {name: "CeilDiv", minArgs: 2, maxArgs: 2, prec: precFunc, classA: 4, argTyped: true},
	OpMod:             withArgTyped(fn("Mod", 2, precRelational, TypeInt)),
	OpPythonMod:       withArgTyped(fn("PythonMod", 2, precRelational, TypeInt)),
	OpModularIndexing: fn("ModularIndexing", 3, precRelational, TypeInt),

	OpMax: {name: "Max", minArgs: 1, maxArgs: variadic, prec: precAtom, classA: 5, argTyped: true},
	OpMin: {name: "Min", minArgs: 1, maxArgs: variadic, prec: precAtom, classA: 5, argTyped: true},

	OpEq:  {name: "Equality", minArgs: 2, maxArgs: 2, prec: precMul, classA: 5, result: TypeBool},
	OpNe:  {name: "Unequality", minArgs: 2, maxArgs: 2, prec: precMul, classA: 5, result: TypeBool},
	OpLt:  {name: "StrictLessThan", minArgs: 2, maxArgs: 2, prec: precRelational, classA: 5, result: TypeBool},
	OpLe:  {name: "LessThan", minArgs: 2, maxArgs: 2, prec: precRelational, classA: 5, result: TypeBool},
	OpGt:  {name: "StrictGreaterThan", minArgs: 2, maxArgs: 2, prec: precRelational, classA: 5, result: TypeBool},
	OpGe:  {name: "GreaterThan", minArgs: 2, maxArgs: 2, prec: precRelational, classA: 5, result: TypeBool},
	OpAnd: {name: "And", minArgs: 2, maxArgs: variadic, prec: precAnd, classA: 5, result: TypeBool},
	OpOr:  {name: "Or", minArgs: 2, maxArgs: variadic, prec: precOr, classA: 5, result: TypeBool},
	OpNot: {name: "Not", minArgs: 1, maxArgs: 1, prec: precNot, classA: 5, result: TypeBool},

	OpWhere: withArgTyped(fn("Where", 3, precRelational, TypeInt)),

	OpToFloat:      fn("ToFloat", 1, precFunc, TypeFloat),
	OpFloatTrueDiv: fn("FloatTrueDiv", 2, precRelational, TypeFloat),
	OpIntTrueDiv:   fn("IntTrueDiv", 2, precRelational, TypeFloat),
	OpTruncToFloat: fn("TruncToFloat", 1, precFunc, TypeFloat),
	OpTruncToInt:   fn("TruncToInt", 1, precFunc, TypeInt),
	OpFloorToInt:   fn("FloorToInt", 1, precFunc, TypeInt),
	OpCeilToInt:    fn("CeilToInt", 1, precFunc, TypeInt),
	OpRoundToInt:   fn("RoundToInt", 1, precFunc, TypeInt),
	OpRoundDecimal: fn("RoundDecimal", 2, precFunc, TypeFloat),
	OpFloatPow:     fn("FloatPow", 2, precPow, TypeFloat),
	OpPowByNatural: fn("PowByNatural", 2, precMul, TypeInt),

	OpAbs:        withArgTyped(fn("Abs", 1, precFunc, TypeInt)),
	OpIdentity:   {name: "Identity", minArgs: 1, maxArgs: 1, prec: 10, classA: 4, argTyped: true},
	OpLShift:     fn("LShift", 2, precFunc, TypeInt),
	OpRShift:     fn("RShift", 2, precFunc, TypeInt),
	OpBitwiseAnd: fn("BitwiseFn_bitwise_and", 2, precBitwiseAnd, TypeInt),
	OpBitwiseOr:  fn("BitwiseFn_bitwise_or", 2, precBitwiseOr, TypeInt),
	OpBitwiseXor: fn("BitwiseFn_bitwise_xor", 2, precBitwiseXor, TypeInt),

	OpSqrt:  fn("OpaqueUnaryFn_sqrt", 1, precFunc, TypeFloat),
	OpCos:   fn("OpaqueUnaryFn_cos", 1, precFunc, TypeFloat),
	OpCosh:  fn("OpaqueUnaryFn_cosh", 1, precFunc, TypeFloat),
	OpSin:   fn("OpaqueUnaryFn_sin", 1, precFunc, TypeFloat),
	OpSinh:  fn("OpaqueUnaryFn_sinh", 1, precFunc, TypeFloat),
	OpTan:   fn("OpaqueUnaryFn_tan", 1, precFunc, TypeFloat),
	OpTanh:  fn("OpaqueUnaryFn_tanh", 1, precFunc, TypeFloat),
	OpAsin:  fn("OpaqueUnaryFn_asin", 1, precFunc, TypeFloat),
	OpAcos:  fn("OpaqueUnaryFn_acos", 1, precFunc, TypeFloat),
	OpAtan:  fn("OpaqueUnaryFn_atan", 1, precFunc, TypeFloat),
	OpExp:   fn("OpaqueUnaryFn_exp", 1, precFunc, TypeFloat),
	OpLog:   fn("OpaqueUnaryFn_log", 1, precFunc, TypeFloat),
	OpAsinh: fn("OpaqueUnaryFn_asinh", 1, precFunc, TypeFloat),
	OpLog2:  fn("OpaqueUnaryFn_log2", 1, precFunc, TypeFloat),
}

func withArgTyped(o opInfo) opInfo { o.argTyped = true; return o }

// String is the SymPy class name, as srepr writes it ("Add", "FloorDiv",
// "StrictGreaterThan", "OpaqueUnaryFn_sqrt").
func (o Op) String() string {
	if o == OpInvalid || o >= numOps {
		return "Invalid"
	}
	return ops[o].name
}

// IsAtom reports whether o has no arguments.
func (o Op) IsAtom() bool { return o > OpInvalid && o < OpAdd }

// IsNumber reports whether o is a numeric constant (including infinities).
func (o Op) IsNumber() bool {
	switch o {
	case OpInteger, OpRational, OpFloat, OpInfinity, OpNegInfinity, OpIntInfinity, OpNegIntInfinity, OpNaN:
		return true
	}
	return false
}

// IsRelational reports whether o compares two values.
func (o Op) IsRelational() bool { return o >= OpEq && o <= OpGe }

// isFunction: printed and ordered as a SymPy Function application.
func (o Op) isFunction() bool {
	return o >= OpFloorDiv && o != OpMax && o != OpMin && !o.IsRelational() && o != OpAnd && o != OpOr && o != OpNot
}

// opByName maps every name the parser accepts for an operation to its Op:
// the srepr class names plus the str() spellings of relations.
var opByName = func() map[string]Op {
	m := map[string]Op{}
	for o := OpAdd; o < numOps; o++ {
		m[ops[o].name] = o
	}
	for name, o := range map[string]Op{
		"Eq": OpEq, "Ne": OpNe, "Lt": OpLt, "Le": OpLe, "Gt": OpGt, "Ge": OpGe,
	} {
		m[name] = o
	}
	return m
}()
