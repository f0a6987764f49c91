package tensor

// Pool recycles tensor headers and storages so that an executor running the
// same program again allocates nothing. It is not safe for concurrent use:
// give each executor its own.
//
// Ownership: a header made by the pool (Empty, Header) goes back to it on
// Release. A storage made by the pool goes back once every header that
// views it has been released; storages from elsewhere (weights, user
// inputs) are never recycled, so releasing a view of a weight is safe.
// Releasing a tensor that is still in use is the caller's bug: its storage
// may be handed out again.
type Pool struct {
	free    map[int][]*Storage // by byte length
	headers []*Tensor
}

// NewPool makes an empty pool.
func NewPool() *Pool { return &Pool{free: map[int][]*Storage{}} }

// Header returns a blank header that goes back to p on Release; fill it
// with a view method (h.Permute(x, dims)).
func (p *Pool) Header() *Tensor {
	if n := len(p.headers); n > 0 {
		t := p.headers[n-1]
		p.headers = p.headers[:n-1]
		return t
	}
	return &Tensor{pool: p}
}

// Empty returns a contiguous tensor whose contents are unspecified (a
// recycled storage keeps old values), as torch.empty.
func (p *Pool) Empty(dt DType, sizes []int) (*Tensor, error) {
	n, err := checkShape(dt, sizes)
	if err != nil {
		return nil, err
	}
	t := p.Header()
	t.setContiguous(dt, sizes, p.storage(n*dt.Size()), 0)
	return t, nil
}

// Zeros is Empty with the contents cleared.
func (p *Pool) Zeros(dt DType, sizes []int) (*Tensor, error) {
	t, err := p.Empty(dt, sizes)
	if err != nil {
		return nil, err
	}
	clear(t.storage.data)
	return t, nil
}

func (p *Pool) storage(n int) *Storage {
	if l := p.free[n]; len(l) > 0 {
		s := l[len(l)-1]
		p.free[n] = l[:len(l)-1]
		return s
	}
	return &Storage{data: alignedBytes(n), pool: p}
}

func (p *Pool) putStorage(s *Storage) {
	p.free[len(s.data)] = append(p.free[len(s.data)], s)
}

// Release recycles a header p made: it drops the header's hold on its
// storage and keeps the header for reuse; t must not be used afterwards.
// Tensors p did not make (weights, user inputs) are left untouched, so an
// executor may release every dead value. Releasing nil is a no-op.
func (p *Pool) Release(t *Tensor) {
	if t == nil || t.pool != p {
		return
	}
	t.setStorage(nil)
	t.sizes, t.strides = t.sizes[:0], t.strides[:0]
	t.offset, t.dtype = 0, Invalid
	p.headers = append(p.headers, t)
}

// Reset forgets every recycled storage (for example after running with a
// much larger input), letting the garbage collector take them.
func (p *Pool) Reset() {
	clear(p.free)
}
