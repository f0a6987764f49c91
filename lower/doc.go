// Package lower turns a partition plan into a program whose partitions are
// delegate calls: each partition becomes a lowered module (a program of its
// own) that satisfies its backend's declared contract, and the parent calls
// it with torch.ops.higher_order.executorch_call_delegate.
//
// The hard part is the cut itself. Every value a partition uses but does not
// produce becomes one of its placeholders, and symbolic scalars (a SymInt
// such as sym_size.int(attention_mask, 1), "Sym(s53)") are values most
// backends cannot take. For each symbolic value that crosses a cut, in
// either direction, lowering applies a policy (see Policy): rederive it
// inside from the sizes of a tensor the module already receives, hoist the
// scalar ops that produce it, pass it as a plain scalar where the contract
// accepts that, box it into a rank-0 tensor, or exclude the nodes that
// would need it. Every decision is reported (Crossing), and the result is
// verified afterwards rather than assumed.
//
// Lowering never modifies its input: it works on a copy.
package lower
