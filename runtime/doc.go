// Package runtime runs exported programs in Go. Load compiles a program
// once: it resolves every op to a kernel (reporting all ops without one at
// once), binds arguments to schema order, plans when each intermediate value
// dies, and loads the weights (zero-copy from the archive's bytes); a
// lowered program (ir.Lowered) loads through LoadLowered, each module
// compiled by its backend. Load also rewrites a few patterns it knows:
// GPT-2's tanh GELU, attention's scaled masked softmax and the hard
// activations run as one fused kernel each (same arithmetic, same
// results), batch norm after a convolution folds into its constant
// weights and constant matrix operands are packed once (which rounds
// differently). Run then executes the program on actual inputs, as many
// times as wanted and from many goroutines at once.
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
