package batch

import (
	"errors"
	"fmt"
	"slices"

	"github.com/seam-rt/seam/ir"
)

// A rule checks one node that reads the batch and returns which of its
// outputs carry it (the others become tainted): it must compute sample i
// of those from sample i of its batched inputs and from shared values
// only. The finder then checks each such output's metadata.
type rule func(s *site) ([]int, error)

// site is the node a rule checks; the rule sets axis when the batch is
// not dim 0 of its outputs.
type site struct {
	f    *finder
	n    *ir.Node
	i    int
	axis int
}

// axisAware are the ops whose rules follow a batch that is not dim 0;
// every other rule is given only batched inputs whose batch is dim 0.
var axisAware = map[string]bool{
	"aten.permute.default": true, "aten.transpose.int": true, "aten.select.int": true,
	"aten.unbind.int": true, "aten.unsqueeze.default": true, "aten.squeeze.dim": true,
	"aten.slice.Tensor": true,
}

var first = []int{0}

// rules are the ops that keep samples apart, by op name.
var rules = map[string]rule{}

func init() {
	for _, op := range []string{
		// Unary and binary pointwise ops, and copies: every tensor
		// operand broadcasts to the output.
		"aten.abs.default", "aten.add.Scalar", "aten.add.Tensor", "aten.alias.default",
		"aten.bitwise_not.default", "aten.clamp.default", "aten.clamp.Tensor",
		"aten.clamp_max.default", "aten.clamp_min.default", "aten.clone.default",
		"aten.contiguous.default", "aten.cos.default", "aten.detach.default",
		"aten.div.Scalar", "aten.div.Tensor", "aten.div.Tensor_mode", "aten.elu.default",
		"aten.eq.Scalar", "aten.eq.Tensor", "aten.erf.default", "aten.exp.default",
		"aten.ge.Scalar", "aten.ge.Tensor", "aten.gelu.default", "aten.gt.Scalar",
		"aten.gt.Tensor", "aten.hardsigmoid.default", "aten.hardswish.default",
		"aten.hardtanh.default", "aten.le.Scalar", "aten.le.Tensor", "aten.leaky_relu.default",
		"aten.lift_fresh_copy.default", "aten.log.default", "aten.logical_and.default",
		"aten.logical_not.default", "aten.logical_or.default", "aten.lt.Scalar",
		"aten.lt.Tensor", "aten.masked_fill.Scalar", "aten.masked_fill.Tensor",
		"aten.maximum.default", "aten.minimum.default", "aten.mul.Scalar", "aten.mul.Tensor",
		"aten.ne.Scalar", "aten.ne.Tensor", "aten.neg.default", "aten.pow.Scalar",
		"aten.pow.Tensor_Scalar", "aten.pow.Tensor_Tensor", "aten.reciprocal.default",
		"aten.relu.default", "aten.rsqrt.default", "aten.rsub.Scalar", "aten.rsub.Tensor",
		"aten.sigmoid.default", "aten.silu.default", "aten.sin.default", "aten.sqrt.default",
		"aten.sub.Scalar", "aten.sub.Tensor", "aten.tanh.default", "aten.where.self",
		"aten._to_copy.default",
	} {
		rules[op] = pointwise
		axisAware[op] = true
	}
	// Attention mixes the rows of its last two dims (the sequence), so the
	// batch must be a dim before them: dim 0 of q, k and v of rank 3 or
	// more, the mask broadcasting as a pointwise operand does.
	rules["aten.scaled_dot_product_attention.default"] = func(s *site) ([]int, error) {
		for _, name := range []string{"query", "key", "value"} {
			if a, _, ok := s.arg(name); ok && s.f.roles[a.Name] == batched && s.rank(name) < 3 {
				return nil, fmt.Errorf("its %s of rank %d has the batch among the rows it mixes", name, s.rank(name))
			}
		}
		return pointwise(s)
	}
	// Convolutions and pools: one sample's planes from its own.
	rules["aten.convolution.default"] = func(s *site) ([]int, error) {
		if err := s.only("input"); err != nil {
			return nil, err
		}
		if s.rank("input") != s.rank("weight") {
			return nil, fmt.Errorf("input of rank %d for a weight of rank %d", s.rank("input"), s.rank("weight"))
		}
		return first, nil
	}
	for op, rank := range map[string]int{
		"aten.max_pool2d_with_indices.default": 4, "aten.max_pool2d.default": 4,
		"aten.avg_pool2d.default": 4, "aten.adaptive_avg_pool2d.default": 4,
		"aten._adaptive_avg_pool2d.default": 4, "aten.max_pool1d.default": 3,
		"aten.avg_pool1d.default": 3, "aten.adaptive_avg_pool1d.default": 3,
		"aten.upsample_nearest2d.default": 4, "aten.upsample_nearest2d.vec": 4,
		"aten.upsample_bilinear2d.default": 4, "aten.upsample_bilinear2d.vec": 4,
	} {
		rules[op] = func(s *site) ([]int, error) {
			if err := s.only("self", "input"); err != nil {
				return nil, err
			}
			if r := s.rank(s.firstTensor()); r != rank {
				return nil, fmt.Errorf("input of rank %d, want the batched form's %d", r, rank)
			}
			return s.all(), nil
		}
	}
	rules["aten._native_batch_norm_legit_no_training.default"] = func(s *site) ([]int, error) {
		if err := s.only("input"); err != nil {
			return nil, err
		}
		if s.rank("input") < 2 {
			return nil, fmt.Errorf("input of rank %d", s.rank("input"))
		}
		return first, nil // the saved statistics are empty in inference
	}
	norm := func(outs []int) rule {
		return func(s *site) ([]int, error) {
			if err := s.only("input"); err != nil {
				return nil, err
			}
			shape, err := s.ints("normalized_shape")
			if err != nil {
				return nil, err
			}
			if len(shape) >= s.rank("input") {
				return nil, fmt.Errorf("normalizes %d dims of %d, the batch among them", len(shape), s.rank("input"))
			}
			return outs, nil
		}
	}
	rules["aten.native_layer_norm.default"] = norm([]int{0, 1, 2})
	rules["aten.layer_norm.default"] = norm(first)
	// Matrix products with the batch in the left operand's rows.
	rules["aten.addmm.default"] = func(s *site) ([]int, error) {
		if err := s.only("mat1"); err != nil {
			return nil, err
		}
		return first, s.rowBias("self")
	}
	rules["aten.mm.default"] = func(s *site) ([]int, error) { return first, s.only("self") }
	rules["aten.linear.default"] = func(s *site) ([]int, error) {
		if err := s.only("input"); err != nil {
			return nil, err
		}
		if s.rank("input") < 2 {
			return nil, fmt.Errorf("input of rank %d", s.rank("input"))
		}
		return first, s.rowBias("bias")
	}
	rules["aten.matmul.default"] = func(s *site) ([]int, error) {
		if a, _, ok := s.arg("other"); ok && s.f.roles[a.Name] == batched {
			// Both batched: a product per sample (attention's scores).
			if s.rank("self") != s.rank("other") || s.rank("self") < 3 {
				return nil, fmt.Errorf("operands of rank %d and %d", s.rank("self"), s.rank("other"))
			}
			return first, s.paired("self", "other")
		}
		if err := s.only("self"); err != nil {
			return nil, err
		}
		if s.rank("self") < 2 || s.rank("other") > 2 {
			return nil, fmt.Errorf("operands of rank %d and %d", s.rank("self"), s.rank("other"))
		}
		return first, nil
	}
	rules["aten.bmm.default"] = func(s *site) ([]int, error) { return first, s.paired("self", "mat2") }
	rules["aten.embedding.default"] = func(s *site) ([]int, error) { return first, s.only("indices") }
	// Reductions, scans and softmax over other dims.
	for _, op := range []string{
		"aten.mean.dim", "aten.sum.dim_IntList", "aten.amax.default", "aten.amin.default",
		"aten.var.correction", "aten.var.dim", "aten.std.correction", "aten.std.dim",
		"aten.linalg_vector_norm.default", "aten.logsumexp.default", "aten.any.dims",
	} {
		rules[op] = func(s *site) ([]int, error) {
			if err := s.only("self"); err != nil {
				return nil, err
			}
			dims, err := s.ints("dim")
			if err != nil {
				return nil, err
			}
			if len(dims) == 0 {
				return nil, fmt.Errorf("reduces every dim, the batch among them")
			}
			for _, d := range dims {
				if err := s.notBatch(d, s.rank("self")); err != nil {
					return nil, err
				}
			}
			return first, nil
		}
	}
	for _, op := range []string{
		"aten._softmax.default", "aten.softmax.int", "aten._log_softmax.default",
		"aten.log_softmax.int", "aten.cumsum.default", "aten.argmax.default",
		"aten.argmin.default", "aten.max.dim", "aten.min.dim", "aten.prod.dim_int",
		"aten.any.dim", "aten.topk.default", "aten.sort.default",
	} {
		rules[op] = func(s *site) ([]int, error) {
			if err := s.only("self"); err != nil {
				return nil, err
			}
			return s.all(), s.dimNotBatch("dim", s.rank("self"), false)
		}
	}
	// Views and copies that keep dim 0 whole.
	for _, op := range []string{"aten.view.default", "aten.reshape.default", "aten._unsafe_view.default"} {
		rules[op] = func(s *site) ([]int, error) {
			if err := s.only("self"); err != nil {
				return nil, err
			}
			return first, s.batchSize(s.sizeArg())
		}
	}
	rules["aten.expand.default"] = func(s *site) ([]int, error) {
		if err := s.only("self"); err != nil {
			return nil, err
		}
		size, err := s.ints("size")
		if err != nil {
			return nil, err
		}
		if len(size) != s.rank("self") {
			return nil, fmt.Errorf("adds leading dims in front of the batch")
		}
		return first, s.batchSize("size")
	}
	rules["aten.permute.default"] = func(s *site) ([]int, error) {
		if err := s.only("self"); err != nil {
			return nil, err
		}
		dims, err := s.ints("dims")
		if err != nil {
			return nil, err
		}
		a := s.axisOf("self")
		for j, d := range dims {
			if wrap(d, s.rank("self")) == int64(a) {
				s.axis = j
				return first, nil
			}
		}
		return nil, fmt.Errorf("drops the batch (dims %v)", dims)
	}
	rules["aten.transpose.int"] = func(s *site) ([]int, error) {
		if err := s.only("self"); err != nil {
			return nil, err
		}
		d0, err0 := s.dim("dim0", s.rank("self"))
		d1, err1 := s.dim("dim1", s.rank("self"))
		if err := errors.Join(err0, err1); err != nil {
			return nil, err
		}
		switch a := s.axisOf("self"); a {
		case d0:
			s.axis = d1
		case d1:
			s.axis = d0
		default:
			s.axis = a
		}
		return first, nil
	}
	rules["aten.unsqueeze.default"] = func(s *site) ([]int, error) {
		if err := s.only("self"); err != nil {
			return nil, err
		}
		d, err := s.dim("dim", s.rank("self")+1)
		if err != nil {
			return nil, err
		}
		s.axis = s.axisOf("self")
		if d <= s.axis {
			s.axis++
		}
		return first, nil
	}
	rules["aten.squeeze.dim"] = func(s *site) ([]int, error) {
		if err := s.only("self"); err != nil {
			return nil, err
		}
		return first, s.across("dim", false)
	}
	rules["aten.squeeze.dims"] = rules["aten.mean.dim"]
	rules["aten.flatten.using_ints"] = func(s *site) ([]int, error) {
		if err := s.only("self"); err != nil {
			return nil, err
		}
		return first, s.dimNotBatch("start_dim", s.rank("self"), false)
	}
	for _, op := range []string{"aten.split.Tensor", "aten.split_with_sizes.default", "aten.chunk.default"} {
		rules[op] = func(s *site) ([]int, error) {
			if err := s.only("self"); err != nil {
				return nil, err
			}
			return s.all(), s.dimNotBatch("dim", s.rank("self"), false)
		}
	}
	// Along another dim than the batch's: it stays, one dim further in
	// when a dim before it goes (select, unbind).
	rules["aten.slice.Tensor"] = func(s *site) ([]int, error) {
		if err := s.only("self"); err != nil {
			return nil, err
		}
		s.axis = s.axisOf("self")
		return s.all(), s.across("dim", true)
	}
	for _, op := range []string{"aten.select.int", "aten.unbind.int"} {
		rules[op] = func(s *site) ([]int, error) {
			if err := s.only("self"); err != nil {
				return nil, err
			}
			return s.all(), s.across("dim", false)
		}
	}
	rules["aten.constant_pad_nd.default"] = func(s *site) ([]int, error) {
		if err := s.only("self"); err != nil {
			return nil, err
		}
		pad, err := s.ints("pad")
		if err != nil {
			return nil, err
		}
		if len(pad)/2 >= s.rank("self") {
			return nil, fmt.Errorf("pads the batch")
		}
		return first, nil
	}
	joins := func(extra int) rule {
		return func(s *site) ([]int, error) {
			a, _, ok := s.arg("tensors")
			if !ok {
				return nil, fmt.Errorf("no tensors")
			}
			rank := -1
			for _, name := range a.Refs() {
				if s.f.roles[name] != batched {
					return nil, fmt.Errorf("joins %s, which does not carry the batch", name)
				}
				if rank < 0 {
					rank = s.meta(name).rankOr()
				}
			}
			return first, s.dimNotBatch("dim", rank+extra, false)
		}
	}
	rules["aten.cat.default"] = joins(0)
	rules["aten.stack.default"] = joins(1)
	// A metadata check reads the batch only through the sizes it asserts.
	rules["aten._assert_tensor_metadata.default"] = func(s *site) ([]int, error) {
		for _, name := range []string{"size", "stride"} {
			if a, _, ok := s.arg(name); ok && a.Kind != ir.ArgNone {
				return nil, fmt.Errorf("asserts the %s", name)
			}
		}
		return nil, nil
	}
}

