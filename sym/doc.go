// Package sym holds the symbolic scalars of programs exported by
// torch.export: SymInt, SymBool and SymFloat expressions such as s53,
// 2*s0 + 1, s77 > 4 or FloatTrueDiv(ToFloat(s77), 3.0).
//
// Export writes them as SymPy srepr text in SymExpr.expr_str
// (Symbol('s53', positive=True, integer=True)), and older files in SymPy's
// str() form; Parse reads both. An Expr is an immutable tree whose node kinds
// (Op) are SymPy's and torch's classes (torch/utils/_sympy/functions.py), so
// lowering can walk it and emit one scalar operation per node.
//
// Printing matches PyTorch exactly: String is SymPy's str(), which is what
// print_readable shows in graph.txt annotations, and Srepr is what export
// writes. To get there, Add, Mul and Pow evaluate when built as SymPy's
// constructors do (flattening, folding numbers, collecting like terms,
// SymPy's argument order); the tests check this against SymPy 1.14 itself
// (testdata/golden.jsonl) and against every fixture program.
//
// Eval computes an expression for given symbol values with Python's
// semantics (exact integers, floor division and modulo toward -inf, IEEE
// floats); Range bounds it given the symbols' ranges; Canonical normalises it
// (sums of products, sorted, folded) so that Key identifies values; Binder
// binds symbols from the sizes of actual inputs and checks them.
package sym
