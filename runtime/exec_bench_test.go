package runtime

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/value"
)

// BenchmarkExecute runs the executor alone (a frame running the compiled
// graph, without Run's input checks) on every fixture's largest case and
// reports, besides ns/op and allocs/op, the steps run and the allocations
// per step: in steady state the kernels and the executor allocate nothing,
// so allocs/op is the outputs the caller keeps, whatever the step count.
func BenchmarkExecute(b *testing.B) {
	ctx := context.Background()
	for _, model := range fixtures.Models() {
		b.Run(model, func(b *testing.B) {
			p := loadFixture(b, model, true)
			dirs, _ := filepath.Glob(filepath.Join(fixtures.ModelDir(model), "io", "case*"))
			best, bestN := "", -1
			for _, d := range dirs {
				n := 0
				for _, v := range caseInputs(b, model, filepath.Base(d)) {
					if v.Kind() == value.Tensor {
						n += v.Tensor().Numel()
					}
				}
				if n > bestN {
					best, bestN = filepath.Base(d), n
				}
			}
			args := p.graphArgs(caseInputs(b, model, best))
			f := newFrame(1)
			if _, err := f.run(ctx, p.plan, args); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := f.run(ctx, p.plan, args); err != nil {
					b.Fatal(err)
				}
			}
			steps := float64(len(p.plan.steps))
			b.ReportMetric(steps, "steps")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/steps, "ns/step")
		})
	}
}
