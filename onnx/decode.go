package onnx

import (
	"errors"
	"fmt"
	"math"

	"google.golang.org/protobuf/encoding/protowire"
)

// maxGraphDepth bounds subgraph nesting (If branches inside If branches)
// so that a hostile file cannot exhaust the stack.
const maxGraphDepth = 64

// Unmarshal decodes an ONNX file (ModelProto). Fields seam does not model
// are skipped; malformed input is an error naming the message and field,
// never a panic. Every length is checked against the bytes at hand before
// anything is allocated for it.
func Unmarshal(data []byte) (*Model, error) {
	m := &Model{}
	err := fields(data, "ModelProto", func(num protowire.Number, typ protowire.Type, v fieldValue) error {
		switch num {
		case 1:
			return v.int(typ, &m.IRVersion)
		case 2:
			return v.str(typ, &m.ProducerName)
		case 3:
			return v.str(typ, &m.ProducerVersion)
		case 4:
			return v.str(typ, &m.Domain)
		case 5:
			return v.int(typ, &m.ModelVersion)
		case 6:
			return v.str(typ, &m.DocString)
		case 7:
			b, err := v.bytes(typ)
			if err != nil {
				return err
			}
			m.Graph, err = decodeGraph(b, 0)
			return err
		case 8:
			b, err := v.bytes(typ)
			if err != nil {
				return err
			}
			var o OpsetID
			err = fields(b, "OperatorSetIdProto", func(num protowire.Number, typ protowire.Type, v fieldValue) error {
				switch num {
				case 1:
					return v.str(typ, &o.Domain)
				case 2:
					return v.int(typ, &o.Version)
				}
				return nil
			})
			m.OpsetImports = append(m.OpsetImports, o)
			return err
		case 14:
			return v.pair(typ, &m.Metadata)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

func decodeGraph(data []byte, depth int) (*Graph, error) {
	if depth > maxGraphDepth {
		return nil, fmt.Errorf("GraphProto: subgraphs nested deeper than %d", maxGraphDepth)
	}
	g := &Graph{}
	err := fields(data, "GraphProto", func(num protowire.Number, typ protowire.Type, v fieldValue) error {
		switch num {
		case 1:
			b, err := v.bytes(typ)
			if err != nil {
				return err
			}
			n, err := decodeNode(b, depth)
			g.Nodes = append(g.Nodes, n)
			return err
		case 2:
			return v.str(typ, &g.Name)
		case 5:
			b, err := v.bytes(typ)
			if err != nil {
				return err
			}
			t, err := decodeTensor(b)
			g.Initializers = append(g.Initializers, t)
			return err
		case 10:
			return v.str(typ, &g.DocString)
		case 11, 12, 13:
			b, err := v.bytes(typ)
			if err != nil {
				return err
			}
			vi, err := decodeValueInfo(b)
			switch num {
			case 11:
				g.Inputs = append(g.Inputs, vi)
			case 12:
				g.Outputs = append(g.Outputs, vi)
			default:
				g.ValueInfo = append(g.ValueInfo, vi)
			}
			return err
		case 16:
			return v.pair(typ, &g.Metadata)
		}
		return nil
	})
	return g, err
}

func decodeNode(data []byte, depth int) (*Node, error) {
	n := &Node{}
	err := fields(data, "NodeProto", func(num protowire.Number, typ protowire.Type, v fieldValue) error {
		switch num {
		case 1, 2:
			var s string
			if err := v.str(typ, &s); err != nil {
				return err
			}
			if num == 1 {
				n.Inputs = append(n.Inputs, s)
			} else {
				n.Outputs = append(n.Outputs, s)
			}
		case 3:
			return v.str(typ, &n.Name)
		case 4:
			return v.str(typ, &n.OpType)
		case 5:
			b, err := v.bytes(typ)
			if err != nil {
				return err
			}
			a, err := decodeAttribute(b, depth)
			n.Attrs = append(n.Attrs, a)
			return err
		case 6:
			return v.str(typ, &n.DocString)
		case 7:
			return v.str(typ, &n.Domain)
		case 9:
			return v.pair(typ, &n.Metadata)
		}
		return nil
	})
	return n, err
}

func decodeAttribute(data []byte, depth int) (*Attribute, error) {
	a := &Attribute{}
	err := fields(data, "AttributeProto", func(num protowire.Number, typ protowire.Type, v fieldValue) error {
		switch num {
		case 1:
			return v.str(typ, &a.Name)
		case 2:
			return v.float32(typ, &a.F)
		case 3:
			return v.int(typ, &a.I)
		case 4:
			b, err := v.bytes(typ)
			a.S = append([]byte(nil), b...)
			return err
		case 5:
			b, err := v.bytes(typ)
			if err != nil {
				return err
			}
			a.T, err = decodeTensor(b)
			return err
		case 6:
			b, err := v.bytes(typ)
			if err != nil {
				return err
			}
			a.G, err = decodeGraph(b, depth+1)
			return err
		case 7:
			return v.float32s(typ, &a.Floats)
		case 8:
			return v.ints(typ, &a.Ints)
		case 9:
			b, err := v.bytes(typ)
			a.Strings = append(a.Strings, append([]byte(nil), b...))
			return err
		case 10:
			b, err := v.bytes(typ)
			if err != nil {
				return err
			}
			t, err := decodeTensor(b)
			a.Tensors = append(a.Tensors, t)
			return err
		case 11:
			b, err := v.bytes(typ)
			if err != nil {
				return err
			}
			g, err := decodeGraph(b, depth+1)
			a.Graphs = append(a.Graphs, g)
			return err
		case 20:
			var t int64
			err := v.int(typ, &t)
			a.Type = AttrType(t)
			return err
		}
		return nil
	})
	return a, err
}

func decodeTensor(data []byte) (*Tensor, error) {
	t := &Tensor{}
	err := fields(data, "TensorProto", func(num protowire.Number, typ protowire.Type, v fieldValue) error {
		switch num {
		case 1:
			return v.ints(typ, &t.Dims)
		case 2:
			var d int64
			err := v.int(typ, &d)
			t.DataType = DataType(d)
			return err
		case 4:
			return v.float32s(typ, &t.FloatData)
		case 5:
			var xs []int64
			if err := v.ints(typ, &xs); err != nil {
				return err
			}
			for _, x := range xs {
				t.Int32Data = append(t.Int32Data, int32(x))
			}
		case 7:
			return v.ints(typ, &t.Int64Data)
		case 8:
			return v.str(typ, &t.Name)
		case 9:
			b, err := v.bytes(typ)
			t.RawData = append([]byte{}, b...)
			return err
		case 10:
			return v.float64s(typ, &t.DoubleData)
		case 11:
			var xs []int64
			if err := v.ints(typ, &xs); err != nil {
				return err
			}
			for _, x := range xs {
				t.Uint64Data = append(t.Uint64Data, uint64(x))
			}
		case 12:
			return v.str(typ, &t.DocString)
		}
		return nil
	})
	return t, err
}

func decodeValueInfo(data []byte) (*ValueInfo, error) {
	vi := &ValueInfo{}
	err := fields(data, "ValueInfoProto", func(num protowire.Number, typ protowire.Type, v fieldValue) error {
		switch num {
		case 1:
			return v.str(typ, &vi.Name)
		case 2:
			b, err := v.bytes(typ)
			if err != nil {
				return err
			}
			return fields(b, "TypeProto", func(num protowire.Number, typ protowire.Type, v fieldValue) error {
				if num != 1 { // sequence, map, optional: not seam's
					return nil
				}
				b, err := v.bytes(typ)
				if err != nil {
					return err
				}
				vi.Type = &TensorType{}
				return decodeTensorType(b, vi.Type)
			})
		case 3:
			return v.str(typ, &vi.DocString)
		case 4:
			return v.pair(typ, &vi.Metadata)
		}
		return nil
	})
	return vi, err
}

func decodeTensorType(data []byte, tt *TensorType) error {
	return fields(data, "TypeProto.Tensor", func(num protowire.Number, typ protowire.Type, v fieldValue) error {
		switch num {
		case 1:
			var e int64
			err := v.int(typ, &e)
			tt.ElemType = DataType(e)
			return err
		case 2:
			b, err := v.bytes(typ)
			if err != nil {
				return err
			}
			tt.HasShape = true
			tt.Shape = []Dim{}
			return fields(b, "TensorShapeProto", func(num protowire.Number, typ protowire.Type, v fieldValue) error {
				if num != 1 {
					return nil
				}
				b, err := v.bytes(typ)
				if err != nil {
					return err
				}
				var d Dim
				err = fields(b, "TensorShapeProto.Dimension", func(num protowire.Number, typ protowire.Type, v fieldValue) error {
					switch num {
					case 1:
						d.HasValue, d.Param = true, ""
						return v.int(typ, &d.Value)
					case 2:
						d.HasValue, d.Value = false, 0
						return v.str(typ, &d.Param)
					}
					return nil
				})
				tt.Shape = append(tt.Shape, d)
				return err
			})
		}
		return nil
	})
}

// fieldValue is the undecoded value of one field: its varint, fixed bits,
// or length-delimited bytes.
type fieldValue struct {
	msg string
	num protowire.Number
	u   uint64
	b   []byte
}

func (v fieldValue) err(format string, a ...any) error {
	return fmt.Errorf("%s field %d: %s", v.msg, v.num, fmt.Sprintf(format, a...))
}

func (v fieldValue) int(typ protowire.Type, out *int64) error {
	if typ != protowire.VarintType {
		return v.err("want a varint, got wire type %d", typ)
	}
	*out = int64(v.u)
	return nil
}

func (v fieldValue) float32(typ protowire.Type, out *float32) error {
	if typ != protowire.Fixed32Type {
		return v.err("want a 32-bit float, got wire type %d", typ)
	}
	*out = math.Float32frombits(uint32(v.u))
	return nil
}

func (v fieldValue) bytes(typ protowire.Type) ([]byte, error) {
	if typ != protowire.BytesType {
		return nil, v.err("want length-delimited bytes, got wire type %d", typ)
	}
	return v.b, nil
}

func (v fieldValue) str(typ protowire.Type, out *string) error {
	b, err := v.bytes(typ)
	*out = string(b)
	return err
}

func (v fieldValue) pair(typ protowire.Type, out *[]StringPair) error {
	b, err := v.bytes(typ)
	if err != nil {
		return err
	}
	var p StringPair
	err = fields(b, "StringStringEntryProto", func(num protowire.Number, typ protowire.Type, v fieldValue) error {
		switch num {
		case 1:
			return v.str(typ, &p.Key)
		case 2:
			return v.str(typ, &p.Value)
		}
		return nil
	})
	*out = append(*out, p)
	return err
}

// ints reads a repeated varint field, packed or not.
func (v fieldValue) ints(typ protowire.Type, out *[]int64) error {
	switch typ {
	case protowire.VarintType:
		*out = append(*out, int64(v.u))
		return nil
	case protowire.BytesType:
		for b := v.b; len(b) > 0; {
			x, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return v.err("packed varints: %v", protowire.ParseError(n))
			}
			*out = append(*out, int64(x))
			b = b[n:]
		}
		return nil
	}
	return v.err("want varints, got wire type %d", typ)
}

func (v fieldValue) float32s(typ protowire.Type, out *[]float32) error {
	switch typ {
	case protowire.Fixed32Type:
		*out = append(*out, math.Float32frombits(uint32(v.u)))
		return nil
	case protowire.BytesType:
		if len(v.b)%4 != 0 {
			return v.err("packed floats: %d bytes is not a multiple of 4", len(v.b))
		}
		for b := v.b; len(b) > 0; b = b[4:] {
			x, _ := protowire.ConsumeFixed32(b)
			*out = append(*out, math.Float32frombits(x))
		}
		return nil
	}
	return v.err("want 32-bit floats, got wire type %d", typ)
}

func (v fieldValue) float64s(typ protowire.Type, out *[]float64) error {
	switch typ {
	case protowire.Fixed64Type:
		*out = append(*out, math.Float64frombits(v.u))
		return nil
	case protowire.BytesType:
		if len(v.b)%8 != 0 {
			return v.err("packed doubles: %d bytes is not a multiple of 8", len(v.b))
		}
		for b := v.b; len(b) > 0; b = b[8:] {
			x, _ := protowire.ConsumeFixed64(b)
			*out = append(*out, math.Float64frombits(x))
		}
		return nil
	}
	return v.err("want doubles, got wire type %d", typ)
}

var errGroup = errors.New("groups are not used by onnx.proto")

// fields walks the fields of one message, calling fn with each value.
func fields(data []byte, msg string, fn func(protowire.Number, protowire.Type, fieldValue) error) error {
	for len(data) > 0 {
		num, typ, n := protowire.ConsumeTag(data)
		if n < 0 {
			return fmt.Errorf("%s: bad tag: %v", msg, protowire.ParseError(n))
		}
		data = data[n:]
		v := fieldValue{msg: msg, num: num}
		switch typ {
		case protowire.VarintType:
			v.u, n = protowire.ConsumeVarint(data)
		case protowire.Fixed32Type:
			var x uint32
			x, n = protowire.ConsumeFixed32(data)
			v.u = uint64(x)
		case protowire.Fixed64Type:
			v.u, n = protowire.ConsumeFixed64(data)
		case protowire.BytesType:
			v.b, n = protowire.ConsumeBytes(data)
		case protowire.StartGroupType, protowire.EndGroupType:
			return fmt.Errorf("%s field %d: %w", msg, num, errGroup)
		default:
			return fmt.Errorf("%s field %d: unknown wire type %d", msg, num, typ)
		}
		if n < 0 {
			return fmt.Errorf("%s field %d: %v", msg, num, protowire.ParseError(n))
		}
		data = data[n:]
		if err := fn(num, typ, v); err != nil {
			return err
		}
	}
	return nil
}

// GraphIO decodes only the main graph's inputs and outputs of an ONNX
// file: what a runner needs to feed a model, without copying its weights.
func GraphIO(data []byte) (inputs, outputs []*ValueInfo, err error) {
	var graph []byte
	err = fields(data, "ModelProto", func(num protowire.Number, typ protowire.Type, v fieldValue) error {
		if num == 7 {
			b, err := v.bytes(typ)
			graph = b
			return err
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	if graph == nil {
		return nil, nil, errors.New("ModelProto: no graph")
	}
	err = fields(graph, "GraphProto", func(num protowire.Number, typ protowire.Type, v fieldValue) error {
		if num != 11 && num != 12 {
			return nil
		}
		b, err := v.bytes(typ)
		if err != nil {
			return err
		}
		vi, err := decodeValueInfo(b)
		if num == 11 {
			inputs = append(inputs, vi)
		} else {
			outputs = append(outputs, vi)
		}
		return err
	})
	return inputs, outputs, err
}
