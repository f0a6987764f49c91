# Generates golden.json.gz: kernel cases computed by PyTorch (torch 1.13 from
# Debian was used). Run from this folder: /usr/bin/python3 gen_golden.py
# (with -v it prints each case before running it).
#
# Every registered kernel gets a sweep over the ten dtypes seam stores
# (golden_test.go refuses a kernel without one), plus edge cases:
# broadcasting, non-contiguous and zero-size inputs, negative dims, NaN and
# Inf, integer floor division and remainder with negative operands and by
# zero, and matrix products and convolutions at realistic k.
#
# File layout: {"tensors": [...], "cases": [...]}. A tensor is
# {"dtype", "shape", "strides", "offset", "data"}: data is base64 of the
# elements in logical (row-major) order, little-endian; strides and offset
# rebuild PyTorch's layout (permuted, expanded, sliced). Tensors are shared
# between cases by index. A tensor too big to store is {"gen": seed, ...}:
# both sides compute element i as ((i*2654435761 + seed) mod 2^32)/2^32*2-1
# in float64, rounded to the dtype.
#
# A case: target, args, kwargs (argument encodings as in enc()), dtype (the
# dtype it proves), and out (the results) or error (PyTorch refused).
# Optional: check (compare only the first N outputs), meta (compare dtype,
# shape and strides only: uninitialised results), tol ([rtol, atol]
# derived for this case), via ("f32": torch 1.13 has no CPU kernel for this
# reduced-precision dtype, so the reference is the float32 computation
# rounded to it, which is what PyTorch 2.x's CPU kernels compute), tag (a
# mode seam refuses by design, named in golden_test.go).
import base64, gzip, io, json, math, sys
import torch

torch.manual_seed(0)
DEBUG = len(sys.argv) > 1

F32, F64, F16, BF16 = torch.float32, torch.float64, torch.float16, torch.bfloat16
I64, I32, I16, I8, U8, B8 = torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8, torch.bool
ALL = [F32, F64, F16, BF16, I64, I32, I16, I8, U8, B8]
FLOATS = [F32, F64, F16, BF16]
DT = {F32: "f32", F64: "f64", I64: "i64", I32: "i32", I16: "i16", I8: "i8", U8: "u8", B8: "b8",
      F16: "f16", BF16: "bf16"}
MF = {torch.contiguous_format: 1, torch.channels_last: 2, torch.preserve_format: 4}

tensors, tensor_ids, cases = [], {}, []


def tensor_id(t):
    t = t.detach()
    c = t.contiguous()
    if c.dtype == BF16:
        raw = c.view(torch.int16).numpy().tobytes()
    else:
        raw = c.numpy().tobytes()
    rec = {"dtype": DT[t.dtype], "shape": list(t.shape), "strides": list(t.stride()),
           "offset": t.storage_offset(), "data": base64.b64encode(raw).decode()}
    key = json.dumps(rec, sort_keys=True)
    if key not in tensor_ids:
        tensor_ids[key] = len(tensors)
        tensors.append(rec)
    return tensor_ids[key]


class Gen:
    """A large input both sides compute instead of storing."""
    def __init__(self, t, seed):
        self.t, self.seed = t, seed


def gen(dtype, *shape, seed=1):
    n = math.prod(shape)
    v = [((i * 2654435761 + seed) % 2**32) / 2**32 * 2 - 1 for i in range(n)]
    t = torch.tensor(v, dtype=F64).to(dtype).reshape(shape)
    return Gen(t, seed)


def num(x):
    if isinstance(x, float) and not math.isfinite(x):
        return "nan" if x != x else ("inf" if x > 0 else "-inf")
    return x


def enc(a):
    if isinstance(a, Gen):
        rec = {"gen": a.seed, "dtype": DT[a.t.dtype], "shape": list(a.t.shape)}
        key = json.dumps(rec, sort_keys=True)
        if key not in tensor_ids:
            tensor_ids[key] = len(tensors)
            tensors.append(rec)
        return {"t": tensor_ids[key]}
    if isinstance(a, torch.Tensor):
        return {"t": tensor_id(a)}
    if a is None:
        return {"none": True}
    if isinstance(a, bool):
        return {"b": a}
    if isinstance(a, int):
        return {"i": a}
    if isinstance(a, float):
        return {"f": num(a)}
    if isinstance(a, str):
        return {"s": a}
    if isinstance(a, torch.dtype):
        return {"dtype": DT[a]}
    if isinstance(a, torch.memory_format):
        return {"mf": MF[a]}
    if isinstance(a, (list, tuple)):
        if a and all(isinstance(x, bool) for x in a):
            return {"bools": list(a)}
        if all(isinstance(x, int) and not isinstance(x, bool) for x in a):
            return {"ints": list(a)}
        if all(isinstance(x, float) for x in a):
            return {"floats": [num(x) for x in a]}
        return {"tensors": [enc(x) for x in a]}
    raise TypeError(type(a))


def unwrap(a):
    if isinstance(a, Gen):
        return a.t
    if isinstance(a, (list, tuple)):
        return type(a)(unwrap(x) for x in a)
    return a


def first_dtype(args, kwargs):
    for a in args:
        a = unwrap(a)
        if isinstance(a, torch.Tensor):
            return a.dtype
        if isinstance(a, (list, tuple)):
            for x in a:
                if isinstance(x, torch.Tensor):
                    return x.dtype
    if isinstance(kwargs.get("dtype"), torch.dtype):
        return kwargs["dtype"]
    return None


def upcast(a):
    """Half and bfloat16 tensors (and dtype arguments) as float32."""
    if isinstance(a, torch.Tensor) and a.dtype in (F16, BF16):
        return a.float()
    if a in (F16, BF16):
        return F32
    if isinstance(a, (list, tuple)):
        return type(a)(upcast(x) for x in a)
    return a


def outputs(target, r):
    if target.startswith(("split", "unbind", "chunk")):
        return [r]
    if isinstance(r, (tuple, list)):
        return list(r)
    return [r]


def enc_out(o):
    if isinstance(o, (list, tuple)):
        return {"tensors": [enc(x) for x in o]}
    if isinstance(o, torch.Tensor):
        return enc(o)
    if o is None:
        return {"none": True}
    return enc(o)


# torch 1.13's torch.ops turns a Python bool given for a Scalar into an int;
# its Python functions keep it a bool, as PyTorch 2.x does.
PYFN = {"bitwise_and.Scalar": torch.bitwise_and, "bitwise_or.Scalar": torch.bitwise_or,
        "bitwise_xor.Scalar": torch.bitwise_xor, "where.Scalar": torch.where}


def case(target, *args, record=None, go_target=None, check=None, fn=None, proves=None, meta=False,
         tol=None, tag=None, extra=None, **kwargs):
    """Runs torch.ops.aten.<target>(*args, **kwargs) (or fn) and records the
    result; a raised error is recorded as an expected error. record and
    go_target override what the Go test calls (for ops torch 1.13 lacks)."""
    name, _, overload = target.partition(".")
    op = fn or getattr(getattr(torch.ops.aten, name), overload or "default")
    if target in PYFN and any(isinstance(a, bool) for a in args[1:]):
        op = PYFN[target]
    rec = record if record is not None else args
    proven = proves or first_dtype(rec, kwargs)
    entry = {"target": "aten." + (go_target or target), "args": [enc(a) for a in rec],
             "kwargs": {k: enc(v) for k, v in kwargs.items()}}
    if proven is not None:
        entry["dtype"] = DT[proven]
    for k, v in (("check", check), ("tol", tol), ("tag", tag)):
        if v is not None:
            entry[k] = v
    if meta:
        entry["meta"] = "strides" if meta == "strides" else "shape"
    targs, tkw = unwrap(args), {k: unwrap(v) for k, v in {**kwargs, **(extra or {})}.items()}
    cond = targs[0] if target.startswith("where") else targs[1] if target.startswith("masked_fill") else None
    if DEBUG: print(target, [a.dtype if isinstance(a, torch.Tensor) else a for a in targs], tkw, file=sys.stderr, flush=True)
    try:
        if isinstance(cond, torch.Tensor) and cond.dtype != B8 and (cond.dtype == U8 or target.startswith("masked_fill")):
            # torch 1.13 accepts (with a warning); PyTorch 2.x refuses.
            raise RuntimeError("a %s condition or mask is refused since PyTorch 2.0" % cond.dtype)
        try:
            r = op(*targs, **tkw)
        except RuntimeError as e:
            if "not implemented for 'Half'" not in str(e) and "not implemented for 'BFloat16'" not in str(e):
                raise
            # torch 1.13 lacks the CPU kernel; PyTorch 2.x computes in
            # float32 and rounds.
            low = proven if proven in (F16, BF16) else None
            r = op(*upcast(targs), **{k: upcast(v) for k, v in tkw.items()})
            def down(o):
                if isinstance(o, torch.Tensor) and o.dtype == F32 and low is not None:
                    return o.to(low)
                if isinstance(o, (list, tuple)):
                    return type(o)(down(x) for x in o)
                return o
            r = down(r)
            entry["via"] = "f32"
        if meta:  # uninitialised memory: keep the layout, not the bytes
            r = r.clone().zero_() if r.numel() == 0 else torch.zeros_like(r).as_strided(r.shape, r.stride())
        entry["out"] = [enc_out(o) for o in outputs(target, r)]
    except Exception as e:
        entry["error"] = str(e).split("\n")[0][:200]
    cases.append(entry)


def V(dt, *shape, lo=-5, hi=6, nonzero=False):
    """Small values of dtype dt: normal floats, integers in [lo, hi) (u8 from
    0), random bools."""
    if dt == B8:
        return torch.rand(shape) > 0.5
    if dt.is_floating_point:
        # float64 values that float32 cannot hold, so a float32 path shows.
        x = torch.randn(shape, dtype=F64 if dt == F64 else F32)
        if nonzero:
            x = torch.where(x.abs() < 0.1, torch.full_like(x, 0.5), x)
        return x.to(dt)
    x = torch.randint(0 if dt == U8 else lo, hi, shape)
    if nonzero:
        x = torch.where(x == 0, torch.full_like(x, 3), x)
    return x.to(dt)


