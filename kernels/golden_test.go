package kernels_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/seam-rt/seam/kernels"
	"github.com/seam-rt/seam/ops"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// golden.json holds kernel cases computed by PyTorch (testdata/gen_golden.py):
// arguments, keyword arguments, and the outputs or the fact of an error.
type goldenArg struct {
	T *struct {
		DType   string
		Shape   []int
		Strides []int
		Data    []any
	}
	None    bool
	B       *bool
	I       *int64
	F       any
	S       *string
	DType   *string
	Ints    []int64
	Floats  []float64
	Bools   []bool
	Tensors []goldenArg
}

type goldenCase struct {
	Target string
	Args   []goldenArg
	Kwargs map[string]goldenArg
	Out    []goldenArg
	Error  string
	Check  int
}

func parseNum(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case bool:
		if x {
			return 1
		}
		return 0
	case string:
		switch x {
		case "nan":
			return math.NaN()
		case "inf":
			return math.Inf(1)
		case "-inf":
			return math.Inf(-1)
		}
	}
	return math.NaN()
}

func (g goldenArg) tensor(t testing.TB) *tensor.Tensor {
	dt, err := tensor.ParseDType(g.T.DType)
	if err != nil {
		t.Fatal(err)
	}
	// Rebuild PyTorch's strides (permuted, expanded) over a flat storage.
	need := 1
	for d, s := range g.T.Shape {
		if s == 0 {
			need = 0
			break
		}
		need += (s - 1) * g.T.Strides[d]
	}
	flat, err := tensor.New(dt, max(need, 1))
	if err != nil {
		t.Fatal(err)
	}
	x, err := new(tensor.Tensor).AsStrided(flat, g.T.Shape, g.T.Strides, 0)
	if err != nil {
		t.Fatal(err)
	}
	idx := make([]int, len(g.T.Shape))
	for _, v := range g.T.Data {
		f := parseNum(v)
		if dt == tensor.Int64 {
			s, _ := tensor.FromSlice([]int64{int64(v.(float64))})
			one, _ := new(tensor.Tensor).AsStrided(x, nil, nil, offsetOfIdx(x, idx))
			_ = tensor.Copy(one, s)
		} else {
			x.SetFloat(f, idx...)
		}
		for d := len(idx) - 1; d >= 0; d-- {
			idx[d]++
			if idx[d] < g.T.Shape[d] {
				break
			}
			idx[d] = 0
		}
	}
	return x
}

func offsetOfIdx(x *tensor.Tensor, idx []int) int {
	off := x.Offset()
	for d, i := range idx {
		off += i * x.Strides()[d]
	}
	return off
}

func (g goldenArg) value(t testing.TB) value.Value {
	switch {
	case g.T != nil:
		return value.FromTensor(g.tensor(t))
	case g.None:
		return value.NoneValue()
	case g.B != nil:
		return value.FromBool(*g.B)
	case g.I != nil:
		return value.FromInt(*g.I)
	case g.F != nil:
		return value.FromDouble(parseNum(g.F))
	case g.S != nil:
		return value.FromString(*g.S)
	case g.DType != nil:
		dt, _ := tensor.ParseDType(*g.DType)
		return value.FromScalarType(dt)
	case g.Ints != nil:
		return value.FromInts(g.Ints)
	case g.Floats != nil:
		return value.FromDoubles(g.Floats)
	case g.Bools != nil:
		return value.FromBools(g.Bools)
	case g.Tensors != nil:
		ts := make([]*tensor.Tensor, len(g.Tensors))
		opt := false
		for i, x := range g.Tensors {
			if x.None {
				opt = true
				continue
			}
			ts[i] = x.tensor(t)
		}
		if opt {
			return value.FromOptTensors(ts)
		}
		return value.FromTensors(ts)
	}
	return value.FromInts([]int64{}) // an empty list
}

func loadGolden(t *testing.T) []goldenCase {
	raw, err := os.ReadFile("testdata/golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []goldenCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

func tolerance(dt tensor.DType) (float64, float64) {
	switch dt {
	case tensor.Float16, tensor.BFloat16:
		return 1e-3, 1e-3
	case tensor.Float64:
		return 1e-12, 1e-12
	}
	return 2e-6, 1e-6
}

func runGolden(t *testing.T, c goldenCase) ([]value.Value, error) {
	s, ok := ops.Lookup(c.Target)
	if !ok {
		return nil, fmt.Errorf("no schema")
	}
	var named []ops.NamedArg
	for _, a := range c.Args {
		named = append(named, ops.NamedArg{Value: a.value(t)})
	}
	for k, a := range c.Kwargs {
		named = append(named, ops.NamedArg{Name: k, Value: a.value(t)})
	}
	args, err := s.Bind(nil, named)
	if err != nil {
		return nil, fmt.Errorf("bind: %w", err)
	}
	k, ok := kernels.Lookup(c.Target)
	if !ok {
		return nil, fmt.Errorf("no kernel")
	}
	out := make([]value.Value, len(s.Returns))
	return out, k(kernels.NewContext(), args, out)
}

func TestGoldenCases(t *testing.T) {
	cases := loadGolden(t)
	if len(cases) < 250 {
		t.Fatalf("only %d golden cases", len(cases))
	}
	for i, c := range cases {
		name := fmt.Sprintf("%d_%s", i, c.Target)
		out, err := runGolden(t, c)
		if c.Error != "" {
			if err == nil {
				t.Errorf("%s: PyTorch fails (%s) but the kernel succeeded", name, c.Error)
			} else if strings.Contains(err.Error(), "internal error") || strings.HasPrefix(err.Error(), "bind") {
				t.Errorf("%s: want a validation error, got %v", name, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		n := len(c.Out)
		if c.Check > 0 {
			n = c.Check
		}
		for j := 0; j < n; j++ {
			want := c.Out[j]
			if want.Tensors != nil {
				got := out[j].Tensors()
				if len(got) != len(want.Tensors) {
					t.Errorf("%s: %d tensors, want %d", name, len(got), len(want.Tensors))
					continue
				}
				for k, w := range want.Tensors {
					compareTensor(t, fmt.Sprintf("%s out %d[%d]", name, j, k), got[k], w.tensor(t))
				}
				continue
			}
			compareTensor(t, fmt.Sprintf("%s out %d", name, j), out[j].Tensor(), want.tensor(t))
		}
	}
}

func compareTensor(t *testing.T, name string, got, want *tensor.Tensor) {
	t.Helper()
	if got == nil {
		t.Errorf("%s: no tensor", name)
		return
	}
	rtol, atol := tolerance(want.DType())
	if _, err := tensor.AllClose(got, want, rtol, atol); err != nil {
		t.Errorf("%s: %v\n got  %v\n want %v", name, err, got, want)
	}
}
