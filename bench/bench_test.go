package bench

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/runtime"
)

// TimeRunWith says how many goroutines the timed runs used: one thread,
// every run split, or what a program on two threads chose.
func TestTimeRunUses(t *testing.T) {
	model := fixtures.Model("mlp")
	dir := filepath.Join(filepath.Dir(model), "io", "case0")
	for _, c := range []struct {
		opt  runtime.Options
		want []int
	}{
		{runtime.Options{Threads: 1}, []int{1}},
		{runtime.Options{Threads: 2, FixedThreads: true}, []int{2}},
		{runtime.Options{Threads: 2}, []int{1, 2}},
	} {
		tm, err := TimeRunWith(model, dir, c.opt, 3, time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		if tm.Runs < 3 || tm.Median <= 0 || tm.Fastest <= 0 || tm.Fastest > tm.Median {
			t.Errorf("%+v: timing %+v", c.opt, tm)
		}
		ok := false
		for _, w := range c.want {
			ok = ok || tm.Uses == w
		}
		if !ok {
			t.Errorf("%+v: runs used %d goroutines, want one of %v", c.opt, tm.Uses, c.want)
		}
	}
}
