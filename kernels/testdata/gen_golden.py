# Generates golden.json: kernel cases computed by PyTorch (torch 1.13 from
# Debian was used). Run: python3 gen_golden.py > golden.json
import json, math
import torch

torch.manual_seed(0)
cases = []
DT = {torch.float32: "f32", torch.float64: "f64", torch.int64: "i64", torch.int32: "i32",
      torch.int16: "i16", torch.int8: "i8", torch.uint8: "u8", torch.bool: "b8", torch.float16: "f16"}

def num(x):
    if isinstance(x, bool):
        return x
    if isinstance(x, float) and not math.isfinite(x):
        return "nan" if x != x else ("inf" if x > 0 else "-inf")
    return x

def enc(a):
    if isinstance(a, torch.Tensor):
        return {"t": {"dtype": DT[a.dtype], "shape": list(a.shape),
                      "strides": list(a.stride()), "perm": None,
                      "data": [num(v) for v in a.contiguous().reshape(-1).tolist()]}}
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
    if isinstance(a, (list, tuple)):
        if all(isinstance(x, bool) for x in a) and a:
            return {"bools": list(a)}
        if all(isinstance(x, int) for x in a):
            return {"ints": list(a)}
        if all(isinstance(x, float) for x in a):
            return {"floats": list(a)}
        return {"tensors": [enc(x) if x is not None else {"none": True} for x in a]}
    raise TypeError(type(a))

def case(target, *args, record=None, go_target=None, check=None, **kwargs):
    """Runs torch.ops.aten.<target>(*args, **kwargs) and records the result;
    a raised error is recorded as an expected error. record/go_target
    override what the Go test calls (for ops torch 1.13 lacks)."""
    name, overload = target.split(".")
    op = getattr(getattr(torch.ops.aten, name), overload)
    rec = record if record is not None else args
    entry = {"target": "aten." + (go_target or target), "args": [enc(a) for a in rec],
             "kwargs": {k: enc(v) for k, v in kwargs.items()}}
    if check is not None:
        entry["check"] = check
    try:
        r = op(*args, **kwargs)
        if target.startswith(("split", "unbind", "chunk")):
            outs = [{"tensors": [enc(x) for x in r]}]
        elif isinstance(r, (tuple, list)):
            outs = [enc(o) for o in r]
        else:
            outs = [enc(r)]
        entry["out"] = outs
    except Exception as e:
        entry["error"] = str(e).split("\n")[0][:200]
    cases.append(entry)

f = lambda *s: torch.randn(*s)
i = lambda *s: torch.randint(-5, 6, s)

# Broadcasting and promotion.
case("add.Tensor", f(2, 3), f(3))
case("add.Tensor", f(2, 1, 4), f(3, 1), alpha=2)
case("add.Tensor", i(3), 0)
case("add.Tensor", i(3), 2.5)
case("add.Tensor", f(3), i(3))
case("add.Tensor", i(3).to(torch.int32), torch.tensor(5))
case("add.Tensor", i(3).to(torch.int32), torch.tensor(5.5))
case("add.Tensor", torch.tensor([True, False]), torch.tensor([True, True]))
case("add.Tensor", torch.tensor([True, False]), 3)
case("add.Tensor", i(2).to(torch.uint8), i(2).to(torch.int8))
case("add.Tensor", f(2).to(torch.float16), 1.5)
case("add.Tensor", f(2).to(torch.float16), f(2))
case("add.Tensor", f(2, 3), f(4))
case("add.Tensor", i(3), i(3), alpha=1.5)
case("add.Scalar", f(3), 2, 3)
case("sub.Tensor", f(2, 3), f(2, 1), alpha=0.5)
case("sub.Tensor", torch.tensor([True]), torch.tensor([False]))
case("rsub.Scalar", f(3), 1.0)
case("mul.Tensor", f(2, 3), 2.0)
case("mul.Tensor", i(2, 3), 2.0)
case("mul.Tensor", f(4, 1), f(1, 5))
case("mul.Tensor", torch.tensor([True, False]), torch.tensor([True, True]))
case("mul.Scalar", i(3), 3)
case("div.Tensor", i(4), torch.tensor([2, -3, 4, 7]))
case("div.Tensor", f(4), f(4))
case("div.Tensor", f(3), 0.0)
for mode in ["trunc", "floor"]:
    case("div.Tensor_mode", torch.tensor([-7, 7, -8, 9]), torch.tensor([2, 2, 3, -4]), rounding_mode=mode)
    case("div.Tensor_mode", torch.tensor([-7.5, 7.5, -8.0, 9.0]), torch.tensor([2.0, 2.0, 3.0, -4.0]), rounding_mode=mode)
    case("div.Scalar_mode", torch.tensor([-7, 7, -8, 9]), 2, rounding_mode=mode)
