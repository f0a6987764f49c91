package kernels_test

import (
	"math/rand"
	"testing"

	"github.com/seam-rt/seam/kernels"
	"github.com/seam-rt/seam/ops"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// Arithmetic between [N, C, H, W] planes and one value per plane (a
// squeeze-excite gate) runs as one loop over all planes; each element
// must be the IEEE operation a scalar loop does, in either operand order,
// with a gate that is contiguous, strided (a transposed view) or
// broadcast over the batch (which takes the row loops), and with alpha.
func TestGateArithmetic(t *testing.T) {
	r := rand.New(rand.NewSource(8))
	ops2 := map[string]func(a, b float32) float32{
		"aten.add.Tensor": func(a, b float32) float32 { return a + b },
		"aten.sub.Tensor": func(a, b float32) float32 { return a - b },
		"aten.mul.Tensor": func(a, b float32) float32 { return a * b },
		"aten.div.Tensor": func(a, b float32) float32 { return a / b },
	}
	// A [C, N] tensor transposed to [N, C] and unsqueezed: strides (1, N, 0, 0)-like.
	strided := func(n, c int) *tensor.Tensor {
		g := randTensor(r, c, n, 1, 1)
		v, err := new(tensor.Tensor).Transpose(g, 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, sh := range [][2]int{{8, 3}, {3, 6}, {2, 14}, {5, 1}, {1, 7}} {
		n, hw := sh[0], sh[1]
		c := 24
		plane := randTensor(r, n, c, hw, hw)
		gates := map[string]*tensor.Tensor{
			"contiguous": randTensor(r, n, c, 1, 1),
			"strided":    strided(n, c),
			"batch-wide": randTensor(r, 1, c, 1, 1),
		}
		for target, f := range ops2 {
			for gname, gate := range gates {
				for _, gateFirst := range []bool{false, true} {
					a, b := plane, gate
					if gateFirst {
						a, b = gate, plane
					}
					named := []ops.NamedArg{tv(a), tv(b)}
					got := runKernel(t, target, named)
					want := refBinary(t, a, b, []int{n, c, hw, hw}, f)
					if !tensor.Equal(got, want) {
						t.Errorf("%s, %dx%d planes, %s gate, gate first %v: results differ from the scalar loop", target, hw, hw, gname, gateFirst)
					}
				}
			}
		}
		// alpha takes the row loops: x + alpha*gate.
		gate := gates["contiguous"]
		got := runKernel(t, "aten.add.Tensor", []ops.NamedArg{tv(plane), tv(gate), {Name: "alpha", Value: value.FromDouble(0.5)}})
		want := refBinary(t, plane, gate, []int{n, c, hw, hw}, func(a, b float32) float32 { return a + 0.5*b })
		if !tensor.Equal(got, want) {
			t.Errorf("add with alpha, %dx%d planes: results differ from the scalar loop", hw, hw)
		}
	}
}

func runKernel(t *testing.T, target string, named []ops.NamedArg) *tensor.Tensor {
	t.Helper()
	s, _ := ops.Lookup(target)
	k, _ := kernels.Lookup(target)
	args, err := s.Bind(nil, named)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]value.Value, len(s.Returns))
	if err := k(kernels.NewContext(), args, out); err != nil {
		t.Fatal(err)
	}
	return out[0].Tensor()
}

// refBinary computes f(a, b) over the broadcast 4-d shape one element at a
// time, reading each operand through its strides.
func refBinary(t *testing.T, a, b *tensor.Tensor, shape []int, f func(a, b float32) float32) *tensor.Tensor {
	t.Helper()
	at := func(x *tensor.Tensor, idx [4]int) float32 {
		d, off := tensor.Data[float32](x), x.Offset()
		for i := 0; i < 4; i++ {
			if x.Size(i) != 1 {
				off += idx[i] * x.Strides()[i]
			}
		}
		return d[off]
	}
	out := make([]float32, tensor.Numel(shape))
	i := 0
	for n := 0; n < shape[0]; n++ {
		for c := 0; c < shape[1]; c++ {
			for h := 0; h < shape[2]; h++ {
				for w := 0; w < shape[3]; w++ {
					idx := [4]int{n, c, h, w}
					out[i] = f(at(a, idx), at(b, idx))
					i++
				}
			}
		}
	}
	res, err := tensor.FromSlice(out, shape...)
	if err != nil {
		t.Fatal(err)
	}
	return res
}
