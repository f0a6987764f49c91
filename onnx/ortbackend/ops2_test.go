package ortbackend_test

import (
	"math"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/tensor"
)

// convTranspose2d is a direct transposed convolution (groups 1,
// dilation 1), for the case seam's kernels do not run.
func convTranspose2d(x, w, b *tensor.Tensor, stride, pad, outPad [2]int) *tensor.Tensor {
	n, ci, h, wd := x.Size(0), x.Size(1), x.Size(2), x.Size(3)
	co, kh, kw := w.Size(1), w.Size(2), w.Size(3)
	oh := (h-1)*stride[0] - 2*pad[0] + kh + outPad[0]
	ow := (wd-1)*stride[1] - 2*pad[1] + kw + outPad[1]
	out := make([]float32, n*co*oh*ow)
	xs, ws, bs := tensor.Contig[float32](x), tensor.Contig[float32](w), tensor.Contig[float32](b)
	for i := 0; i < n; i++ {
		for c := 0; c < ci; c++ {
			for y := 0; y < h; y++ {
				for xx := 0; xx < wd; xx++ {
					v := xs[((i*ci+c)*h+y)*wd+xx]
					for o := 0; o < co; o++ {
						for ky := 0; ky < kh; ky++ {
							for kx := 0; kx < kw; kx++ {
								oy, ox := y*stride[0]-pad[0]+ky, xx*stride[1]-pad[1]+kx
								if oy < 0 || oy >= oh || ox < 0 || ox >= ow {
									continue
								}
								out[((i*co+o)*oh+oy)*ow+ox] += v * ws[((c*co+o)*kh+ky)*kw+kx]
							}
						}
					}
				}
			}
		}
	}
	for i := 0; i < n; i++ {
		for o := 0; o < co; o++ {
			for k := 0; k < oh*ow; k++ {
				out[(i*co+o)*oh*ow+k] += bs[o]
			}
		}
	}
	return f32s(out, n, co, oh, ow)
}

// pairMeans averages neighbouring pairs along the last dim.
func pairMeans(x *tensor.Tensor) *tensor.Tensor {
	v := tensor.Contig[float32](x)
	out := make([]float32, len(v)/2)
	for i := range out {
		out[i] = (v[2*i] + v[2*i+1]) / 2
	}
	sizes := append([]int{}, x.Sizes()...)
	sizes[len(sizes)-1] /= 2
	return f32s(out, sizes...)
}

func mapF32(x *tensor.Tensor, f func(float64) float64) *tensor.Tensor {
	v := tensor.Contig[float32](x)
	out := make([]float32, len(v))
	for i, e := range v {
		out[i] = float32(f(float64(e)))
	}
	return f32s(out, x.Sizes()...)
}

