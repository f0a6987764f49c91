package tensor

import "math"

// F16 is an IEEE 754 binary16 value, stored as its bits.
type F16 uint16

// BF16 is a bfloat16 value (the top half of a float32), stored as its bits.
type BF16 uint16

// Float32 widens h exactly.
func (h F16) Float32() float32 { return math.Float32frombits(f16ToF32Bits(uint16(h))) }

// Float32 widens b exactly.
func (b BF16) Float32() float32 { return math.Float32frombits(uint32(b) << 16) }

// ToFloat16 rounds f to the nearest binary16, ties to even, as c10::Half does.
func ToFloat16(f float32) F16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int(b >> 23 & 0xff)
	mant := b & 0x7fffff
	if exp == 0xff {
		if mant != 0 {
			return F16(sign | 0x7e00) // quiet NaN
		}
		return F16(sign | 0x7c00)
	}
	e := exp - 127 + 15
	if e >= 0x1f {
		return F16(sign | 0x7c00)
	}
	if e <= 0 {
		if e < -10 {
			return F16(sign)
		}
		mant |= 0x800000
		shift := uint(14 - e)
		r := mant >> shift
		rem := mant & (1<<shift - 1)
		half := uint32(1) << (shift - 1)
		if rem > half || (rem == half && r&1 == 1) {
			r++
		}
		return F16(sign | uint16(r))
	}
	// A carry out of the mantissa correctly bumps the exponent (up to inf).
	r := uint32(e)<<10 | mant>>13
	rem := mant & 0x1fff
	if rem > 0x1000 || (rem == 0x1000 && r&1 == 1) {
		r++
	}
	return F16(sign | uint16(r))
}

// ToBFloat16 rounds f to the nearest bfloat16, ties to even, as c10::BFloat16 does.
func ToBFloat16(f float32) BF16 {
	b := math.Float32bits(f)
	if f != f {
		return BF16(uint16(b>>16) | 0x0040) // keep it a quiet NaN
	}
	b += 0x7fff + (b>>16)&1
	return BF16(b >> 16)
}

func f16ToF32Bits(h uint16) uint32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h & 0x3ff)
	switch {
	case exp == 0x1f:
		return sign | 0x7f800000 | mant<<13
	case exp != 0:
		return sign | (exp+112)<<23 | mant<<13
	case mant == 0:
		return sign
	}
	// Subnormal half: normalise into a float32 exponent.
	e := uint32(127 - 15 + 1)
	for mant&0x400 == 0 {
		mant <<= 1
		e--
	}
	return sign | e<<23 | (mant&0x3ff)<<13
}