case("remainder.Tensor", torch.tensor([-7, 7, -8, 9]), torch.tensor([2, -2, 3, -4]))
case("remainder.Scalar", torch.tensor([-7.5, 7.5, -8.0]), 2.0)
case("fmod.Tensor", torch.tensor([-7, 7, -8, 9]), torch.tensor([2, -2, 3, -4]))
case("pow.Tensor_Scalar", f(5), 3.0)
case("pow.Tensor_Scalar", f(5).abs(), 0.5)
case("pow.Tensor_Scalar", f(5), 2)
case("pow.Tensor_Scalar", i(5), 2)
case("pow.Tensor_Scalar", i(5), 0.5)
case("pow.Tensor_Scalar", f(5).abs(), 1.7)
case("pow.Tensor_Tensor", f(4).abs(), f(4))
case("pow.Scalar", 2.0, f(4))
case("maximum.default", torch.tensor([1.0, float("nan"), 3.0]), torch.tensor([2.0, 1.0, float("nan")]))
case("minimum.default", i(4), i(4))
case("bitwise_and.Tensor", torch.tensor(True), torch.tensor([[True, False]]))
case("bitwise_and.Tensor", i(4), i(4))
case("bitwise_or.Scalar", i(4), 6)
case("bitwise_xor.Tensor", torch.tensor([True, False]), torch.tensor([True, True]))
case("bitwise_and.Tensor", f(2), f(2))
case("bitwise_not.default", i(4))
case("bitwise_not.default", torch.tensor([True, False]))
case("logical_and.default", f(4), i(4))
case("logical_not.default", i(4))
for cmp in ["eq", "ne", "lt", "le", "gt", "ge"]:
    case(cmp + ".Tensor", i(2, 3), i(3))
    case(cmp + ".Scalar", f(4), 0.25)
case("le.Tensor", i(1, 1, 3, 1), i(1, 1, 1, 3))
case("ge.Scalar", i(4), 0)
case("eq.Tensor", f(2, 3), f(4, 3))
case("atan2.default", f(4), f(4))
case("where.self", torch.tensor([True, False, True]), f(3), f(3))
case("where.self", torch.rand(2, 1, 3) > 0.5, torch.tensor(0.0), torch.tensor(-3.4028234663852886e+38))
case("where.self", torch.tensor([True, False]), i(2), f(2))
case("where.ScalarOther", torch.tensor([True, False]), f(2), 0.0)
case("where.self", i(2), f(2), f(2))
case("masked_fill.Scalar", f(2, 3), torch.tensor([True, False, True]), -1e9)
case("masked_fill.Scalar", i(2, 3), torch.tensor([[True], [False]]), 7)
case("clamp.default", f(6), -0.5, 0.5)
case("clamp.default", i(6), None, 2)
case("clamp.default", i(6), 0.5, None)
case("clamp_min.default", f(4), 0.0)

