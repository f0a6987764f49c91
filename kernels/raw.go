package kernels

import (
	"math"
	"unsafe"

	"github.com/seam-rt/seam/tensor"
)

// Raw word views of a tensor's data (from its offset), for dtype-agnostic
// moves such as where and gathers. A nil tensor gives nil.

func rawWords[T uint8 | uint16 | uint32 | uint64](t *tensor.Tensor) []T {
	if t == nil {
		return nil
	}
	b := t.Storage().Bytes()
	var z T
	size := int(unsafe.Sizeof(z))
	start := t.Offset() * size
	if start >= len(b) {
		return nil
	}
	b = b[start:]
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/size)
}

func words16(t *tensor.Tensor) []uint16 { return rawWords[uint16](t) }
func words32(t *tensor.Tensor) []uint32 { return rawWords[uint32](t) }
func words64(t *tensor.Tensor) []uint64 { return rawWords[uint64](t) }
func bytesOf(t *tensor.Tensor) []uint8  { return rawWords[uint8](t) }

// boolBytes reads a bool tensor's bytes (0 or 1).
func boolBytes(t *tensor.Tensor) []uint8 { return rawWords[uint8](t) }

func expm1(x float64) float64 { return math.Expm1(x) }
