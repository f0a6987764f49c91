package ir

import "fmt"

// ScalarType is the export schema's dtype enum. Its numbers are the schema's
// own, not c10's ScalarType numbering.
type ScalarType int

// The schema's scalar types (torch/_export/serde/schema.py).
const (
	Unknown        ScalarType = 0
	Uint8          ScalarType = 1
	Int8           ScalarType = 2
	Int16          ScalarType = 3
	Int32          ScalarType = 4
	Int64          ScalarType = 5
	Float16        ScalarType = 6
	Float32        ScalarType = 7
	Float64        ScalarType = 8
	Complex32      ScalarType = 9
	Complex64      ScalarType = 10
	Complex128     ScalarType = 11
	Bool           ScalarType = 12
	BFloat16       ScalarType = 13
	Uint16         ScalarType = 28
	Float8E4M3FN   ScalarType = 29
	Float8E5M2     ScalarType = 30
	Float8E4M3FNUZ ScalarType = 31
	Float8E5M2FNUZ ScalarType = 32
)

type dtypeInfo struct {
	short string // as print_readable() annotates: f32[...]
	torch string // torch.float32
	size  int    // bytes per element
}

// dtypes is indexed by the schema's number (a table, not a map: tensor
// metadata checks look a dtype up for every value of a program); the
// numbers it leaves out are not dtypes (their size is 0).
var dtypes = [...]dtypeInfo{
	Uint8:          {"u8", "torch.uint8", 1},
	Int8:           {"i8", "torch.int8", 1},
	Int16:          {"i16", "torch.int16", 2},
	Int32:          {"i32", "torch.int32", 4},
	Int64:          {"i64", "torch.int64", 8},
	Float16:        {"f16", "torch.float16", 2},
	Float32:        {"f32", "torch.float32", 4},
	Float64:        {"f64", "torch.float64", 8},
	Complex32:      {"c32", "torch.complex32", 4},
	Complex64:      {"c64", "torch.complex64", 8},
	Complex128:     {"c128", "torch.complex128", 16},
	Bool:           {"b8", "torch.bool", 1},
	BFloat16:       {"bf16", "torch.bfloat16", 2},
	Uint16:         {"u16", "torch.uint16", 2},
	Float8E4M3FN:   {"f8e4m3fn", "torch.float8_e4m3fn", 1},
	Float8E5M2:     {"f8e5m2", "torch.float8_e5m2", 1},
	Float8E4M3FNUZ: {"f8e4m3fnuz", "torch.float8_e4m3fnuz", 1},
	Float8E5M2FNUZ: {"f8e5m2fnuz", "torch.float8_e5m2fnuz", 1},
}

// info returns t's entry, and whether t is a dtype.
func (t ScalarType) info() (dtypeInfo, bool) {
	if t < 0 || int(t) >= len(dtypes) || dtypes[t].size == 0 {
		return dtypeInfo{}, false
	}
	return dtypes[t], true
}

// Valid reports whether t is a dtype a tensor can have.
func (t ScalarType) Valid() bool { _, ok := t.info(); return ok }

// Short is the abbreviation print_readable() uses in annotations ("f32").
func (t ScalarType) Short() string {
	if d, ok := t.info(); ok {
		return d.short
	}
	return fmt.Sprintf("dtype(%d)", int(t))
}

// Torch is the Python spelling ("torch.float32").
func (t ScalarType) Torch() string {
	if d, ok := t.info(); ok {
		return d.torch
	}
	return fmt.Sprintf("torch.dtype(%d)", int(t))
}

// Size is the element size in bytes (0 for an invalid dtype).
func (t ScalarType) Size() int { d, _ := t.info(); return d.size }

func (t ScalarType) String() string { return t.Short() }

// IsFloat reports floating-point dtypes (not complex).
func (t ScalarType) IsFloat() bool {
	switch t {
	case Float16, Float32, Float64, BFloat16, Float8E4M3FN, Float8E5M2, Float8E4M3FNUZ, Float8E5M2FNUZ:
		return true
	}
	return false
}

// ParseShortDType maps an annotation prefix ("f32", "b8") back to its dtype.
func ParseShortDType(s string) (ScalarType, bool) {
	for t, d := range dtypes {
		if d.size != 0 && d.short == s {
			return ScalarType(t), true
		}
	}
	return Unknown, false
}

// Layout is the schema's tensor layout enum.
type Layout int

// Layouts. Strided is the only one export produces for dense tensors.
const (
	LayoutUnknown Layout = 0
	SparseCoo     Layout = 1
	SparseCsr     Layout = 2
	SparseCsc     Layout = 3
	SparseBsr     Layout = 4
	SparseBsc     Layout = 5
	Mkldnn        Layout = 6
	Strided       Layout = 7
)

var layoutNames = map[Layout]string{
	SparseCoo: "torch.sparse_coo", SparseCsr: "torch.sparse_csr", SparseCsc: "torch.sparse_csc",
	SparseBsr: "torch.sparse_bsr", SparseBsc: "torch.sparse_bsc", Mkldnn: "torch._mkldnn", Strided: "torch.strided",
}

func (l Layout) String() string {
	if s, ok := layoutNames[l]; ok {
		return s
	}
	return fmt.Sprintf("torch.layout(%d)", int(l))
}

// MemoryFormat is the schema's memory format enum.
type MemoryFormat int

// Memory formats.
const (
	MemoryFormatUnknown MemoryFormat = 0
	ContiguousFormat    MemoryFormat = 1
	ChannelsLast        MemoryFormat = 2
	ChannelsLast3d      MemoryFormat = 3
	PreserveFormat      MemoryFormat = 4
)

var memoryFormatNames = map[MemoryFormat]string{
	ContiguousFormat: "torch.contiguous_format", ChannelsLast: "torch.channels_last",
	ChannelsLast3d: "torch.channels_last_3d", PreserveFormat: "torch.preserve_format",
}

func (m MemoryFormat) String() string {
	if s, ok := memoryFormatNames[m]; ok {
		return s
	}
	return fmt.Sprintf("torch.memory_format(%d)", int(m))
}

// Device is where a tensor lives. Index is nil when the device has none.
type Device struct {
	Type  string `json:"type"`
	Index *int64 `json:"index"`
}

// String prints as Python prints a torch.device: device(type='cpu').
func (d Device) String() string {
	if d.Index != nil {
		return fmt.Sprintf("device(type='%s', index=%d)", d.Type, *d.Index)
	}
	return fmt.Sprintf("device(type='%s')", d.Type)
}