# Unary.
x = torch.linspace(-4, 4, 17)
for u in ["neg", "abs", "relu", "sign", "ceil", "floor", "round", "trunc", "exp", "expm1", "log", "log2",
          "log10", "log1p", "sqrt", "rsqrt", "reciprocal", "sin", "cos", "tan", "atan", "sinh", "cosh", "tanh",
          "asinh", "sigmoid", "erf", "silu", "hardswish", "hardsigmoid", "mish", "exp2"]:
    case(u + ".default", x)
for u in ["neg", "abs", "relu", "exp", "sigmoid", "sqrt", "tanh", "ceil", "sign"]:
    case(u + ".default", i(6))
case("asin.default", torch.linspace(-0.9, 0.9, 7))
case("acos.default", torch.linspace(-0.9, 0.9, 7))
case("atanh.default", torch.linspace(-0.9, 0.9, 7))
case("acosh.default", torch.linspace(1, 4, 7))
case("erfinv.default", torch.linspace(-0.9, 0.9, 7))
case("neg.default", torch.tensor([True]))
case("silu.default", i(3))
case("exp.default", torch.linspace(-100, 100, 21))
case("tanh.default", torch.linspace(-12, 12, 49))
case("sigmoid.default", torch.linspace(-30, 30, 25))
case("gelu.default", torch.linspace(-6, 6, 49))
case("gelu.default", torch.linspace(-6, 6, 49), approximate="tanh")
case("gelu.default", torch.linspace(-6, 6, 5).double(), approximate="tanh")
case("exp.default", torch.linspace(-3, 3, 7).double())
case("mul.Tensor", f(5).to(torch.float16), f(5).to(torch.float16))
case("isnan.default", torch.tensor([1.0, float("nan"), float("inf")]))
case("isinf.default", torch.tensor([1.0, float("nan"), float("-inf")]))
case("leaky_relu.default", f(5), 0.2)
case("hardtanh.default", f(5), -0.5, 0.5)
case("elu.default", f(5))

# Reductions.
case("sum.dim_IntList", f(3, 4), [1])
case("sum.dim_IntList", f(3, 4), [0])
case("sum.dim_IntList", f(2, 3, 4), [0, 2], True)
case("sum.dim_IntList", i(3, 4), [1])
case("sum.dim_IntList", torch.rand(3, 4) > 0.5, [1])
case("sum.dim_IntList", f(3, 4), [])
case("sum.dim_IntList", f(3, 4), [1], dtype=torch.float64)
case("sum.default", f(3, 4))
case("sum.dim_IntList", f(3, 4), [2])
case("mean.dim", f(2, 3, 4, 5), [-1, -2], True)
case("mean.dim", f(6, 8), [0])
case("mean.dim", i(6, 8), [0])
case("mean.default", f(7))
case("amax.default", f(3, 4), [1])
case("amax.default", f(3, 4), [0], True)
case("amin.default", i(3, 4), [])
case("max.dim", f(3, 4), 1)
case("min.dim", f(3, 4), 0, True)
case("max.dim", torch.tensor([[1.0, 3.0, 3.0]]), 1)
case("argmax.default", f(3, 4), 1)
case("argmax.default", f(3, 4))
case("argmin.default", f(3, 4), 0, True)
case("any.dim", torch.rand(3, 4) > 0.7, 1)
case("any.default", i(3, 4))
case("all.dim", torch.rand(3, 4) > 0.2, 0)
case("prod.dim_int", f(3, 4), 1)
case("prod.default", i(5))
case("var.dim", f(3, 4), [1])
case("var.correction", f(3, 4), [1], correction=0)
case("std.correction", f(3, 4), [0], correction=1, keepdim=True)
case("logsumexp.default", f(3, 4), [1])
case("cumsum.default", f(3, 4), 1)
case("cumsum.default", i(3, 4), 0)
case("cumsum.default", torch.tensor([[True, False, True]]), 1)
case("_softmax.default", f(2, 3, 5), -1, False)
case("_softmax.default", f(2, 3, 5), 1, False)
case("_softmax.default", torch.tensor([[0.0, -3.4028234663852886e+38, 1.0]]), -1, False)
case("_log_softmax.default", f(4, 6), -1, False)
case("_log_softmax.default", f(4, 6), 0, False)
case("softmax.int", f(3, 4), 1)

