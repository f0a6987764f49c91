// Package ir is seam's in-memory model of a torch.export program: the
// ExportedProgram of the export schema (major version 8), with graphs, nodes,
// arguments, tensor metadata, symbolic value tables, the graph signature,
// range constraints, the module call graph and the weights.
//
// The types mirror the schema one to one (torch/_export/serde/schema.py), so
// that a program read from a .pt2 archive and written back is the same
// program, and so that every later stage (verify, partition, lower, runtime)
// works on the form a backend author already knows from PyTorch. The JSON
// encoding of these types lives here too, because it is the schema's own
// encoding (unions as single-key objects, non-finite floats as strings); the
// archive around it is package pt2.
//
// Names: every value in a graph is named (by its FX node name). Arguments
// refer to values by name; a Graph's value tables give each name its
// metadata (TensorValues, SymIntValues, ...). Graph.DefUse indexes who
// defines and who uses each value; nested graphs and their nodes are named
// by path (SubgraphPath, PathName: `cond.true_graph_0.add`), as Walk
// visits them.
//
// A lowered program is a Lowered: the parent Program, whose delegate calls
// (DelegateTarget) name lowered modules, and each module's Program with its
// Delegate record (backend, compile options, the contract it was lowered
// under, and what the backend compiled from it, if anything). Package lower
// makes one, pt2 writes and reads it, verify checks it and runtime runs it.
package ir
