// Package lower turns a partition plan into a program whose partitions are
// delegate calls: each partition becomes a lowered module (a program of its
// own) that satisfies its backend's declared contract, and the parent calls
// it with torch.ops.higher_order.executorch_call_delegate. Lower takes the
// plan package partition proposed (partition.Plan, with every partition's
// boundary values) and gives an ir.Lowered; it proposes nothing itself.
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
// verified afterwards (verify.Lowered) rather than assumed.
//
// Excluding nodes changes the partitions, so a plan that needs it is not
// lowered: Lower returns the exclusions instead, and the caller proposes
// again without those nodes. Package delegate runs these rounds; the
// result keeps them (Round), and Report prints them. Judge says what the
// first round would do with each symbolic crossing of a plan without
// lowering anything, for the partition report.
//
// Lowering never modifies its input: it works on a copy.
package lower
