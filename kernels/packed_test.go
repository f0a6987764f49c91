package kernels_test

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/seam-rt/seam/kernels"
	"github.com/seam-rt/seam/kernels/gemm"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// PackedMatmul adds a bias of one row ([N], [1, N], or [m, N] expanded
// from one row) inside the packed product, and every bias gives bit for bit
// what copying it into the result and adding the product to it gives: on
// m below a register tile, N off the panel width, K over several k blocks,
// x plain and transposed, B packed from W and from W^T, on 1, 2 and 4
// threads. Biases of other shapes ([m, N], [m, 1], a scalar, a strided
// row) take the copy.
func TestPackedMatmulBias(t *testing.T) {
	r := rand.New(rand.NewSource(16))
	for _, s := range [][3]int{{1, 5, 3}, {5, 17, 300}, {7, 50, 600}, {130, 192, 64}, {130, 64, 256}, {256, 384, 128}} {
		m, n, k := s[0], s[1], s[2]
		w := randTensor(r, n, k) // a Linear's weight: B = W^T
		for _, transB := range []bool{false, true} {
			var pb *gemm.PackedB
			if transB {
				pb = gemm.PackB(true, k, n, tensor.Contig[float32](w), k)
			} else {
				pb = gemm.PackB(false, k, n, tensor.Contig[float32](w)[:k*n], n)
			}
			x := randTensor(r, m, k)
			xt, _ := new(tensor.Tensor).Transpose(randTensor(r, k, m), 0, 1)
			row := randTensor(r, n)
			tensor.Contig[float32](row)[0] = float32(math.Copysign(0, -1))
			row1, _ := new(tensor.Tensor).View(row, []int{1, n})
			expanded, _ := new(tensor.Tensor).Expand(row1, []int{m, n})
			strided, _ := new(tensor.Tensor).Slice(randTensor(r, 2*n), 0, 0, 2*n, 2)
			biases := map[string]*tensor.Tensor{
				"[N]": row, "[1,N]": row1, "[m,N] expanded": expanded, "[N] strided": strided,
				"[m,N]": randTensor(r, m, n), "[m,1]": randTensor(r, m, 1), "scalar": tensor.Scalar(float32(0.5)),
			}
			for _, xv := range []*tensor.Tensor{x, xt} {
				for name, bias := range biases {
					what := fmt.Sprintf("%v transB=%v x %v bias %s", s, transB, xv.Strides(), name)
					want := packedByCopy(t, pb, xv, bias)
					for _, threads := range []int{1, 2, 4} {
						ctx := kernels.NewContext()
						ctx.Threads = threads
						out := make([]value.Value, 1)
						if err := kernels.PackedMatmul(pb, true)(ctx, []value.Value{value.FromTensor(bias), value.FromTensor(xv)}, out); err != nil {
							t.Fatalf("%s: %v", what, err)
						}
						got := tensor.Contig[float32](out[0].Tensor())
						for i := range want {
							if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
								t.Fatalf("%s threads=%d: [%d] = %v, the bias copied first gives %v", what, threads, i, got[i], want[i])
							}
						}
					}
				}
			}
		}
	}
}

// packedByCopy is bias + x @ B as PackedMatmul computed it before the
// product took a bias: the bias broadcast into the result, then the
// product added with beta = 1.
func packedByCopy(t *testing.T, pb *gemm.PackedB, x, bias *tensor.Tensor) []float32 {
	t.Helper()
	m := x.Size(0)
	c, _ := tensor.New(tensor.Float32, m, pb.N())
	if err := tensor.Copy(c, bias); err != nil {
		t.Fatal(err)
	}
	xc, _ := tensor.Clone(x)
	gemm.SgemmPackedThreads(1, false, m, 1, tensor.Contig[float32](xc), pb.K(), pb, 1, tensor.Contig[float32](c), pb.N(), nil)
	return tensor.Contig[float32](c)
}
