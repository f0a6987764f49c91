package ops

// atenSchemas lists ATen operator schemas as native_functions.yaml writes
// them (PyTorch 2.11). A leading "core " marks ops tagged core in ATen's
// Core IR (the set run_decompositions() targets by default).
const atenSchemas = `
core _adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor
core _adaptive_avg_pool2d_backward(Tensor grad_output, Tensor self) -> Tensor
core _adaptive_avg_pool3d(Tensor self, SymInt[3] output_size) -> Tensor
core _cdist_forward(Tensor x1, Tensor x2, float p, int? compute_mode) -> Tensor
core _embedding_bag(Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq=False, int mode=0, bool sparse=False, Tensor? per_sample_weights=None, bool include_last_offset=False, int padding_idx=-1) -> (Tensor, Tensor, Tensor, Tensor)
core _local_scalar_dense(Tensor self) -> Scalar
core _log_softmax(Tensor self, int dim, bool half_to_float) -> Tensor
core _native_batch_norm_legit(Tensor input, Tensor? weight, Tensor? bias, Tensor(a!) running_mean, Tensor(b!) running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)
core _native_batch_norm_legit.no_stats(Tensor input, Tensor? weight, Tensor? bias, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)
core _native_batch_norm_legit_no_training(Tensor input, Tensor? weight, Tensor? bias, Tensor running_mean, Tensor running_var, float momentum, float eps) -> (Tensor, Tensor, Tensor)
core _pdist_forward(Tensor self, float p=2) -> Tensor
core _softmax(Tensor self, int dim, bool half_to_float) -> Tensor
core _to_copy(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool non_blocking=False, MemoryFormat? memory_format=None) -> Tensor
core abs(Tensor self) -> Tensor
core acos(Tensor self) -> Tensor
core acosh(Tensor self) -> Tensor
core adaptive_avg_pool1d(Tensor self, int[1] output_size) -> Tensor
core add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor
core add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
core addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor
core alias(Tensor(a) self) -> Tensor(a)
core amax(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor
core amin(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor
core any(Tensor self) -> Tensor
core any.dim(Tensor self, int dim, bool keepdim=False) -> Tensor
core any.dims(Tensor self, int[]? dim=None, bool keepdim=False) -> Tensor
core arange.start_step(Scalar start, Scalar end, Scalar step=1, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
core argmax(Tensor self, int? dim=None, bool keepdim=False) -> Tensor
core argmin(Tensor self, int? dim=None, bool keepdim=False) -> Tensor
core as_strided(Tensor(a) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor(a)
core asin(Tensor self) -> Tensor
core asinh(Tensor self) -> Tensor
core atan(Tensor self) -> Tensor
core atan2(Tensor self, Tensor other) -> Tensor
core atan2.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
core atanh(Tensor self) -> Tensor
core avg_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=0, bool ceil_mode=False, bool count_include_pad=True) -> Tensor
core avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor
core avg_pool2d_backward(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] stride, int[2] padding, bool ceil_mode, bool count_include_pad, int? divisor_override) -> Tensor
core avg_pool3d(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor
core bitwise_and.Scalar(Tensor self, Scalar other) -> Tensor
core bitwise_and.Tensor(Tensor self, Tensor other) -> Tensor
core bitwise_not(Tensor self) -> Tensor
core bitwise_or.Scalar(Tensor self, Scalar other) -> Tensor
core bitwise_or.Tensor(Tensor self, Tensor other) -> Tensor
core bitwise_xor.Scalar(Tensor self, Scalar other) -> Tensor
core bitwise_xor.Tensor(Tensor self, Tensor other) -> Tensor
core bmm(Tensor self, Tensor mat2) -> Tensor
core cat(Tensor[] tensors, int dim=0) -> Tensor
core ceil(Tensor self) -> Tensor
core clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor
core clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor
core clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor
core col2im(Tensor self, SymInt[2] output_size, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] stride) -> Tensor
core constant_pad_nd(Tensor self, SymInt[] pad, Scalar value=0) -> Tensor
core convolution(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding, SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups) -> Tensor
core convolution_backward(Tensor grad_output, Tensor input, Tensor weight, SymInt[]? bias_sizes, SymInt[] stride, SymInt[] padding, SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups, bool[3] output_mask) -> (Tensor, Tensor, Tensor)
core copy(Tensor self, Tensor src, bool non_blocking=False) -> Tensor
core cos(Tensor self) -> Tensor
core cosh(Tensor self) -> Tensor
core cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor
core diagonal(Tensor(a) self, int offset=0, int dim1=0, int dim2=1) -> Tensor(a)
core div.Scalar(Tensor self, Scalar other) -> Tensor
core div.Scalar_mode(Tensor self, Scalar other, *, str? rounding_mode) -> Tensor
core div.Tensor(Tensor self, Tensor other) -> Tensor
core div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor
core elu(Tensor self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1) -> Tensor
core embedding(Tensor weight, Tensor indices, SymInt padding_idx=-1, bool scale_grad_by_freq=False, bool sparse=False) -> Tensor
core embedding_dense_backward(Tensor grad_output, Tensor indices, SymInt num_weights, SymInt padding_idx, bool scale_grad_by_freq) -> Tensor
core empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor
core empty_strided(SymInt[] size, SymInt[] stride, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
core eq.Scalar(Tensor self, Scalar other) -> Tensor
core eq.Tensor(Tensor self, Tensor other) -> Tensor
core erf(Tensor self) -> Tensor
core exp(Tensor self) -> Tensor
core expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a)
core expm1(Tensor self) -> Tensor
core fill.Scalar(Tensor self, Scalar value) -> Tensor
core flip(Tensor self, int[] dims) -> Tensor
core floor(Tensor self) -> Tensor
core fmod.Scalar(Tensor self, Scalar other) -> Tensor
core fmod.Tensor(Tensor self, Tensor other) -> Tensor
core full(SymInt[] size, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
core full_like(Tensor self, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor
core gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor
core ge.Scalar(Tensor self, Scalar other) -> Tensor
core ge.Tensor(Tensor self, Tensor other) -> Tensor
core gelu(Tensor self, *, str approximate='none') -> Tensor
core grid_sampler_2d(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners) -> Tensor
core gt.Scalar(Tensor self, Scalar other) -> Tensor
core gt.Tensor(Tensor self, Tensor other) -> Tensor
core hardtanh(Tensor self, Scalar min_val=-1, Scalar max_val=1) -> Tensor
core index.Tensor(Tensor self, Tensor?[] indices) -> Tensor
core index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor
core index_select(Tensor self, int dim, Tensor index) -> Tensor
core isinf(Tensor self) -> Tensor
core isnan(Tensor self) -> Tensor
core le.Scalar(Tensor self, Scalar other) -> Tensor
core le.Tensor(Tensor self, Tensor other) -> Tensor
core leaky_relu(Tensor self, Scalar negative_slope=0.01) -> Tensor
core log(Tensor self) -> Tensor
core log10(Tensor self) -> Tensor
core log1p(Tensor self) -> Tensor
core log2(Tensor self) -> Tensor
core logical_and(Tensor self, Tensor other) -> Tensor
core logical_not(Tensor self) -> Tensor
core logical_or(Tensor self, Tensor other) -> Tensor
core logical_xor(Tensor self, Tensor other) -> Tensor
core lt.Scalar(Tensor self, Scalar other) -> Tensor
core lt.Tensor(Tensor self, Tensor other) -> Tensor
core masked_scatter(Tensor self, Tensor mask, Tensor source) -> Tensor
core max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
core max_pool2d_with_indices(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)
core max_pool2d_with_indices_backward(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] stride, int[2] padding, int[2] dilation, bool ceil_mode, Tensor indices) -> Tensor
core max_pool3d_with_indices(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, int[3] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)
core maximum(Tensor self, Tensor other) -> Tensor
core mean(Tensor self, *, ScalarType? dtype=None) -> Tensor
core mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
core min.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
core minimum(Tensor self, Tensor other) -> Tensor
core mm(Tensor self, Tensor mat2) -> Tensor
core mul.Scalar(Tensor self, Scalar other) -> Tensor
core mul.Tensor(Tensor self, Tensor other) -> Tensor
core native_dropout(Tensor input, float p, bool? train) -> (Tensor, Tensor)
core native_group_norm(Tensor input, Tensor? weight, Tensor? bias, SymInt N, SymInt C, SymInt HxW, int group, float eps) -> (Tensor, Tensor, Tensor)
core native_group_norm_backward(Tensor grad_out, Tensor input, Tensor mean, Tensor rstd, Tensor? weight, SymInt N, SymInt C, SymInt HxW, int group, bool[3] output_mask) -> (Tensor, Tensor, Tensor)
core native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias, float eps) -> (Tensor, Tensor, Tensor)
core native_layer_norm_backward(Tensor grad_out, Tensor input, SymInt[] normalized_shape, Tensor mean, Tensor rstd, Tensor? weight, Tensor? bias, bool[3] output_mask) -> (Tensor, Tensor, Tensor)
core ne.Scalar(Tensor self, Scalar other) -> Tensor
core ne.Tensor(Tensor self, Tensor other) -> Tensor
core neg(Tensor self) -> Tensor
core nonzero(Tensor self) -> Tensor
core permute(Tensor(a) self, int[] dims) -> Tensor(a)
core pow.Scalar(Scalar self, Tensor exponent) -> Tensor
core pow.Tensor_Scalar(Tensor self, Scalar exponent) -> Tensor
core pow.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor
core prod(Tensor self, *, ScalarType? dtype=None) -> Tensor
core prod.dim_int(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
core rand(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
core randn(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
core randperm(SymInt n, *, ScalarType? dtype=long, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
core reciprocal(Tensor self) -> Tensor
core reflection_pad1d(Tensor self, SymInt[2] padding) -> Tensor
core reflection_pad2d(Tensor self, SymInt[4] padding) -> Tensor
core reflection_pad3d(Tensor self, SymInt[6] padding) -> Tensor
core relu(Tensor self) -> Tensor
core remainder.Scalar(Tensor self, Scalar other) -> Tensor
core remainder.Tensor(Tensor self, Tensor other) -> Tensor
core repeat(Tensor self, SymInt[] repeats) -> Tensor
core replication_pad2d(Tensor self, SymInt[4] padding) -> Tensor
core replication_pad3d(Tensor self, SymInt[6] padding) -> Tensor
core resize_(Tensor(a!) self, SymInt[] size, *, MemoryFormat? memory_format=None) -> Tensor(a!)
core round(Tensor self) -> Tensor
core rsqrt(Tensor self) -> Tensor
core scalar_tensor(Scalar s, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
core scatter.src(Tensor self, int dim, Tensor index, Tensor src) -> Tensor
core scatter.value(Tensor self, int dim, Tensor index, Scalar value) -> Tensor
core scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor
core scatter_reduce.two(Tensor self, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True) -> Tensor
core select.int(Tensor(a) self, int dim, SymInt index) -> Tensor(a)
core select_scatter(Tensor self, Tensor src, int dim, SymInt index) -> Tensor
core sigmoid(Tensor self) -> Tensor
core sign(Tensor self) -> Tensor
core sin(Tensor self) -> Tensor
core sinh(Tensor self) -> Tensor
core slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor(a)
core slice_scatter(Tensor self, Tensor src, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor
core sort(Tensor self, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)
core split_with_sizes(Tensor(a -> *) self, SymInt[] split_sizes, int dim=0) -> Tensor(a)[]
core sqrt(Tensor self) -> Tensor
core squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)
core squeeze.dims(Tensor(a) self, int[] dim) -> Tensor(a)
core sub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor
core sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
core sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
core sym_numel(Tensor self) -> SymInt
core sym_size.int(Tensor self, int dim) -> SymInt
core sym_storage_offset(Tensor self) -> SymInt
core sym_stride.int(Tensor self, int dim) -> SymInt
core tan(Tensor self) -> Tensor
core tanh(Tensor self) -> Tensor
core topk(Tensor self, SymInt k, int dim=-1, bool largest=True, bool sorted=True) -> (Tensor values, Tensor indices)
core trunc(Tensor self) -> Tensor
core unsqueeze(Tensor(a) self, int dim) -> Tensor(a)
core upsample_bilinear2d.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor
core upsample_nearest2d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor
core var.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> Tensor
core var.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> Tensor
core view(Tensor(a) self, SymInt[] size) -> Tensor(a)
core where.self(Tensor condition, Tensor self, Tensor other) -> Tensor
_assert_async.msg(Tensor self, str assert_msg) -> ()
_assert_scalar(Scalar self, str assert_msg) -> ()
_assert_tensor_metadata(Tensor a, SymInt[]? size=None, SymInt[]? stride=None, ScalarType? dtype=None, *, Device? device=None, Layout? layout=None) -> ()
_safe_softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor
_scaled_dot_product_flash_attention_for_cpu(Tensor query, Tensor key, Tensor value, float dropout_p=0.0, bool is_causal=False, *, Tensor? attn_mask=None, float? scale=None) -> (Tensor output, Tensor logsumexp)
_unsafe_index.Tensor(Tensor self, Tensor?[] indices) -> Tensor
_unsafe_view(Tensor self, SymInt[] size) -> Tensor
adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor
add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)
addmv(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) -> Tensor
alias_copy(Tensor self) -> Tensor
all(Tensor self) -> Tensor
all.dim(Tensor self, int dim, bool keepdim=False) -> Tensor
arange(Scalar end, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
arange.start(Scalar start, Scalar end, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
argsort(Tensor self, int dim=-1, bool descending=False) -> Tensor
baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor
chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]
clamp_max(Tensor self, Scalar max) -> Tensor
clamp_min(Tensor self, Scalar min) -> Tensor
contiguous(Tensor(a) self, *, MemoryFormat memory_format=contiguous_format) -> Tensor(a)
copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)
cumprod(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor
detach(Tensor(a) self) -> Tensor(a)
div_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
dot(Tensor self, Tensor tensor) -> Tensor
dropout(Tensor input, float p, bool train) -> Tensor
einsum(str equation, Tensor[] tensors, *, int[]? path=None) -> Tensor
empty_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor
empty_permuted(SymInt[] size, int[] physical_layout, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
erfinv(Tensor self) -> Tensor
exp2(Tensor self) -> Tensor
expand_as(Tensor(a) self, Tensor other) -> Tensor(a)
expand_copy(Tensor self, SymInt[] size, *, bool implicit=False) -> Tensor
fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!)
floor_divide(Tensor self, Tensor other) -> Tensor
gelu_backward(Tensor grad_output, Tensor self, *, str approximate='none') -> Tensor
glu(Tensor self, int dim=-1) -> Tensor
hardsigmoid(Tensor self) -> Tensor
hardswish(Tensor self) -> Tensor
index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor(a!)
isfinite(Tensor self) -> Tensor
item(Tensor self) -> Scalar
layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, Tensor? bias=None, float eps=1e-05, bool cudnn_enable=True) -> Tensor
lerp.Scalar(Tensor self, Tensor end, Scalar weight) -> Tensor
lift_fresh_copy(Tensor self) -> Tensor
linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor
log_softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor
logit(Tensor self, float? eps=None) -> Tensor
logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor
masked_fill.Scalar(Tensor self, Tensor mask, Scalar value) -> Tensor
masked_fill.Tensor(Tensor self, Tensor mask, Tensor value) -> Tensor
matmul(Tensor self, Tensor other) -> Tensor
max(Tensor self) -> Tensor
min(Tensor self) -> Tensor
mish(Tensor self) -> Tensor
mul_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
mv(Tensor self, Tensor vec) -> Tensor
narrow(Tensor(a) self, int dim, SymInt start, SymInt length) -> Tensor(a)
new_empty(Tensor self, SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
new_full(Tensor self, SymInt[] size, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
new_ones(Tensor self, SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
new_zeros(Tensor self, SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
ones(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
ones_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor
outer(Tensor self, Tensor vec2) -> Tensor
permute_copy(Tensor self, int[] dims) -> Tensor
pixel_shuffle(Tensor self, int upscale_factor) -> Tensor
repeat_interleave.self_int(Tensor self, SymInt repeats, int? dim=None, *, SymInt? output_size=None) -> Tensor
reshape(Tensor(a) self, SymInt[] shape) -> Tensor(a)
rms_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, float? eps=None) -> Tensor
roll(Tensor self, SymInt[1] shifts, int[1] dims=[]) -> Tensor
rsub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor
rsub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
scaled_dot_product_attention(Tensor query, Tensor key, Tensor value, Tensor? attn_mask=None, float dropout_p=0.0, bool is_causal=False, *, float? scale=None, bool enable_gqa=False) -> Tensor
select_copy.int(Tensor self, int dim, SymInt index) -> Tensor
silu(Tensor self) -> Tensor
slice_copy.Tensor(Tensor self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor
softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor
softplus(Tensor self, Scalar beta=1, Scalar threshold=20) -> Tensor
split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]
squeeze(Tensor(a) self) -> Tensor(a)
squeeze_copy.dims(Tensor self, int[] dim) -> Tensor
stack(Tensor[] tensors, int dim=0) -> Tensor
std.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> Tensor
sub_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)
sum(Tensor self, *, ScalarType? dtype=None) -> Tensor
sym_constrain_range(Scalar size, *, int? min=None, int? max=None) -> ()
sym_constrain_range_for_size(Scalar size, *, int? min=None, int? max=None) -> ()
t(Tensor(a) self) -> Tensor(a)
t_copy(Tensor self) -> Tensor
transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)
transpose_copy.int(Tensor self, int dim0, int dim1) -> Tensor
tril(Tensor self, int diagonal=0) -> Tensor
triu(Tensor self, int diagonal=0) -> Tensor
unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]
unsqueeze_copy(Tensor self, int dim) -> Tensor
var_mean.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> (Tensor, Tensor)
view_copy(Tensor self, SymInt[] size) -> Tensor
where.Scalar(Tensor condition, Scalar self, Scalar other) -> Tensor
where.ScalarOther(Tensor condition, Tensor self, Scalar other) -> Tensor
where.ScalarSelf(Tensor condition, Scalar self, Tensor other) -> Tensor
zero_(Tensor(a!) self) -> Tensor(a!)
zeros(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
zeros_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor
`