// pointwise: every tensor operand broadcasts to the output, a batched one
// with the output's rank (so its dim 0 is the output's), a shared one
// with fewer dims or a dim 0 of 1.
func pointwise(s *site) ([]int, error) {
	if len(s.n.Outputs) == 0 {
		return nil, fmt.Errorf("no output")
	}
	out := s.outMeta(0)
	if out == nil {
		return nil, fmt.Errorf("output has no metadata")
	}
	rank := len(out.Sizes)
	axis := -1
	s.n.ForEachInputRef(func(name string) {
		if s.f.roles[name] == batched && axis < 0 {
			axis = s.f.axes[name]
		}
	})
	if axis >= rank {
		return nil, fmt.Errorf("output of rank %d", rank)
	}
	for j := range s.n.Inputs {
		var err error
		s.n.Inputs[j].Arg.ForEachRef(func(name string) {
			m := s.meta(name)
			if m == nil {
				return // a symbolic scalar
			}
			switch s.f.roles[name] {
			case batched:
				if len(m.Sizes) != rank || s.f.axes[name] != axis || m.Sizes[axis] != out.Sizes[axis] {
					err = fmt.Errorf("%s (rank %d) broadcasts to rank %d, which moves the batch", name, len(m.Sizes), rank)
				}
			case shared:
				// Aligned from the right, the shared operand's dim facing
				// the batch must be 1, or absent.
				if d := axis - (rank - len(m.Sizes)); d >= 0 && !(m.Sizes[d].IsStatic() && m.Sizes[d].Int == 1) {
					err = fmt.Errorf("%s does not carry the batch but spans its dim", name)
				}
			}
		})
		if err != nil {
			return nil, err
		}
	}
	s.axis = axis
	return first, nil
}

