package kernels_test

import (
	"math/rand"
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/internal/cputime"
	"github.com/seam-rt/seam/kernels"
	"github.com/seam-rt/seam/ops"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

func randTensor(r *rand.Rand, sizes ...int) *tensor.Tensor {
	v := make([]float32, tensor.Numel(sizes))
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	t, _ := tensor.FromSlice(v, sizes...)
	return t
}

// benchKernel runs a kernel repeatedly with its outputs released each time,
// the steady state of an executor.
func benchKernel(b *testing.B, target string, named ...ops.NamedArg) {
	k, _ := kernels.Lookup(target)
	benchWith(b, target, k, named...)
}

// benchWith times kernel k on arguments bound by target's schema.
func benchWith(b *testing.B, target string, k kernels.Kernel, named ...ops.NamedArg) {
	s, _ := ops.Lookup(target)
	args, err := s.Bind(nil, named)
	if err != nil {
		b.Fatal(err)
	}
	ctx := kernels.NewContext()
	out := make([]value.Value, len(s.Returns))
	b.ReportAllocs()
	b.ResetTimer()
	c0 := cputime.Used()
	for i := 0; i < b.N; i++ {
		if err := k(ctx, args, out); err != nil {
			b.Fatal(err)
		}
		for _, v := range out {
			ctx.Release(v)
		}
	}
	// CPU time as well as wall time: on a machine shared with other jobs
	// the wall clock also counts the time they ran.
	if c0 > 0 {
		b.ReportMetric(float64(cputime.Used()-c0)/float64(b.N), "cpu-ns/op")
	}
}

func pos(v value.Value) ops.NamedArg   { return ops.NamedArg{Value: v} }
func tv(t *tensor.Tensor) ops.NamedArg { return pos(value.FromTensor(t)) }

func BenchmarkAddmmGPT2(b *testing.B) {
	r := rand.New(rand.NewSource(1))
	for _, s := range []struct {
		name    string
		m, k, n int
	}{{"128x64x192", 128, 64, 192}, {"128x64x256", 128, 64, 256}, {"128x256x64", 128, 256, 64}} {
		b.Run(s.name, func(b *testing.B) {
			benchKernel(b, "aten.addmm.default", tv(randTensor(r, s.n)), tv(randTensor(r, s.m, s.k)), tv(randTensor(r, s.k, s.n)))
		})
	}
	b.Run("lm_head_mm_128x64x1000T", func(b *testing.B) {
		w, _ := new(tensor.Tensor).Permute(randTensor(r, 1000, 64), []int{1, 0})
		benchKernel(b, "aten.mm.default", tv(randTensor(r, 128, 64)), tv(w))
	})
}

func BenchmarkBmmAttention(b *testing.B) {
	r := rand.New(rand.NewSource(1))
	benchKernel(b, "aten.bmm.default", tv(randTensor(r, 4, 128, 16)), tv(randTensor(r, 4, 16, 128)))
}

func BenchmarkSoftmaxViT(b *testing.B) {
	x := randTensor(rand.New(rand.NewSource(1)), 2, 4, 65, 65)
	benchKernel(b, "aten._softmax.default", tv(x), pos(value.FromInt(-1)), pos(value.FromBool(false)))
}

func BenchmarkSoftmax(b *testing.B) {
	r := rand.New(rand.NewSource(1))
	benchKernel(b, "aten._softmax.default", tv(randTensor(r, 1, 4, 128, 128)), pos(value.FromInt(-1)), pos(value.FromBool(false)))
}

func BenchmarkLayerNorm(b *testing.B) {
	r := rand.New(rand.NewSource(1))
	benchKernel(b, "aten.native_layer_norm.default", tv(randTensor(r, 1, 128, 64)), pos(value.FromInts([]int64{64})),
		tv(randTensor(r, 64)), tv(randTensor(r, 64)), pos(value.FromDouble(1e-5)))
}

func BenchmarkElementwise(b *testing.B) {
	r := rand.New(rand.NewSource(1))
	x, y := randTensor(r, 1, 128, 256), randTensor(r, 1, 128, 256)
	b.Run("add_same_shape", func(b *testing.B) { benchKernel(b, "aten.add.Tensor", tv(x), tv(y)) })
	b.Run("mul_scalar", func(b *testing.B) { benchKernel(b, "aten.mul.Tensor", tv(x), pos(value.FromDouble(0.5))) })
	b.Run("add_mask_broadcast", func(b *testing.B) {
		benchKernel(b, "aten.add.Tensor", tv(randTensor(r, 1, 4, 128, 128)), tv(randTensor(r, 1, 1, 128, 128)))
	})
	b.Run("tanh", func(b *testing.B) { benchKernel(b, "aten.tanh.default", tv(x)) })
	b.Run("pow3", func(b *testing.B) { benchKernel(b, "aten.pow.Tensor_Scalar", tv(x), pos(value.FromDouble(3))) })
	b.Run("gelu_tanh", func(b *testing.B) {
		benchKernel(b, "aten.gelu.default", tv(x), ops.NamedArg{Name: "approximate", Value: value.FromString("tanh")})
	})
	b.Run("gelu_erf", func(b *testing.B) { benchKernel(b, "aten.gelu.default", tv(x)) })
	b.Run("clone_permuted", func(b *testing.B) {
		p, _ := new(tensor.Tensor).Permute(randTensor(r, 1, 4, 128, 16), []int{0, 2, 1, 3})
		benchKernel(b, "aten.clone.default", tv(p))
	})
	b.Run("clone_keys_transposed", func(b *testing.B) {
		// ViT's K^T: [2, 65, 3, 4, 16] permuted, the keys selected, the last
		// two dims swapped.
		qkv, _ := new(tensor.Tensor).Permute(randTensor(r, 2, 65, 3, 4, 16), []int{2, 0, 3, 1, 4})
		k, _ := new(tensor.Tensor).Select(qkv, 0, 1)
		kt, _ := new(tensor.Tensor).Transpose(k, 2, 3)
		benchKernel(b, "aten.clone.default", tv(kt))
	})
}

// gpt2Input is a length-n prompt for gpt2_tiny (vocabulary 1000).
func gpt2Input(n int) []value.Value {
	ids := make([]int64, n)
	mask := make([]int64, n)
	r := rand.New(rand.NewSource(2))
	for i := range ids {
		ids[i], mask[i] = r.Int63n(1000), 1
	}
	a, _ := tensor.FromSlice(ids, 1, n)
	m, _ := tensor.FromSlice(mask, 1, n)
	return []value.Value{value.FromTensor(a), value.FromTensor(m)}
}

// BenchmarkGPT2Tiny runs the whole gpt2_tiny program at sequence length 128
// through the test interpreter (kernels plus bookkeeping), releasing dead
// values as an executor would. PyTorch+OpenBLAS on one core: 1.26 ms.
func BenchmarkGPT2Tiny(b *testing.B) {
	p := loadProgram(b, fixtures.Model("gpt2_tiny"))
	in := &interp{ctx: kernels.NewContext(), env: map[string]value.Value{}, free: true}
	inputs := p.inputs(b, gpt2Input(128), nil)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := in.run(&p.graph, inputs)
		if err != nil {
			b.Fatal(err)
		}
		for _, v := range res {
			in.ctx.Release(v)
		}
	}
}

