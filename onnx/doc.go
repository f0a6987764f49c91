// Package onnx translates torch.export programs into ONNX models (opset
// 18), as the dynamo-based torch.onnx exporter does:
//
//   - every graph input is a tensor: a tensor user input keeps its dtype and
//     its symbolic sizes become dim_params named by the symbol (s53); a
//     SymInt, SymBool or SymFloat user input is a rank-0 INT64, BOOL or
//     FLOAT tensor;
//   - sizes and Python scalar arithmetic are computed inside the graph on
//     rank-0 tensors: sym_size.int(x, d) is Squeeze(Shape(x, start=d,
//     end=d+1)), a view whose size mixes constants and SymInts is a Reshape
//     whose shape is a Concat of constants and unsqueezed scalars;
//   - parameters, buffers and constants are initializers named by their
//     state-dict names;
//   - torch.cond is ONNX If, its branches subgraphs that read the operands
//     from the enclosing graph.
//
// The ops it can translate are listed by Ops; a program with any other op
// is refused with an UntranslatableError that names every such node at
// once. The model types (Model, Graph, Node, ...) are the subset of
// onnx.proto seam writes, encoded with protowire, and decoded again for
// tests and tools.
package onnx
