package onnx

import "fmt"

// The ONNX model as seam writes and reads it: the subset of onnx.proto
// (ONNX 1.22) that a translated program uses. Field numbers are the
// proto's; encode.go and decode.go map these types to the wire format.

// DataType is TensorProto.DataType.
type DataType int32

// The element types (TensorProto.DataType).
const (
	Undefined  DataType = 0
	Float      DataType = 1
	Uint8      DataType = 2
	Int8       DataType = 3
	Uint16     DataType = 4
	Int16      DataType = 5
	Int32      DataType = 6
	Int64      DataType = 7
	String     DataType = 8
	Bool       DataType = 9
	Float16    DataType = 10
	Double     DataType = 11
	Uint32     DataType = 12
	Uint64     DataType = 13
	Complex64  DataType = 14
	Complex128 DataType = 15
	BFloat16   DataType = 16
)

var dataTypeNames = map[DataType]string{
	Float: "FLOAT", Uint8: "UINT8", Int8: "INT8", Uint16: "UINT16", Int16: "INT16", Int32: "INT32",
	Int64: "INT64", String: "STRING", Bool: "BOOL", Float16: "FLOAT16", Double: "DOUBLE",
	Uint32: "UINT32", Uint64: "UINT64", Complex64: "COMPLEX64", Complex128: "COMPLEX128", BFloat16: "BFLOAT16",
}

func (t DataType) String() string {
	if s, ok := dataTypeNames[t]; ok {
		return s
	}
	return fmt.Sprintf("DataType(%d)", int32(t))
}

// Model is ModelProto.
type Model struct {
	IRVersion       int64
	OpsetImports    []OpsetID
	ProducerName    string
	ProducerVersion string
	Domain          string
	ModelVersion    int64
	DocString       string
	Graph           *Graph
	Metadata        []StringPair
}

// OpsetID is OperatorSetIdProto.
type OpsetID struct {
	Domain  string
	Version int64
}

// StringPair is StringStringEntryProto (metadata_props).
type StringPair struct{ Key, Value string }

// Graph is GraphProto. A subgraph (an If branch) has no inputs and refers
// to values of the enclosing graphs by name.
type Graph struct {
	Name         string
	Nodes        []*Node
	Initializers []*Tensor
	DocString    string
	Inputs       []*ValueInfo
	Outputs      []*ValueInfo
	ValueInfo    []*ValueInfo
	Metadata     []StringPair
}

// Node is NodeProto. An empty input name is an omitted optional input.
type Node struct {
	Inputs    []string
	Outputs   []string
	Name      string
	OpType    string
	Domain    string
	Attrs     []*Attribute
	DocString string
	Metadata  []StringPair
}

// AttrType is AttributeProto.AttributeType.
type AttrType int32

// Attribute types.
const (
	AttrUndefined AttrType = 0
	AttrFloat     AttrType = 1
	AttrInt       AttrType = 2
	AttrString    AttrType = 3
	AttrTensor    AttrType = 4
	AttrGraph     AttrType = 5
	AttrFloats    AttrType = 6
	AttrInts      AttrType = 7
	AttrStrings   AttrType = 8
	AttrTensors   AttrType = 9
	AttrGraphs    AttrType = 10
)

// Attribute is AttributeProto; Type says which value field is in use.
type Attribute struct {
	Name    string
	Type    AttrType
	F       float32
	I       int64
	S       []byte
	T       *Tensor
	G       *Graph
	Floats  []float32
	Ints    []int64
	Strings [][]byte
	Tensors []*Tensor
	Graphs  []*Graph
}

// Tensor is TensorProto. seam writes every tensor's data as RawData
// (little-endian, one byte per bool); the typed fields are filled only when
// a file that uses them is read.
type Tensor struct {
	Dims       []int64
	DataType   DataType
	Name       string
	RawData    []byte
	FloatData  []float32
	Int32Data  []int32
	Int64Data  []int64
	DoubleData []float64
	Uint64Data []uint64
	DocString  string
}

// ValueInfo is ValueInfoProto: a graph input, output or value_info entry.
type ValueInfo struct {
	Name      string
	Type      *TensorType
	DocString string
	Metadata  []StringPair
}

// TensorType is TypeProto.Tensor: seam's graphs carry tensors only.
type TensorType struct {
	ElemType DataType
	// Shape is nil for an unknown rank, empty for a scalar.
	Shape []Dim
	// HasShape tells a scalar (rank 0, shape present) from unknown rank.
	HasShape bool
}

// Dim is TensorShapeProto.Dimension: a size, a symbol (dim_param), or
// neither (unknown).
type Dim struct {
	Value    int64
	Param    string
	HasValue bool
}

// Known is a static dimension.
func Known(v int64) Dim { return Dim{Value: v, HasValue: true} }

// Symbolic is a dimension named by a symbol.
func Symbolic(name string) Dim { return Dim{Param: name} }

func (d Dim) String() string {
	switch {
	case d.HasValue:
		return fmt.Sprint(d.Value)
	case d.Param != "":
		return d.Param
	}
	return "?"
}
