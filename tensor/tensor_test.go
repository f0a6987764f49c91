package tensor

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"
)

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func arange(n int, sizes ...int) *Tensor {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(i)
	}
	return must(FromSlice(v, sizes...))
}

func TestNewAndErrors(t *testing.T) {
	x := must(New(Float32, 2, 3))
	if x.Numel() != 6 || !x.IsContiguous() || !EqualInts(x.Strides(), []int{3, 1}) || x.Type() != "f32[2, 3]" {
		t.Fatalf("got %v strides %v", x.Type(), x.Strides())
	}
	for _, bad := range [][]int{{-1}, {1 << 30, 1 << 30, 1 << 30}} {
		if _, err := New(Float32, bad...); err == nil {
			t.Errorf("New(%v) succeeded", bad)
		}
	}
	if _, err := New(DType(9), 1); err == nil {
		t.Error("complex dtype accepted")
	}
	if _, err := FromSlice([]int64{1, 2, 3}, 2, 2); err == nil {
		t.Error("length mismatch accepted")
	}
	s := Scalar(int64(7))
	if s.Dim() != 0 || s.Numel() != 1 || s.Int() != 7 {
		t.Errorf("scalar %v", s)
	}
}

func TestFromBytesIsZeroCopy(t *testing.T) {
	buf := alignedBytes(6 * 4)
	for i := range 6 {
		binary.LittleEndian.PutUint32(buf[4*i:], math.Float32bits(float32(i)))
	}
	x := must(FromBytes(Float32, []int{3}, []int{2}, 1, buf))
	if got := x.Float64s(); got[0] != 1 || got[1] != 3 || got[2] != 5 {
		t.Fatalf("values %v", got)
	}
	binary.LittleEndian.PutUint32(buf[4:], math.Float32bits(42))
	if x.Float(0) != 42 {
		t.Error("FromBytes copied an aligned buffer")
	}
	// Misaligned buffers are copied, still correct.
	y := must(FromBytes(Float32, []int{2}, nil, 0, buf[1:9]))
	if y.Numel() != 2 {
		t.Error("misaligned")
	}
	bad := []struct {
		sizes, strides []int
		off            int
	}{
		{[]int{7}, nil, 0}, {[]int{3}, []int{2}, 2}, {[]int{2}, []int{1}, -1}, {[]int{2}, []int{-1}, 1}, {[]int{2, 2}, []int{1}, 0},
	}
	for _, c := range bad {
		if _, err := FromBytes(Float32, c.sizes, c.strides, c.off, buf); err == nil {
			t.Errorf("FromBytes(%v, %v, %d) succeeded", c.sizes, c.strides, c.off)
		}
	}
	if _, err := FromBytes(Bool, []int{2}, nil, 0, []byte{1, 2}); err == nil {
		t.Error("bool byte 2 accepted")
	}
	e := must(FromBytes(Float32, []int{0, 5}, nil, 0, nil))
	if e.Numel() != 0 {
		t.Error("empty")
	}
}

func TestContiguity(t *testing.T) {
	x := arange(24, 2, 3, 4)
	p := must(new(Tensor).Permute(x, []int{0, 2, 1}))
	if p.IsContiguous() {
		t.Error("permuted tensor reported contiguous")
	}
	u := must(new(Tensor).Unsqueeze(x, 1))
	if !u.IsContiguous() || !EqualInts(u.Strides(), []int{12, 12, 4, 1}) {
		t.Errorf("unsqueeze strides %v", u.Strides())
	}
	// Size-1 dims may have any stride.
	odd := must(FromBytes(Float32, []int{1, 3}, []int{99, 1}, 0, alignedBytes(12)))
	if !odd.IsContiguous() {
		t.Error("size-1 dim stride mattered")
	}
}

func TestViewsMatchLogicalIndexing(t *testing.T) {
	x := arange(24, 2, 3, 4)
	p := must(new(Tensor).Permute(x, []int{2, 0, 1}))
	if !EqualInts(p.Sizes(), []int{4, 2, 3}) || p.Float(3, 1, 2) != x.Float(1, 2, 3) {
		t.Errorf("permute %v", p)
	}
	tr := must(new(Tensor).Transpose(x, -1, 0))
	if tr.Float(3, 2, 1) != x.Float(1, 2, 3) {
		t.Error("transpose")
	}
	s := must(new(Tensor).Slice(x, 2, 1, 100, 2))
	if !EqualInts(s.Sizes(), []int{2, 3, 2}) || s.Float(1, 1, 1) != x.Float(1, 1, 3) {
		t.Errorf("slice %v", s.Sizes())
	}
	s = must(new(Tensor).Slice(x, 1, -2, math.MaxInt64, 1))
	if s.Size(1) != 2 || s.Float(0, 0, 0) != x.Float(0, 1, 0) {
		t.Error("negative start")
	}
	e := must(new(Tensor).Slice(x, 1, 5, 2, 1))
	if e.Size(1) != 0 {
		t.Error("empty slice")
	}
	sel := must(new(Tensor).Select(x, 1, -1))
	if !EqualInts(sel.Sizes(), []int{2, 4}) || sel.Float(1, 3) != x.Float(1, 2, 3) {
		t.Error("select")
	}
	q := must(new(Tensor).Squeeze(must(new(Tensor).Unsqueeze(x, -1)), []int{-1, 0}))
	if !EqualInts(q.Sizes(), []int{2, 3, 4}) {
		t.Errorf("squeeze %v", q.Sizes())
	}
	ex := must(new(Tensor).Expand(must(new(Tensor).Slice(x, 1, 0, 1, 1)), []int{5, 2, 3, 4}))
	if !EqualInts(ex.Sizes(), []int{5, 2, 3, 4}) || !EqualInts(ex.Strides(), []int{0, 12, 0, 1}) || ex.Float(4, 1, 2, 3) != x.Float(1, 0, 3) {
		t.Errorf("expand %v %v", ex.Sizes(), ex.Strides())
	}
	n := must(new(Tensor).Narrow(x, 2, 1, 2))
	if n.Size(2) != 2 || n.Float(0, 0, 0) != 1 {
		t.Error("narrow")
	}
	a := new(Tensor).Alias(x)
	if a.Storage() != x.Storage() || !a.SameShape(x) {
		t.Error("alias")
	}
}

