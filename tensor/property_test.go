package tensor

import (
	"testing"

	"pgregory.net/rapid"
)

func genShape(t *rapid.T) []int {
	return rapid.SliceOfN(rapid.IntRange(0, 4), 0, 5).Draw(t, "sizes")
}

// Permuting, copying to contiguous, and permuting back gives the original
// values in the original order.
func TestPermuteContiguousRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sizes := genShape(t)
		x := arange(Numel(sizes), sizes...)
		perm := rapid.Permutation(seq(len(sizes))).Draw(t, "perm")
		p := must(new(Tensor).Permute(x, perm))
		c := must(Contiguous(p))
		if !c.IsContiguous() {
			t.Fatal("not contiguous")
		}
		inv := make([]int, len(perm))
		for i, d := range perm {
			inv[d] = i
		}
		back := must(new(Tensor).Permute(c, inv))
		if !Equal(must(Clone(back)), x) {
			t.Fatalf("round trip of %v via %v: %v", sizes, perm, back)
		}
	})
}

// Walk visits the same offsets in the same order as the naive odometer,
// with and without coalescing, for permuted, sliced and expanded views.
func TestWalkMatchesNaiveOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sizes := genShape(t)
		x := arange(Numel(sizes)*2, append([]int{2}, sizes...)...)
		v := must(new(Tensor).Select(x, 0, 1))
		v = must(new(Tensor).Permute(v, rapid.Permutation(seq(len(sizes))).Draw(t, "perm")))
		if rapid.Bool().Draw(t, "expand") {
			v = must(new(Tensor).Expand(v, append([]int{3}, v.Sizes()...)))
		}
		var want []int
		forEachOffset(v.sizes, v.strides, v.offset, func(o int) { want = append(want, o) })
		for _, coalesce := range []bool{false, true} {
			var w Walk
			w.Init(v.sizes)
			w.Add(v.strides, v.offset)
			if coalesce {
				w.Coalesce()
			}
			var got []int
			for w.Next() {
				for k := range w.Len {
					got = append(got, w.Off[0]+k*w.Step[0])
				}
			}
			if !EqualInts(got, want) {
				t.Fatalf("coalesce=%v sizes %v strides %v: got %v want %v", coalesce, v.sizes, v.strides, got, want)
			}
			// A walk of at most two dims seen whole as a Grid visits the
			// same offsets.
			w.Init(v.sizes)
			w.Add(v.strides, v.offset)
			if coalesce {
				w.Coalesce()
			}
			g, ok := w.Grid()
			if ok != (w.ndim <= 2 && len(want) > 0) {
				t.Fatalf("sizes %v strides %v (%d dims walked): Grid ok=%v", v.sizes, v.strides, w.ndim, ok)
			}
			if !ok {
				continue
			}
			got = got[:0]
			for r := range g.Rows {
				for c := range g.Cols {
					got = append(got, g.Off[0]+r*g.RowStep[0]+c*g.ColStep[0])
				}
			}
			if !EqualInts(got, want) {
				t.Fatalf("grid, coalesce=%v sizes %v strides %v: got %v want %v", coalesce, v.sizes, v.strides, got, want)
			}
		}
	})
}

// A successful View reads the same values in the same order as the input.
func TestViewPreservesOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sizes := genShape(t)
		x := arange(Numel(sizes), sizes...)
		p := must(new(Tensor).Permute(x, rapid.Permutation(seq(len(sizes))).Draw(t, "perm")))
		n := p.Numel()
		var shape []int
		if n > 0 {
			for rest := n; rest > 1; {
				d := rapid.SampledFrom(divisors(rest)).Draw(t, "d")
				shape = append(shape, d)
				rest /= d
			}
		} else {
			shape = []int{0, 3}
		}
		v, err := new(Tensor).View(p, shape)
		if err != nil {
			return
		}
		a, b := p.Float64s(), v.Float64s()
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("view of %v as %v reorders", p.sizes, shape)
			}
		}
	})
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

func divisors(n int) []int {
	var d []int
	for i := 2; i <= n; i++ {
		if n%i == 0 {
			d = append(d, i)
		}
	}
	return d
}