def line(dt, lo=-4.0, hi=4.0, n=17, special=True):
    """A unary op's sweep input: a line of values (integers for integer
    dtypes), with NaN, +-Inf and -0.0 for floats."""
    if dt == B8:
        return torch.tensor([True, False, True])
    if dt.is_floating_point:
        x = torch.linspace(lo, hi, n, dtype=F64)
        if dt == F64:
            x = x + torch.linspace(0, 1e-9, n, dtype=F64)  # not float32 values
        if special:
            x = torch.cat([x, torch.tensor([float("nan"), float("inf"), float("-inf"), -0.0], dtype=F64)])
        return x.to(dt)
    lo_i = 0 if dt == U8 else int(math.floor(lo))
    return torch.arange(lo_i, int(math.ceil(hi)) + 1).to(dt)


def sweep(target, make, dtypes=ALL, **kw):
    for dt in dtypes:
        args, kwargs = make(dt)
        case(target, *args, proves=dt, **{**kwargs, **kw})


def A(*args, **kwargs):
    return args, kwargs


# ---------------------------------------------------------------------------
# Binary arithmetic, comparison and logic: every dtype, broadcasting.
div_like = {"div.Tensor", "remainder.Tensor", "fmod.Tensor", "floor_divide.default", "div.Tensor_mode"}
for op in ["add.Tensor", "sub.Tensor", "mul.Tensor", "div.Tensor", "rsub.Tensor", "remainder.Tensor",
           "fmod.Tensor", "maximum.default", "minimum.default", "atan2.default", "bitwise_and.Tensor",
           "bitwise_or.Tensor", "bitwise_xor.Tensor", "logical_and.default", "logical_or.default",
           "logical_xor.default", "eq.Tensor", "ne.Tensor", "lt.Tensor", "le.Tensor", "gt.Tensor",
           "ge.Tensor", "floor_divide.default"]:
    sweep(op, lambda dt: A(V(dt, 2, 3), V(dt, 3, nonzero=op in div_like)))
for mode in ["trunc", "floor", None]:
    sweep("div.Tensor_mode", lambda dt: A(V(dt, 2, 3), V(dt, 3, nonzero=True), rounding_mode=mode))
    sweep("div.Scalar_mode", lambda dt: A(V(dt, 2, 3), -3, rounding_mode=mode))
sweep("pow.Tensor_Tensor", lambda dt: A(V(dt, 2, 3, lo=0, hi=4).abs() if dt != B8 else V(dt, 2, 3),
                                        V(dt, 3, lo=0, hi=4)))
for op in ["add.Scalar", "sub.Scalar", "mul.Scalar", "div.Scalar", "rsub.Scalar", "remainder.Scalar",
           "fmod.Scalar", "eq.Scalar", "ne.Scalar", "lt.Scalar", "le.Scalar", "gt.Scalar", "ge.Scalar"]:
    for s in [2, -2.5]:
        sweep(op, lambda dt: A(V(dt, 2, 3), s))
for op in ["bitwise_and.Scalar", "bitwise_or.Scalar", "bitwise_xor.Scalar"]:
    sweep(op, lambda dt: A(V(dt, 2, 3), 6))
    sweep(op, lambda dt: A(V(dt, 2, 3), True))
sweep("pow.Tensor_Scalar", lambda dt: A(V(dt, 5), 2))
sweep("pow.Tensor_Scalar", lambda dt: A(V(dt, 5).abs() if dt != B8 else V(dt, 5), 0.5))
sweep("pow.Tensor_Scalar", lambda dt: A(V(dt, 5), 3.0))
sweep("pow.Scalar", lambda dt: A(2.0, V(dt, 5)))
sweep("pow.Scalar", lambda dt: A(3, V(dt, 5, lo=0, hi=4)))
sweep("add.Tensor", lambda dt: A(V(dt, 2, 3), V(dt, 2, 3), alpha=2))
sweep("sub.Tensor", lambda dt: A(V(dt, 2, 3), V(dt, 2, 3), alpha=3))

# Promotion between dtypes and with wrapped Python scalars.
case("add.Tensor", V(F32, 2, 3), V(F32, 3))
case("add.Tensor", V(F32, 2, 1, 4), V(F32, 3, 1), alpha=2)
case("add.Tensor", V(I64, 3), 0)
case("add.Tensor", V(I64, 3), 2.5)
case("add.Tensor", V(F32, 3), V(I64, 3))
case("add.Tensor", V(I32, 3), torch.tensor(5))
case("add.Tensor", V(I32, 3), torch.tensor(5.5))
case("add.Tensor", torch.tensor([True, False]), torch.tensor([True, True]))
case("add.Tensor", torch.tensor([True, False]), 3)
case("add.Tensor", V(U8, 2), V(I8, 2))
case("add.Tensor", V(F16, 2), 1.5)
case("add.Tensor", V(F16, 2), V(F32, 2))
case("add.Tensor", V(BF16, 2), V(F16, 2))
case("add.Tensor", V(F32, 2, 3), V(F32, 4))
case("add.Tensor", V(I64, 3), V(I64, 3), alpha=1.5)
case("add.Tensor", V(I16, 3), V(U8, 3))
case("add.Tensor", V(I8, 3), 300)
case("add.Tensor", V(U8, 3), torch.tensor(-1))
case("add.Tensor", V(B8, 3), V(F16, 3))
case("mul.Tensor", V(I32, 3), V(F64, 1))
case("mul.Tensor", V(F32, 3), torch.tensor(2.0, dtype=F64))
case("sub.Tensor", V(F32, 2, 3), V(F32, 2, 1), alpha=0.5)
case("sub.Tensor", torch.tensor([True]), torch.tensor([False]))
case("rsub.Scalar", V(F32, 3), 1.0)
case("rsub.Tensor", V(F32, 2, 3), V(F32, 3), alpha=2)
case("mul.Tensor", V(F32, 4, 1), V(F32, 1, 5))
case("mul.Tensor", torch.tensor([True, False]), torch.tensor([True, True]))
case("div.Tensor", V(I64, 4), torch.tensor([2, -3, 4, 7]))
case("div.Tensor", V(F32, 3), 0.0)
# Non-contiguous operands: a transposed and an expanded one.
case("add.Tensor", V(F32, 3, 4).t(), V(F32, 4, 1).expand(4, 3))
case("mul.Tensor", V(I64, 3, 4).t(), V(I64, 4, 3)[:, ::2].repeat(1, 2)[:, :3])
case("sub.Tensor", V(F32, 4, 6)[1:3, ::2], V(F32, 3))
case("where.self", torch.rand(4, 3).t() > 0.5, V(F32, 3, 4), V(F32, 4).expand(3, 4))
# Zero-size operands.
case("add.Tensor", V(F32, 0, 3), V(F32, 3))
case("mul.Tensor", V(I64, 2, 0), V(I64, 1))
case("eq.Tensor", V(F32, 0), V(F32, 1))
# NaN and Inf through arithmetic and comparisons.
special = torch.tensor([float("nan"), float("inf"), float("-inf"), 0.0, -0.0, 1.0])
case("add.Tensor", special, special.flip(0))
case("mul.Tensor", special, special.flip(0))
case("div.Tensor", special, special.flip(0))
case("sub.Tensor", special, special)
for cmp in ["eq", "ne", "lt", "le", "gt", "ge"]:
    case(cmp + ".Tensor", special, special.flip(0))
case("maximum.default", torch.tensor([1.0, float("nan"), 3.0]), torch.tensor([2.0, 1.0, float("nan")]))
case("minimum.default", torch.tensor([1.0, float("nan"), -0.0]), torch.tensor([float("nan"), 1.0, 0.0]))
case("atan2.default", special, special.flip(0))
case("remainder.Tensor", special, torch.tensor([2.0, 2.0, -2.0, 0.0, 3.0, float("inf")]))
case("fmod.Tensor", special, torch.tensor([2.0, 2.0, -2.0, 0.0, 3.0, float("inf")]))
case("pow.Tensor_Tensor", special, special.flip(0))
# Integer division, remainder and fmod with negative operands and by zero.
num_ = torch.tensor([-7, 7, -8, 9, -1, 0, 5, -5])
den = torch.tensor([2, -2, 3, -4, 3, 5, -1, -5])
for dt in [I64, I32, I16, I8]:
    for mode in ["trunc", "floor"]:
        case("div.Tensor_mode", num_.to(dt), den.to(dt), rounding_mode=mode)
        case("div.Scalar_mode", num_.to(dt), -3, rounding_mode=mode)
    case("remainder.Tensor", num_.to(dt), den.to(dt))
    case("fmod.Tensor", num_.to(dt), den.to(dt))
    case("floor_divide.default", num_.to(dt), den.to(dt))
    case("remainder.Scalar", num_.to(dt), -3)
    case("fmod.Scalar", num_.to(dt), -3)
    case("div.Tensor", num_.to(dt), den.to(dt))
fnum = torch.tensor([-7.5, 7.5, -8.0, 9.0, -0.5, 0.0, 1e30, -3.0])
fden = torch.tensor([2.0, -2.0, 3.0, -4.0, 3.0, -5.0, 7.0, 0.1])
for dt in [F32, F64]:
    for mode in ["trunc", "floor"]:
        case("div.Tensor_mode", fnum.to(dt), fden.to(dt), rounding_mode=mode)
        case("div.Scalar_mode", fnum.to(dt), -3.0, rounding_mode=mode)
    case("remainder.Tensor", fnum.to(dt), fden.to(dt))
    case("fmod.Tensor", fnum.to(dt), fden.to(dt))
    case("floor_divide.default", fnum.to(dt), fden.to(dt))
    case("remainder.Scalar", fnum.to(dt), -2.0)
# By zero: integers raise (floor/trunc division, remainder, fmod), true
# division gives Inf and NaN, floats give Inf and NaN everywhere.
zero = torch.tensor([0, 0, 0])
for dt in [I64, I32, U8]:
    case("div.Tensor_mode", torch.tensor([-3, 0, 3]).to(dt), zero.to(dt), rounding_mode="floor")
    case("div.Tensor_mode", torch.tensor([-3, 0, 3]).to(dt), zero.to(dt), rounding_mode="trunc")
    case("remainder.Tensor", torch.tensor([-3, 0, 3]).to(dt), zero.to(dt))
    case("fmod.Tensor", torch.tensor([-3, 0, 3]).to(dt), zero.to(dt))
    case("floor_divide.default", torch.tensor([-3, 0, 3]).to(dt), zero.to(dt))
    case("div.Tensor", torch.tensor([-3, 0, 3]).to(dt), zero.to(dt))
    case("remainder.Scalar", torch.tensor([-3, 0, 3]).to(dt), 0)
