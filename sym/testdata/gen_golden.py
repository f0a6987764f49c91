"""Writes golden.jsonl: random expressions as SymPy 1.14 evaluates, prints and
srepr's them, for the printer and parser tests (golden_test.go).

    cd sym/testdata && python3 gen_golden.py > golden.jsonl

Each line is {"kind": "srepr"|"infix", "input": text, "str": str(e),
"srepr": srepr(e), "expanded": e == expand(e)}. "srepr" lines feed srepr text
as export writes it; "infix" lines feed unevaluated Python text (the str form
of older files) that sympify evaluates. torchfns.py stands in for torch's
function classes (torch is not needed)."""
import json
import random
import sys

import sympy
from sympy import Integer, Rational, Float

import torchfns as T

rng = random.Random(20260)
SYMS = [sympy.Symbol("s%d" % i, integer=True, positive=True) for i in (0, 1, 2, 27)] + [
    sympy.Symbol("u0", integer=True)]


def leaf():
    r = rng.random()
    if r < 0.55:
        return rng.choice(SYMS)
    if r < 0.85:
        return Integer(rng.randint(-4, 6))
    if r < 0.93:
        return Rational(rng.choice([1, 3, -1]), rng.choice([2, 3]))
    return Float(rng.choice([0.5, 2.0, 1.5, 3.0, 0.1, 1e-7, 2.5e20]))


def int_expr(d):
    if d <= 0 or rng.random() < 0.25:
        return leaf()
    k = rng.random()
    if k < 0.25:
        return sympy.Add(*[int_expr(d - 1) for _ in range(rng.randint(2, 3))])
    if k < 0.5:
        return sympy.Mul(*[int_expr(d - 1) for _ in range(rng.randint(2, 3))])
    if k < 0.58:
        return sympy.Pow(int_expr(d - 1), Integer(rng.choice([-2, -1, 2, 3])))
    if k < 0.62:
        return -int_expr(d - 1)
    if k < 0.68:
        return T.FloorDiv(int_expr(d - 1), rng.choice([Integer(2), Integer(3), rng.choice(SYMS)]))
    if k < 0.72:
        return rng.choice([T.PythonMod, T.Mod])(int_expr(d - 1), Integer(rng.choice([2, 5])))
    if k < 0.78:
        return rng.choice([sympy.Max, sympy.Min])(*[int_expr(d - 1) for _ in range(rng.randint(2, 3))])
    if k < 0.82:
        return T.ToFloat(int_expr(d - 1))
    if k < 0.85:
        return T.FloatTrueDiv(T.ToFloat(int_expr(d - 1)), Float(rng.choice([3.0, 0.5])))
    if k < 0.87:
        return rng.choice([T.TruncToInt, T.CeilToInt, T.FloorToInt, T.RoundToInt])(T.ToFloat(int_expr(d - 1)))
    if k < 0.89:
        return T.Identity(int_expr(d - 1))
    if k < 0.91:
        return T.Opaque[rng.choice(T.OPAQUE)](T.ToFloat(int_expr(d - 1)))
    if k < 0.93:
        return sympy.sqrt(int_expr(d - 1))
    if k < 0.95:
        return T.Where(bool_expr(d - 1), int_expr(d - 1), int_expr(d - 1))
    if k < 0.97:
        return T.IntTrueDiv(int_expr(d - 1), int_expr(d - 1))
    return rng.choice([T.BitwiseAnd, T.BitwiseOr])(int_expr(d - 1), int_expr(d - 1))


def arith_expr(d):
    if d <= 0 or rng.random() < 0.2:
        return leaf()
    k = rng.random()
    if k < 0.35:
        return sympy.Add(*[arith_expr(d - 1) for _ in range(rng.randint(2, 3))])
    if k < 0.7:
        return sympy.Mul(*[arith_expr(d - 1) for _ in range(rng.randint(2, 3))])
    if k < 0.8:
        return sympy.Pow(arith_expr(d - 1), Integer(rng.choice([-2, -1, 2, 3])))
    if k < 0.85:
        return -arith_expr(d - 1)
    if k < 0.9:
        return T.FloorDiv(rng.choice(SYMS), Integer(rng.choice([2, 3])))
    return T.ToFloat(rng.choice(SYMS))


def bool_expr(d):
    k = rng.random()
    a, b = int_expr(d - 1), int_expr(d - 1)
    if d > 1 and k < 0.15:
        return sympy.And(bool_expr(d - 1), bool_expr(d - 1))
    if d > 1 and k < 0.25:
        return sympy.Or(bool_expr(d - 1), bool_expr(d - 1))
    if d > 1 and k < 0.3:
        return sympy.Not(bool_expr(d - 1))
    rel = rng.choice([sympy.Eq, sympy.Ne, sympy.Lt, sympy.Le, sympy.Gt, sympy.Ge])
    return rel(a, b)


def infix(e, top=True):
    """Python text for an expression tree, without SymPy's evaluation: a
    random argument order and redundant parentheses."""
    if e.is_Symbol:
        return e.name
    if e.is_Integer:
        return str(e) if e >= 0 else "(%s)" % e
    if e.is_Rational:
        return "(%d/%d)" % (e.p, e.q)
    if e.is_Float:
        return repr(float(e))
    args = list(e.args)
    if isinstance(e, (sympy.Add, sympy.Mul)):
        rng.shuffle(args)
        op = " + " if e.is_Add else "*"
        return "(" + op.join(infix(a, False) for a in args) + ")"
    if e.is_Pow:
        return "(%s)**(%s)" % (infix(args[0], False), infix(args[1], False))
    return "%s(%s)" % (type(e).__name__, ", ".join(infix(a, False) for a in args))


def is_expanded(e):
    if isinstance(e, sympy.Expr):
        return bool(e == sympy.expand(e))
    return all(is_expanded(a) for a in e.args)


def emit(kind, text, e):
    print(json.dumps({"kind": kind, "input": text, "str": str(e), "srepr": sympy.srepr(e),
                      "expanded": is_expanded(e)}))


def main():
    seen = set()
    n = 0
    while n < 1500:
        try:
            e = bool_expr(rng.randint(1, 3)) if rng.random() < 0.15 else int_expr(rng.randint(1, 4))
            s = sympy.srepr(e)
        except Exception:
            continue
        if s in seen or e.has(sympy.zoo, sympy.nan, sympy.I) or len(s) > 600:
            continue
        seen.add(s)
        emit("srepr", s, e)
        n += 1
    n = 0
    ns = {c.__name__: c for c in [T.FloorDiv, T.PythonMod, T.Mod, T.ToFloat, T.FloatTrueDiv,
                                   T.IntTrueDiv, T.TruncToInt, T.CeilToInt, T.FloorToInt,
                                   T.RoundToInt, T.Identity, T.Where, T.BitwiseAnd, T.BitwiseOr]}
    ns.update({c.__name__: c for c in T.Opaque.values()})
    ns.update({s.name: sympy.Symbol(s.name) for s in SYMS})
    while n < 800:
        # Only arithmetic: the stand-in functions do not simplify constant
        # arguments as torch's do, so a function call here would test them.
        try:
            with sympy.evaluate(False):
                e = arith_expr(rng.randint(1, 4))
            text = infix(e)
            v = sympy.sympify(text, locals=ns)
        except Exception:
            continue
        if v.has(sympy.zoo, sympy.nan, sympy.I) or len(text) > 300:
            continue
        emit("infix", text, v)
        n += 1


if __name__ == "__main__":
    sys.setrecursionlimit(10000)
    main()
