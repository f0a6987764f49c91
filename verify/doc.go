// Package verify checks programs against the export-IR rules that
// torch/_export/verifier.py and ExecuTorch's verifiers enforce, and
// against seam's own: the signature lines up with the graph, names are
// unique and defined before use, weights exist and match their
// placeholders, symbols are bounded or bound by an input, ops are known
// and called with their schema's arguments, nested graphs agree with the
// calls that use them, and delegate calls name modules that exist. Program
// checks one program; Lowered checks a lowered program: the parent, every
// module, and each module against its backend's contract (Contract), as
// the runtime will check every call.
//
// Every violation names its rule and the node (or input, output, weight)
// it is about, so a test can break one rule and expect exactly that error.
// Like go/ssa's sanity checker, it runs after every transformation in the
// tests, not only on what users hand in.
package verify
