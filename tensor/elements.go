package tensor

import "unsafe"

// loadFloat reads element off (in elements) of a buffer of dtype dt.
func loadFloat(dt DType, b []byte, off int) float64 {
	p := elemPtr(dt, b, off)
	switch dt {
	case Float32:
		return float64(*(*float32)(p))
	case Float64:
		return *(*float64)(p)
	case Int64:
		return float64(*(*int64)(p))
	case Int32:
		return float64(*(*int32)(p))
	case Int16:
		return float64(*(*int16)(p))
	case Int8:
		return float64(*(*int8)(p))
	case Uint8:
		return float64(*(*uint8)(p))
	case Bool:
		if *(*uint8)(p) != 0 {
			return 1
		}
		return 0
	case Float16:
		return float64((*(*F16)(p)).Float32())
	case BFloat16:
		return float64((*(*BF16)(p)).Float32())
	}
	return 0
}

// loadInt reads element off as int64; floats truncate toward zero.
func loadInt(dt DType, b []byte, off int) int64 {
	p := elemPtr(dt, b, off)
	switch dt {
	case Int64:
		return *(*int64)(p)
	case Int32:
		return int64(*(*int32)(p))
	case Int16:
		return int64(*(*int16)(p))
	case Int8:
		return int64(*(*int8)(p))
	case Uint8:
		return int64(*(*uint8)(p))
	case Bool:
		return int64(*(*uint8)(p) & 1)
	}
	return int64(loadFloat(dt, b, off))
}

// storeFloat writes v converted to dt as C++'s static_cast would (floats
// to ints truncate; nonzero to bool is true).
func storeFloat(dt DType, b []byte, off int, v float64) {
	p := elemPtr(dt, b, off)
	switch dt {
	case Float32:
		*(*float32)(p) = float32(v)
	case Float64:
		*(*float64)(p) = v
	case Int64:
		*(*int64)(p) = int64(v)
	case Int32:
		*(*int32)(p) = int32(int64(v))
	case Int16:
		*(*int16)(p) = int16(int64(v))
	case Int8:
		*(*int8)(p) = int8(int64(v))
	case Uint8:
		*(*uint8)(p) = uint8(int64(v))
	case Bool:
		if v != 0 {
			*(*uint8)(p) = 1
		} else {
			*(*uint8)(p) = 0
		}
	case Float16:
		*(*F16)(p) = ToFloat16(float32(v))
	case BFloat16:
		*(*BF16)(p) = ToBFloat16(float32(v))
	}
}

// storeInt writes v converted to dt without going through float64, so
// large int64 values survive integer-to-integer copies exactly.
func storeInt(dt DType, b []byte, off int, v int64) {
	p := elemPtr(dt, b, off)
	switch dt {
	case Int64:
		*(*int64)(p) = v
	case Int32:
		*(*int32)(p) = int32(v)
	case Int16:
		*(*int16)(p) = int16(v)
	case Int8:
		*(*int8)(p) = int8(v)
	case Uint8:
		*(*uint8)(p) = uint8(v)
	case Bool:
		if v != 0 {
			*(*uint8)(p) = 1
		} else {
			*(*uint8)(p) = 0
		}
	default:
		storeFloat(dt, b, off, float64(v))
	}
}

// elemPtr bounds-checks the whole element before handing out its address.
func elemPtr(dt DType, b []byte, off int) unsafe.Pointer {
	size := dt.Size()
	_ = b[off*size+size-1]
	return unsafe.Pointer(&b[off*size])
}