# Norms.
case("native_layer_norm.default", f(2, 3, 8), [8], f(8), f(8), 1e-5)
case("native_layer_norm.default", f(4, 6), [6], None, None, 1e-12)
case("native_layer_norm.default", f(2, 3, 4), [3, 4], f(3, 4), f(3, 4), 1e-5)
case("native_layer_norm.default", f(2, 3), [4], None, None, 1e-5)
bn = [f(2, 3, 4, 4), f(3), f(3), f(3), f(3).abs() + 0.5]
case("native_batch_norm.default", *bn, False, 0.1, 1e-5, record=bn + [0.1, 1e-5],
     go_target="_native_batch_norm_legit_no_training.default", check=1)
case("native_group_norm.default", f(2, 4, 3, 3), f(4), f(4), 2, 4, 9, 2, 1e-5)

# Views and shapes.
case("view.default", f(2, 3, 4), [6, -1])
case("view.default", f(2, 3, 4).permute(2, 0, 1), [4, 6])
case("view.default", f(2, 3, 4).permute(2, 0, 1), [24])
case("reshape.default", f(2, 3, 4).permute(2, 0, 1), [24])
case("permute.default", f(2, 3, 4), [2, 0, 1])
case("permute.default", f(2, 3), [0, 0])
case("expand.default", f(3, 1), [2, 3, 4])
case("expand.default", f(3, 1), [2, -1, 4])
case("expand.default", f(3, 2), [3, 4])
case("unsqueeze.default", f(2, 3), -1)
case("squeeze.dim", f(2, 1, 3), 1)
case("squeeze.default", f(1, 2, 1, 3, 1))
case("slice.Tensor", f(4, 6), 1, 1, 5, 2)
case("slice.Tensor", f(4, 6), 0, -3, 9223372036854775807)
case("slice.Tensor", f(4, 6), 1, None, 2)
case("select.int", f(3, 4), 1, -1)
case("select.int", f(3, 4), 0, 3)
case("transpose.int", f(2, 3, 4), 0, -1)
case("t.default", f(2, 3))
case("alias.default", f(3))
case("split_with_sizes.default", f(3, 10), [2, 3, 5], 1)
case("split_with_sizes.default", f(3, 10), [2, 3], 1)
case("split.Tensor", f(7, 2), 3)
case("unbind.int", f(3, 2), 0)
case("chunk.default", f(7, 2), 3)
case("narrow.default", f(5, 3), 0, 1, 3)
case("as_strided.default", f(12), [3, 2], [1, 3], 1)
case("diagonal.default", f(3, 4), 1)
case("clone.default", f(2, 3).t())
case("_to_copy.default", i(2, 3), dtype=torch.bool)
case("_to_copy.default", i(2, 3), dtype=torch.float32)
case("_to_copy.default", f(2, 3) * 3, dtype=torch.int32)
case("_to_copy.default", f(2, 3), dtype=torch.float16)
case("cat.default", [f(2, 3), f(1, 3)])
case("cat.default", [f(2, 3), i(2, 2)], 1)
case("cat.default", [f(2, 3), torch.empty(0)], 0)
case("cat.default", [f(2, 3), f(2, 4)], 0)
case("stack.default", [f(2, 3), f(2, 3)], 1)
case("repeat.default", f(2, 3), [2, 1, 2])
case("constant_pad_nd.default", f(2, 3), [1, 2], 0.5)
case("constant_pad_nd.default", f(2, 3, 4), [1, -1, -1, 2])
case("triu.default", f(4, 5), 1)
case("tril.default", f(2, 4, 4), -1)
case("flip.default", f(2, 3, 4), [0, 2])
case("roll.default", f(3, 4), [1], [1])
case("roll.default", f(3, 4), [5])

