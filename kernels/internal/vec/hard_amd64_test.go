//go:build !purego

package vec

import (
	"runtime"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"golang.org/x/sys/cpu"
)

// TestHardExhaustive runs the hard activations' AVX-512 loops over every
// float32 and compares each result's bits with the IEEE steps they stand
// for (add, clamp, multiply, divide by 6, each its own vector loop): their
// division is a multiply and a correction, exact only if it is exact
// everywhere.
func TestHardExhaustive(t *testing.T) {
	if testing.Short() {
		t.Skip("2^32 inputs")
	}
	type loop struct {
		name string
		f    func(dst, x *float32, n int)
	}
	var loops []loop
	if cpu.X86.HasAVX512F {
		loops = append(loops, loop{"hardswishAVX512", hardswishAVX512}, loop{"hardsigmoidAVX512", hardsigmoidAVX512})
	}
	if len(loops) == 0 {
		t.Skip("no vector loops on this CPU")
	}
	const chunk = 1 << 16
	var (
		mu   sync.Mutex
		fail string
		wg   sync.WaitGroup
	)
	workers := runtime.GOMAXPROCS(0)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			x, dst := make([]float32, chunk), make([]float32, chunk)
			swish, sigmoid := make([]float32, chunk), make([]float32, chunk)
			xb, db := unsafe.Slice((*uint32)(unsafe.Pointer(&x[0])), chunk), unsafe.Slice((*uint32)(unsafe.Pointer(&dst[0])), chunk)
			for base := uint64(w) * chunk; base < 1<<32; base += uint64(workers) * chunk {
				for i := range xb {
					xb[i] = uint32(base) + uint32(i)
				}
				// The reference's steps, one IEEE operation per loop.
				addVS512(&sigmoid[0], &x[0], 3, chunk)
				clampAVX512(&sigmoid[0], &sigmoid[0], 0, 6, chunk)
				mulVV512(&swish[0], &x[0], &sigmoid[0], chunk)
				divVS512(&swish[0], &swish[0], 6, chunk)
				divVS512(&sigmoid[0], &sigmoid[0], 6, chunk)
				for _, l := range loops {
					want := swish
					if strings.HasPrefix(l.name, "hardsigmoid") {
						want = sigmoid
					}
					l.f(&dst[0], &x[0], chunk)
					wb := unsafe.Slice((*uint32)(unsafe.Pointer(&want[0])), chunk)
					for i, d := range db {
						if d != wb[i] && !(dst[i] != dst[i] && want[i] != want[i]) {
							mu.Lock()
							fail = l.name
							mu.Unlock()
							t.Errorf("%s(%g [%#08x]) = %g [%#08x], want %g [%#08x]", l.name, x[i], xb[i], dst[i], d, want[i], wb[i])
							return
						}
					}
				}
				mu.Lock()
				stop := fail != ""
				mu.Unlock()
				if stop {
					return
				}
			}
		}(w)
	}
	wg.Wait()
}
