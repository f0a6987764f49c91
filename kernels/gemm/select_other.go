//go:build !amd64 || purego

package gemm

// Without assembly only the portable kernel exists.
func asmKernels32() []*kernel[float32] { return nil }
func asmKernels64() []*kernel[float64] { return nil }
