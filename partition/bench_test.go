package partition

import (
	"fmt"
	"testing"

	"github.com/seam-rt/seam/fixtures"
)

// BenchmarkPropose times Propose on the graphs torch.fx's partitioner was
// timed on (fixtures/README.md) and on generated graphs of the synthetic
// shape at 100k and 1M nodes. ns/node shows how close growth is to linear.
func BenchmarkPropose(b *testing.B) {
	m, err := loadModel(fixtures.Model("gpt2_l12"))
	if err != nil {
		b.Fatal(err)
	}
	gpt2 := m.dag()
	b.Run("gpt2_l12/stress_mod5/single=False", func(b *testing.B) { benchPropose(b, gpt2, m.request("stress_mod5", false)) })
	b.Run("gpt2_l12/stress_mod5/single=True", func(b *testing.B) { benchPropose(b, gpt2, m.request("stress_mod5", true)) })

	s, err := loadSynthetic(fixtures.Synthetic("dag_16000.json"))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("dag_16000", func(b *testing.B) { benchPropose(b, s.DAG, s.request()) })

	for _, n := range []int{100_000, 1_000_000} {
		d, r := synthDAG(n, 1)
		b.Run(fmt.Sprintf("synth_%d", n), func(b *testing.B) { benchPropose(b, d, r) })
		r2 := *r
		r2.MinCompute = 2
		r2.Compute = make([]bool, n)
		for v := range r2.Compute {
			r2.Compute[v] = v%4 != 0 // a quarter of the nodes are views
		}
		b.Run(fmt.Sprintf("synth_%d/views/single=False", n), func(b *testing.B) { benchPropose(b, d, &r2) })
	}
}

func benchPropose(b *testing.B, d *DAG, r *Request) {
	b.ReportAllocs()
	var res *Result
	for b.Loop() {
		var err error
		if res, err = Propose(d, r); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(d.Len()), "ns/node")
	b.ReportMetric(float64(len(res.Partitions)), "partitions")
}