# Creation.
case("arange.start_step", 0, 5)
case("arange.start_step", 0, 1, 0.25)
case("arange.start_step", 10, 0, -3)
case("arange.start_step", 0, 5, 1, dtype=torch.float32)
case("arange.start_step", 0, 5, 0)
case("arange.default", 4.5)
case("full.default", [2, 3], 1.5)
# full([], True) is bool in PyTorch 2.x; torch 1.13 called through torch.ops gives int64.
case("full.default", [2], 7)
case("scalar_tensor.default", -3.4028234663852886e+38)
case("scalar_tensor.default", 3)
case("zeros.default", [2, 2])
case("ones_like.default", i(3))
case("full_like.default", f(2), 2)
case("fill.Scalar", i(3), 2.7)

# Indexing.
w = f(10, 4)
case("embedding.default", w, torch.tensor([[1, 9, 0], [2, 2, 3]]))
case("embedding.default", w, torch.tensor([10]))
m = torch.rand(1, 6) > 0.3
case("index.Tensor", m, [torch.arange(1).view(1, 1, 1, 1), torch.arange(6).view(1, 1, 1, 6)])
case("index.Tensor", f(4, 5), [torch.tensor([0, 3, -1])])
case("index.Tensor", f(4, 5), [None, torch.tensor([[0, 4], [1, 1]])])
case("index.Tensor", f(3, 4, 5), [torch.tensor([0, 2]), None, torch.tensor([1, 3])])
case("index.Tensor", f(3, 4, 5), [None, torch.tensor([0, 2]), torch.tensor([1, 3])])
case("index.Tensor", f(3, 4), [torch.tensor([True, False, True])])
case("index.Tensor", f(3, 4), [torch.tensor([5])])
case("gather.default", f(3, 4), 1, torch.tensor([[0, 3], [1, 1], [2, 0]]))
case("gather.default", torch.arange(256).view(1, 256).expand(1, -1), 1, torch.arange(7).view(1, 7))
case("gather.default", f(3, 4), 0, torch.tensor([[3]]))
case("index_select.default", f(4, 3), 0, torch.tensor([3, 0, 0]))
case("index_put.default", f(4, 3), [torch.tensor([0, 2])], torch.tensor(9.0))
case("index_put.default", f(4, 3), [torch.tensor([0, 0])], f(2, 3), True)
case("scatter.src", f(3, 4), 1, torch.tensor([[0, 1], [2, 3], [1, 0]]), f(3, 2))
case("scatter_add.default", torch.zeros(3, 4), 1, torch.tensor([[0, 0], [2, 3], [1, 1]]), f(3, 2))
case("slice_scatter.default", f(4, 4), f(4, 2), 1, 1, 4, 2)
case("select_scatter.default", f(3, 4), f(4), 0, 1)

# Matrix products.
case("mm.default", f(3, 4), f(4, 5))
case("mm.default", f(4, 3).t(), f(5, 4).t())
case("mm.default", f(3, 4), f(5, 6))
case("mm.default", f(3, 4).double(), f(4, 2).double())
case("mm.default", i(3, 4), i(4, 2))
case("addmm.default", f(5), f(3, 4), f(4, 5))
case("addmm.default", f(3, 5), f(3, 4), f(4, 5), beta=0.5, alpha=2.0)
case("addmm.default", f(5), f(4, 3).t(), f(5, 4).t())
case("addmm.default", f(5), f(3, 4), f(3, 5))
case("bmm.default", f(2, 3, 4), f(2, 4, 5))
case("bmm.default", f(1, 3, 4).expand(2, 3, 4), f(2, 5, 4).transpose(1, 2))
case("bmm.default", f(2, 3, 4), f(3, 4, 5))
case("matmul.default", f(2, 1, 3, 4), f(5, 4, 2))
case("matmul.default", f(4), f(4))
case("matmul.default", f(3, 4), f(4))
case("matmul.default", f(4), f(2, 4, 3))
case("linear.default", f(2, 3, 4), f(5, 4), f(5))
case("linear.default", f(3, 4), f(5, 4))
case("baddbmm.default", f(2, 3, 5), f(2, 3, 4), f(2, 4, 5))