for dt in [F32, F64]:
    fz = torch.tensor([-3.0, 0.0, 3.0]).to(dt)
    for mode in ["trunc", "floor"]:
        case("div.Tensor_mode", fz, torch.zeros(3, dtype=dt), rounding_mode=mode)
    case("remainder.Tensor", fz, torch.zeros(3, dtype=dt))
    case("fmod.Tensor", fz, torch.zeros(3, dtype=dt))
    case("floor_divide.default", fz, torch.zeros(3, dtype=dt))
    case("div.Tensor", fz, torch.tensor([0.0, -0.0, 0.0], dtype=dt))
# Integer overflow wraps as in C++; integer powers.
case("add.Tensor", torch.tensor([2**63 - 1, -2**63]), torch.tensor([1, -1]))
case("mul.Tensor", torch.tensor([2**62, -3]), torch.tensor([4, 2**62]))
case("add.Tensor", torch.tensor([127, -128], dtype=I8), torch.tensor([1, -1], dtype=I8))
case("pow.Tensor_Scalar", torch.tensor([-3, -1, 0, 1, 2]), 3)
case("pow.Tensor_Scalar", torch.tensor([-3, -1, 2]), -1)
case("pow.Tensor_Tensor", torch.tensor([-3, -1, 0, 2]), torch.tensor([3, 5, 0, 10]))
case("pow.Tensor_Scalar", V(F32, 5).abs(), 1.7)
case("pow.Tensor_Scalar", V(I64, 5), 0.5)
case("pow.Scalar", 2.0, V(F32, 4))
case("bitwise_and.Tensor", torch.tensor(True), torch.tensor([[True, False]]))
case("bitwise_not.default", torch.tensor([0, -1, 5, 2**63 - 1]))
case("logical_and.default", V(F32, 4), V(I64, 4))

# ---------------------------------------------------------------------------
# Unary ops: every dtype, over a line with NaN, Inf and -0.0.
for u in ["neg", "abs", "relu", "sign", "ceil", "floor", "round", "trunc", "exp", "expm1", "log", "log2",
          "log10", "log1p", "sqrt", "rsqrt", "reciprocal", "sin", "cos", "tan", "atan", "sinh", "cosh",
          "tanh", "asinh", "sigmoid", "erf", "silu", "hardswish", "hardsigmoid", "mish", "exp2",
          "isnan", "isinf", "isfinite", "logical_not", "bitwise_not", "gelu", "elu", "leaky_relu",
          "hardtanh"]:
    sweep(u + ".default", lambda dt: A(line(dt)))
for u in ["asin", "acos", "atanh"]:
    sweep(u + ".default", lambda dt: A(line(dt, -1.5, 1.5, 13)))


def erfinv_ref(x):
    """torch's float64 erfinv is off by 1e-8 near +-1 (its Newton steps go
    through erf, which cancels there); the float64 reference is mpmath's,
    at 40 digits."""
    if x.dtype != F64:
        return torch.ops.aten.erfinv.default(x)
    import mpmath
    mpmath.mp.dps = 40

    def one(v):
        if v != v or abs(v) > 1:
            return float("nan")
        if abs(v) == 1:
            return math.copysign(float("inf"), v)
        return float(mpmath.erfinv(mpmath.mpf(v)))
    return torch.tensor([one(v) for v in x.tolist()], dtype=F64)


sweep("erfinv.default", lambda dt: A(line(dt, -1.5, 1.5, 13)), fn=erfinv_ref)
sweep("acosh.default", lambda dt: A(line(dt, 0, 5, 11)))
sweep("round.default", lambda dt: A(line(dt, -2.5, 2.5, 11)))
case("exp.default", torch.linspace(-100, 100, 21))
case("exp.default", torch.linspace(-800, 800, 17, dtype=F64))
case("tanh.default", torch.linspace(-12, 12, 49))
case("sigmoid.default", torch.linspace(-30, 30, 25))
case("sigmoid.default", torch.linspace(-800, 800, 17, dtype=F64))
case("gelu.default", torch.linspace(-6, 6, 49))
case("gelu.default", torch.linspace(-6, 6, 49), approximate="tanh")
sweep("gelu.default", lambda dt: A(line(dt), approximate="tanh"))
case("leaky_relu.default", V(F32, 5), 0.2)
case("hardtanh.default", V(F32, 5), -0.5, 0.5)
case("elu.default", V(F32, 5), 0.5, 2.0, 1.5)
case("silu.default", V(F32, 3, 4).t())
case("exp.default", V(F32, 4, 6)[:, 1::2])
case("neg.default", V(F32, 0, 4))
case("log.default", torch.tensor([0.0, -0.0, -1.0, 1e-45, float("inf")]))
for lo, hi in [(None, 0.5), (-0.5, None), (-0.5, 0.5), (0.5, -0.5)]:
    sweep("clamp.default", lambda dt: A(line(dt), lo, hi))
sweep("clamp.default", lambda dt: A(line(dt), -2, 3))
sweep("clamp_min.default", lambda dt: A(line(dt), 0.5))
sweep("clamp_min.default", lambda dt: A(line(dt), 1))
sweep("clamp_max.default", lambda dt: A(line(dt), -0.5))
sweep("clamp_max.default", lambda dt: A(line(dt), 1))
sweep("clamp.Tensor", lambda dt: A(V(dt, 2, 3), V(dt, 3), V(dt, 2, 1)))
sweep("clamp.Tensor", lambda dt: A(V(dt, 2, 3), None, V(dt, 3)))
case("clamp.Tensor", line(F32), torch.tensor(-1.0), None)
case("clamp.Tensor", V(I64, 2, 3), torch.tensor([0.5, 1.5, -1.0]), None)
case("clamp.default", torch.tensor([float("nan"), 1.0, -3.0]), float("nan"), 0.0)

# ---------------------------------------------------------------------------
# Selection.
sweep("where.self", lambda dt: A(torch.rand(2, 3) > 0.5, V(dt, 2, 3), V(dt, 3)))
sweep("where.ScalarOther", lambda dt: A(torch.rand(2, 3) > 0.5, V(dt, 2, 3), 0.5))
sweep("where.ScalarOther", lambda dt: A(torch.rand(2, 3) > 0.5, V(dt, 2, 3), 2))
sweep("where.ScalarSelf", lambda dt: A(torch.rand(2, 3) > 0.5, -1, V(dt, 2, 3)))
sweep("where.ScalarSelf", lambda dt: A(torch.rand(2, 3) > 0.5, -1.5, V(dt, 2, 3)))
sweep("where.self", lambda dt: A(V(dt, 3), V(F32, 3), V(F32, 3)))  # the condition's dtype
sweep("where.Scalar", lambda dt: A(V(dt, 2, 3), 1.5, -2.0))
for s, o in [(1, 2), (True, False), (1, 2.5)]:
    case("where.Scalar", torch.rand(2, 3) > 0.5, s, o)
case("where.self", torch.rand(2, 1, 3) > 0.5, torch.tensor(0.0), torch.tensor(-3.4028234663852886e+38))
case("where.self", torch.tensor([True, False]), V(I64, 2), V(F32, 2))
case("where.ScalarOther", torch.tensor([True, False]), V(F32, 2), 0.0)
case("where.self", V(I64, 2), V(F32, 2), V(F32, 2))
case("where.self", V(U8, 3), V(F32, 3), V(F32, 3))
sweep("masked_fill.Scalar", lambda dt: A(V(dt, 2, 3), torch.rand(3) > 0.5, -2))
sweep("masked_fill.Scalar", lambda dt: A(V(dt, 2, 3), torch.rand(2, 1) > 0.5, 0.5))
sweep("masked_fill.Tensor", lambda dt: A(V(dt, 2, 3), torch.rand(2, 3) > 0.5, torch.tensor(7)))
sweep("masked_fill.Tensor", lambda dt: A(V(dt, 2, 3), torch.rand(3) > 0.5, torch.tensor(-1.5)))
case("masked_fill.Scalar", V(F32, 2, 3), torch.tensor([True, False, True]), -1e9)
case("masked_fill.Scalar", V(I64, 2, 3), torch.tensor([[True], [False]]), 7)
case("masked_fill.Scalar", V(F32, 2, 3), torch.tensor([1, 0, 1], dtype=U8), 0.0)
case("masked_fill.Scalar", V(F32, 2, 3), torch.tensor([1, 0, 1]), 0.0)
case("masked_fill.Tensor", V(F32, 2, 3), torch.tensor([True, False, True]), torch.tensor([1.0, 2.0]))
case("masked_fill.Scalar", V(F32, 3, 2).t(), torch.rand(3) > 0.5, float("-inf"))

# ---------------------------------------------------------------------------
# Reductions: every dtype, negative dims, keepdim, empty dims, zero size.
sweep("sum.dim_IntList", lambda dt: A(V(dt, 3, 4), [1]))
sweep("sum.dim_IntList", lambda dt: A(V(dt, 2, 3, 4), [0, -1], True))
sweep("sum.default", lambda dt: A(V(dt, 3, 4)))
sweep("mean.dim", lambda dt: A(V(dt, 2, 3, 4), [-1, -2], True))
sweep("mean.default", lambda dt: A(V(dt, 7)))
sweep("prod.dim_int", lambda dt: A(V(dt, 3, 4, lo=-2, hi=3), -1))
sweep("prod.default", lambda dt: A(V(dt, 5, lo=-2, hi=3)))
for op in ["amax.default", "amin.default"]:
    sweep(op, lambda dt: A(V(dt, 3, 4), [-1]))
    sweep(op, lambda dt: A(V(dt, 2, 3, 4), [0, 2], True))
for op in ["max.default", "min.default"]:
    sweep(op, lambda dt: A(V(dt, 3, 4)))
for op in ["max.dim", "min.dim"]:
    sweep(op, lambda dt: A(V(dt, 3, 4), -1))
    sweep(op, lambda dt: A(V(dt, 3, 4), 0, True))
