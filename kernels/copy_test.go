package kernels

import (
	"math"
	"math/rand"
	"testing"

	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// A clone of a tensor whose last two dims are swapped in memory (the 8x8
// block transpose) or whose short rows are strided apart (vec.CopyRows)
// is bitwise what the strided walk copies, over views as attention makes
// them (a select of a permuted projection, K^T, expanded batch dims, heads
// merged back) and edge sizes on both sides of the blocks.
func TestCloneStridedMatchesCopy(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	must := func(x *tensor.Tensor, err error) *tensor.Tensor {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	ctx := NewContext()
	for trial := 0; trial < 60; trial++ {
		b, heads, seq, hd := 1+r.Intn(3), 1+r.Intn(4), 1+r.Intn(70), 1+r.Intn(20)
		v := make([]float32, b*seq*3*heads*hd)
		for i := range v {
			v[i] = float32(r.NormFloat64())
		}
		// qkv [b, seq, 3, heads, hd] -> [3, b, heads, seq, hd], k, k^T.
		x := must(tensor.FromSlice(v, b, seq, 3, heads, hd))
		x = must(new(tensor.Tensor).Permute(x, []int{2, 0, 3, 1, 4}))
		k := must(new(tensor.Tensor).Select(x, 0, 1))
		kt := must(new(tensor.Tensor).Transpose(k, 2, 3))
		// Also q itself (short rows strided apart), and the heads merged
		// back ([b, heads, seq, hd] as [b, seq, heads, hd]).
		q := must(new(tensor.Tensor).Select(x, 0, 0))
		views := []*tensor.Tensor{kt, must(new(tensor.Tensor).Transpose(must(tensor.FromSlice(v[:seq*hd], seq, hd)), 0, 1)),
			q, must(new(tensor.Tensor).Transpose(must(tensor.FromSlice(v[:b*heads*seq*hd], b, heads, seq, hd)), 1, 2))}
		if trial%3 == 0 {
			e := must(new(tensor.Tensor).Select(kt, 0, 0))
			views = append(views, must(new(tensor.Tensor).Expand(e, []int{2, heads, hd, seq})))
		}
		for _, view := range views {
			want := must(tensor.Clone(view))
			out := make([]value.Value, 1)
			if err := cloneKernel(ctx, []value.Value{value.FromTensor(view)}, out); err != nil {
				t.Fatal(err)
			}
			got := tensor.Contig[float32](out[0].Tensor())
			for i, w := range tensor.Contig[float32](want) {
				if math.Float32bits(got[i]) != math.Float32bits(w) {
					t.Fatalf("%s strides %v: [%d] = %g, want %g", view.Type(), view.Strides(), i, got[i], w)
				}
			}
		}
	}
}
