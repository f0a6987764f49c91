//go:build !purego

package vec

import (
	"testing"

	"golang.org/x/sys/cpu"
)

// forEachISA runs f once per loop family this CPU can run: AVX-512, AVX2
// (also on AVX-512 CPUs, which would otherwise never run it) and the
// portable loops.
func forEachISA(t *testing.T, f func(*testing.T)) {
	asm, avx2 := useAsm, useAVX2
	defer func() { useAsm, useAVX2 = asm, avx2 }()
	if cpu.X86.HasAVX512F {
		useAsm, useAVX2 = true, false
		t.Run("avx512", f)
	}
	if hasFMA {
		useAsm, useAVX2 = false, true
		t.Run("avx2", f)
	}
	useAsm, useAVX2 = false, false
	t.Run("go", f)
}
