// Package runtime runs exported programs in Go. Load compiles a program
// once: it resolves every op to a kernel (reporting all ops without one at
// once), binds arguments to schema order and loads the weights (zero-copy
// from the archive's bytes); a
// lowered program (ir.Lowered) loads through LoadLowered, each module
// compiled by its backend.
//
// Load then rewrites the plan of every graph with an ordered table of
// passes, each of which Options.Disable can switch off by name (PassNames):
//
//   - gelu: GPT-2's tanh GELU, spelled out as eight ops, runs as one gelu.
//   - softmax: attention's _softmax(x*c + mask, -1) runs as one kernel.
//   - hardact: hardswish and hardsigmoid as their decompositions spell
//     them run as the aten kernels.
//   - foldbn: batch norm after a convolution, with constant parameters,
//     folds into the convolution's weight and bias.
//   - pack: the constant B operand of mm and addmm (a Linear's weight),
//     and the constant 1x1 weight of a convolution over 1x1 planes (a
//     squeeze-excite gate), is packed once for the matrix product.
//   - poolvalues: a max pool whose indices nothing reads computes its
//     values alone (aten.max_pool2d's work), 2x2 windows in vector steps.
//   - convact: a relu, hardswish or hardsigmoid whose input is a
//     convolution's only use runs inside the convolution.
//   - lifetimes: after each step, the values whose last use it was are
//     released to the kernels' pool.
//   - moves: a clone whose input dies at it takes the input's storage.
//
// The fusions compute the same float32 steps in the same order, so results
// keep their bits; foldbn and pack round differently. After every pass
// Load checks the plan (every value read is defined before, by a graph
// input or an earlier step, none read after its release, none released
// twice): a pass that breaks it is a PlanError, a bug in seam. Run then
// executes the program on actual inputs, as many times as wanted and from
// many goroutines at once.
//
// On several threads, kernels split large work across the process's
// workers. A program that computes each sample of a static batch apart
// (package batch) runs instead as parts: its batch cut into as many shares
// as the machine has cores, each share a run of the program compiled for
// that batch, one goroutine each, the outputs joined along dim 0
// (samples.go). Either way the results have the same bits whatever the
// thread count.
//
// Before any kernel runs, Run checks the inputs against the signature:
// count, dtype, rank and static sizes, binds every symbol the actual sizes
// (and int user inputs) determine, and checks each against its range; a
// size they do not determine (f32[s0*s1, 64] given to a lowered module
// without s0 or s1) is checked as a unit, against the other sizes with its
// expression and against its range. A bad input is an error naming the
// input, the dim and the symbol, never a crash inside a kernel.
//
// Values are tagged (package value): tensors, and symbolic scalars as the
// plain ints, doubles and bools the runtime passes them as. The executor
// evaluates scalar ops itself (sym_size, _operator.*, math.*, torch.sym_*),
// runs higher_order.cond branches, keeps mutated buffers as program state
// across runs, and calls delegates (lowered modules) through the backend
// registry, checking every argument against the backend's contract first.
package runtime