// arg returns the input with schema name name and its index.
func (s *site) arg(name string) (*ir.Argument, int, bool) {
	for j := range s.n.Inputs {
		if s.n.Inputs[j].Name == name {
			return &s.n.Inputs[j].Arg, j, true
		}
	}
	return nil, -1, false
}

// only: no tensor input but those named carries the batch (one of them
// does, since the node reads it).
func (s *site) only(names ...string) error {
	for j := range s.n.Inputs {
		in := &s.n.Inputs[j]
		if slices.Contains(names, in.Name) {
			continue
		}
		var err error
		in.Arg.ForEachRef(func(v string) {
			if s.f.roles[v] == batched && err == nil {
				err = fmt.Errorf("its %s (%s) carries the batch", in.Name, v)
			}
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// paired: both inputs carry the batch, with the same rows (a product
// per row).
func (s *site) paired(x, y string) error {
	a, _, _ := s.arg(x)
	b, _, _ := s.arg(y)
	if a == nil || b == nil || s.f.roles[a.Name] != batched || s.f.roles[b.Name] != batched {
		return fmt.Errorf("its %s and %s do not both carry the batch", x, y)
	}
	if s.meta(a.Name).Sizes[0] != s.meta(b.Name).Sizes[0] {
		return fmt.Errorf("its %s and %s have different rows", x, y)
	}
	return nil
}

// firstTensor names the first tensor input.
func (s *site) firstTensor() string {
	for j := range s.n.Inputs {
		if s.n.Inputs[j].Arg.Kind == ir.ArgTensor {
			return s.n.Inputs[j].Name
		}
	}
	return ""
}

// rowBias: a bias added to a batched product's rows must have one row.
func (s *site) rowBias(name string) error {
	a, _, ok := s.arg(name)
	if !ok || a.Kind != ir.ArgTensor {
		return nil
	}
	m := s.meta(a.Name)
	if m == nil || len(m.Sizes) <= 1 || m.Sizes[0].IsStatic() && m.Sizes[0].Int == 1 {
		return nil
	}
	return fmt.Errorf("its %s spans the batch's rows", name)
}

// meta is a value's metadata, nil for a non-tensor.
func (s *site) meta(name string) *meta { return (*meta)(s.f.g.TensorValues[name]) }

func (s *site) outMeta(k int) *ir.TensorMeta {
	if k >= len(s.n.Outputs) || s.n.Outputs[k].Kind != ir.ArgTensor {
		return nil
	}
	return s.f.g.TensorValues[s.n.Outputs[k].Name]
}

type meta ir.TensorMeta

func (m *meta) rankOr() int {
	if m == nil {
		return 0
	}
	return len(m.Sizes)
}

// rank is the rank of the tensor input named, 0 when it is none.
func (s *site) rank(name string) int {
	a, _, ok := s.arg(name)
	if !ok || a.Kind != ir.ArgTensor {
		return 0
	}
	return s.meta(a.Name).rankOr()
}

// all lists every output.
func (s *site) all() []int {
	out := make([]int, len(s.n.Outputs))
	for k := range out {
		out[k] = k
	}
	return out
}

// ints reads a static int list input (a single int reads as one; an
// absent or None one as none).
func (s *site) ints(name string) ([]int64, error) {
	a, _, ok := s.arg(name)
	if !ok || a.Kind == ir.ArgNone {
		return nil, nil
	}
	v, symbolic, ok := a.IntList()
	switch {
	case symbolic:
		return nil, fmt.Errorf("its %s is symbolic", name)
	case !ok:
		return nil, fmt.Errorf("its %s is a %s", name, a.Kind)
	}
	return v, nil
}

// axisOf is the batch dim of the tensor input named.
func (s *site) axisOf(name string) int {
	a, _, _ := s.arg(name)
	if a == nil {
		return 0
	}
	return s.f.axes[a.Name]
}

// dim reads the int input name, a dim of a tensor of rank rank,
// normalized.
func (s *site) dim(name string, rank int) (int, error) {
	a, _, ok := s.arg(name)
	if !ok || a.Kind != ir.ArgInt && !(a.Kind == ir.ArgSymInt && a.Name == "") {
		return 0, fmt.Errorf("no static %s", name)
	}
	d := wrap(a.Int, rank)
	if d < 0 || d >= int64(rank) {
		return 0, fmt.Errorf("%s %d is out of range for rank %d", name, a.Int, rank)
	}
	return int(d), nil
}

// across: the op works along the dim input name (0 when absent), which
// must not be self's batch dim; keep says the dim stays in the output,
// else it goes and the batch moves in when it came before.
func (s *site) across(name string, keep bool) error {
	d := 0
	if _, _, ok := s.arg(name); ok {
		var err error
		if d, err = s.dim(name, s.rank("self")); err != nil {
			return err
		}
	}
	a := s.axisOf("self")
	if d == a {
		return fmt.Errorf("works along dim %d, the batch", d)
	}
	s.axis = a
	if !keep && d < a {
		s.axis--
	}
	return nil
}

// wrap normalizes a dim as torch does (negative from the end).
func wrap(d int64, rank int) int64 {
	if d < 0 {
		return d + int64(rank)
	}
	return d
}

func (s *site) notBatch(d int64, rank int) error {
	if wrap(d, rank) == 0 {
		return fmt.Errorf("works along dim %d, the batch", d)
	}
	return nil
}

// dimNotBatch: the int input name, a dim of a tensor of rank rank, is
// not 0. An absent one defaults to 0 unless required says the schema
// has no default (then absent is malformed).
func (s *site) dimNotBatch(name string, rank int, required bool) error {
	a, _, ok := s.arg(name)
	if !ok || a.Kind == ir.ArgNone {
		if required {
			return fmt.Errorf("no %s", name)
		}
		return fmt.Errorf("works along every dim or dim 0, the batch")
	}
	if a.Kind != ir.ArgInt && !(a.Kind == ir.ArgSymInt && a.Name == "") {
		return fmt.Errorf("its %s is a %s", name, a.Kind)
	}
	return s.notBatch(a.Int, rank)
}

// sizeArg names a view's size input (reshape calls it shape).
func (s *site) sizeArg() string {
	if _, _, ok := s.arg("shape"); ok {
		return "shape"
	}
	return "size"
}

// batchSize: the size list input name has the batch (rewritten for a
// smaller one) or -1 (inferred) at position 0.
func (s *site) batchSize(name string) error {
	size, err := s.ints(name)
	if err != nil {
		return err
	}
	_, j, _ := s.arg(name)
	switch {
	case len(size) == 0:
		return fmt.Errorf("no %s", name)
	case size[0] > 0 && size[0]%s.f.n == 0:
		s.f.sizes = append(s.f.sizes, argRef{node: s.i, input: j})
		return nil
	case size[0] == -1:
		return nil
	}
	return fmt.Errorf("its %s %v does not keep the batch (%d) as dim 0", name, size, s.f.n)
}