for op in ["argmax.default", "argmin.default"]:
    sweep(op, lambda dt: A(V(dt, 3, 4), -1))
    sweep(op, lambda dt: A(V(dt, 3, 4)))
    sweep(op, lambda dt: A(V(dt, 3, 4), 0, True))
for op in ["any.dim", "all.dim"]:
    sweep(op, lambda dt: A(V(dt, 3, 4), -1))
    sweep(op, lambda dt: A(V(dt, 3, 4), 0, True))
def any_dims(x, dim=None, keepdim=False):
    r = x
    for d in sorted((d % x.dim() for d in (range(x.dim()) if dim is None else dim)), reverse=True):
        r = torch.ops.aten.any.dim(r, d, keepdim)
    return r if dim is not None or keepdim or x.dim() == 0 else torch.ops.aten.any.default(x)


sweep("any.dims", lambda dt: A(V(dt, 2, 3, 4), [0, -1]), fn=any_dims)
sweep("any.dims", lambda dt: A(V(dt, 2, 3, 4), None, True), fn=any_dims)
for op in ["any.default", "all.default"]:
    sweep(op, lambda dt: A(V(dt, 3, 4)))
def var_ref(kind):
    """var, std or var_mean with a float correction (PyTorch 2.x's Scalar?
    correction; torch 1.13 takes only ints): the sum of squared deviations
    over N - correction, in float64."""
    def f(x, dim, correction, keepdim=False):
        if not x.dtype.is_floating_point:
            raise RuntimeError("std and var only support floating point and complex dtypes")
        u = x.double()
        dims = list(range(x.dim())) if dim is None else [d % x.dim() for d in dim]
        n = math.prod(x.shape[d] for d in dims)
        m = u.mean(dims, keepdim=True)
        v = ((u - m) ** 2).sum(dims, keepdim=keepdim) / max(n - correction, 0)
        if kind == "std":
            return v.sqrt().to(x.dtype)
        if kind == "var_mean":
            if not keepdim:
                for d in sorted(dims, reverse=True):
                    m = m.squeeze(d)
            return v.to(x.dtype), m.to(x.dtype)
        return v.to(x.dtype)
    return f


# torch 1.13's schemas have no default for correction (2.x: None).
for op in ["var.correction", "std.correction", "var_mean.correction"]:
    sweep(op, lambda dt: A(V(dt, 3, 4), [1]), extra={"correction": None})
    sweep(op, lambda dt: A(V(dt, 3, 4), [0, -1], correction=0, keepdim=True))
    sweep(op, lambda dt: A(V(dt, 3, 4), None, correction=2))
    sweep(op, lambda dt: A(V(dt, 3, 4), [-1], correction=0.5), fn=var_ref(op.split(".")[0]))
sweep("var.dim", lambda dt: A(V(dt, 3, 4), [1]))
sweep("var.dim", lambda dt: A(V(dt, 3, 4), [-1], False, True))
sweep("logsumexp.default", lambda dt: A(V(dt, 3, 4), [1]))
sweep("logsumexp.default", lambda dt: A(V(dt, 2, 3, 4), [0, -1], True))
for op in ["cumsum.default", "cumprod.default"]:
    sweep(op, lambda dt: A(V(dt, 3, 4, lo=-2, hi=3), -1))
    sweep(op, lambda dt: A(V(dt, 3, 4, lo=-2, hi=3), 0, dtype=F64))
for op in ["_softmax.default", "_log_softmax.default"]:
    sweep(op, lambda dt: A(V(dt, 2, 3, 5), -1, False))
    sweep(op, lambda dt: A(V(dt, 2, 3, 5), 1, False))
for op in ["softmax.int", "log_softmax.int"]:
    sweep(op, lambda dt: A(V(dt, 3, 4), -1))
    sweep(op, lambda dt: A(V(dt, 3, 4), 0, F64))
case("sum.dim_IntList", V(F32, 3, 4), [])
case("sum.dim_IntList", V(F32, 3, 4), [1], dtype=F64)
case("sum.dim_IntList", V(B8, 3, 4), [1], dtype=I32)
case("sum.dim_IntList", V(F32, 3, 4), [2])
case("sum.dim_IntList", V(F32, 4, 3).t(), [0])
case("sum.dim_IntList", V(F32, 0, 3), [0])
case("sum.dim_IntList", V(F32, 0, 3), [1], True)
case("sum.default", special)
case("mean.dim", V(F32, 6, 8), [0])
case("mean.dim", V(I64, 6, 8), [0])
case("mean.dim", V(F32, 0, 3), [0])
case("mean.dim", V(F32, 3, 4), None)
case("mean.dim", V(F32, 3, 4), [1], dtype=F64)
case("mean.default", special)
case("amax.default", V(F32, 3, 4), [0], True)
case("amin.default", V(I64, 3, 4), [])
case("amax.default", torch.tensor([[1.0, float("nan")], [float("-inf"), 2.0]]), [1])
case("amax.default", V(F32, 0, 3), [1])
case("amax.default", V(F32, 0, 3), [0])
case("max.dim", torch.tensor([[1.0, 3.0, 3.0]]), 1)
case("max.dim", torch.tensor([[1.0, float("nan"), 3.0, float("nan")]]), 1)
case("min.dim", torch.tensor([[1.0, float("nan"), -3.0]]), -1)
case("max.default", torch.tensor([1.0, float("nan"), 3.0]))
case("max.default", V(F32, 0))
case("argmax.default", torch.tensor([[1.0, float("nan"), 3.0, float("nan")]]), 1)
case("argmax.default", torch.tensor([3, 1, 3, 2]))
case("argmin.default", V(F32, 4, 3).t(), 1)
case("any.dim", torch.rand(3, 4) > 0.7, 1)
case("any.dim", torch.tensor([[0.0, float("nan")], [0.0, 0.0]]), 1)
case("all.dim", torch.rand(3, 4) > 0.2, 0)
case("all.default", V(B8, 0))
case("any.default", V(B8, 0))
case("prod.dim_int", V(F32, 3, 4), 1)
case("prod.dim_int", V(F32, 0, 3), 0)
case("var.correction", V(F32, 1, 4), [0], extra={"correction": None})
case("var.correction", V(F32, 3, 4), [1], correction=1.5, fn=var_ref("var"))
case("std.correction", V(F32, 3, 4), [0], correction=1, keepdim=True)
case("logsumexp.default", torch.tensor([[float("-inf"), float("-inf")], [float("inf"), 1.0], [1e30, 1e30]]), [1])
case("logsumexp.default", V(F32, 0, 3), [0])
case("cumsum.default", V(I32, 3, 4), 0)
case("cumsum.default", torch.tensor([[True, False, True]]), 1)
case("cumsum.default", V(F32, 4, 3).t(), -1)
case("cumprod.default", special, 0)
case("_softmax.default", torch.tensor([[0.0, -3.4028234663852886e+38, 1.0]]), -1, False)
case("_softmax.default", torch.tensor([[float("-inf"), 0.0], [float("-inf"), float("-inf")], [float("nan"), 1.0]]), -1, False)
case("_softmax.default", V(F32, 5, 4).t(), 0, False)
case("_softmax.default", V(F32, 0, 4), -1, False)
case("_log_softmax.default", torch.tensor([[float("-inf"), 0.0], [1e30, -1e30]]), -1, False)
case("_softmax.default", V(F32, 2, 300) * 10, -1, False)
case("_softmax.default", V(F64, 2, 300) * 10, -1, False)
case("_log_softmax.default", V(F64, 2, 300) * 10, -1, False)
# half_to_float: torch 1.13 refuses it on CPU; the schema's meaning (a
# float32 result of the reduced-precision input) is what CUDA computes.
case("_softmax.default", V(F16, 2, 3), -1, True, fn=lambda x, d, h: torch.softmax(x.float(), d))
case("_log_softmax.default", V(BF16, 2, 3), -1, True, fn=lambda x, d, h: torch.log_softmax(x.float(), d))


def safe_softmax(x, dim, dtype=None):
    y = torch.softmax(x, dim, dtype=dtype)
    return torch.where(torch.isneginf(x).all(dim, keepdim=True), torch.zeros_like(y), y)


sweep("_safe_softmax.default", lambda dt: A(V(dt, 3, 4), -1), fn=safe_softmax)
case("_safe_softmax.default", torch.tensor([[0.0, 1.0], [float("-inf"), float("-inf")]]), -1, fn=safe_softmax)
case("_safe_softmax.default", torch.tensor([[0.0, float("-inf")], [float("-inf"), float("-inf")]]), 0, F64,
     fn=safe_softmax)

def reduced_via_f64(target):
    """The op, but for float16 and bfloat16 operands computed in float64 and
    rounded once: PyTorch 2.x's CPU products accumulate reduced-precision
    operands in float32 and round the result (torch 1.13 accumulated some
    in bfloat16)."""
    name, _, overload = target.partition(".")
    op = getattr(getattr(torch.ops.aten, name), overload)

    def f(*args, **kwargs):
        low = [a.dtype for a in args if isinstance(a, torch.Tensor) and a.dtype in (F16, BF16)]
        if not low:
            return op(*args, **kwargs)
        up = [a.double() if isinstance(a, torch.Tensor) and a.dtype.is_floating_point else a for a in args]
        r = op(*up, **kwargs)
        return tuple(x.to(low[0]) if x.dtype == F64 else x for x in r) if isinstance(r, tuple) else r.to(low[0])
    return f


# ---------------------------------------------------------------------------
# Norms: every dtype (PyTorch refuses the integer ones), and float64 kept in
# float64.
def bn_args(dt, n=2, c=3, hw=4):
    return [V(dt, n, c, hw, hw), V(dt, c), V(dt, c), V(dt, c), V(dt, c).abs() + 0.5 if dt != B8 else V(dt, c)]


sweep("native_layer_norm.default", lambda dt: A(V(dt, 2, 3, 8), [8], V(dt, 8), V(dt, 8), 1e-5),
      fn=reduced_via_f64("native_layer_norm.default"))
sweep("native_layer_norm.default", lambda dt: A(V(dt, 4, 6), [6], None, None, 1e-12),
      fn=reduced_via_f64("native_layer_norm.default"))