// The interpreter's freeing agrees with not freeing: releasing values
// after their last use never hands out storage still in use.
func TestReleaseAfterLastUseKeepsResults(t *testing.T) {
	p := loadProgram(t, fixtures.Model("gpt2_tiny"))
	inputs := p.inputs(t, gpt2Input(37), nil)
	ref := &interp{ctx: kernels.NewContext(), env: map[string]value.Value{}}
	want, err := ref.run(&p.graph, inputs)
	if err != nil {
		t.Fatal(err)
	}
	in := &interp{ctx: kernels.NewContext(), env: map[string]value.Value{}, free: true}
	for i := 0; i < 3; i++ {
		got, err := in.run(&p.graph, inputs)
		if err != nil {
			t.Fatal(err)
		}
		if !tensor.Equal(got[0].Tensor(), want[0].Tensor()) {
			t.Fatalf("run %d with freeing differs", i)
		}
		in.ctx.Release(got[0])
	}
}

// Hot kernels allocate nothing once the pool is warm.
func TestHotKernelsDoNotAllocate(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	x := randTensor(r, 8, 32)
	cases := []struct {
		target string
		args   []ops.NamedArg
	}{
		{"aten.add.Tensor", []ops.NamedArg{tv(x), tv(randTensor(r, 32))}},
		{"aten.mul.Tensor", []ops.NamedArg{tv(x), pos(value.FromDouble(2))}},
		{"aten.tanh.default", []ops.NamedArg{tv(x)}},
		{"aten.view.default", []ops.NamedArg{tv(x), pos(value.FromInts([]int64{4, -1}))}},
		{"aten.permute.default", []ops.NamedArg{tv(x), pos(value.FromInts([]int64{1, 0}))}},
		{"aten.addmm.default", []ops.NamedArg{tv(randTensor(r, 16)), tv(x), tv(randTensor(r, 32, 16))}},
		{"aten._softmax.default", []ops.NamedArg{tv(x), pos(value.FromInt(-1)), pos(value.FromBool(false))}},
		{"aten.native_layer_norm.default", []ops.NamedArg{tv(x), pos(value.FromInts([]int64{32})), tv(randTensor(r, 32)), tv(randTensor(r, 32)), pos(value.FromDouble(1e-5))}},
		{"aten.clone.default", []ops.NamedArg{tv(x)}},
	}
	for _, c := range cases {
		s, _ := ops.Lookup(c.target)
		k, _ := kernels.Lookup(c.target)
		args, err := s.Bind(nil, c.args)
		if err != nil {
			t.Fatal(err)
		}
		ctx := kernels.NewContext()
		out := make([]value.Value, len(s.Returns))
		run := func() {
			if err := k(ctx, args, out); err != nil {
				t.Fatal(err)
			}
			for _, v := range out {
				ctx.Release(v)
			}
		}
		run()
		if n := testing.AllocsPerRun(20, run); n != 0 {
			t.Errorf("%s: %v allocations per call", c.target, n)
		}
	}
}

