// Package kernels holds the CPU kernels for ATen operators, registered by
// target name ("aten.add.Tensor") with PyTorch's semantics: broadcasting,
// type promotion with wrapped Python scalars, views that share storage.
//
// # Calling convention
//
// A Kernel is
//
//		func(ctx *Context, args []value.Value, out []value.Value) error
//
//	  - args are the node's arguments in schema order with defaults filled, as
//	    ops.Schema.Bind produces them. A Tensor argument that the program
//	    passes as a Python scalar (mul.Tensor(x, sym_float)) may be an Int,
//	    Double or Bool value: kernels treat it as a wrapped number, as
//	    PyTorch does.
//	  - out has one slot per schema return (len(schema.Returns)); the kernel
//	    fills every slot. A Tensor[] return (split_with_sizes) is one
//	    TensorList value; if the slot already holds a TensorList with enough
//	    capacity, the kernel reuses its backing slice. Ops returning () take
//	    an empty out.
//	  - Errors name the op and the reason ("aten.addmm.default: mat1 is
//	    f32[3, 4] but mat2 is f32[5, 6]"). Kernels validate shapes and dtypes;
//	    no input makes them panic (a recovered panic becomes an error too).
//	    Kernels read their arguments one after another in schema order
//	    (argReader), naming neither positions nor names: an argument of the
//	    wrong kind is an *ArgError, to which the registry adds the op and
//	    the argument's schema name ("aten.slice.Tensor: argument "start"
//	    must be an int, not String "one"").
//
// # Memory
//
// Outputs come from ctx.Pool. Kernels whose schema marks a view (view,
// permute, expand, slice, split_with_sizes ...) return headers that share
// the input's storage. The executor owns lifetimes: after a value's last
// use it calls ctx.Release (or ctx.Pool.Release on each tensor), which
// recycles the header and, once no view holds it, the storage. Outputs the
// caller keeps are simply not released. Weights and user inputs are never
// recycled, whoever releases their views. Temporaries a kernel makes (dtype
// casts for mixed-dtype operands) are released before it returns. In steady
// state (same shapes again) a run allocates nothing per op.
//
// A Context is for one goroutine. Kernels never keep args or out.
//
// # What the executor owns
//
// aten.sym_size.int, sym_numel, sym_stride.int, sym_storage_offset, the
// Python scalar functions (_operator.*, math.*, torch.sym_*), the runtime
// asserts (_assert_scalar, sym_constrain_range*) and higher-order ops
// (higher_order.cond ...) are not kernels: ExecutorOwned reports them, and
// Missing skips them. Missing(targets) lists every other target without a
// kernel, so a runtime can refuse a program before running it.
//
// # Numerics
//
// float32 elementwise math is computed in float32 (transcendentals through
// float32 polynomial approximations within a few ULP, or float64 libm
// rounded to float32; gelu's erf is ATen's own vectorised approximation,
// Abramowitz and Stegun 7.1.26, absolute error below 2e-7); float16/bfloat16 operands are computed in float32
// and rounded, as ATen's opmath does. Reductions (sum, mean, layer/batch
// norm statistics) of float32 accumulate in float64, which is at least as
// accurate as ATen's float32 cascade summation; softmax denominators add
// float32 partial sums of at most 32 terms in float64. float64 tensors
// compute in float64 throughout (softmax, every norm, convolution,
// cumulative sums). Results agree with PyTorch to a few ULP, not bitwise.
// Integer arithmetic wraps as in C++. Matrix products call
// gemm.Sgemm/Dgemm.
//
// testdata/golden.json.gz proves every registered kernel against PyTorch
// for each of the ten dtypes: where PyTorch computes a value the kernel
// computes the same one (or refuses, listed as unclaimed in the test),
// where PyTorch refuses the kernel refuses. TestGoldenCoverage fails for a
// kernel without cases.
//
// The float32 loops of the hot kernels (elementwise arithmetic, exp, tanh,
// gelu, softmax, layer norm) run through package kernels/internal/vec:
// AVX-512 assembly where the CPU has it, portable Go elsewhere (or with
// the purego build tag).
package kernels