sweep("layer_norm.default", lambda dt: A(V(dt, 2, 3, 8), [8], V(dt, 8), V(dt, 8)), fn=reduced_via_f64("layer_norm.default"))
sweep("layer_norm.default", lambda dt: A(V(dt, 2, 3, 4), [3, 4], None, None, 1e-3), fn=reduced_via_f64("layer_norm.default"))
case("native_layer_norm.default", V(F32, 2, 3, 4), [3, 4], V(F32, 3, 4), V(F32, 3, 4), 1e-5)
case("native_layer_norm.default", V(F32, 2, 3), [4], None, None, 1e-5)
case("native_layer_norm.default", V(F32, 4, 6).t(), [4], V(F32, 4), None, 1e-5)
case("native_layer_norm.default", V(F32, 0, 6), [6], None, None, 1e-5)
case("native_layer_norm.default", V(F64, 2, 700) * 100 + 1e4, [700], V(F64, 700), V(F64, 700), 1e-5)
# Ill-conditioned (mean 1e4, spread 100): the reference is the float64
# result rounded, and the tolerance is what holding the mean in float32 (as
# ATen's float kernel does) costs: 4 u |mean| rstd max|gamma|.
xl, wl, bl = V(F32, 2, 700) * 100 + 1e4, V(F32, 700), V(F32, 700)
ml, rl = xl.double().mean(-1), 1 / (xl.double().var(-1, unbiased=False) + 1e-5).sqrt()
case("native_layer_norm.default", xl, [700], wl, bl, 1e-5,
     fn=lambda x, s, w, b, e: [o.float() for o in torch.ops.aten.native_layer_norm.default(x.double(), s, w.double(), b.double(), e)],
     tol=[2e-6, 4 * 2.0 ** -24 * (ml.abs() * rl).max().item() * wl.abs().max().item() + 1e-6])
case("native_layer_norm.default", V(F16, 2, 8), [8], V(F32, 8), V(F32, 8), 1e-5)
for dt in ALL:
    bn = bn_args(dt)
    case("native_batch_norm.default", *bn, False, 0.1, 1e-5, record=bn + [0.1, 1e-5],
         go_target="_native_batch_norm_legit_no_training.default", check=1, proves=dt,
         fn=reduced_via_f64("native_batch_norm.default"))
    case("native_batch_norm.default", *bn, False, 0.1, 1e-5, record=bn + [False, 0.1, 1e-5],
         go_target="_native_batch_norm_legit.default", check=1, proves=dt, fn=reduced_via_f64("native_batch_norm.default"))
bn = bn_args(F32)
case("native_batch_norm.default", bn[0], None, None, bn[3], bn[4], False, 0.1, 1e-3,
     record=[bn[0], None, None, bn[3], bn[4], 0.1, 1e-3],
     go_target="_native_batch_norm_legit_no_training.default", check=1)
b1 = bn_args(F32, 2, 3, 1)
case("native_batch_norm.default", b1[0], None, None, *b1[3:], False, 0.1, 1e-5,
     record=[b1[0], None, None, *b1[3:], 0.1, 1e-5],
     go_target="_native_batch_norm_legit_no_training.default", check=1)
x3 = V(F32, 2, 3, 5)
case("native_batch_norm.default", x3, None, None, bn[3], bn[4], False, 0.1, 1e-5,
     record=[x3, None, None, bn[3], bn[4], 0.1, 1e-5],
     go_target="_native_batch_norm_legit_no_training.default", check=1)
# Training mode updates the running statistics in place: seam refuses it.
bt = bn_args(F32)
case("native_batch_norm.default", *[b.clone() for b in bt], True, 0.1, 1e-5, record=bt + [True, 0.1, 1e-5],
     go_target="_native_batch_norm_legit.default", tag="training")
sweep("native_group_norm.default", lambda dt: A(V(dt, 2, 4, 3, 3), V(dt, 4), V(dt, 4), 2, 4, 9, 2, 1e-5),
      fn=reduced_via_f64("native_group_norm.default"))
case("native_group_norm.default", V(F32, 2, 6, 5), None, None, 2, 6, 5, 3, 1e-5)
case("native_group_norm.default", V(F64, 1, 4, 50) * 30 + 1e3, V(F64, 4), V(F64, 4), 1, 4, 50, 1, 1e-5)


def rms_norm(x, shape, w=None, eps=None):
    dims = list(range(x.dim() - len(shape), x.dim()))
    op = F64 if x.dtype == F64 else F32
    if eps is None:
        eps = torch.finfo(op).eps
    u = x.to(op)
    r = (u * torch.rsqrt(u.pow(2).mean(dims, keepdim=True) + eps)).to(x.dtype)
    return r * w if w is not None else r


def rms_check(x, *_):
    if not x.dtype.is_floating_point:
        raise RuntimeError("rms_norm only supports floating point inputs")


def rms(x, shape, w=None, eps=None):
    rms_check(x)
    return rms_norm(x, shape, w, eps)


sweep("rms_norm.default", lambda dt: A(V(dt, 2, 5, 8), [8], V(dt, 8), 1e-6), fn=rms)
sweep("rms_norm.default", lambda dt: A(V(dt, 2, 5, 8), [5, 8]), fn=rms)
case("rms_norm.default", V(F64, 2, 700) * 100, [700], None, None, fn=rms)

# ---------------------------------------------------------------------------
# Views and shapes: every dtype, non-contiguous sources, negative dims.
sweep("view.default", lambda dt: A(V(dt, 2, 3, 4), [6, -1]))
sweep("view_copy.default", lambda dt: A(V(dt, 2, 3, 4), [4, 6]))
sweep("_unsafe_view.default", lambda dt: A(V(dt, 2, 3, 4), [24]))
sweep("reshape.default", lambda dt: A(V(dt, 2, 3, 4).permute(2, 0, 1), [24]))
sweep("permute.default", lambda dt: A(V(dt, 2, 3, 4), [2, 0, -2]))
sweep("permute_copy.default", lambda dt: A(V(dt, 2, 3, 4), [-1, 0, 1]))
sweep("expand.default", lambda dt: A(V(dt, 3, 1), [2, -1, 4]))
sweep("expand_copy.default", lambda dt: A(V(dt, 3, 1), [2, 3, 4]))
sweep("expand_as.default", lambda dt: A(V(dt, 3, 1), V(F32, 2, 3, 4)))
sweep("unsqueeze.default", lambda dt: A(V(dt, 2, 3), -1))
sweep("unsqueeze_copy.default", lambda dt: A(V(dt, 2, 3), 0))
sweep("squeeze.dim", lambda dt: A(V(dt, 2, 1, 3), -2))
sweep("squeeze.default", lambda dt: A(V(dt, 1, 2, 1, 3, 1)))


def squeeze_dims(x, dims):
    for d in sorted((d % x.dim() for d in dims), reverse=True) if x.dim() else []:
        x = x.squeeze(d)
    return x


def squeeze_copy_dims(x, dims):
    return squeeze_dims(x, dims).clone()


sweep("squeeze.dims", lambda dt: A(V(dt, 2, 1, 3, 1), [1, -1]), fn=squeeze_dims)
sweep("squeeze_copy.dims", lambda dt: A(V(dt, 2, 1, 3, 1), [1, 3]), fn=squeeze_copy_dims)
case("squeeze.dims", V(F32, 2, 1, 3, 1), [0], fn=squeeze_dims)
case("squeeze.dims", V(F32, 2, 1, 3, 1), [], fn=squeeze_dims)
sweep("slice.Tensor", lambda dt: A(V(dt, 4, 6), 1, 1, 5, 2))
sweep("slice_copy.Tensor", lambda dt: A(V(dt, 4, 6), -1, -4, None))
sweep("select.int", lambda dt: A(V(dt, 3, 4), 1, -1))
sweep("select_copy.int", lambda dt: A(V(dt, 3, 4), -2, 1))
sweep("transpose.int", lambda dt: A(V(dt, 2, 3, 4), 0, -1))
sweep("transpose_copy.int", lambda dt: A(V(dt, 2, 3, 4), 1, 2))
sweep("t.default", lambda dt: A(V(dt, 2, 3)))
sweep("t_copy.default", lambda dt: A(V(dt, 2, 3)))
for op in ["alias.default", "alias_copy.default", "detach.default", "lift_fresh_copy.default", "clone.default"]:
    sweep(op, lambda dt: A(V(dt, 3, 2).t()))