# Convolution and pooling.
case("convolution.default", f(2, 3, 8, 8), f(4, 3, 3, 3), f(4), [1, 1], [1, 1], [1, 1], False, [0, 0], 1)
case("convolution.default", f(1, 4, 9, 7), f(6, 2, 3, 2), None, [2, 1], [1, 0], [1, 2], False, [0, 0], 2)
case("convolution.default", f(2, 4, 10), f(8, 4, 3), f(8), [2], [1], [1], False, [0], 1)
case("convolution.default", f(1, 4, 10), f(4, 1, 5), None, [1], [2], [2], False, [0], 4)
case("convolution.default", f(2, 3, 5, 5), f(4, 3, 1, 1), f(4), [1, 1], [0, 0], [1, 1], False, [0, 0], 1)
case("convolution.default", f(2, 3, 5, 5), f(4, 2, 3, 3), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)
case("max_pool2d_with_indices.default", f(2, 3, 8, 8), [2, 2])
case("max_pool2d_with_indices.default", f(1, 2, 7, 9), [3, 2], [2, 2], [1, 1], [1, 2], True)
case("max_pool2d_with_indices.default", f(2, 5, 5), [2, 2], [2, 2], [0, 0], [1, 1], True)
case("avg_pool2d.default", f(1, 2, 7, 7), [3, 3], [2, 2], [1, 1], False, True)
case("avg_pool2d.default", f(1, 2, 7, 7), [3, 3], [2, 2], [1, 1], True, False)
case("avg_pool2d.default", f(1, 2, 6, 6), [2, 2], [], [0, 0], False, True, 3)
case("_adaptive_avg_pool2d.default", f(2, 3, 7, 5), [1, 1])
case("_adaptive_avg_pool2d.default", f(2, 3, 7, 5), [3, 2])

# Ops torch 1.13 lacks, computed with their PyTorch 2.x reference formulas.
def composite(go_target, record, out):
    cases.append({"target": "aten." + go_target, "args": [enc(a) for a in record], "kwargs": {},
                  "out": [enc(o) for o in out]})

xr, wr = f(2, 5, 8), f(8)
composite("rms_norm.default", [xr, [8], wr, 1e-6],
          [xr * torch.rsqrt(xr.pow(2).mean(-1, keepdim=True) + 1e-6) * wr])
composite("rms_norm.default", [xr, [8], None, None],
          [xr * torch.rsqrt(xr.pow(2).mean(-1, keepdim=True) + torch.finfo(torch.float32).eps)])
xs = f(2, 1, 3, 1)
composite("squeeze.dims", [xs, [1, 3]], [xs.squeeze(3).squeeze(1)])
composite("squeeze.dims", [xs, [0]], [xs])
# Rotary embedding (Llama rotate_half) and SiLU-gated MLP pieces.
q = f(1, 4, 6, 8)
half1, half2 = q[..., :4], q[..., 4:]
composite("cat.default", [[-half2, half1], -1], [torch.cat([-half2, half1], -1)])
composite("silu.default", [q], [torch.nn.functional.silu(q)])
composite("_safe_softmax.default", [torch.tensor([[0.0, 1.0], [float("-inf"), float("-inf")]]), -1],
          [torch.tensor([[0.0, 1.0], [float("-inf"), float("-inf")]]).softmax(-1).nan_to_num(0.0)])

cases = [c for c in cases if c is not None]
print("[\n" + ",\n".join(json.dumps(c, allow_nan=False) for c in cases) + "\n]")