// pythonSchemas are the Python callables that appear as targets for
// symbolic scalar arithmetic, with the parameter names that the exporter
// records (inspect.signature of the callable). Their values are SymInt,
// SymFloat or SymBool at export time and plain scalars at run time.
const pythonSchemas = `
_operator.add(Scalar a, Scalar b) -> Scalar
_operator.sub(Scalar a, Scalar b) -> Scalar
_operator.mul(Scalar a, Scalar b) -> Scalar
_operator.truediv(Scalar a, Scalar b) -> float
_operator.floordiv(Scalar a, Scalar b) -> Scalar
_operator.mod(Scalar a, Scalar b) -> Scalar
_operator.pow(Scalar a, Scalar b) -> Scalar
_operator.neg(Scalar a) -> Scalar
_operator.pos(Scalar a) -> Scalar
_operator.abs(Scalar a) -> Scalar
_operator.eq(Scalar a, Scalar b) -> bool
_operator.ne(Scalar a, Scalar b) -> bool
_operator.lt(Scalar a, Scalar b) -> bool
_operator.le(Scalar a, Scalar b) -> bool
_operator.gt(Scalar a, Scalar b) -> bool
_operator.ge(Scalar a, Scalar b) -> bool
_operator.and_(Scalar a, Scalar b) -> Scalar
_operator.or_(Scalar a, Scalar b) -> Scalar
_operator.not_(Scalar a) -> bool
_operator.getitem(Any a, int b) -> Any
math.trunc(float x) -> int
math.ceil(float x) -> int
math.floor(float x) -> int
math.sqrt(float x) -> float
torch.sym_float(Scalar a) -> float
torch.sym_int(Scalar a) -> int
torch.sym_max(Scalar a, Scalar b) -> Scalar
torch.sym_min(Scalar a, Scalar b) -> Scalar
torch.sym_not(bool a) -> bool
torch.sym_ite(bool b, Any t, Any f) -> Any
torch.sym_sqrt(Scalar a) -> float
`

// higherOrderSchemas are torch.ops.higher_order operators. Their arguments
// are serialized positionally (empty names); subgraphs are GraphModule
// arguments, operands and outputs are lists of any values, and "Any..."
// takes the remaining positional arguments.
const higherOrderSchemas = `
higher_order.cond(bool pred, GraphModule true_fn, GraphModule false_fn, Any[] operands) -> Any[]
higher_order.while_loop(GraphModule cond_fn, GraphModule body_fn, Any[] carried_inputs, Any[] additional_inputs) -> Any[]
higher_order.map_impl(GraphModule f, Any[] xs, Any[] pos_args) -> Any[]
higher_order.wrap_with_set_grad_enabled(bool enable_grad, GraphModule wrapped_func, Any... args) -> Any[]
higher_order.wrap_with_autocast(str? device_type, ScalarType? dtype, bool enabled, bool? cache_enabled, GraphModule wrapped_func, Any... args) -> Any[]
`
