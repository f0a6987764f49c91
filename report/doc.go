// Package report describes a partition plan for a person and for scripts:
// which nodes of a program went to which partition of a backend, what
// crosses each cut (with the kind and annotation of every value), and why
// the other nodes stay with the parent program.
//
// The boundary is the point of it. A symbolic size such as `Sym(s53)` made
// outside a partition and used inside becomes an input of the lowered
// module, and most backends take tensors only (see the boundary contract in
// the project docs). Every renderer makes such inputs stand out: the text
// marks them with "!", the DOT and SVG pictures draw their edges in red, the
// HTML page lists them first.
//
// Build turns a partition.Plan (with its nested plans) into a Report;
// WriteText, WriteJSON, WriteDOT and WriteHTML render it. The HTML page is
// self-contained: inline CSS and an SVG drawn by this package's own layered
// layout, no scripts, no fonts, no Graphviz.
package report
