package tensor

import "fmt"

// Walk limits: dims after coalescing, and operands per walk.
const (
	MaxWalkDims = 16
	MaxWalkOps  = 4
)

// Walk visits the elements of up to MaxWalkOps strided operands that share
// one shape, one row at a time, in row-major order. Rows are runs along the
// innermost (coalesced) dim, so callers write tight inner loops and pay the
// index arithmetic once per row. It allocates nothing.
//
//	var w tensor.Walk
//	w.Init(out.Sizes())
//	w.Add(out.Strides(), out.Offset())
//	w.Add(x.Strides(), x.Offset())
//	w.Coalesce()
//	for w.Next() { o, a := w.Off[0], w.Off[1]; for i := 0; i < w.Len; i++ { ... } }
type Walk struct {
	// Off holds each operand's element offset at the start of the row.
	Off [MaxWalkOps]int
	// Step holds each operand's stride along the row.
	Step [MaxWalkOps]int
	// Len is the row length.
	Len int

	nops, ndim int
	sizes      [MaxWalkDims]int
	strides    [MaxWalkOps][MaxWalkDims]int
	base       [MaxWalkOps]int
	idx        [MaxWalkDims]int
	started    bool
	empty      bool
	err        error
}

// Init starts a walk over sizes. Rank above MaxWalkDims is reported by Err.
func (w *Walk) Init(sizes []int) {
	*w = Walk{}
	if len(sizes) > MaxWalkDims {
		w.err = fmt.Errorf("tensor: %d dims exceed the %d supported", len(sizes), MaxWalkDims)
		w.empty = true
		return
	}
	w.ndim = len(sizes)
	for i, s := range sizes {
		w.sizes[i] = s
		if s == 0 {
			w.empty = true
		}
	}
}

// Add appends an operand with the given strides (len equal to the shape's
// rank) and storage offset.
func (w *Walk) Add(strides []int, offset int) {
	if w.nops == MaxWalkOps || len(strides) != w.ndim {
		if w.err == nil {
			w.err = fmt.Errorf("tensor: bad walk operand (%d strides for %d dims, %d operands)", len(strides), w.ndim, w.nops)
		}
		w.empty = true
		return
	}
	copy(w.strides[w.nops][:], strides)
	w.base[w.nops] = offset
	w.nops++
}

// Err reports a walk that could not be set up.
func (w *Walk) Err() error { return w.err }

// Coalesce drops size-1 dims and merges adjacent dims that are contiguous
// with each other in every operand, so contiguous operands become one row.
func (w *Walk) Coalesce() {
	nd := 0
	for d := 0; d < w.ndim; d++ {
		if w.sizes[d] == 1 {
			continue
		}
		if nd > 0 {
			prev := nd - 1
			ok := true
			for o := 0; o < w.nops; o++ {
				if w.strides[o][prev] != w.strides[o][d]*w.sizes[d] {
					ok = false
					break
				}
			}
			if ok {
				w.sizes[prev] *= w.sizes[d]
				for o := 0; o < w.nops; o++ {
					w.strides[o][prev] = w.strides[o][d]
				}
				continue
			}
		}
		w.sizes[nd] = w.sizes[d]
		for o := 0; o < w.nops; o++ {
			w.strides[o][nd] = w.strides[o][d]
		}
		nd++
	}
	w.ndim = nd
}

// Grid is a walk of at most two dimensions seen whole, for a caller that
// handles all its rows at once instead of one Next at a time: Rows rows of
// Cols elements, operand o's element (r, c) at Off[o] + r*RowStep[o] +
// c*ColStep[o].
type Grid struct {
	Rows, Cols            int
	Off, RowStep, ColStep [MaxWalkOps]int
}

// Grid returns the walk as a Grid, or false for a walk of more than two
// dimensions (after Coalesce), an empty one, or one already started.
func (w *Walk) Grid() (Grid, bool) {
	var g Grid
	if w.started || w.empty || w.err != nil || w.ndim > 2 {
		return g, false
	}
	g.Rows, g.Cols = 1, 1
	last := w.ndim - 1
	for o := 0; o < w.nops; o++ {
		g.Off[o] = w.base[o]
		if last >= 0 {
			g.ColStep[o] = w.strides[o][last]
		}
		if last >= 1 {
			g.RowStep[o] = w.strides[o][0]
		}
	}
	if last >= 0 {
		g.Cols = w.sizes[last]
	}
	if last >= 1 {
		g.Rows = w.sizes[0]
	}
	return g, true
}

// Next advances to the next row; it returns false when the walk is done.
func (w *Walk) Next() bool {
	if w.empty {
		return false
	}
	if !w.started {
		w.started = true
		if w.ndim == 0 {
			w.Len = 1
			for o := 0; o < w.nops; o++ {
				w.Off[o], w.Step[o] = w.base[o], 0
			}
			return true
		}
		last := w.ndim - 1
		w.Len = w.sizes[last]
		for o := 0; o < w.nops; o++ {
			w.Off[o] = w.base[o]
			w.Step[o] = w.strides[o][last]
		}
		return true
	}
	for d := w.ndim - 2; d >= 0; d-- {
		w.idx[d]++
		if w.idx[d] < w.sizes[d] {
			for o := 0; o < w.nops; o++ {
				w.Off[o] += w.strides[o][d]
			}
			return true
		}
		for o := 0; o < w.nops; o++ {
			w.Off[o] -= (w.idx[d] - 1) * w.strides[o][d]
		}
		w.idx[d] = 0
	}
	w.empty = true
	return false
}
