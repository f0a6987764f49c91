package kernels_test

import (
	"math/rand"
	"testing"

	"github.com/seam-rt/seam/kernels"
	"github.com/seam-rt/seam/ops"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// The kernels that split their work across goroutines (batched products,
// softmax and layer norm rows, the fused attention softmax, linear and
// convolution) give bitwise the same result on one thread and on several,
// on shapes large enough to be split.
func TestThreadsDoNotChangeResults(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	x := randTensor(r, 12, 128, 128)
	// A mask broadcast over the batch: rows are walked 256 at a time.
	y, mask := randTensor(r, 4, 256, 256), randTensor(r, 256, 256)
	cases := []struct {
		target string
		args   []value.Value
		named  []ops.NamedArg
	}{
		{target: "aten.bmm.default", named: []ops.NamedArg{tv(randTensor(r, 12, 128, 64)), tv(randTensor(r, 12, 64, 128))}},
		{target: "aten.matmul.default", named: []ops.NamedArg{tv(randTensor(r, 2, 6, 128, 64)), tv(randTensor(r, 64, 96))}},
		{target: "aten._softmax.default", named: []ops.NamedArg{tv(x), pos(value.FromInt(-1)), pos(value.FromBool(false))}},
		{target: "aten.native_layer_norm.default", named: []ops.NamedArg{tv(randTensor(r, 1024, 256)), pos(value.FromInts([]int64{256})),
			tv(randTensor(r, 256)), tv(randTensor(r, 256)), pos(value.FromDouble(1e-5))}},
		{target: "aten.addmm.default", named: []ops.NamedArg{tv(randTensor(r, 384)), tv(randTensor(r, 256, 128)), tv(randTensor(r, 128, 384))}},
		{target: "aten.convolution.default", named: []ops.NamedArg{tv(randTensor(r, 4, 32, 24, 24)), tv(randTensor(r, 32, 1, 3, 3)), tv(randTensor(r, 32)),
			pos(value.FromInts([]int64{1, 1})), pos(value.FromInts([]int64{1, 1})), pos(value.FromInts([]int64{1, 1})),
			pos(value.FromBool(false)), pos(value.FromInts([]int64{0, 0})), pos(value.FromInt(32))}},
		// Pointwise over small planes: one product over the batch's pixels,
		// split by columns that cross sample boundaries.
		{target: "aten.convolution.default", named: []ops.NamedArg{tv(randTensor(r, 8, 40, 6, 6)), tv(randTensor(r, 216, 40, 1, 1)), tv(randTensor(r, 216)),
			pos(value.FromInts([]int64{1, 1})), pos(value.FromInts([]int64{0, 0})), pos(value.FromInts([]int64{1, 1})),
			pos(value.FromBool(false)), pos(value.FromInts([]int64{0, 0})), pos(value.FromInt(1))}},
		// Convolutions as im2col and GEMMs: split by samples (4), or inside
		// each sample's GEMM when samples would split unevenly (3); 1x1.
		{target: "aten.convolution.default", named: []ops.NamedArg{tv(randTensor(r, 4, 32, 20, 20)), tv(randTensor(r, 48, 32, 3, 3)), tv(randTensor(r, 48)),
			pos(value.FromInts([]int64{1, 1})), pos(value.FromInts([]int64{1, 1})), pos(value.FromInts([]int64{1, 1})),
			pos(value.FromBool(false)), pos(value.FromInts([]int64{0, 0})), pos(value.FromInt(1))}},
		{target: "aten.convolution.default", named: []ops.NamedArg{tv(randTensor(r, 3, 32, 20, 20)), tv(randTensor(r, 48, 32, 3, 3)), tv(randTensor(r, 48)),
			pos(value.FromInts([]int64{1, 1})), pos(value.FromInts([]int64{1, 1})), pos(value.FromInts([]int64{1, 1})),
			pos(value.FromBool(false)), pos(value.FromInts([]int64{0, 0})), pos(value.FromInt(1))}},
		{target: "aten.convolution.default", named: []ops.NamedArg{tv(randTensor(r, 4, 64, 24, 24)), tv(randTensor(r, 96, 64, 1, 1)), tv(randTensor(r, 96)),
			pos(value.FromInts([]int64{1, 1})), pos(value.FromInts([]int64{0, 0})), pos(value.FromInts([]int64{1, 1})),
			pos(value.FromBool(false)), pos(value.FromInts([]int64{0, 0})), pos(value.FromInt(1))}},
		// Elementwise arithmetic over grids of two dimensions: split by
		// rows (planes and their gates, a row broadcast over a batch) or
		// by columns.
		{target: "aten.add.Tensor", named: []ops.NamedArg{tv(randTensor(r, 8, 40, 1001)), tv(randTensor(r, 8, 40, 1001)), {Name: "alpha", Value: value.FromDouble(0.5)}}},
		{target: "aten.mul.Tensor", named: []ops.NamedArg{tv(randTensor(r, 8, 64, 31, 31)), tv(randTensor(r, 8, 64, 1, 1))}},
		{target: "aten.mul.Tensor", named: []ops.NamedArg{tv(randTensor(r, 6, 50, 1000)), tv(randTensor(r, 1, 50, 1000))}},
		{target: "aten.div.Tensor", named: []ops.NamedArg{tv(randTensor(r, 1, 6, 200, 129)), tv(randTensor(r, 200, 129))}},
		{target: "aten.maximum.default", named: []ops.NamedArg{tv(randTensor(r, 1, 9, 1, 20000)), tv(randTensor(r, 9, 1, 1))}},
		// More than two dimensions after coalescing: views of the
		// operands, one broadcast along the split dimension.
		{target: "aten.add.Tensor", named: []ops.NamedArg{tv(randTensor(r, 8, 3, 500, 7)), tv(randTensor(r, 1, 3, 1, 7))}},
		// Operands that walk as one row (the same shape, or a 0-d tensor
		// on either side) split that row, lengths no multiple of 16; the
		// grids above split their rows, or their columns when they have
		// too few rows (the [6, 50000] product on four threads).
		{target: "aten.add.Tensor", named: []ops.NamedArg{tv(randTensor(r, 1, 128, 64)), tv(randTensor(r, 1, 128, 64))}},
		{target: "aten.sub.Tensor", named: []ops.NamedArg{tv(randTensor(r, 3, 7001)), tv(randTensor(r, 3, 7001)), {Name: "alpha", Value: value.FromDouble(2)}}},
		{target: "aten.mul.Tensor", named: []ops.NamedArg{tv(randTensor(r, 5, 7001)), tv(randTensor(r))}},
		{target: "aten.div.Tensor", named: []ops.NamedArg{tv(randTensor(r)), tv(randTensor(r, 5, 7001))}},
		{target: "aten.minimum.default", named: []ops.NamedArg{tv(randTensor(r, 5, 7001)), tv(randTensor(r, 5, 7001))}},
		{target: "aten.mean.dim", named: []ops.NamedArg{tv(randTensor(r, 8, 64, 33, 33)), pos(value.FromInts([]int64{-1, -2})), pos(value.FromBool(true))}},
		{target: "scaled masked softmax", args: []value.Value{value.FromTensor(y), value.FromDouble(0.125), value.FromTensor(mask)}},
	}
	for _, c := range cases {
		run := func(threads int) *tensor.Tensor {
			ctx := kernels.NewContext()
			ctx.Threads = threads
			out := make([]value.Value, 3)
			if c.args != nil {
				if err := kernels.ScaledMaskedSoftmax(ctx, c.args, out[:1]); err != nil {
					t.Fatal(err)
				}
				return out[0].Tensor()
			}
			s, _ := ops.Lookup(c.target)
			k, _ := kernels.Lookup(c.target)
			args, err := s.Bind(nil, c.named)
			if err != nil {
				t.Fatal(err)
			}
			out = out[:len(s.Returns)]
			if err := k(ctx, args, out); err != nil {
				t.Fatal(err)
			}
			return out[0].Tensor()
		}
		one, two, four := run(1), run(2), run(4)
		if !tensor.Equal(one, two) || !tensor.Equal(one, four) {
			t.Errorf("%s: results differ between 1, 2 and 4 threads", c.target)
		}
	}
}

// A split elementwise op's views of its output and operands are released
// with it: once the output is released, the next call reuses its storage
// (a view left holding it would keep it out of the pool for good).
func TestSplitOpsReturnStorageToPool(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	ctx := kernels.NewContext()
	ctx.Threads = 2
	x, y := tv(randTensor(r, 8, 40, 1001)), tv(randTensor(r, 8, 40, 1001))
	s, _ := ops.Lookup("aten.mul.Tensor")
	k, _ := kernels.Lookup("aten.mul.Tensor")
	args, err := s.Bind(nil, []ops.NamedArg{x, y})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]value.Value, 1)
	if err := k(ctx, args, out); err != nil {
		t.Fatal(err)
	}
	first := out[0].Tensor().Storage()
	ctx.Release(out[0])
	if err := k(ctx, args, out); err != nil {
		t.Fatal(err)
	}
	if out[0].Tensor().Storage() != first {
		t.Fatal("the output's storage did not go back to the pool: a view still holds it")
	}
}
