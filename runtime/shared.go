package runtime

import (
	"sync"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/kernels"
	"github.com/seam-rt/seam/kernels/gemm"
	"github.com/seam-rt/seam/tensor"
)

// sharedConsts holds what a program and the programs of its batch's parts
// (samples.go) would each derive from the same weights: the weights as
// tensors, batch norm folded into a convolution's weight and bias, and
// packed matrix-product operands. The parts are the same graph at other
// sizes, so without it every part size (and every binding of a symbolic
// batch) would hold a copy of the model's folded and packed weights.
// Entries are keyed by what they are made from, by pointer: the programs
// share the ir's weights (ir.Program.Clone, specialize.Program), so they
// get the same tensors, and so the same folds and packs.
type sharedConsts struct {
	mu      sync.Mutex
	weights map[*ir.Weight]*tensor.Tensor
	folds   map[foldKey][2]*tensor.Tensor
	packs   map[packKey]*gemm.PackedB
	convs   map[*tensor.Tensor]*kernels.PackedConvWeight
}

type foldKey struct {
	w, bias *tensor.Tensor
	p       [4]*tensor.Tensor
	eps     float64
}

type packKey struct {
	w     *tensor.Tensor
	trans bool
}

func newSharedConsts() *sharedConsts {
	return &sharedConsts{
		weights: map[*ir.Weight]*tensor.Tensor{},
		folds:   map[foldKey][2]*tensor.Tensor{},
		packs:   map[packKey]*gemm.PackedB{},
		convs:   map[*tensor.Tensor]*kernels.PackedConvWeight{},
	}
}

// once returns m (one of s's maps) at k, made by mk the first time it
// succeeds.
func once[K comparable, V any](s *sharedConsts, m map[K]V, k K, mk func() (V, error)) (V, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if v, ok := m[k]; ok {
		return v, nil
	}
	v, err := mk()
	if err == nil {
		m[k] = v
	}
	return v, err
}