sweep("contiguous.default", lambda dt: A(V(dt, 3, 2).t()))
sweep("split_with_sizes.default", lambda dt: A(V(dt, 3, 10), [2, 3, 5], -1))
sweep("split.Tensor", lambda dt: A(V(dt, 7, 2), 3))
sweep("unbind.int", lambda dt: A(V(dt, 3, 2), -1))
sweep("chunk.default", lambda dt: A(V(dt, 7, 2), 3))
sweep("narrow.default", lambda dt: A(V(dt, 5, 3), 0, 1, 3))
sweep("as_strided.default", lambda dt: A(V(dt, 12), [3, 2], [1, 3], 1))
sweep("diagonal.default", lambda dt: A(V(dt, 3, 4), 1))
sweep("cat.default", lambda dt: A([V(dt, 2, 3), V(dt, 1, 3)]))
sweep("cat.default", lambda dt: A([V(dt, 2, 3), V(dt, 2, 1).expand(2, 2)], -1))
sweep("stack.default", lambda dt: A([V(dt, 2, 3), V(dt, 2, 3)], -1))
sweep("repeat.default", lambda dt: A(V(dt, 2, 3), [2, 1, 2]))
sweep("constant_pad_nd.default", lambda dt: A(V(dt, 2, 3), [1, 2], 1))
sweep("constant_pad_nd.default", lambda dt: A(V(dt, 2, 3, 4), [1, -1, -1, 2]))
sweep("triu.default", lambda dt: A(V(dt, 4, 5), 1))
sweep("tril.default", lambda dt: A(V(dt, 2, 4, 4), -1))
sweep("flip.default", lambda dt: A(V(dt, 2, 3, 4), [0, -1]))
sweep("roll.default", lambda dt: A(V(dt, 3, 4), [1], [-1]))
sweep("roll.default", lambda dt: A(V(dt, 3, 4), [-5]))
case("view.default", V(F32, 2, 3, 4).permute(2, 0, 1), [4, 6])
case("view.default", V(F32, 2, 3, 4).permute(2, 0, 1), [24])
case("view.default", V(F32, 2, 0, 4), [0, -1])
case("view.default", V(F32, 2, 6)[:, :4], [2, 2, 2])
case("permute.default", V(F32, 2, 3), [0, 0])
case("expand.default", V(F32, 3, 2), [3, 4])
case("expand.default", V(F32, 3, 1), [0, 3, 1])
case("squeeze.dim", V(F32, 2, 1, 3), 3)
case("slice.Tensor", V(F32, 4, 6), 0, -3, 9223372036854775807)
case("slice.Tensor", V(F32, 4, 6), 1, None, 2)
case("slice.Tensor", V(F32, 4, 6), 1, 5, 2)
case("slice.Tensor", V(F32, 4, 6), 1, -100, 100, 3)
case("slice.Tensor", V(F32, 4, 6).t(), 0, 1, 4)
case("select.int", V(F32, 3, 4), 0, 3)
case("select.int", V(F32, 3, 4), 0, -4)
case("split_with_sizes.default", V(F32, 3, 10), [2, 3], 1)
case("split_with_sizes.default", V(F32, 3, 10), [10, 0], 1)
case("split.Tensor", V(F32, 6, 2), 3, -2)
case("chunk.default", V(F32, 2, 7), 3, -1)
case("narrow.default", V(F32, 5, 3), -1, -2, 2)
case("diagonal.default", V(F32, 2, 3, 4), -1, 0, 2)
case("cat.default", [V(F32, 2, 3), V(I64, 2, 2)], 1)
case("cat.default", [V(F32, 2, 3), torch.empty(0)], 0)
case("cat.default", [V(F32, 2, 3), V(F32, 2, 4)], 0)
case("cat.default", [V(F32, 3, 2).t(), V(F32, 2, 2)], -1)
case("cat.default", [V(F32, 0, 3), V(F32, 2, 3)], 0)
case("stack.default", [V(F32, 2, 3), V(F32, 2, 3)], 1)
case("stack.default", [V(F32, 2, 3), V(F32, 3, 2)], 0)
case("repeat.default", V(F32, 2, 3), [0, 2])
case("constant_pad_nd.default", V(F32, 2, 3), [1, 2], 0.5)
case("constant_pad_nd.default", V(F32, 2, 3), [1, 2], float("-inf"))
case("triu.default", V(F32, 4, 5).t(), -1)
case("tril.default", V(F32, 3, 5), 10)
case("flip.default", V(F32, 3, 2).t(), [0, 1])
case("roll.default", V(F32, 3, 4), [1, -2], [0, 1])
case("roll.default", V(F32, 3, 4), [5])
case("roll.default", V(F32, 0, 4), [1], [1])

# ---------------------------------------------------------------------------
# Creation: every dtype through the dtype argument.
sweep("arange.default", lambda dt: A(5, dtype=dt), dtypes=ALL)
sweep("arange.start", lambda dt: A(-2, 3, dtype=dt))
sweep("arange.start_step", lambda dt: A(10, 0, -3, dtype=dt))
sweep("full.default", lambda dt: A([2, 3], 2, dtype=dt))
sweep("zeros.default", lambda dt: A([2, 2], dtype=dt))
sweep("ones.default", lambda dt: A([2, 0, 2], dtype=dt))
sweep("scalar_tensor.default", lambda dt: A(3, dtype=dt))
sweep("empty.memory_format", lambda dt: A([2, 3], dtype=dt), meta=True)
sweep("empty_strided.default", lambda dt: A([2, 3], [1, 2], dtype=dt), meta="strides")


def empty_permuted(size, layout, dtype=None):
    return torch.empty([size[i] for i in layout], dtype=dtype).permute(
        [layout.index(i) for i in range(len(layout))])


sweep("empty_permuted.default", lambda dt: A([2, 3, 4], [0, 2, 1], dtype=dt), fn=empty_permuted, meta="strides")
for op in ["zeros_like.default", "ones_like.default"]:
    sweep(op, lambda dt: A(V(dt, 2, 3)))
    sweep(op, lambda dt: A(V(F32, 2, 3), dtype=dt))
sweep("empty_like.default", lambda dt: A(V(dt, 3, 2).t()), meta=True)
sweep("full_like.default", lambda dt: A(V(dt, 2, 3), 2))
sweep("full_like.default", lambda dt: A(V(I64, 2, 3), 1.5, dtype=dt))
for op in ["new_zeros.default", "new_ones.default"]:
    sweep(op, lambda dt: A(V(dt, 2), [2, 3]))
    sweep(op, lambda dt: A(V(F32, 2), [3], dtype=dt))
sweep("new_empty.default", lambda dt: A(V(dt, 2), [2, 3]), meta=True)
sweep("new_full.default", lambda dt: A(V(dt, 2), [2, 3], 3))
sweep("new_full.default", lambda dt: A(V(F32, 2), [2], 1, dtype=dt))
sweep("fill.Scalar", lambda dt: A(V(dt, 2, 3), 2))
sweep("fill.Scalar", lambda dt: A(V(dt, 3, 2).t(), 1.5))
for src in ALL:
    sweep("_to_copy.default", lambda dt: A(line(src, -3, 3, 7, special=False) if src != B8 else V(src, 5), dtype=dt),
          dtypes=ALL)
sweep("_to_copy.default", lambda dt: A(V(dt, 3, 2).t()))
case("_to_copy.default", V(F32, 3, 2).t(), memory_format=torch.contiguous_format)
case("_to_copy.default", torch.tensor([2.5, -2.5, 0.7, -0.7, 300.0]), dtype=I64)
case("_to_copy.default", torch.tensor([2.5, -2.5, 0.7, -0.7, 300.0, 65504.0, 70000.0]), dtype=F16)
case("_to_copy.default", torch.tensor([1.0, float("nan"), float("inf"), 0.0, -0.0]), dtype=B8)
case("_to_copy.default", torch.tensor([1.0, float("nan"), float("inf"), 3.4e38]), dtype=BF16)
case("_to_copy.default", torch.tensor([-1, 256, 300]), dtype=U8)
for dst in ALL:
    sweep("copy.default", lambda dt: A(V(dst, 2, 3), V(dt, 3)))
sweep("_local_scalar_dense.default", lambda dt: A(V(dt, 1)))
sweep("item.default", lambda dt: A(V(dt, 1, 1)))
case("item.default", V(F32, 2))
sweep("dropout.default", lambda dt: A(V(dt, 2, 3), 0.5, False))
case("dropout.default", V(F32, 2, 3), 0.0, True, tag="train")
sweep("native_dropout.default", lambda dt: A(V(dt, 2, 3), 0.5, False))


def assert_async(x, msg):
    torch.ops.aten._assert_async.default(x)


sweep("_assert_async.msg", lambda dt: A(torch.ones(1, dtype=dt), "x must hold"), fn=assert_async)
case("_assert_async.msg", torch.zeros(1), "x must hold", fn=assert_async)
case("_assert_async.msg", torch.tensor(False), "x must hold", fn=assert_async)
case("_assert_async.msg", torch.ones(2), "x must hold", fn=assert_async)
sweep("_assert_tensor_metadata.default", lambda dt: A(V(dt, 2, 3), [2, 3], None, dt))
case("_assert_tensor_metadata.default", V(F32, 2, 3), [3, 2])
case("_assert_tensor_metadata.default", V(F32, 2, 3), None, None, I64)
case("arange.start_step", 0, 5)
case("arange.start_step", 0, 1, 0.25)
case("arange.start_step", 10, 0, -3)
case("arange.start_step", 0, 5, 1, dtype=F32)
case("arange.start_step", 0, 5, 0)
case("arange.start_step", 0, 5, -1)
case("arange.start_step", 0.0, 1.0, 0.1)
case("arange.start_step", -1.5, 1.5, 0.5, dtype=I64)
case("arange.default", 4.5)
case("arange.default", 0)
case("arange.start", 3, 3)
case("full.default", [2, 3], 1.5)
# full([], True) is bool in PyTorch 2.x; torch 1.13 called through torch.ops gives int64.
case("full.default", [2], 7)
case("full.default", [2], float("nan"))
case("full.default", [2], 300, dtype=U8)
case("scalar_tensor.default", -3.4028234663852886e+38)
case("scalar_tensor.default", 3)
case("scalar_tensor.default", 2.5, dtype=I64)
case("zeros.default", [2, 2])
case("ones_like.default", V(I64, 3))
case("full_like.default", V(F32, 2), 2)
case("fill.Scalar", V(I64, 3), 2.7)

# Fill values must fit the dtype (c10::checked_convert): too large, NaN or
# Inf into an integer, beyond a float type's range; negative integers wrap
# into uint8 when their magnitude fits.
u8, mk = V(U8, 2, 3), torch.tensor([True, False, True])
for v in [300, -300, -1, 255, -1.5, 1.5, float("nan"), float("inf")]:
    case("fill.Scalar", u8, v)
    case("full.default", [2], v, dtype=I8)
    case("masked_fill.Scalar", u8, mk, v)
    case("scalar_tensor.default", v, dtype=U8)
    case("full_like.default", u8, v)
    case("new_full.default", u8, [2], v)
    case("constant_pad_nd.default", u8, [1, 1], v)
    case("scatter.value", u8, 1, torch.tensor([[0], [2]]), v)
    case("where.ScalarOther", torch.rand(2, 3) > 0.5, u8, v)
    if v == v:  # one NaN bound: ATen's scalar and vector loops disagree
        case("clamp.default", u8, None, v)
        case("clamp.default", u8, v, None)
for v in [70000.0, 65504.0, float("inf"), 2**40, 1e39]:
    case("full.default", [2], v, dtype=F16)
    case("full.default", [2], v, dtype=BF16)
    case("full.default", [2], v, dtype=F32)
case("masked_fill.Tensor", u8, mk, torch.tensor(300))
case("masked_fill.Tensor", u8, mk, torch.tensor(-1.5))
case("fill.Scalar", V(I32, 2), 2**31)
case("fill.Scalar", V(I64, 2), 2**62)
# Integer arange truncates its bounds first; int64 also sizes from them.
for dt in [I64, I32, U8]:
    case("arange.start_step", 0.5, 3.7, 1.0, dtype=dt)
    case("arange.start_step", -2.5, 2.5, 1.5, dtype=dt)
    case("arange.start_step", 3.9, 0.2, -1.2, dtype=dt)