func TestViewErrors(t *testing.T) {
	x := arange(24, 2, 3, 4)
	z := new(Tensor)
	checks := map[string]error{}
	_, checks["permute rank"] = z.Permute(x, []int{0, 1})
	_, checks["permute repeat"] = z.Permute(x, []int{0, 1, 1})
	_, checks["permute range"] = z.Permute(x, []int{0, 1, 3})
	_, checks["transpose"] = z.Transpose(x, 0, 5)
	_, checks["expand nonsingleton"] = z.Expand(x, []int{2, 5, 4})
	_, checks["expand rank"] = z.Expand(x, []int{3, 4})
	_, checks["expand leading -1"] = z.Expand(x, []int{-1, 2, 3, 4})
	_, checks["view numel"] = z.View(x, []int{5, 5})
	_, checks["view two -1"] = z.View(x, []int{-1, -1})
	_, checks["view strided"] = z.View(must(new(Tensor).Permute(x, []int{1, 0, 2})), []int{24})
	_, checks["select range"] = z.Select(x, 0, 2)
	_, checks["slice step"] = z.Slice(x, 0, 0, 1, 0)
	_, checks["unsqueeze"] = z.Unsqueeze(x, 5)
	_, checks["narrow"] = z.Narrow(x, 0, 1, 2)
	_, checks["as_strided bounds"] = z.AsStrided(x, []int{5}, []int{5}, 4)
	for name, err := range checks {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	_, err := z.Select(Scalar(float32(1)), 0, 0)
	if err == nil || !strings.Contains(err.Error(), "0-dim") {
		t.Errorf("select on 0-d: %v", err)
	}
}

func TestReshapeCopiesOnlyWhenNeeded(t *testing.T) {
	x := arange(6, 2, 3)
	r := must(new(Tensor).Reshape(x, []int{3, 2}))
	if r.Storage() != x.Storage() {
		t.Error("reshape of contiguous copied")
	}
	p := must(new(Tensor).Permute(x, []int{1, 0}))
	r = must(new(Tensor).Reshape(p, []int{-1}))
	if r.Storage() == x.Storage() {
		t.Error("reshape of transposed did not copy")
	}
	want := []float64{0, 3, 1, 4, 2, 5}
	for i, v := range r.Float64s() {
		if v != want[i] {
			t.Fatalf("reshape values %v", r.Float64s())
		}
	}
}

func TestCopyBroadcastsAndConverts(t *testing.T) {
	src := must(FromSlice([]int64{-3, 0, 5}, 3))
	dst := must(New(Float32, 2, 3))
	if err := Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if got := dst.Float64s(); got[3] != -3 || got[5] != 5 {
		t.Errorf("copy %v", got)
	}
	b := must(New(Bool, 3))
	if err := Copy(b, src); err != nil {
		t.Fatal(err)
	}
	if got := b.Int64s(); got[0] != 1 || got[1] != 0 || got[2] != 1 {
		t.Errorf("to bool %v", got)
	}
	f := must(FromSlice([]float32{-1.7, 2.9}, 2))
	i := must(New(Int32, 2))
	_ = Copy(i, f)
	if got := i.Int64s(); got[0] != -1 || got[1] != 2 {
		t.Errorf("truncation %v", got)
	}
	h := must(New(Float16, 2))
	_ = Copy(h, f)
	if got := h.Float64s(); math.Abs(got[0]+1.7) > 1e-3 {
		t.Errorf("f16 %v", got)
	}
	big := must(FromSlice([]int64{1<<62 + 1}, 1))
	i64 := must(New(Int64, 1))
	_ = Copy(i64, big)
	if i64.Int(0) != 1<<62+1 {
		t.Error("int64 copy lost precision")
	}
	if err := Copy(must(New(Float32, 2)), src); err == nil {
		t.Error("non-broadcastable copy succeeded")
	}
}

func TestPoolRecyclesOnlyWhatItOwns(t *testing.T) {
	p := NewPool()
	a := must(p.Empty(Float32, []int{4, 4}))
	v := p.Header()
	must(v.Permute(a, []int{1, 0}))
	st := a.Storage()
	p.Release(a)
	if b := must(p.Empty(Float32, []int{16})); b.Storage() == st {
		t.Fatal("storage reused while a view still holds it")
	}
	p.Release(v)
	if c := must(p.Empty(Float32, []int{2, 8})); c.Storage() != st {
		t.Fatal("storage not reused after the last view was released")
	}
	w := arange(4, 4) // not pool-owned
	h := p.Header()
	must(h.Alias(w), nil)
	p.Release(h)
	p.Release(w) // a tensor from elsewhere: untouched
	if w.Storage() == nil || w.Float(3) != 3 {
		t.Fatal("releasing a foreign tensor changed it")
	}
	if d := must(p.Empty(Float32, []int{4})); d.Storage() == w.Storage() {
		t.Fatal("foreign storage recycled")
	}
	if allocs := testing.AllocsPerRun(100, func() {
		x, _ := p.Empty(Float32, []int{8, 8})
		y := p.Header()
		y.Transpose(x, 0, 1)
		p.Release(x)
		p.Release(y)
	}); allocs != 0 {
		t.Errorf("steady state allocates %v per run", allocs)
	}
	z := must(p.Zeros(Float32, []int{2, 8}))
	for _, v := range z.Float64s() {
		if v != 0 {
			t.Fatal("Zeros not zero")
		}
	}
}

func TestAllClose(t *testing.T) {
	a := must(FromSlice([]float32{1, 2, float32(math.NaN())}, 3))
	b := must(FromSlice([]float32{1, 2.0001, float32(math.NaN())}, 3))
	if _, err := AllClose(a, b, 1e-4, 1e-5); err != nil {
		t.Error(err)
	}
	d, err := AllClose(a, b, 1e-6, 1e-6)
	if err == nil || d.Mismatch != 1 || d.Worst != 1 {
		t.Errorf("%+v %v", d, err)
	}
	i := must(FromSlice([]int64{1, 2}, 2))
	j := must(FromSlice([]int64{1, 3}, 2))
	if _, err := AllClose(i, j, 1, 1); err == nil {
		t.Error("ints compared with tolerance")
	}
	if Equal(i, must(FromSlice([]int32{1, 2}, 2))) {
		t.Error("dtype ignored")
	}
	if d := MaxAbsDiff(a, b); d < 9e-5 || d > 1.1e-4 || MaxAbsDiff(a, a) != 0 {
		t.Error("MaxAbsDiff")
	}
}

// TestAllCloseFailsLoudly: a dtype or shape mismatch, or a NaN against a
// number, is an error and an infinite distance, never 0.
func TestAllCloseFailsLoudly(t *testing.T) {
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	a := must(FromSlice([]float32{1, 2, 3}, 3))
	for _, tc := range []struct {
		name      string
		got, want *Tensor
	}{
		{"nan got", must(FromSlice([]float32{1, nan, 3}, 3)), a},
		{"nan want", a, must(FromSlice([]float32{nan, 2, 3}, 3))},
		{"inf", must(FromSlice([]float32{1, 2, inf}, 3)), a},
		{"opposite infinities", must(FromSlice([]float32{1, 2, -inf}, 3)), must(FromSlice([]float32{1, 2, inf}, 3))},
		{"dtype", must(FromSlice([]float64{1, 2, 3}, 3)), a},
		{"shape", must(FromSlice([]float32{1, 2, 3}, 3, 1)), a},
		{"size", must(FromSlice([]float32{1, 2}, 2)), a},
		{"int vs float", must(FromSlice([]int64{1, 2, 3}, 3)), a},
		{"int", must(FromSlice([]int64{1, 2, 3}, 3)), must(FromSlice([]int64{1, 2, 4}, 3))},
		{"bool", must(FromSlice([]bool{true, false}, 2)), must(FromSlice([]bool{true, true}, 2))},
		{"nil", nil, a},
	} {
		d, err := AllClose(tc.got, tc.want, 1e-4, 1e-5)
		if err == nil || d.Mismatch == 0 || d.MaxAbs == 0 {
			t.Errorf("%s: AllClose = %+v, %v; want an error and a distance", tc.name, d, err)
		}
		if tc.name != "int" && tc.name != "bool" && !math.IsInf(d.MaxAbs, 1) {
			t.Errorf("%s: MaxAbs %v, want +Inf", tc.name, d.MaxAbs)
		}
		if m := MaxAbsDiff(tc.got, tc.want); m == 0 || m != m {
			t.Errorf("%s: MaxAbsDiff = %v", tc.name, m)
		}
		if tc.got != nil && Equal(tc.got, tc.want) {
			t.Errorf("%s: Equal", tc.name)
		}
	}
	both := must(FromSlice([]float32{nan, inf, -inf}, 3))
	if d, err := AllClose(both, both, 0, 0); err != nil || d.MaxAbs != 0 || MaxAbsDiff(both, both) != 0 {
		t.Errorf("NaN and infinities against themselves: %+v %v %v", d, err, MaxAbsDiff(both, both))
	}
}
