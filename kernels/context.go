package kernels

import (
	"github.com/seam-rt/seam/kernels/internal/par"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// Context is what a kernel runs with: the pool its outputs come from and
// scratch space reused across calls. One per goroutine.
type Context struct {
	Pool *tensor.Pool
	// Threads is the most goroutines a kernel may split its work across
	// (matrix products, convolutions, large elementwise ops); 0 or 1 runs
	// everything on the calling goroutine. Results do not depend on it.
	Threads int
	// temps are pooled tensors a kernel made for itself (dtype casts),
	// released when it finishes.
	temps []*tensor.Tensor
	f64   []float64
	f32   []float32
	ints  []int
	mask  []bool // reduceDims
	shape []int  // gatherReduction's result shape
	dims  []int  // reduceArgs
	// hwc8 holds the depthwise convolutions' pixel tables by geometry.
	hwc8 map[hwc8Geometry]*hwc8Pixels
}

// BeginRun says that a run whose kernels may split (Threads above 1) has
// begun, and EndRun that it is over: in between, the process's workers
// watch for the run's splits through its serial ops instead of parking
// in the longer gaps, from which they would wake too late for the next
// split. A call without Threads above 1 does nothing; the two pair up.
func (c *Context) BeginRun() {
	if c.Threads > 1 {
		par.BeginRun()
	}
}

// EndRun ends BeginRun (with the same Threads).
func (c *Context) EndRun() {
	if c.Threads > 1 {
		par.EndRun()
	}
}

// Splits counts, process-wide, the kernels that have cut their work in
// chunks for other goroutines so far (regions), and the chunks those
// goroutines ran (helped). Across a run on several threads, regions
// unchanged says no kernel of the run was large enough to split; helped
// far below regions, that the other goroutines rarely got a core.
func Splits() (regions, helped uint64) { return par.Offers(), par.Served() }

// NewContext makes a Context with a fresh pool.
func NewContext() *Context { return &Context{Pool: tensor.NewPool()} }

// Release returns a value's tensors to the pool once the executor is done
// with it (see the package documentation on memory).
func (c *Context) Release(v value.Value) {
	switch v.Kind() {
	case value.Tensor:
		c.Pool.Release(v.Tensor())
	case value.TensorList, value.OptTensorList:
		for _, t := range v.Tensors() {
			c.Pool.Release(t)
		}
	}
}

func (c *Context) empty(dt tensor.DType, sizes []int) (*tensor.Tensor, error) {
	return c.Pool.Empty(dt, sizes)
}

func (c *Context) header() *tensor.Tensor { return c.Pool.Header() }

// temp makes a pooled tensor that is released by releaseTemps.
func (c *Context) temp(dt tensor.DType, sizes []int) (*tensor.Tensor, error) {
	t, err := c.Pool.Empty(dt, sizes)
	if err == nil {
		c.temps = append(c.temps, t)
	}
	return t, err
}

func (c *Context) releaseTemps() {
	for i, t := range c.temps {
		c.Pool.Release(t)
		c.temps[i] = nil
	}
	c.temps = c.temps[:0]
}

// scratchF64 is a reusable float64 buffer of length n.
func (c *Context) scratchF64(n int) []float64 {
	if cap(c.f64) < n {
		c.f64 = make([]float64, n)
	}
	return c.f64[:n]
}

// scratchF32 is a reusable float32 buffer of length n.
func (c *Context) scratchF32(n int) []float32 {
	if cap(c.f32) < n {
		c.f32 = make([]float32, n)
	}
	return c.f32[:n]
}

// scratchInts is a reusable int buffer of length n.
func (c *Context) scratchInts(n int) []int {
	if cap(c.ints) < n {
		c.ints = make([]int, n)
	}
	return c.ints[:n]
}

// tensorList reuses a TensorList slot's backing slice when it can.
func tensorList(slot value.Value, n int) []*tensor.Tensor {
	if l := slot.Tensors(); cap(l) >= n && slot.Kind() == value.TensorList {
		return l[:n]
	}
	return make([]*tensor.Tensor, n)
}

// filled makes the op's result: a tensor of dtype dt and the given sizes,
// every element v.
func (c *Context) filled(out []value.Value, dt tensor.DType, sizes []int, v value.Value) error {
	if err := checkFits(v, dt); err != nil {
		return err
	}
	r, err := c.empty(dt, sizes)
	if err != nil {
		return err
	}
	fillScalar(r, v)
	out[0] = value.FromTensor(r)
	return nil
}
