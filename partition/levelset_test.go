package partition

import (
	"testing"

	"pgregory.net/rapid"
)

// TestLevelSet holds the bit tree against a plain slice of booleans, with
// sizes that need one, two and three layers.
func TestLevelSet(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.SampledFrom([]int{1, 63, 64, 65, 700, 4097, 300_000}).Draw(t, "n")
		s, ref := newLevelSet(n), make([]bool, n)
		for range rapid.IntRange(1, 200).Draw(t, "ops") {
			x := int32(rapid.IntRange(0, n-1).Draw(t, "x"))
			if rapid.Bool().Draw(t, "fromTop") { // rapid favours small values
				x = int32(n-1) - x
			}
			switch rapid.IntRange(0, 3).Draw(t, "op") {
			case 0:
				s.add(x)
				ref[x] = true
			case 1:
				s.remove(x)
				ref[x] = false
			case 2:
				want := int32(-1)
				for i := x; i >= 0; i-- {
					if ref[i] {
						want = i
						break
					}
				}
				if got := s.prev(x); got != want {
					t.Fatalf("prev(%d) = %d, want %d", x, got, want)
				}
			case 3:
				want := int32(-1)
				for i := int(x); i < n; i++ {
					if ref[i] {
						want = int32(i)
						break
					}
				}
				if got := s.next(x); got != want {
					t.Fatalf("next(%d) = %d, want %d", x, got, want)
				}
			}
			if s.has(x) != ref[x] {
				t.Fatalf("has(%d) = %v", x, s.has(x))
			}
		}
	})
}
