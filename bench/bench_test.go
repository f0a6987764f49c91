package bench

import (
	"path/filepath"
	"slices"
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

// TimeThreads times the three ways in turns: each gets its runs and its
// time, and says how many goroutines its runs used.
func TestTimeThreads(t *testing.T) {
	model := fixtures.Model("mlp")
	dir := filepath.Join(filepath.Dir(model), "io", "case0")
	tt, err := TimeThreads(model, dir, 2, 5, 3*turnFor)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []struct {
		name string
		tm   Timing
		uses []int
	}{{"one", tt.One, []int{1}}, {"chosen", tt.Chosen, []int{1, 2}}, {"split", tt.Split, []int{2}}} {
		// mlp runs in microseconds: a turn of turnFor holds many runs, and
		// minTime takes several turns.
		if w.tm.Runs < 5 || w.tm.Median <= 0 || w.tm.Fastest <= 0 || w.tm.Fastest > w.tm.Median {
			t.Errorf("%s: timing %+v", w.name, w.tm)
		}
		if !slices.Contains(w.uses, w.tm.Uses) {
			t.Errorf("%s: runs used %d goroutines, want one of %v", w.name, w.tm.Uses, w.uses)
		}
	}
	if _, err := TimeThreads(model, filepath.Join(dir, "missing"), 2, 1, time.Millisecond); err == nil {
		t.Error("no error for a missing case folder")
	}
}
