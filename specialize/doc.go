// Package specialize turns a program with symbolic sizes into the program
// for one binding of its symbols (s53 = 128): what torch.export would have
// written had the example been exported with those sizes static, for
// backends that compile for static shapes only.
//
// Program is a pure ir → ir function, deterministic, that never changes
// its input. Every size, stride and storage offset whose symbols are bound
// becomes a number; every symbolic scalar (SymInt, SymBool, SymFloat) whose
// symbols are bound is folded: its uses take the literal, and the node that
// computed it (sym_size.int, sym_numel, _operator.*, math.*, torch.sym_*)
// is removed. Values come from the expressions export recorded for them,
// evaluated by package sym with Python's semantics (exact integers, floor
// division toward -inf), which is what the program computes at run time;
// a SymFloat is its expression's value, which SymPy may have reassociated
// (0.2*s for s*0.1*2), so it can differ from the program's order of
// operations by an ulp. Asserts (_assert_scalar, sym_constrain_range)
// whose condition becomes constant are checked once, here, and removed: a
// binding that fails one is an Error naming it. A cond whose predicate
// becomes constant is replaced by the branch it takes, as torch.cond does
// when its predicate is a Python bool (the specialized program has no
// higher-order op left for a static backend to refuse); the branch's nodes
// keep their names unless the parent already uses them, then they get the
// first free _1, _2 suffix.
//
// A SymInt user input whose expression is bound becomes a constant input
// (constant_input in the export schema), as torch.export writes an int
// input it specialised: the caller still passes it, in its place among the
// user inputs, and it must equal the bound value (the runtime refuses any
// other, naming the input and both values), as ExecuTorch requires.
//
// Only symbols the user inputs determine can be bound: s53 when some input
// has s53 (or 2*s53, or s0*s53 with s0 determined) as a size. A symbol the
// inputs carry only inside a size known as a whole (s0 in f32[s0*s1, 16]
// with s1 nowhere else) or that a node computes from data (u0 from .item())
// cannot be bound on its own, because no run could tell which
// specialization its inputs belong to. Binding only some symbols is
// allowed: the others stay symbolic, with their ranges, and the sizes that
// use them are rewritten (2*s1 for s0*s1 with s0 = 2).
//
// Names are preserved (nodes, values, weights), so partitions of two
// specializations can be compared node by node and identical lowered
// modules recognised.
package specialize
