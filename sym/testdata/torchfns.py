"""Stand-ins for torch.utils._sympy.functions, written for the golden-file
generator (gen_golden.py): the same class names, arities (eval signatures),
precedences and str() forms as PyTorch 2.11, without torch's simplifications,
so that SymPy orders and prints expressions exactly as export does."""
import sympy
from sympy.printing.precedence import PRECEDENCE


def _fn(name, nargs, precedence=None, **attrs):
    # Function's arity comes from eval's signature; it decides class_key().
    params = ", ".join("a%d" % i for i in range(nargs))
    ns = {}
    exec("def eval(cls, %s):\n    return None\n" % params, ns)
    body = {"eval": classmethod(ns["eval"])}
    if precedence is not None:
        body["precedence"] = precedence
    body.update(attrs)
    return type(name, (sympy.Function,), body)


def _floordiv_str(self, printer):
    base = printer.parenthesize(self.args[0], PRECEDENCE["Atom"] - 0.5)
    div = printer.parenthesize(self.args[1], PRECEDENCE["Atom"] - 0.5)
    return "(%s//%s)" % (base, div)


FloorDiv = _fn("FloorDiv", 2, 35, is_integer=True, _sympystr=_floordiv_str)
CleanDiv = type("CleanDiv", (FloorDiv,), {})
ModularIndexing = _fn("ModularIndexing", 3, 35, is_integer=True)
Where = _fn("Where", 3, 35)
PythonMod = _fn("PythonMod", 2, 35, is_integer=True)
Mod = _fn("Mod", 2, 35, is_integer=True, is_nonnegative=True)
CeilToInt = _fn("CeilToInt", 1, is_integer=True)
FloorToInt = _fn("FloorToInt", 1, is_integer=True)
LShift = _fn("LShift", 2, is_integer=True)
RShift = _fn("RShift", 2, is_integer=True)
PowByNatural = _fn("PowByNatural", 2, 50, is_integer=True)
FloatPow = _fn("FloatPow", 2, 60, is_real=True)
FloatTrueDiv = _fn("FloatTrueDiv", 2, 35, is_real=True)
IntTrueDiv = _fn("IntTrueDiv", 2, 35, is_real=True)
TruncToFloat = _fn("TruncToFloat", 1, is_real=True)
TruncToInt = _fn("TruncToInt", 1, is_integer=True)
RoundToInt = _fn("RoundToInt", 1, is_integer=True)
RoundDecimal = _fn("RoundDecimal", 2, is_real=True)
ToFloat = _fn("ToFloat", 1, is_real=True)
Identity = type("Identity", (sympy.Function,), {
    "precedence": 10,
    "_sympystr": lambda self, printer: "(%s)" % printer.doprint(self.args[0]),
    "__float__": lambda self: float(self.args[0]),
    "is_number": property(lambda self: bool(self.args[0].is_number and self.args[0].is_comparable)),
    "is_comparable": property(lambda self: bool(self.args[0].is_comparable)),
})
OPAQUE = ["sqrt", "cos", "cosh", "sin", "sinh", "tan", "tanh", "asin", "acos",
          "atan", "exp", "log", "asinh", "log2"]
Opaque = {n: _fn("OpaqueUnaryFn_" + n, 1) for n in OPAQUE}
BitwiseAnd = _fn("BitwiseFn_bitwise_and", 2, PRECEDENCE["BitwiseAnd"])
BitwiseOr = _fn("BitwiseFn_bitwise_or", 2, PRECEDENCE["BitwiseOr"])
BitwiseXor = _fn("BitwiseFn_bitwise_xor", 2, PRECEDENCE["BitwiseXor"])
