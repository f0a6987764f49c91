package onnx

import (
	"math"

	"google.golang.org/protobuf/encoding/protowire"
)

// Marshal encodes the model as an ONNX file (ModelProto). Fields are
// written in field-number order, each once, so equal models give equal bytes.
func (m *Model) Marshal() []byte {
	var b []byte
	b = appendInt(b, 1, m.IRVersion)
	b = appendString(b, 2, m.ProducerName)
	b = appendString(b, 3, m.ProducerVersion)
	b = appendString(b, 4, m.Domain)
	b = appendInt(b, 5, m.ModelVersion)
	b = appendString(b, 6, m.DocString)
	if m.Graph != nil {
		b = appendMessage(b, 7, m.Graph.marshal())
	}
	for _, o := range m.OpsetImports {
		var ob []byte
		ob = appendString(ob, 1, o.Domain)
		ob = protowire.AppendTag(ob, 2, protowire.VarintType)
		ob = protowire.AppendVarint(ob, uint64(o.Version))
		b = appendMessage(b, 8, ob)
	}
	b = appendPairs(b, 14, m.Metadata)
	return b
}

func (g *Graph) marshal() []byte {
	var b []byte
	for _, n := range g.Nodes {
		b = appendMessage(b, 1, n.marshal())
	}
	b = appendString(b, 2, g.Name)
	for _, t := range g.Initializers {
		b = appendMessage(b, 5, t.marshal())
	}
	b = appendString(b, 10, g.DocString)
	for _, v := range g.Inputs {
		b = appendMessage(b, 11, v.marshal())
	}
	for _, v := range g.Outputs {
		b = appendMessage(b, 12, v.marshal())
	}
	for _, v := range g.ValueInfo {
		b = appendMessage(b, 13, v.marshal())
	}
	b = appendPairs(b, 16, g.Metadata)
	return b
}

func (n *Node) marshal() []byte {
	var b []byte
	for _, s := range n.Inputs {
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendString(b, s)
	}
	for _, s := range n.Outputs {
		b = protowire.AppendTag(b, 2, protowire.BytesType)
		b = protowire.AppendString(b, s)
	}
	b = appendString(b, 3, n.Name)
	b = appendString(b, 4, n.OpType)
	for _, a := range n.Attrs {
		b = appendMessage(b, 5, a.marshal())
	}
	b = appendString(b, 6, n.DocString)
	b = appendString(b, 7, n.Domain)
	b = appendPairs(b, 9, n.Metadata)
	return b
}

func (a *Attribute) marshal() []byte {
	var b []byte
	b = appendString(b, 1, a.Name)
	switch a.Type {
	case AttrFloat:
		b = protowire.AppendTag(b, 2, protowire.Fixed32Type)
		b = protowire.AppendFixed32(b, math.Float32bits(a.F))
	case AttrInt:
		b = protowire.AppendTag(b, 3, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(a.I))
	case AttrString:
		b = protowire.AppendTag(b, 4, protowire.BytesType)
		b = protowire.AppendBytes(b, a.S)
	case AttrTensor:
		if a.T != nil {
			b = appendMessage(b, 5, a.T.marshal())
		}
	case AttrGraph:
		if a.G != nil {
			b = appendMessage(b, 6, a.G.marshal())
		}
	case AttrFloats:
		for _, f := range a.Floats {
			b = protowire.AppendTag(b, 7, protowire.Fixed32Type)
			b = protowire.AppendFixed32(b, math.Float32bits(f))
		}
	case AttrInts:
		for _, v := range a.Ints {
			b = protowire.AppendTag(b, 8, protowire.VarintType)
			b = protowire.AppendVarint(b, uint64(v))
		}
	case AttrStrings:
		for _, s := range a.Strings {
			b = protowire.AppendTag(b, 9, protowire.BytesType)
			b = protowire.AppendBytes(b, s)
		}
	case AttrTensors:
		for _, t := range a.Tensors {
			b = appendMessage(b, 10, t.marshal())
		}
	case AttrGraphs:
		for _, g := range a.Graphs {
			b = appendMessage(b, 11, g.marshal())
		}
	}
	b = protowire.AppendTag(b, 20, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(a.Type))
	return b
}

func (t *Tensor) marshal() []byte {
	var b []byte
	for _, d := range t.Dims {
		b = protowire.AppendTag(b, 1, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(d))
	}
	b = protowire.AppendTag(b, 2, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(t.DataType))
	if len(t.FloatData) > 0 {
		var p []byte
		for _, f := range t.FloatData {
			p = protowire.AppendFixed32(p, math.Float32bits(f))
		}
		b = appendMessage(b, 4, p)
	}
	if len(t.Int32Data) > 0 {
		var p []byte
		for _, v := range t.Int32Data {
			p = protowire.AppendVarint(p, uint64(int64(v)))
		}
		b = appendMessage(b, 5, p)
	}
	if len(t.Int64Data) > 0 {
		var p []byte
		for _, v := range t.Int64Data {
			p = protowire.AppendVarint(p, uint64(v))
		}
		b = appendMessage(b, 7, p)
	}
	b = appendString(b, 8, t.Name)
	if t.RawData != nil {
		b = protowire.AppendTag(b, 9, protowire.BytesType)
		b = protowire.AppendBytes(b, t.RawData)
	}
	if len(t.DoubleData) > 0 {
		var p []byte
		for _, f := range t.DoubleData {
			p = protowire.AppendFixed64(p, math.Float64bits(f))
		}
		b = appendMessage(b, 10, p)
	}
	if len(t.Uint64Data) > 0 {
		var p []byte
		for _, v := range t.Uint64Data {
			p = protowire.AppendVarint(p, v)
		}
		b = appendMessage(b, 11, p)
	}
	b = appendString(b, 12, t.DocString)
	return b
}

func (v *ValueInfo) marshal() []byte {
	var b []byte
	b = appendString(b, 1, v.Name)
	if v.Type != nil {
		var tt []byte // TypeProto.Tensor
		tt = protowire.AppendTag(tt, 1, protowire.VarintType)
		tt = protowire.AppendVarint(tt, uint64(v.Type.ElemType))
		if v.Type.HasShape || len(v.Type.Shape) > 0 {
			var sh []byte
			for _, d := range v.Type.Shape {
				var db []byte
				switch {
				case d.HasValue:
					db = protowire.AppendTag(db, 1, protowire.VarintType)
					db = protowire.AppendVarint(db, uint64(d.Value))
				case d.Param != "":
					db = appendString(db, 2, d.Param)
				}
				sh = appendMessage(sh, 1, db)
			}
			tt = appendMessage(tt, 2, sh)
		}
		b = appendMessage(b, 2, appendMessage(nil, 1, tt))
	}
	b = appendString(b, 3, v.DocString)
	b = appendPairs(b, 4, v.Metadata)
	return b
}

func appendString(b []byte, num protowire.Number, s string) []byte {
	if s == "" {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendString(b, s)
}

func appendInt(b []byte, num protowire.Number, v int64) []byte {
	if v == 0 {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.VarintType)
	return protowire.AppendVarint(b, uint64(v))
}

func appendMessage(b []byte, num protowire.Number, msg []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, msg)
}

func appendPairs(b []byte, num protowire.Number, ps []StringPair) []byte {
	for _, p := range ps {
		var pb []byte
		pb = appendString(pb, 1, p.Key)
		pb = appendString(pb, 2, p.Value)
		b = appendMessage(b, num, pb)
	}
	return b
}
