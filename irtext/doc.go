// Package irtext prints a program in the readable form PyTorch's
// print_readable() gives (the graph.txt of the fixtures): one line per node
// with its annotation, target and arguments, placeholders with their
// annotations (`f32[1, s53, 768]`, `Sym(s53)`), and nested graphs as nested
// classes. Users already know this form, so seam shows programs in it.
package irtext