case("arange.start_step", 0.5, 3.7, 0.5, dtype=F16)
case("arange.start_step", 0, 300, 100, dtype=U8)

# ---------------------------------------------------------------------------
# Indexing: every dtype of the data, int64 and int32 indices, negative
# indices, broadcast index tensors.
sweep("embedding.default", lambda dt: A(V(dt, 10, 4), torch.tensor([[1, 9, 0], [2, 2, 3]])))
sweep("index.Tensor", lambda dt: A(V(dt, 4, 5), [torch.tensor([0, 3, -1])]))
sweep("index.Tensor", lambda dt: A(V(dt, 3, 4, 5), [None, torch.tensor([0, 2]), torch.tensor([[1], [3]])]))
sweep("_unsafe_index.Tensor", lambda dt: A(V(dt, 4, 5), [torch.tensor([0, 3, 1]), None]),
      fn=torch.ops.aten.index.Tensor)
sweep("_unsafe_index.Tensor", lambda dt: A(V(dt, 1, 2, 3, 3), [None, None, torch.tensor([[0], [0], [1], [1], [2], [2]]),
                                                              torch.tensor([0, 0, 1, 1, 2, 2])]),
      fn=torch.ops.aten.index.Tensor)
sweep("index_put.default", lambda dt: A(V(dt, 4, 3), [torch.tensor([0, 2])], V(dt, 3)))
sweep("index_put.default", lambda dt: A(V(dt, 4, 3), [torch.tensor([0, 0, -1])], V(dt, 3, 3), True))
sweep("gather.default", lambda dt: A(V(dt, 3, 4), 1, torch.tensor([[0, 3], [1, 1], [2, 0]])))
sweep("gather.default", lambda dt: A(V(dt, 3, 4), -2, torch.tensor([[2, 0, 1, 1]])))
sweep("index_select.default", lambda dt: A(V(dt, 4, 3), 0, torch.tensor([3, 0, 0])))
sweep("index_select.default", lambda dt: A(V(dt, 4, 3), -1, torch.tensor([2, 1], dtype=I32)))
sweep("scatter.src", lambda dt: A(V(dt, 3, 4), 1, torch.tensor([[0, 1], [2, 3], [1, 0]]), V(dt, 3, 2)))
sweep("scatter.value", lambda dt: A(V(dt, 3, 4), -1, torch.tensor([[0, 1], [2, 3], [1, 0]]), 2))
sweep("scatter.value", lambda dt: A(V(dt, 3, 4), 0, torch.tensor([[0, 1, 2, 0]]), 1.5))
sweep("scatter_add.default", lambda dt: A(V(dt, 3, 4), 1, torch.tensor([[0, 0], [2, 3], [1, 1]]), V(dt, 3, 2)))
sweep("slice_scatter.default", lambda dt: A(V(dt, 4, 4), V(dt, 4, 2), 1, 1, 4, 2))
sweep("slice_scatter.default", lambda dt: A(V(dt, 4, 4), V(dt, 2, 4), -2, -2))
sweep("select_scatter.default", lambda dt: A(V(dt, 3, 4), V(dt, 4), 0, -1))
w = V(F32, 10, 4)
case("embedding.default", w, torch.tensor([10]))
case("embedding.default", w, torch.tensor([-1]))
case("embedding.default", w, torch.tensor([[1, 2]], dtype=I32))
case("embedding.default", w, torch.tensor([], dtype=I64))
case("embedding.default", w, torch.tensor([1, 3]), 3)
case("embedding.default", w.t(), torch.tensor([1, 3]))
m = torch.rand(1, 6) > 0.3
case("index.Tensor", m, [torch.arange(1).view(1, 1, 1, 1), torch.arange(6).view(1, 1, 1, 6)])
case("index.Tensor", V(F32, 4, 5), [None, torch.tensor([[0, 4], [1, 1]])])
case("index.Tensor", V(F32, 3, 4, 5), [torch.tensor([0, 2]), None, torch.tensor([1, 3])])
case("index.Tensor", V(F32, 3, 4, 5), [None, torch.tensor([0, 2]), torch.tensor([1, 3])])
case("index.Tensor", V(F32, 3, 4), [torch.tensor([True, False, True])])
case("index.Tensor", V(F32, 3, 4), [torch.tensor([5])])
case("index.Tensor", V(F32, 3, 4), [torch.tensor([-4])])
# int32 indices: torch 1.13 refuses them, PyTorch 2.x reads them as int64.
case("index.Tensor", V(F32, 3, 4), [torch.tensor([1, 2], dtype=I32)],
     fn=lambda x, ix: torch.ops.aten.index.Tensor(x, [i.long() for i in ix]))
case("index.Tensor", V(F32, 4, 3).t(), [torch.tensor([2, 0])])
case("index.Tensor", V(F32, 3, 4), [torch.tensor([], dtype=I64)])
case("index.Tensor", V(F32, 3, 4), [torch.tensor([0.0])])
case("gather.default", torch.arange(256).view(1, 256).expand(1, -1), 1, torch.arange(7).view(1, 7))
case("gather.default", V(F32, 3, 4), 0, torch.tensor([[3]]))
case("gather.default", V(F32, 3, 4), 1, torch.tensor([[-1]]))
case("gather.default", V(F32, 4, 3).t(), 1, torch.tensor([[0, 3], [1, 1]]))
case("index_put.default", V(F32, 4, 3), [torch.tensor([0, 2])], torch.tensor(9.0))
case("index_put.default", V(F32, 4, 3), [torch.tensor([0, 0])], V(F32, 2, 3), True)
case("index_put.default", V(F32, 4, 3), [torch.tensor([0, 2]), torch.tensor([1, -1])], V(F32, 2))
case("index_put.default", V(F32, 4, 3), [torch.tensor([4])], V(F32, 3))
case("index_put.default", V(F32, 4, 3), [torch.tensor([True, False, True, False])], torch.tensor(0.0))
case("index_select.default", V(F32, 4, 3), 0, torch.tensor([4]))
case("scatter.src", V(F32, 3, 4), 1, torch.tensor([[4]]), V(F32, 1, 1))
case("scatter_add.default", torch.zeros(3, 4), 1, torch.tensor([[0, 0], [2, 3], [1, 1]]), V(F32, 3, 2))
case("scatter_add.default", torch.zeros(3, 4), 0, torch.tensor([[0, 0, 0, 0], [0, 0, 0, 0]]), V(F32, 2, 4))
case("slice_scatter.default", V(F32, 4, 4), V(F32, 4, 3), 1, 1, 4, 2)
case("select_scatter.default", V(F32, 3, 4), V(F32, 3), 0, 1)
case("select_scatter.default", V(F32, 3, 4), V(F32, 4), 0, 3)

# ---------------------------------------------------------------------------
# Matrix products: every dtype, transposed and broadcast operands, and
# realistic k with a tolerance from k.
sweep("mm.default", lambda dt: A(V(dt, 3, 4), V(dt, 4, 5)), fn=reduced_via_f64("mm.default"))
sweep("bmm.default", lambda dt: A(V(dt, 2, 3, 4), V(dt, 2, 4, 5)), fn=reduced_via_f64("bmm.default"))
sweep("addmm.default", lambda dt: A(V(dt, 5), V(dt, 3, 4), V(dt, 4, 5)), fn=reduced_via_f64("addmm.default"))
sweep("addmm.default", lambda dt: A(V(dt, 3, 5), V(dt, 3, 4), V(dt, 4, 5), beta=2, alpha=3), fn=reduced_via_f64("addmm.default"))
sweep("baddbmm.default", lambda dt: A(V(dt, 2, 3, 5), V(dt, 2, 3, 4), V(dt, 2, 4, 5)), fn=reduced_via_f64("baddbmm.default"))
sweep("matmul.default", lambda dt: A(V(dt, 2, 1, 3, 4), V(dt, 5, 4, 2)), fn=reduced_via_f64("matmul.default"))
sweep("linear.default", lambda dt: A(V(dt, 2, 3, 4), V(dt, 5, 4), V(dt, 5)), fn=reduced_via_f64("linear.default"))
sweep("mv.default", lambda dt: A(V(dt, 3, 4), V(dt, 4)), fn=reduced_via_f64("mv.default"))
sweep("dot.default", lambda dt: A(V(dt, 4), V(dt, 4)), fn=reduced_via_f64("dot.default"))
sweep("outer.default", lambda dt: A(V(dt, 3), V(dt, 4)), fn=reduced_via_f64("outer.default"))
case("mm.default", V(F32, 4, 3).t(), V(F32, 5, 4).t())
case("mm.default", V(F32, 3, 4), V(F32, 5, 6))
case("mm.default", V(F32, 3, 0), V(F32, 0, 2))
case("mm.default", V(F32, 0, 3), V(F32, 3, 2))
case("mm.default", V(F32, 3, 4), V(F64, 4, 2))
case("mm.default", torch.tensor([[float("nan"), 1.0], [float("inf"), 0.0]]), torch.tensor([[1.0, 0.0], [0.0, 1.0]]))
case("addmm.default", V(F32, 3, 5), V(F32, 3, 4), V(F32, 4, 5), beta=0.5, alpha=2.0)
case("addmm.default", V(F32, 5), V(F32, 4, 3).t(), V(F32, 5, 4).t())
case("addmm.default", V(F32, 5), V(F32, 3, 4), V(F32, 3, 5))
case("addmm.default", torch.full((5,), float("nan")), V(F32, 3, 4), V(F32, 4, 5), beta=0)
case("addmm.default", V(F32, 1, 5), V(F32, 3, 0), V(F32, 0, 5))
case("bmm.default", V(F32, 1, 3, 4).expand(2, 3, 4), V(F32, 2, 5, 4).transpose(1, 2))
case("bmm.default", V(F32, 2, 3, 4), V(F32, 3, 4, 5))
case("bmm.default", V(F32, 0, 3, 4), V(F32, 0, 4, 5))
case("matmul.default", V(F32, 4), V(F32, 4))
case("matmul.default", V(F32, 3, 4), V(F32, 4))
case("matmul.default", V(F32, 4), V(F32, 2, 4, 3))
case("matmul.default", V(F32, 2, 3, 4), V(F32, 4, 5))
case("matmul.default", V(F32, 3, 4).t(), V(F32, 3, 2))
case("linear.default", V(F32, 3, 4), V(F32, 5, 4))
case("linear.default", V(F32, 4, 3).t(), V(F32, 4, 5).t(), V(F32, 5))
case("baddbmm.default", V(F32, 2, 3, 5), V(F32, 2, 3, 4), V(F32, 2, 4, 5), beta=0.5, alpha=-1)
case("mv.default", V(F32, 4, 3).t(), V(F32, 4))
case("mv.default", V(F32, 3, 4), V(F32, 5))
case("dot.default", V(F32, 4), V(F32, 5))
case("dot.default", V(F32, 4), V(F64, 4))
case("outer.default", V(F32, 3), V(I64, 4))