// BenchmarkConvMobileNet times the convolutions of mobilenet_tiny (batch
// 3): the stem over RGB, depthwise 3x3 and 5x5 at strides 1 and 2, and
// pointwise 1x1 products from 24x24 down to 3x3 planes; then the pointwise
// ones at batch 8 (mobilenet_tiny_b8), where the planes of all samples
// make one product.
func BenchmarkConvMobileNet(b *testing.B) {
	r := rand.New(rand.NewSource(1))
	ints := func(v ...int64) ops.NamedArg { return pos(value.FromInts(v)) }
	for _, c := range []struct {
		name                         string
		n, c, h, o, k, stride, group int
	}{
		{"stem-3x3s2-3to16-96", 3, 3, 96, 16, 3, 2, 1},
		{"dw-3x3s2-16-48", 3, 16, 48, 16, 3, 2, 16},
		{"dw-3x3s2-56-24", 3, 56, 24, 56, 3, 2, 56},
		{"dw-5x5s1-184-6", 3, 184, 6, 184, 5, 1, 184},
		{"dw-3x3s1-72-12", 3, 72, 12, 72, 3, 1, 72},
		{"dw-5x5s2-216-6", 3, 216, 6, 216, 5, 2, 216},
		{"pw-16to56-24", 3, 16, 24, 56, 1, 1, 1},
		{"pw-24to72-12", 3, 24, 12, 72, 1, 1, 1},
		{"pw-40to216-6", 3, 40, 6, 216, 1, 1, 1},
		{"pw-32to184-6", 3, 32, 6, 184, 1, 1, 1},
		{"pw-72to432-3", 3, 72, 3, 432, 1, 1, 1},
		// Not in the net: a dense 3x3 (im2col and a product per sample).
		{"3x3s1-32to64-24", 3, 32, 24, 64, 3, 1, 1},
		{"3x3s2-64to128-24", 3, 64, 24, 128, 3, 2, 1},
		{"b8/stem-3x3s2-3to16-96", 8, 3, 96, 16, 3, 2, 1},
		{"b8/pw-16to16-24", 8, 16, 24, 16, 1, 1, 1},
		{"b8/pw-16to56-24", 8, 16, 24, 56, 1, 1, 1},
		{"b8/pw-56to24-12", 8, 56, 12, 24, 1, 1, 1},
		{"b8/pw-24to72-12", 8, 24, 12, 72, 1, 1, 1},
		{"b8/pw-72to32-6", 8, 72, 6, 32, 1, 1, 1},
		{"b8/pw-32to184-6", 8, 32, 6, 184, 1, 1, 1},
		{"b8/pw-184to32-6", 8, 184, 6, 32, 1, 1, 1},
		{"b8/pw-40to216-6", 8, 40, 6, 216, 1, 1, 1},
		{"b8/pw-216to72-3", 8, 216, 3, 72, 1, 1, 1},
		{"b8/pw-72to432-3", 8, 72, 3, 432, 1, 1, 1},
	} {
		p := int64(c.k / 2)
		args := []ops.NamedArg{tv(randTensor(r, c.n, c.c, c.h, c.h)), tv(randTensor(r, c.o, c.c/c.group, c.k, c.k)),
			tv(randTensor(r, c.o)), ints(int64(c.stride), int64(c.stride)), ints(p, p), ints(1, 1), pos(value.FromBool(false)),
			ints(0, 0), pos(value.FromInt(int64(c.group)))}
		b.Run(c.name, func(b *testing.B) { benchKernel(b, "aten.convolution.default", args...) })
		// As the net runs it: batch norm folded into the bias, then
		// hardswish fused (kernels.ConvolutionAct).
		act, _ := kernels.ConvolutionAct("aten.hardswish.default")
		b.Run(c.name+"+hardswish", func(b *testing.B) { benchWith(b, "aten.convolution.default", act, args...) })
	}
}

// BenchmarkMaxPool: cnn's pool ([5,8,16,16], 2x2 of stride 2) with its
// indices, and its values alone (the poolvalues pass's kernel).
func BenchmarkMaxPool(b *testing.B) {
	x := randTensor(rand.New(rand.NewSource(1)), 5, 8, 16, 16)
	k := []ops.NamedArg{tv(x), pos(value.FromInts([]int64{2, 2}))}
	b.Run("indices", func(b *testing.B) { benchKernel(b, "aten.max_pool2d_with_indices.default", k...) })
	b.Run("values", func(b *testing.B) {
		benchWith(b, "aten.max_pool2d_with_indices.default", kernels.MaxPool2dValues, k...)
	})
}
