//go:build !purego

package gemm

import "golang.org/x/sys/cpu"

var haveTranspose8 = cpu.X86.HasAVX

// transpose8AVX sets dst[p*stride+r] = src[r*ld+p] for r < 8, p < n; n is
// a multiple of 8.
//
//go:noescape
func transpose8AVX(dst *float32, stride int, src *float32, ld int, n int)

// transpose6AVX sets dst[p*6+r] = src[r*ld+p] for r < 6, p < n; n is a
// multiple of 8.
//
//go:noescape
func transpose6AVX(dst *float32, src *float32, ld int, n int)
