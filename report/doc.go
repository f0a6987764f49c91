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
// WriteText, WriteJSON, WriteDOT and WriteHTML render it, and ExecuTorch
// gives its delegation tags. The HTML page is self-contained: inline CSS,
// an SVG drawn by this package's own layered layout, and one inline script
// that lets a reader find a node by name, zoom, pan, and click a box to see
// why it is or is not delegated; no fonts, no Graphviz. Graphs of more than
// a few hundred nodes are drawn with each partition collapsed into one box,
// in the page and in the DOT text alike, so that both stay small and
// Graphviz lays a 1,500-node graph out in seconds.
package report