func moreCases() []opCase {
	x := randn(2, 3, 4)
	img := randn(2, 4, 6, 6)
	tw, tb := randn(4, 3, 3, 3), randn(3)
	ch := func() *tensor.Tensor { return randn(4) }
	idx := ints(-3, 3, 2, 2)
	seq := randn(2, 3, 8)
	cs := []opCase{
		{name: "conv_transposed", target: "aten.convolution.default", args: []a{{"input", img}, {"weight", tw}, {"bias", tb},
			{"stride", []int64{2, 2}}, {"padding", []int64{1, 1}}, {"dilation", []int64{1, 1}}, {"transposed", true}, {"output_padding", []int64{1, 1}}, {"groups", 1}},
			want: []*tensor.Tensor{convTranspose2d(img, tw, tb, [2]int{2, 2}, [2]int{1, 1}, [2]int{1, 1})}},
		{name: "softplus", target: "aten.softplus.default", args: []a{{"self", mapF32(x, func(v float64) float64 { return 5 * v })}, {"beta", 2.0}, {"threshold", 5.0}},
			want: []*tensor.Tensor{mapF32(x, func(v float64) float64 {
				v *= 5
				if 2*v > 5 {
					return v
				}
				return math.Log1p(math.Exp(2*v)) / 2
			})}},
		{name: "isinf", target: "aten.isinf.default", args: []a{{"self", f32s([]float32{1, float32(math.Inf(-1)), 0, float32(math.Inf(1))}, 4)}}},
		{name: "tan", target: "aten.tan.default", args: []a{{"self", mapF32(x, func(v float64) float64 { return v / 3 })}}},
		{name: "asin", target: "aten.asin.default", args: []a{{"self", mapF32(x, func(v float64) float64 { return v / 3 })}}},
		{name: "acos", target: "aten.acos.default", args: []a{{"self", mapF32(x, func(v float64) float64 { return v / 3 })}}},
		{name: "atanh", target: "aten.atanh.default", args: []a{{"self", mapF32(x, func(v float64) float64 { return v / 3 })}}},
		{name: "cosh", target: "aten.cosh.default", args: []a{{"self", x}}},
		{name: "asinh", target: "aten.asinh.default", args: []a{{"self", x}}},
		{name: "acosh", target: "aten.acosh.default", args: []a{{"self", mapF32(positive(5), func(v float64) float64 { return v + 1 })}}},
		{name: "add_scalar", target: "aten.add.Scalar", args: []a{{"self", x}, {"other", 2.5}}},
		{name: "sub_scalar_op", target: "aten.sub.Scalar", args: []a{{"self", ints(0, 9, 4)}, {"other", 3}}},
		{name: "rsub_tensor", target: "aten.rsub.Tensor", args: []a{{"self", x}, {"other", randn(4)}, {"alpha", 2}}},
		{name: "mul_scalar", target: "aten.mul.Scalar", args: []a{{"self", x}, {"other", -1.5}}},
		{name: "div_scalar", target: "aten.div.Scalar", args: []a{{"self", x}, {"other", 4}}},
		{name: "div_scalar_mode", target: "aten.div.Scalar_mode", args: []a{{"self", ints(-9, 9, 6)}, {"other", 4}, {"rounding_mode", "floor"}}},
		{name: "remainder_tensor_float", target: "aten.remainder.Tensor", args: []a{{"self", x}, {"other", mapF32(positive(4), func(v float64) float64 { return -v })}}},
		{name: "fmod_tensor", target: "aten.fmod.Tensor", args: []a{{"self", ints(-9, 9, 6)}, {"other", ints(1, 4, 6)}}},
		{name: "pow_scalar_base", target: "aten.pow.Scalar", args: []a{{"self", 2.0}, {"exponent", x}}},
		{name: "masked_fill_tensor", target: "aten.masked_fill.Tensor", args: []a{{"self", x}, {"mask", bools(4)}, {"value", tensor.Scalar(float32(7))}}},
		{name: "bitwise_and_scalar", target: "aten.bitwise_and.Scalar", args: []a{{"self", ints(0, 16, 6)}, {"other", 6}}},
		{name: "bitwise_or_scalar", target: "aten.bitwise_or.Scalar", args: []a{{"self", bools(6)}, {"other", true}}},
		{name: "bitwise_xor", target: "aten.bitwise_xor.Tensor", args: []a{{"self", bools(6)}, {"other", bools(6)}}},
		{name: "clamp_min", target: "aten.clamp_min.default", args: []a{{"self", x}, {"min", 0.5}}},
		{name: "clamp_max", target: "aten.clamp_max.default", args: []a{{"self", ints(-9, 9, 6)}, {"max", 2}}},
		// Copies, views and shapes.
		{name: "clone", target: "aten.clone.default", args: []a{{"self", x}}},
		{name: "alias", target: "aten.alias.default", args: []a{{"self", x}}},
		{name: "detach", target: "aten.detach.default", args: []a{{"self", x}}},
		{name: "lift_fresh_copy", target: "aten.lift_fresh_copy.default", args: []a{{"self", x}}},
		{name: "contiguous", target: "aten.contiguous.default", args: []a{{"self", x}}},
		{name: "to_copy_int", target: "aten._to_copy.default", args: []a{{"self", x}, {"dtype", ir.Int64}}},
		{name: "to_copy_bool", target: "aten._to_copy.default", args: []a{{"self", ints(-2, 2, 6)}, {"dtype", ir.Bool}}},
		{name: "to_copy_f64", target: "aten._to_copy.default", args: []a{{"self", x}, {"dtype", ir.Float64}}},
		{name: "copy", target: "aten.copy.default", args: []a{{"self", x}, {"src", ints(0, 5, 4)}}},
		{name: "assert_tensor_metadata", target: "aten._assert_tensor_metadata.default", args: []a{{"a", x}, {"dtype", ir.Float32}}, noOutput: true},
		{name: "dropout_eval", target: "aten.dropout.default", args: []a{{"input", x}, {"p", 0.5}, {"train", false}}},
		{name: "view", target: "aten.view.default", args: []a{{"self", x}, {"size", []int64{-1, 4}}}},
		{name: "unsafe_view", target: "aten._unsafe_view.default", args: []a{{"self", x}, {"size", []int64{4, 6}}}},
		{name: "reshape", target: "aten.reshape.default", args: []a{{"self", x}, {"shape", []int64{2, 12}}}},
		{name: "permute", target: "aten.permute.default", args: []a{{"self", x}, {"dims", []int64{2, 0, -2}}}},
		{name: "transpose", target: "aten.transpose.int", args: []a{{"self", x}, {"dim0", -1}, {"dim1", 0}}},
		{name: "t", target: "aten.t.default", args: []a{{"self", randn(3, 5)}}},
		{name: "unsqueeze", target: "aten.unsqueeze.default", args: []a{{"self", x}, {"dim", -1}}},
		{name: "squeeze_dim", target: "aten.squeeze.dim", args: []a{{"self", randn(3, 1, 2)}, {"dim", 1}}},
		{name: "squeeze_dim_not_one", target: "aten.squeeze.dim", args: []a{{"self", randn(3, 1, 2)}, {"dim", 0}}},
		{name: "squeeze_dims", target: "aten.squeeze.dims", args: []a{{"self", randn(1, 3, 1, 2)}, {"dim", []int64{0, 2, 3}}}},
		{name: "squeeze_all", target: "aten.squeeze.default", args: []a{{"self", randn(1, 3, 1, 2)}}},
		{name: "expand", target: "aten.expand.default", args: []a{{"self", randn(3, 1)}, {"size", []int64{2, -1, 4}}}},
		{name: "slice", target: "aten.slice.Tensor", args: []a{{"self", x}, {"dim", 2}, {"start", 1}, {"end", 100}, {"step", 2}}},
		{name: "slice_negative", target: "aten.slice.Tensor", args: []a{{"self", x}, {"dim", -1}, {"start", -3}, {"end", -1}}},
		{name: "slice_open", target: "aten.slice.Tensor", args: []a{{"self", x}, {"dim", 1}, {"start", nil}, {"end", 2}}},
		{name: "narrow", target: "aten.narrow.default", args: []a{{"self", x}, {"dim", 2}, {"start", 1}, {"length", 2}}},
		{name: "select", target: "aten.select.int", args: []a{{"self", x}, {"dim", 1}, {"index", -1}}},
		{name: "cat", target: "aten.cat.default", args: []a{{"tensors", []*tensor.Tensor{x, randn(2, 3, 2)}}, {"dim", -1}}},
		{name: "cat_promote", target: "aten.cat.default", args: []a{{"tensors", []*tensor.Tensor{x, ints(0, 4, 2, 3, 4)}}, {"dim", 0}}},
		{name: "stack", target: "aten.stack.default", args: []a{{"tensors", []*tensor.Tensor{x, randn(2, 3, 4)}}, {"dim", 1}}},
		{name: "split_with_sizes", target: "aten.split_with_sizes.default", args: []a{{"self", x}, {"split_sizes", []int64{1, 3}}, {"dim", 2}}, outs: 2, list: true},
		{name: "split", target: "aten.split.Tensor", args: []a{{"self", randn(2, 7)}, {"split_size", 3}, {"dim", 1}}, outs: 3, list: true},
		{name: "unbind", target: "aten.unbind.int", args: []a{{"self", x}, {"dim", 1}}, outs: 3, list: true},
		{name: "repeat", target: "aten.repeat.default", args: []a{{"self", randn(2, 3)}, {"repeats", []int64{2, 1, 3}}}},
		{name: "flip", target: "aten.flip.default", args: []a{{"self", x}, {"dims", []int64{0, -1}}}},
		{name: "constant_pad_nd", target: "aten.constant_pad_nd.default", args: []a{{"self", x}, {"pad", []int64{1, 2, 0, 1}}, {"value", 0.5}}},
		{name: "tril", target: "aten.tril.default", args: []a{{"self", randn(4, 5)}, {"diagonal", 1}}},
		{name: "triu", target: "aten.triu.default", args: []a{{"self", randn(2, 4, 5)}, {"diagonal", -1}}},
		// Made from sizes and values.
		{name: "full", target: "aten.full.default", args: []a{{"size", []int64{2, 3}}, {"fill_value", 1.5}, {"dtype", ir.Float32}}},
		{name: "full_int", target: "aten.full.default", args: []a{{"size", []int64{3}}, {"fill_value", 7}, {"dtype", ir.Int64}}},
		{name: "zeros", target: "aten.zeros.default", args: []a{{"size", []int64{2, 3}}, {"dtype", ir.Float32}}},
		{name: "ones", target: "aten.ones.default", args: []a{{"size", []int64{2, 3}}, {"dtype", ir.Int32}}},
		{name: "empty", target: "aten.empty.memory_format", args: []a{{"size", []int64{2, 3}}, {"dtype", ir.Float32}}, shapeOnly: true},
		{name: "empty_strided", target: "aten.empty_strided.default", args: []a{{"size", []int64{2, 3}}, {"stride", []int64{3, 1}}, {"dtype", ir.Float32}}, shapeOnly: true},
		{name: "empty_permuted", target: "aten.empty_permuted.default", args: []a{{"size", []int64{2, 3}}, {"physical_layout", []int64{1, 0}}, {"dtype", ir.Float32}}, shapeOnly: true},
		{name: "full_like", target: "aten.full_like.default", args: []a{{"self", x}, {"fill_value", 3}}},
		{name: "zeros_like", target: "aten.zeros_like.default", args: []a{{"self", x}}},
		{name: "ones_like", target: "aten.ones_like.default", args: []a{{"self", ints(0, 3, 4)}}},
		{name: "empty_like", target: "aten.empty_like.default", args: []a{{"self", x}}, shapeOnly: true},
		{name: "new_full", target: "aten.new_full.default", args: []a{{"self", x}, {"size", []int64{3}}, {"fill_value", 2.0}}},
		{name: "new_zeros", target: "aten.new_zeros.default", args: []a{{"self", x}, {"size", []int64{3, 1}}}},
		{name: "new_ones", target: "aten.new_ones.default", args: []a{{"self", x}, {"size", []int64{2}}}},
		{name: "new_empty", target: "aten.new_empty.default", args: []a{{"self", x}, {"size", []int64{2}}}, shapeOnly: true},
		{name: "scalar_tensor", target: "aten.scalar_tensor.default", args: []a{{"s", 2.5}, {"dtype", ir.Float32}}},
		{name: "arange_start_step", target: "aten.arange.start_step", args: []a{{"start", 1}, {"end", 10}, {"step", 3}}},
		{name: "arange_float", target: "aten.arange.start_step", args: []a{{"start", 0.5}, {"end", 2.0}, {"step", 0.25}}},
		{name: "arange", target: "aten.arange.default", args: []a{{"end", 5}}},
		{name: "arange_start", target: "aten.arange.start", args: []a{{"start", -2}, {"end", 3}}},
		{name: "embedding", target: "aten.embedding.default", args: []a{{"weight", randn(10, 4)}, {"indices", ints(0, 10, 2, 3)}}},
		{name: "index_select", target: "aten.index_select.default", args: []a{{"self", x}, {"dim", 2}, {"index", ints(0, 4, 5)}}},
		{name: "gather", target: "aten.gather.default", args: []a{{"self", x}, {"dim", 1}, {"index", ints(0, 3, 2, 2, 4)}}},
		{name: "index_one", target: "aten.index.Tensor", args: []a{{"self", x}, {"indices", optTensors{nil, ints(-3, 3, 5)}}}},
		{name: "index_two_front", target: "aten.index.Tensor", args: []a{{"self", x}, {"indices", optTensors{ints(0, 2, 2, 1), ints(0, 3, 3)}}}},
		{name: "index_two_adjacent", target: "aten.index.Tensor", args: []a{{"self", randn(2, 3, 4, 5)}, {"indices", optTensors{nil, idx, ints(0, 4, 2)}}}},
		{name: "index_two_apart", target: "aten.index.Tensor", args: []a{{"self", randn(2, 3, 4, 5)}, {"indices", optTensors{nil, idx, nil, ints(0, 5, 2)}}}},
		{name: "unsafe_index", target: "aten._unsafe_index.Tensor", args: []a{{"self", x}, {"indices", optTensors{ints(0, 2, 3)}}}},
		// Normalisation, softmax, pooling.
		{name: "batch_norm", target: "aten._native_batch_norm_legit_no_training.default", args: []a{{"input", img}, {"weight", ch()}, {"bias", ch()},
			{"running_mean", ch()}, {"running_var", positive(4)}, {"momentum", 0.1}, {"eps", 1e-5}}, outs: 3},
		{name: "batch_norm_no_affine", target: "aten._native_batch_norm_legit_no_training.default", args: []a{{"input", img}, {"weight", nil}, {"bias", nil},
			{"running_mean", ch()}, {"running_var", positive(4)}, {"momentum", 0.1}, {"eps", 1e-3}}, outs: 3},
		{name: "batch_norm_legit_eval", target: "aten._native_batch_norm_legit.default", args: []a{{"input", img}, {"weight", ch()}, {"bias", ch()},
			{"running_mean", ch()}, {"running_var", positive(4)}, {"training", false}, {"momentum", 0.1}, {"eps", 1e-5}}, outs: 3},
		{name: "layer_norm", target: "aten.native_layer_norm.default", args: []a{{"input", x}, {"normalized_shape", []int64{3, 4}}, {"weight", randn(3, 4)}, {"bias", nil}, {"eps", 1e-5}}, outs: 3},
		{name: "layer_norm_plain", target: "aten.layer_norm.default", args: []a{{"input", x}, {"normalized_shape", []int64{4}}}},
		{name: "group_norm", target: "aten.native_group_norm.default", args: []a{{"input", img}, {"weight", ch()}, {"bias", ch()}, {"N", 2}, {"C", 4}, {"HxW", 36}, {"group", 2}, {"eps", 1e-5}}, outs: 3},
		{name: "softmax", target: "aten._softmax.default", args: []a{{"self", x}, {"dim", 1}, {"half_to_float", false}}},
		{name: "softmax_int", target: "aten.softmax.int", args: []a{{"self", x}, {"dim", -1}}},
		{name: "safe_softmax", target: "aten._safe_softmax.default", args: []a{{"self", x}, {"dim", -1}}},
		{name: "log_softmax", target: "aten._log_softmax.default", args: []a{{"self", x}, {"dim", 0}, {"half_to_float", false}}},
		{name: "log_softmax_int", target: "aten.log_softmax.int", args: []a{{"self", x}, {"dim", 2}}},
		{name: "max_pool", target: "aten.max_pool2d_with_indices.default", args: []a{{"self", img}, {"kernel_size", []int64{3, 3}}, {"stride", []int64{2, 2}}, {"padding", []int64{1, 1}}}, outs: 2},
		{name: "max_pool_ceil", target: "aten.max_pool2d_with_indices.default", args: []a{{"self", img}, {"kernel_size", []int64{2, 2}}, {"stride", []int64{}}, {"ceil_mode", true}}, outs: 2},
		{name: "avg_pool", target: "aten.avg_pool2d.default", args: []a{{"self", img}, {"kernel_size", []int64{3, 3}}, {"stride", []int64{2, 2}}, {"padding", []int64{1, 1}}}},
		{name: "avg_pool_no_pad_count", target: "aten.avg_pool2d.default", args: []a{{"self", img}, {"kernel_size", []int64{3, 3}}, {"stride", []int64{1, 1}}, {"padding", []int64{1, 1}}, {"ceil_mode", false}, {"count_include_pad", false}}},
		{name: "avg_pool1d", target: "aten.avg_pool1d.default", args: []a{{"self", seq}, {"kernel_size", []int64{2}}, {"stride", []int64{2}}},
			want: []*tensor.Tensor{pairMeans(seq)}},
		{name: "adaptive_avg_pool_1x1", target: "aten._adaptive_avg_pool2d.default", args: []a{{"self", img}, {"output_size", []int64{1, 1}}}},
		{name: "adaptive_avg_pool_2x3", target: "aten.adaptive_avg_pool2d.default", args: []a{{"self", img}, {"output_size", []int64{2, 3}}}},
		// Reductions.
		{name: "sum_dims", target: "aten.sum.dim_IntList", args: []a{{"self", x}, {"dim", []int64{0, -1}}, {"keepdim", true}}},
		{name: "sum_all_dims", target: "aten.sum.dim_IntList", args: []a{{"self", x}, {"dim", []int64{}}}},
		{name: "sum_bools", target: "aten.sum.dim_IntList", args: []a{{"self", bools(3, 4)}, {"dim", []int64{1}}}},
		{name: "sum", target: "aten.sum.default", args: []a{{"self", ints(-5, 5, 3, 4)}}},
		{name: "mean_dim", target: "aten.mean.dim", args: []a{{"self", x}, {"dim", []int64{1}}}},
		{name: "mean", target: "aten.mean.default", args: []a{{"self", x}}},
		{name: "amax", target: "aten.amax.default", args: []a{{"self", x}, {"dim", []int64{1, 2}}, {"keepdim", true}}},
		{name: "amin", target: "aten.amin.default", args: []a{{"self", x}, {"dim", []int64{0}}}},
		{name: "prod_dim", target: "aten.prod.dim_int", args: []a{{"self", x}, {"dim", 2}}},
		{name: "prod", target: "aten.prod.default", args: []a{{"self", positive(2, 3)}}},
		{name: "logsumexp", target: "aten.logsumexp.default", args: []a{{"self", x}, {"dim", []int64{-1}}}},
		{name: "any_dim", target: "aten.any.dim", args: []a{{"self", bools(3, 4)}, {"dim", 1}}},
		{name: "any_dims", target: "aten.any.dims", args: []a{{"self", ints(0, 2, 3, 4)}, {"dim", []int64{0}}, {"keepdim", true}}},
		{name: "any", target: "aten.any.default", args: []a{{"self", bools(3, 4)}}},
		{name: "all_dim", target: "aten.all.dim", args: []a{{"self", bools(3, 4)}, {"dim", 0}}},
		{name: "all", target: "aten.all.default", args: []a{{"self", x}}},
		{name: "max_dim", target: "aten.max.dim", args: []a{{"self", x}, {"dim", 1}}, outs: 2},
		{name: "min_dim", target: "aten.min.dim", args: []a{{"self", x}, {"dim", -1}, {"keepdim", true}}, outs: 2},
		{name: "argmax", target: "aten.argmax.default", args: []a{{"self", x}, {"dim", 2}}},
		{name: "argmax_flat", target: "aten.argmax.default", args: []a{{"self", x}}},
		{name: "argmin_keep", target: "aten.argmin.default", args: []a{{"self", x}, {"dim", 0}, {"keepdim", true}}},
		{name: "var_correction", target: "aten.var.correction", args: []a{{"self", x}, {"dim", []int64{1}}, {"correction", 1}}},
		{name: "var_dim", target: "aten.var.dim", args: []a{{"self", x}, {"dim", []int64{0, 2}}, {"unbiased", false}, {"keepdim", true}}},
		{name: "std", target: "aten.std.correction", args: []a{{"self", x}, {"dim", []int64{-1}}}},
		{name: "cumsum", target: "aten.cumsum.default", args: []a{{"self", x}, {"dim", 1}}},
		{name: "cumsum_int", target: "aten.cumsum.default", args: []a{{"self", bools(5)}, {"dim", 0}}},
		// Sizes, unboxing and checks.
		{name: "sym_size", target: "aten.sym_size.int", args: []a{{"self", x}, {"dim", 2}}},
		{name: "sym_numel", target: "aten.sym_numel.default", args: []a{{"self", x}}},
		{name: "local_scalar_dense", target: "aten._local_scalar_dense.default", args: []a{{"self", tensor.Scalar(int64(42))}}},
		{name: "local_scalar_dense_f64", target: "aten._local_scalar_dense.default", args: []a{{"self", tensor.Scalar(2.5)}}},
		{name: "local_scalar_dense_bool", target: "aten._local_scalar_dense.default", args: []a{{"self", tensor.Scalar(true)}}},
		{name: "item", target: "aten.item.default", args: []a{{"self", f32s([]float32{3.5}, 1)}}},
		{name: "assert_scalar", target: "aten._assert_scalar.default", args: []a{{"self", symBool(true)}, {"assert_msg", "ok"}}, noOutput: true},
		{name: "sym_constrain_range", target: "aten.sym_constrain_range.default", args: []a{{"size", symInt(3)}, {"min", 0}}, noOutput: true},
		{name: "sym_constrain_range_for_size", target: "aten.sym_constrain_range_for_size.default", args: []a{{"size", symInt(3)}}, noOutput: true},
		{name: "assert_async", target: "aten._assert_async.msg", args: []a{{"self", tensor.Scalar(true)}, {"assert_msg", "ok"}}, noOutput: true},
	}
	// Python scalar arithmetic on symbolic inputs, with Python's rounding.
	for _, op := range []string{"add", "sub", "mul", "floordiv", "mod", "pow", "eq", "ne", "lt", "le", "gt", "ge", "truediv"} {
		cs = append(cs,
			opCase{name: op + "_ints", target: "_operator." + op, args: []a{{"a", symInt(-7)}, {"b", symInt(3)}}},
			opCase{name: op + "_floats", target: "_operator." + op, args: []a{{"a", symFloat(-7.5)}, {"b", symInt(2)}}})
	}
	cs = append(cs,
		opCase{name: "pow_ints_positive", target: "_operator.pow", args: []a{{"a", symInt(3)}, {"b", symInt(4)}}},
		opCase{name: "mod_positive", target: "_operator.mod", args: []a{{"a", symInt(7)}, {"b", symInt(-3)}}},
		opCase{name: "neg", target: "_operator.neg", args: []a{{"a", symInt(5)}}},
		opCase{name: "pos", target: "_operator.pos", args: []a{{"a", symFloat(5.5)}}},
		opCase{name: "abs", target: "_operator.abs", args: []a{{"a", symInt(-5)}}},
		opCase{name: "and", target: "_operator.and_", args: []a{{"a", symBool(true)}, {"b", symBool(false)}}},
		opCase{name: "and_ints", target: "_operator.and_", args: []a{{"a", symInt(6)}, {"b", symInt(3)}}},
		opCase{name: "or", target: "_operator.or_", args: []a{{"a", symBool(true)}, {"b", symBool(false)}}},
		opCase{name: "not", target: "_operator.not_", args: []a{{"a", symInt(0)}}},
		opCase{name: "sym_not", target: "torch.sym_not", args: []a{{"a", symBool(true)}}},
		opCase{name: "floor", target: "math.floor", args: []a{{"x", symFloat(-2.5)}}},
		opCase{name: "ceil", target: "math.ceil", args: []a{{"x", symFloat(-2.5)}}},
		opCase{name: "trunc", target: "math.trunc", args: []a{{"x", symFloat(-2.5)}}},
		opCase{name: "sqrt", target: "math.sqrt", args: []a{{"x", symInt(10)}}},
		opCase{name: "sym_sqrt", target: "torch.sym_sqrt", args: []a{{"a", symFloat(2.25)}}},
		opCase{name: "sym_float", target: "torch.sym_float", args: []a{{"a", symInt(7)}}},
		opCase{name: "sym_int", target: "torch.sym_int", args: []a{{"a", symFloat(-3.75)}}},
		opCase{name: "sym_max", target: "torch.sym_max", args: []a{{"a", symInt(7)}, {"b", symInt(9)}}},
		opCase{name: "sym_min", target: "torch.sym_min", args: []a{{"a", symFloat(7)}, {"b", symInt(9)}}},
		opCase{name: "sym_ite", target: "torch.sym_ite", args: []a{{"b", symBool(false)}, {"t", symInt(1)}, {"f", symInt(2)}}},
	)
	return cs
}
