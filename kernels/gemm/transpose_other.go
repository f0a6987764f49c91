//go:build !amd64 || purego

package gemm

const haveTranspose8 = false

func transpose8AVX(dst *float32, stride int, src *float32, ld int, n int) {
	panic("gemm: transpose8AVX without assembly")
}

func transpose6AVX(dst *float32, src *float32, ld int, n int) {
	panic("gemm: transpose6AVX without assembly")
}
