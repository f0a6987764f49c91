# Generates scalar_golden.json.gz: what Python computes for the scalar
# functions an exported program calls on its symbolic ints, floats and
# bools (_operator.*, math.*, torch.sym_*), and the ones it refuses.
# Run from this folder with any Python 3: python3 gen_scalar.py
#
# Each line of the file is {"op", "args", "out"} or {"op", "args", "err"}.
# A value is "i:7", "f:-0.0" (Python's repr) or "b:True". err is the
# exception Python raised; "int64" means Python's result is an int that
# does not fit in 64 bits, which seam cannot hold and must refuse.
# torch.sym_* follow PyTorch 2.x's definitions for plain Python values
# (torch/__init__.py), written out below since torch 1.13 lacks them.
import builtins, gzip, json, math, operator

INTS = [0, 1, -1, 2, -2, 3, -3, 7, -7, 8, 2**53 + 1, 2**62, 2**63 - 1, -2**63]
FLOATS = [0.0, -0.0, 0.1, 0.5, -0.5, 2.5, -7.5, 3.0, 1e308, 5e-324, 2.0**53, 2.0**63,
          float("inf"), float("-inf"), float("nan")]
BOOLS = [True, False]
VALUES = INTS + FLOATS + BOOLS
# Pairs for binary ops: a smaller set, every kind and sign.
PAIR = [0, 1, -1, 2, -3, 7, -7, 2**53 + 1, 2**62, -2**63, 0.0, -0.0, 0.1, 2.5, -7.5, 3.0, 1e308,
        2.0**53, float("inf"), float("-inf"), float("nan"), True, False]


def sym_float(a):
    return builtins.float(a)


def sym_int(a):
    if isinstance(a, float):
        return math.trunc(a)
    return builtins.int(a)


def sym_max(a, b):
    if isinstance(a, float) or isinstance(b, float):
        return builtins.float(builtins.max(a, b))
    return builtins.max(a, b)


def sym_min(a, b):
    if isinstance(a, float) or isinstance(b, float):
        return builtins.float(builtins.min(a, b))
    return builtins.min(a, b)


def sym_not(a):
    return not a


def sym_ite(b, t, f):
    assert isinstance(b, bool) and type(t) == type(f)
    return t if b else f


BINARY = {
    "_operator.add": operator.add, "_operator.sub": operator.sub, "_operator.mul": operator.mul,
    "_operator.floordiv": operator.floordiv, "_operator.mod": operator.mod,
    "_operator.truediv": operator.truediv, "_operator.pow": operator.pow,
    "_operator.eq": operator.eq, "_operator.ne": operator.ne, "_operator.lt": operator.lt,
    "_operator.le": operator.le, "_operator.gt": operator.gt, "_operator.ge": operator.ge,
    "_operator.and_": operator.and_, "_operator.or_": operator.or_,
    "torch.sym_max": sym_max, "torch.sym_min": sym_min,
}
UNARY = {
    "_operator.neg": operator.neg, "_operator.pos": operator.pos, "_operator.abs": operator.abs,
    "_operator.not_": operator.not_, "torch.sym_not": sym_not,
    "math.trunc": math.trunc, "math.floor": math.floor, "math.ceil": math.ceil,
    "math.sqrt": math.sqrt, "torch.sym_sqrt": math.sqrt,
    "torch.sym_float": sym_float, "torch.sym_int": sym_int,
}


def enc(v):
    if isinstance(v, bool):
        return "b:%s" % v
    if isinstance(v, int):
        return "i:%d" % v
    if isinstance(v, float):
        return "f:" + repr(v)
    raise TypeError(type(v))


lines = []


def record(op, fn, args):
    entry = {"op": op, "args": [enc(a) for a in args]}
    try:
        r = fn(*args)
        if isinstance(r, complex):
            raise ValueError("complex result")
        if isinstance(r, int) and not isinstance(r, bool) and not -2**63 <= r < 2**63:
            entry["err"] = "int64"
        else:
            entry["out"] = enc(r)
    except Exception as e:
        entry["err"] = type(e).__name__
    lines.append(json.dumps(entry))


for op, fn in BINARY.items():
    for a in PAIR:
        for b in PAIR:
            if op == "_operator.pow" and isinstance(a, int) and isinstance(b, int) and b > 64:
                record(op, fn, [a, 3])  # keep 2**(2**62) out of the generator
                continue
            record(op, fn, [a, b])
for op, fn in UNARY.items():
    for a in VALUES:
        record(op, fn, [a])
for b in BOOLS + [1, 0.0]:
    for t, f in [(1, 2), (1.5, -2.5), (True, False), (1, 2.5)]:
        record("torch.sym_ite", sym_ite, [b, t, f])

with gzip.GzipFile("scalar_golden.jsonl.gz", "wb", mtime=0) as g:
    g.write(("\n".join(lines) + "\n").encode())
print(len(lines), "cases")
