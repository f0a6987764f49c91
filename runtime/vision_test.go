package runtime_test

import (
	"path/filepath"
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/pt2"
	"github.com/seam-rt/seam/runtime"
)

// The generated vision programs (fixtures/extra/make_vision.py): a
// MobileNetV3-style net (depthwise convolutions, batch norm, hardswish,
// squeeze-excite gates closed by hardsigmoid) and a small ViT run every
// reference case and match torch's outputs, on one thread and on four.
func TestVisionFixtures(t *testing.T) {
	for _, name := range []string{"mobilenet_tiny", "mobilenet_tiny_b8", "vit_tiny"} {
		dir := filepath.Join(fixtures.Dir(), "extra", name)
		a, err := pt2.Open(filepath.Join(dir, "model.pt2"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { a.Close() })
		prog, err := a.Program()
		if err != nil {
			t.Fatal(err)
		}
		cases := loadCasesIn(t, dir)
		for _, threads := range []int{1, 4} {
			p, err := runtime.Load(prog, runtime.Options{Threads: threads, FixedThreads: true})
			if err != nil {
				t.Fatal(err)
			}
			runCases(t, name, p, cases)
		}
	}
}
