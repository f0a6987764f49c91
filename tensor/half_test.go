package tensor

import (
	"math"
	"testing"
)

func TestFloat16KnownValues(t *testing.T) {
	cases := []struct {
		f    float32
		bits uint16
	}{
		{0, 0}, {1, 0x3c00}, {-2, 0xc000}, {65504, 0x7bff}, {65520, 0x7c00}, // rounds to inf
		{float32(math.Ldexp(1, -24)), 0x0001}, {float32(math.Ldexp(1, -25)), 0}, // tie to even (0)
		{float32(math.Ldexp(3, -25)), 0x0002}, {float32(math.Ldexp(1, -14)), 0x0400},
		{1 + float32(math.Ldexp(1, -11)), 0x3c00}, // tie to even
		{1 + float32(math.Ldexp(3, -11)), 0x3c02}, // tie to even (up)
		{float32(math.Inf(-1)), 0xfc00}, {0.1, 0x2e66}, {float32(math.Copysign(0, -1)), 0x8000},
	}
	for _, c := range cases {
		if got := ToFloat16(c.f); uint16(got) != c.bits {
			t.Errorf("ToFloat16(%g) = %#04x, want %#04x", c.f, uint16(got), c.bits)
		}
	}
	if h := ToFloat16(float32(math.NaN())); h.Float32() == h.Float32() {
		t.Error("NaN lost")
	}
}

func TestFloat16RoundTripsEveryValue(t *testing.T) {
	for b := range 1 << 16 {
		h := F16(b)
		f := h.Float32()
		if f != f {
			continue
		}
		if got := ToFloat16(f); got != h {
			t.Fatalf("%#04x -> %g -> %#04x", b, f, uint16(got))
		}
	}
}

func TestBFloat16(t *testing.T) {
	for b := range 1 << 16 {
		h := BF16(b)
		f := h.Float32()
		if f != f {
			continue
		}
		if got := ToBFloat16(f); got != h {
			t.Fatalf("%#04x -> %g -> %#04x", b, f, uint16(got))
		}
	}
	// 1 + 2^-8 is halfway between 1 and 1+2^-7: ties to even gives 1.
	if got := ToBFloat16(1 + 1.0/256); got.Float32() != 1 {
		t.Errorf("tie: got %g", got.Float32())
	}
	if got := ToBFloat16(1 + 3.0/256); got.Float32() != 1+2.0/128 {
		t.Errorf("tie up: got %g", got.Float32())
	}
}