U = {F32: 2.0 ** -24, F64: 2.0 ** -53}


def gemm_tol(a, b, dt):
    """The error bound of a k-term float dot product in its own precision:
    |err| <= c * sqrt(k) * u * sum_l |a_l b_l| (Higham and Mary's
    probabilistic bound, c = 8), the largest over the output. The reference
    is computed in float64 from the rounded inputs."""
    k = a.shape[-1]
    s = (a.abs().double() @ b.abs().double()).max().item()
    return [0, 8 * math.sqrt(k) * U[dt] * s]


for dt in [F32, F64]:
    for (m, k, n) in [(3, 64, 5), (2, 768, 3), (4, 3072, 2), (17, 257, 9)]:
        a, b = gen(dt, m, k, seed=k), gen(dt, k, n, seed=k + 1)
        ref = (a.t.double() @ b.t.double()).to(dt)
        tol = gemm_tol(a.t, b.t, dt)
        # PyTorch's own float32 product meets the tolerance too.
        assert (torch.mm(a.t, b.t).double() - ref.double()).abs().max().item() <= tol[1], (m, k, n)
        case("mm.default", a, b, fn=lambda x, y: (x.double() @ y.double()).to(x.dtype), tol=tol)
        bias = gen(dt, n, seed=7)
        case("addmm.default", bias, a, b, fn=lambda c, x, y: (c.double() + x.double() @ y.double()).to(x.dtype),
             tol=[0, tol[1] + 4 * U[dt]])
    a, b = gen(dt, 2, 3, 1024, seed=5), gen(dt, 2, 1024, 4, seed=6)
    case("bmm.default", a, b, fn=lambda x, y: (x.double() @ y.double()).to(x.dtype), tol=gemm_tol(a.t[0], b.t[0], dt))
    a, w = gen(dt, 3, 512, seed=8), gen(dt, 6, 512, seed=9)
    case("linear.default", a, w, fn=lambda x, y: (x.double() @ y.double().t()).to(x.dtype), tol=gemm_tol(a.t, w.t.t(), dt))
    a, b = gen(dt, 2048, seed=10), gen(dt, 2048, seed=11)
    case("dot.default", a, b, fn=lambda x, y: (x.double() @ y.double()).to(x.dtype),
         tol=gemm_tol(a.t.view(1, -1), b.t.view(-1, 1), dt))
    a, v = gen(dt, 3, 1536, seed=12), gen(dt, 1536, seed=13)
    case("mv.default", a, v, fn=lambda x, y: (x.double() @ y.double()).to(x.dtype), tol=gemm_tol(a.t, v.t.view(-1, 1), dt))

# ---------------------------------------------------------------------------
# Convolution and pooling.
sweep("convolution.default", lambda dt: A(V(dt, 1, 2, 5, 5), V(dt, 3, 2, 3, 3), V(dt, 3), [1, 1], [1, 1], [1, 1],
                                          False, [0, 0], 1), fn=reduced_via_f64("convolution.default"))
sweep("convolution.default", lambda dt: A(V(dt, 2, 4, 10), V(dt, 4, 2, 3), None, [2], [1], [1], False, [0], 2), fn=reduced_via_f64("convolution.default"))
sweep("max_pool2d_with_indices.default", lambda dt: A(V(dt, 1, 2, 6, 6), [2, 2]))
sweep("avg_pool2d.default", lambda dt: A(V(dt, 1, 2, 6, 6), [3, 3], [2, 2], [1, 1], False, True))
sweep("_adaptive_avg_pool2d.default", lambda dt: A(V(dt, 1, 2, 7, 5), [3, 2]))
sweep("adaptive_avg_pool2d.default", lambda dt: A(V(dt, 1, 2, 7, 5), [1, 1]))
case("convolution.default", V(F32, 2, 3, 8, 8), V(F32, 4, 3, 3, 3), V(F32, 4), [1, 1], [1, 1], [1, 1], False, [0, 0], 1)
case("convolution.default", V(F32, 1, 4, 9, 7), V(F32, 6, 2, 3, 2), None, [2, 1], [1, 0], [1, 2], False, [0, 0], 2)
case("convolution.default", V(F32, 2, 4, 10), V(F32, 8, 4, 3), V(F32, 8), [2], [1], [1], False, [0], 1)
case("convolution.default", V(F32, 1, 4, 10), V(F32, 4, 1, 5), None, [1], [2], [2], False, [0], 4)
case("convolution.default", V(F32, 2, 3, 5, 5), V(F32, 4, 3, 1, 1), V(F32, 4), [1, 1], [0, 0], [1, 1], False, [0, 0], 1)
case("convolution.default", V(F32, 2, 3, 5, 5), V(F32, 4, 2, 3, 3), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)
case("convolution.default", V(F32, 1, 2, 6, 5).transpose(2, 3), V(F32, 3, 2, 3, 3), None, [1, 1], [1, 1], [1, 1], False,
     [0, 0], 1)
case("convolution.default", V(F32, 0, 2, 5, 5), V(F32, 3, 2, 3, 3), None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1)
case("convolution.default", V(F32, 1, 2, 2, 2), V(F32, 3, 2, 3, 3), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)
case("convolution.default", V(F32, 1, 2, 5, 5), V(F32, 2, 3, 3, 3), None, [1, 1], [0, 0], [1, 1], True, [0, 0], 1,
     tag="transposed")
for dt in [F32, F64]:
    # k = C_in/groups * kh * kw = 576 and 1152.
    x, wt = gen(dt, 1, 64, 6, 6, seed=20), gen(dt, 4, 64, 3, 3, seed=21)
    b = gen(dt, 4, seed=22)
    ref = torch.ops.aten.convolution.default(x.t.double(), wt.t.double(), b.t.double(), [1, 1], [1, 1], [1, 1], False,
                                             [0, 0], 1)
    tol = [0, 8 * math.sqrt(576) * U[dt] * (torch.ops.aten.convolution.default(
        x.t.double().abs(), wt.t.double().abs(), b.t.double().abs(), [1, 1], [1, 1], [1, 1], False, [0, 0], 1).max().item())]
    case("convolution.default", x, wt, b, [1, 1], [1, 1], [1, 1], False, [0, 0], 1,
         fn=lambda *a: ref.to(dt), tol=tol)
    x, wt = gen(dt, 2, 256, 5, seed=23), gen(dt, 4, 128, 9, seed=24)
    args = [None, [2], [4], [1], False, [0], 2]
    ref = torch.ops.aten.convolution.default(x.t.double(), wt.t.double(), *args)
    s = torch.ops.aten.convolution.default(x.t.double().abs(), wt.t.double().abs(), *args).abs().max().item()
    case("convolution.default", x, wt, *args, fn=lambda *a: ref.to(dt), tol=[0, 8 * math.sqrt(1152) * U[dt] * s])
case("max_pool2d_with_indices.default", V(F32, 2, 3, 8, 8), [2, 2])
case("max_pool2d_with_indices.default", V(F32, 1, 2, 7, 9), [3, 2], [2, 2], [1, 1], [1, 2], True)
case("max_pool2d_with_indices.default", V(F32, 2, 5, 5), [2, 2], [2, 2], [0, 0], [1, 1], True)
case("max_pool2d_with_indices.default", torch.tensor([[[[1.0, float("nan")], [float("-inf"), 2.0]]]]), [2, 2])
case("max_pool2d_with_indices.default", V(F32, 1, 2, 6, 6).transpose(2, 3), [3, 3], [1, 1], [1, 1])
case("avg_pool2d.default", V(F32, 1, 2, 7, 7), [3, 3], [2, 2], [1, 1], False, True)
case("avg_pool2d.default", V(F32, 1, 2, 7, 7), [3, 3], [2, 2], [1, 1], True, False)
case("avg_pool2d.default", V(F32, 1, 2, 6, 6), [2, 2], [], [0, 0], False, True, 3)
case("avg_pool2d.default", V(F32, 2, 5, 5), [2, 2])
case("_adaptive_avg_pool2d.default", V(F32, 2, 3, 7, 5), [1, 1])
case("_adaptive_avg_pool2d.default", V(F32, 2, 3, 7, 5), [3, 2])
case("_adaptive_avg_pool2d.default", V(F32, 3, 4, 6), [5, 7])

# ---------------------------------------------------------------------------
# Patterns from real models, with their PyTorch 2.x reference formulas.
xr, wr = V(F32, 2, 5, 8), V(F32, 8)
case("rms_norm.default", xr, [8], None, None, fn=rms)
# Rotary embedding (Llama rotate_half) and SiLU-gated MLP pieces.
q = V(F32, 1, 4, 6, 8)
half1, half2 = q[..., :4], q[..., 4:]
case("cat.default", [-half2, half1], -1)
case("silu.default", q)
case("mul.Tensor", torch.nn.functional.silu(q), q.flip(-1))

out = io.BytesIO()
with gzip.GzipFile(fileobj=out, mode="wb", mtime=0) as g:
    g.write(json.dumps({"tensors": tensors, "cases": cases}, allow_nan=False, separators=(",", ":")).encode())
with open("golden.json.gz", "wb") as f:
    f.write(out.getvalue())
print("%d cases, %d tensors, %d bytes" % (len(cases), len(tensors), len(out.getvalue())), file=sys.stderr)
