package ort_test

import (
	"encoding/binary"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/seam-rt/seam/onnx"
	"github.com/seam-rt/seam/onnx/ort"
	"github.com/seam-rt/seam/onnx/ort/orttest"
)

// addModel is y = a + b over float tensors of shape [n] (n a dim_param),
// and s = rank-0 int64 x * 2: a dynamic dim and a scalar, the two shapes
// seam's translations rely on.
func addModel() []byte {
	f := func(name string, dims ...onnx.Dim) *onnx.ValueInfo {
		return &onnx.ValueInfo{Name: name, Type: &onnx.TensorType{ElemType: onnx.Float, Shape: dims, HasShape: true}}
	}
	i := func(name string) *onnx.ValueInfo {
		return &onnx.ValueInfo{Name: name, Type: &onnx.TensorType{ElemType: onnx.Int64, Shape: []onnx.Dim{}, HasShape: true}}
	}
	two := &onnx.Tensor{Name: "two", DataType: onnx.Int64, RawData: binary.LittleEndian.AppendUint64(nil, 2)}
	m := &onnx.Model{
		IRVersion:    10,
		OpsetImports: []onnx.OpsetID{{Version: 18}},
		ProducerName: "seam-test",
		Graph: &onnx.Graph{
			Name: "add",
			Nodes: []*onnx.Node{
				{OpType: "Add", Inputs: []string{"a", "b"}, Outputs: []string{"y"}, Name: "add"},
				{OpType: "Mul", Inputs: []string{"x", "two"}, Outputs: []string{"s"}, Name: "mul"},
			},
			Initializers: []*onnx.Tensor{two},
			Inputs:       []*onnx.ValueInfo{f("a", onnx.Symbolic("n")), f("b", onnx.Symbolic("n")), i("x")},
			Outputs:      []*onnx.ValueInfo{f("y", onnx.Symbolic("n")), i("s")},
		},
	}
	return m.Marshal()
}

func floats(xs ...float32) []byte {
	var b []byte
	for _, x := range xs {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return b
}

func alloc(_ int, typ ort.ElementType, shape []int64) ([]byte, error) {
	n := 1
	for _, d := range shape {
		n *= int(d)
	}
	return make([]byte, n*typ.ElemSize()), nil
}

func TestRunAdd(t *testing.T) {
	lib := orttest.Library(t)
	s, err := lib.NewSession(addModel(), []string{"a", "b", "x"}, []string{"y", "s"}, ort.SessionOptions{IntraOpThreads: 1, InterOpThreads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			in := []ort.Tensor{
				{Type: 1, Shape: []int64{3}, Data: floats(1, 2, float32(g))},
				{Type: 1, Shape: []int64{3}, Data: floats(10, 20, 30)},
				{Type: 7, Shape: nil, Data: binary.LittleEndian.AppendUint64(nil, uint64(21+g))},
			}
			out, err := s.Run(in, alloc)
			if err != nil {
				t.Error(err)
				return
			}
			if got, want := out[0].Data, floats(11, 22, 30+float32(g)); string(got) != string(want) {
				t.Errorf("y = %v, want %v", got, want)
			}
			if got := int64(binary.LittleEndian.Uint64(out[1].Data)); got != int64(2*(21+g)) || len(out[1].Shape) != 0 {
				t.Errorf("s = %d (shape %v), want %d as a scalar", got, out[1].Shape, 2*(21+g))
			}
		}(g)
	}
	wg.Wait()
}

func TestRunErrors(t *testing.T) {
	lib := orttest.Library(t)
	if _, err := lib.NewSession([]byte("not onnx"), nil, nil, ort.SessionOptions{}); err == nil {
		t.Error("a garbage model loaded")
	}
	s, err := lib.NewSession(addModel(), []string{"a", "b", "x"}, []string{"y", "s"}, ort.SessionOptions{IntraOpThreads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, err = s.Run([]ort.Tensor{
		{Type: 1, Shape: []int64{3}, Data: floats(1, 2, 3)},
		{Type: 1, Shape: []int64{2}, Data: floats(1, 2)},
		{Type: 7, Data: make([]byte, 8)},
	}, alloc)
	if err == nil || !strings.Contains(err.Error(), "onnxruntime") {
		t.Errorf("mismatched shapes: %v", err)
	}
	if _, err := s.Run([]ort.Tensor{{Type: 1, Shape: []int64{2}, Data: floats(1)}}, alloc); err == nil {
		t.Error("wrong input count accepted")
	}
}

func TestLoadRefusesOtherLibraries(t *testing.T) {
	if _, err := ort.Load("libc.so.6"); err == nil || !strings.Contains(err.Error(), "OrtGetApiBase") {
		t.Errorf("libc loaded as ONNX Runtime: %v", err)
	}
	if _, err := ort.Load("/nonexistent/libonnxruntime.so"); err == nil {
		t.Error("a missing file loaded")
	}
}
