package runtime

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/seam-rt/seam/sym"
	"github.com/seam-rt/seam/tensor"
)

// The tuner times both ways after untimed warm-ups, Threads' five runs
// first, then one thread's, and
// keeps Threads only when its fastest run beats one thread's by the
// margin; each binding has its own choice, whatever its map's order.
func TestThreadTunerChooses(t *testing.T) {
	for _, c := range []struct {
		name      string
		one, many time.Duration
		want      int
	}{
		{"threads pay", 100 * time.Microsecond, 60 * time.Microsecond, 4},
		{"threads cost", 100 * time.Microsecond, 130 * time.Microsecond, 1},
		{"within the margin", 100 * time.Microsecond, 97 * time.Microsecond, 1},
	} {
		tu := newThreadTuner(4)
		bind := sym.Bindings{"s0": 7, "s1": 3}
		for range tuneWarmup {
			if th, way := tu.choose(bind); th != 4 || way != -1 {
				t.Fatalf("%s: warm-up run on %d threads, timed %d; want 4, untimed", c.name, th, way)
			}
		}
		runs := [2]int{}
		for i := 0; i < 2*tuneRuns; i++ {
			th, way := tu.choose(bind)
			if way < 0 || (way == 0) != (th == 1) {
				t.Fatalf("%s: run %d on %d threads timed as way %d", c.name, i, th, way)
			}
			// Blocks of tuneBlock runs each way in turn, Threads' first.
			if want := 1 - i/tuneBlock%2; way != want {
				t.Fatalf("%s: timed run %d on way %d, want %d (blocks of %d, Threads first)", c.name, i, way, want, tuneBlock)
			}
			runs[way]++
			d := c.one
			if way == 1 {
				d = c.many
			}
			// Slower runs than the fastest do not change the choice.
			if i%3 == 2 {
				d *= 3
			}
			tu.record(bind, way, d, runSplit{split: true})
		}
		if runs != [2]int{tuneRuns, tuneRuns} {
			t.Fatalf("%s: timed %v runs each way, want %d", c.name, runs, tuneRuns)
		}
		for range 3 {
			if th, way := tu.choose(sym.Bindings{"s1": 3, "s0": 7}); th != c.want || way != -1 {
				t.Fatalf("%s: after measuring, runs use %d threads (timed %d), want %d untimed", c.name, th, way, c.want)
			}
		}
		ch := tu.choices()
		if len(ch) != 1 || ch[0].Use != c.want || ch[0].Many == 0 || ch[0].One == 0 || ch[0].Threads != 4 {
			t.Fatalf("%s: choices %+v", c.name, ch)
		}
		// Another binding starts over.
		if th, way := tu.choose(sym.Bindings{"s0": 8, "s1": 3}); th != 4 || way != -1 {
			t.Fatalf("%s: a new binding's first run: %d threads, timed %d", c.name, th, way)
		}
	}
	if newThreadTuner(1) != nil {
		t.Fatal("a one-thread program has a tuner")
	}
}

// Past tuneBindings bindings, runs use Threads untimed and nothing more
// is remembered.
func TestThreadTunerBounded(t *testing.T) {
	tu := newThreadTuner(2)
	for i := range tuneBindings + 10 {
		tu.choose(sym.Bindings{"s0": int64(i)})
	}
	if n := len(tu.choices()); n != tuneBindings {
		t.Fatalf("%d bindings remembered, want %d", n, tuneBindings)
	}
	if th, way := tu.choose(sym.Bindings{"s0": -1}); th != 2 || way != -1 {
		t.Fatalf("a binding past the bound: %d threads, timed %d", th, way)
	}
}

// When no run on Threads split a kernel, the choice is one thread as soon
// as Threads' runs are timed, however fast they looked: no run on one
// thread is timed, and the choice says nothing split.
func TestThreadTunerNothingSplits(t *testing.T) {
	tu := newThreadTuner(2)
	bind := sym.Bindings{"s0": 5}
	for range tuneWarmup {
		tu.choose(bind)
	}
	for i := range tuneBlock {
		th, way := tu.choose(bind)
		if th != 2 || way != 1 {
			t.Fatalf("timed run %d: %d threads, way %d; want Threads first", i, th, way)
		}
		// Faster on Threads by chance (noise), but nothing split.
		tu.record(bind, way, 50*time.Microsecond, runSplit{})
	}
	for range 3 {
		if th, way := tu.choose(bind); th != 1 || way != -1 {
			t.Fatalf("after Threads' runs split nothing: %d threads, timed %d; want 1, untimed", th, way)
		}
	}
	ch := tu.choices()
	if len(ch) != 1 || ch[0].Use != 1 || ch[0].Splits || ch[0].One != 0 || ch[0].Many != 50*time.Microsecond {
		t.Fatalf("choices %+v", ch)
	}
	// The next runs take the choice without the clock, as many as the
	// runs' length allows (Threads' runs stand for one thread's).
	tu.now = func() time.Time { t.Fatal("the clock was read for a run within fastRuns"); return time.Time{} }
	for range fastRuns(50*time.Microsecond) - 3 {
		if th, way := tu.choose(bind); th != 1 || way != -1 {
			t.Fatalf("%d threads, timed %d", th, way)
		}
	}
	// One run that split is enough to time both ways.
	tu = newThreadTuner(2)
	for range tuneWarmup {
		tu.choose(bind)
	}
	for i := range 2 * tuneRuns {
		_, way := tu.choose(bind)
		if way < 0 {
			t.Fatalf("timed run %d not timed", i)
		}
		d := 100 * time.Microsecond
		if way == 1 {
			d = 50 * time.Microsecond
		}
		tu.record(bind, way, d, runSplit{split: i == 2})
	}
	if ch := tu.choices(); len(ch) != 1 || ch[0].Use != 2 || !ch[0].Splits {
		t.Fatalf("a run that split, then threads twice as fast: choices %+v", ch)
	}
}

// A choice made while most runs on Threads ran alone (their workers ran
// few of their chunks) stands only tuneUnsure: five runs in a spell when
// the host had the other core elsewhere do not decide for tuneFor.
func TestThreadTunerRunsAloneMeasureSooner(t *testing.T) {
	for _, alone := range []int{0, 2, tuneRuns / 2, tuneRuns/2 + 1, tuneRuns} {
		now := time.Unix(1000, 0)
		bind := sym.Bindings{}
		tu := settled(&now, bind, 100*time.Microsecond, 200*time.Microsecond)
		n := 0
		for range 2 * tuneRuns {
			_, way := tu.choose(bind)
			d, rs := 100*time.Microsecond, runSplit{split: true}
			if way == 1 {
				d = 200 * time.Microsecond
				rs.alone = n < alone
				n++
			}
			tu.record(bind, way, d, rs)
		}
		stands := tuneFor
		if 2*alone > tuneRuns {
			stands = tuneUnsure
		}
		if ch := tu.choices(); len(ch) != 1 || ch[0].Use != 1 {
			t.Fatalf("%d runs alone: choices %+v", alone, ch)
		}
		now = now.Add(stands - time.Millisecond)
		for range fastMax + 1 {
			if _, way := tu.choose(bind); way != -1 {
				t.Fatalf("%d runs alone: timed again before %v", alone, stands)
			}
		}
		now = now.Add(2 * time.Millisecond)
		timed := false
		for range fastMax + 1 {
			if _, way := tu.choose(bind); way != -1 {
				timed = true
				break
			}
		}
		if !timed {
			t.Fatalf("%d runs alone: not timed again after %v", alone, stands)
		}
	}
}

// A run split when a kernel offered a region, and ran alone when the
// workers ran chunks of fewer than half the regions.
func TestSplitBetween(t *testing.T) {
	for _, c := range []struct {
		r0, h0, r1, h1 uint64
		want           runSplit
	}{
		{5, 3, 5, 3, runSplit{}},
		{5, 3, 25, 23, runSplit{split: true}},
		{5, 3, 25, 13, runSplit{split: true}},
		{5, 3, 25, 12, runSplit{split: true, alone: true}},
		{5, 3, 25, 3, runSplit{split: true, alone: true}},
	} {
		if got := splitBetween(c.r0, c.h0, c.r1, c.h1); got != c.want {
			t.Errorf("splitBetween(%d, %d, %d, %d) = %+v, want %+v", c.r0, c.h0, c.r1, c.h1, got, c.want)
		}
	}
}

// A program too small for any kernel to split (mlp) settles on one thread
// after its runs on Threads, without timing one.
func TestProgramThatNeverSplitsUsesOneThread(t *testing.T) {
	p := loadFixtureWith(t, "mlp", Options{Threads: 2})
	in := caseInputs(t, "mlp", "case0")
	var used []int
	ranOn = func(threads int) { used = append(used, threads) }
	defer func() { ranOn = nil }()
	for range tuneWarmup + tuneRuns + 3 {
		if _, err := p.Run(context.Background(), in); err != nil {
			t.Fatal(err)
		}
	}
	ch := p.ThreadChoices()
	if len(ch) != 1 || ch[0].Use != 1 || ch[0].Splits || ch[0].One != 0 {
		t.Fatalf("choices %+v (runs on %v)", ch, used)
	}
	if got := used[len(used)-3:]; !slices.Equal(got, []int{1, 1, 1}) {
		t.Fatalf("runs after the choice used %v threads", got)
	}
}

// A program asked for two threads measures both ways on its first runs,
// then keeps to one choice; every run gives the same bits. FixedThreads
// and one thread never choose.
func TestProgramChoosesThreads(t *testing.T) {
	p := loadFixtureWith(t, "gpt2_tiny", Options{Threads: 2})
	in := caseInputs(t, "gpt2_tiny", "case3")
	var first *tensor.Tensor
	var used []int
	ranOn = func(threads int) { used = append(used, threads) }
	defer func() { ranOn = nil }()
	for i := range tuneWarmup + 2*tuneRuns + 2 {
		outs, err := p.Run(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = outs[0].Tensor()
		} else if !tensor.Equal(first, outs[0].Tensor()) {
			t.Fatalf("run %d differs from the first", i)
		}
	}
	ch := p.ThreadChoices()
	// The kernels got what the tuner chose: Threads for the warm-ups and
	// its blocks of timed runs, one thread for the others, then the
	// choice.
	for i, got := range used {
		want := 2
		switch {
		case i >= tuneWarmup+2*tuneRuns:
			want = ch[0].Use
		case i >= tuneWarmup && (i-tuneWarmup)/tuneBlock%2 == 1:
			want = 1
		}
		if got != want {
			t.Fatalf("run %d's kernels had %d threads, want %d (runs: %v)", i, got, want, used)
		}
	}
	if len(ch) != 1 || (ch[0].Use != 1 && ch[0].Use != 2) || ch[0].One <= 0 || ch[0].Many <= 0 {
		t.Fatalf("after %d runs the choices are %+v", tuneWarmup+2*tuneRuns+2, ch)
	}
	if got := ch[0].Bind["s53"]; got == 0 {
		t.Fatalf("the choice's binding %v lacks the sequence length", ch[0].Bind)
	}
	for _, o := range []Options{{Threads: 2, FixedThreads: true}, {Threads: 1}} {
		q := loadFixtureWith(t, "gpt2_tiny", o)
		if _, err := q.Run(context.Background(), in); err != nil {
			t.Fatal(err)
		}
		if ch := q.ThreadChoices(); ch != nil {
			t.Fatalf("%+v: choices %+v", o, ch)
		}
	}
}

// settled is a tuner for two threads at bind whose first choice (made on
// runs of one and many) has been made and has run out, as choose finds it
// once tuneFirst has passed: the next run measures again, without a
// warm-up, and the choice after that is not a first.
func settled(now *time.Time, bind sym.Bindings, one, many time.Duration) *threadTuner {
	tu := newThreadTuner(2)
	tu.now = func() time.Time { return *now }
	for range tuneWarmup {
		tu.choose(bind)
	}
	for range 2 * tuneRuns {
		_, way := tu.choose(bind)
		d := one
		if way == 1 {
			d = many
		}
		tu.record(bind, way, d, runSplit{split: true})
	}
	*now = now.Add(tuneFirst + time.Millisecond)
	tu.fast.Store(nil)
	return tu
}

// A binding's first choice, however clear, stands only tuneFirst: the
// runs right after a load are not yet the program's steady ones.
func TestThreadTunerFirstChoiceStandsBriefly(t *testing.T) {
	now := time.Unix(1000, 0)
	bind := sym.Bindings{}
	tu := newThreadTuner(2)
	tu.now = func() time.Time { return now }
	for range tuneWarmup {
		tu.choose(bind)
	}
	for range 2 * tuneRuns {
		_, way := tu.choose(bind)
		d := time.Millisecond
		if way == 1 {
			d = 3 * time.Millisecond
		}
		tu.record(bind, way, d, runSplit{split: true})
	}
	now = now.Add(tuneFirst - time.Millisecond)
	if th, way := tu.choose(bind); th != 1 || way != -1 {
		t.Fatalf("before tuneFirst: %d threads, timed %d; want 1 untimed", th, way)
	}
	now = now.Add(2 * time.Millisecond)
	for n := 0; ; n++ {
		if _, way := tu.choose(bind); way != -1 {
			break
		}
		if n > fastMax {
			t.Fatalf("%d runs after tuneFirst, none timed", n)
		}
	}
}

// A choice stands for tuneFor; the run after that measures again, both
// ways, without a warm-up, and chooses anew; a choice that reverses the
// last stands tuneUnsure, until a measurement confirms it.
func TestThreadTunerMeasuresAgain(t *testing.T) {
	now := time.Unix(1000, 0)
	bind := sym.Bindings{}
	tu := settled(&now, bind, time.Millisecond, 500*time.Microsecond)
	measure := func(one, many time.Duration) {
		// A standing choice is given without the clock to at most
		// fastMax runs before the tuner notices it has expired.
		timed := 0
		for i := 0; timed < 2*tuneRuns; i++ {
			_, way := tu.choose(bind)
			if way < 0 {
				if timed > 0 || i > fastMax {
					t.Fatalf("an untimed run while measuring, after %d runs", i)
				}
				continue
			}
			d := one
			if way == 1 {
				d = many
			}
			tu.record(bind, way, d, runSplit{split: true})
			timed++
		}
	}
	measure(time.Millisecond, 500*time.Microsecond)
	if th, _ := tu.choose(bind); th != 2 {
		t.Fatalf("threads twice as fast, yet runs use %d", th)
	}
	now = now.Add(tuneFor - time.Millisecond)
	if th, way := tu.choose(bind); th != 2 || way != -1 {
		t.Fatalf("before tuneFor: %d threads, timed %d", th, way)
	}
	now = now.Add(2 * time.Millisecond)
	measure(time.Millisecond, 3*time.Millisecond)
	if th, way := tu.choose(bind); th != 1 || way != -1 {
		t.Fatalf("measured again with threads three times slower: %d threads, timed %d", th, way)
	}
	// That reversed the last choice, so it stands only tuneUnsure; once
	// confirmed, tuneFor.
	now = now.Add(tuneUnsure + time.Millisecond)
	measure(time.Millisecond, 3*time.Millisecond)
	now = now.Add(tuneUnsure + time.Millisecond)
	for range fastMax + 1 {
		if th, way := tu.choose(bind); th != 1 || way != -1 {
			t.Fatalf("a confirmed choice, after tuneUnsure: %d threads, timed %d", th, way)
		}
	}
}

// A close call, Threads' fastest run within a factor tuneClear of one
// thread's either way, stands only tuneUnsure; a clear one, either way,
// tuneFor.
func TestThreadTunerCloseCallsMeasureSooner(t *testing.T) {
	for _, c := range []struct {
		name      string
		one, many time.Duration
		use       int
		stands    time.Duration
	}{
		{"threads clearly pay", time.Millisecond, 600 * time.Microsecond, 2, tuneFor},
		{"threads pay a little", time.Millisecond, 900 * time.Microsecond, 2, tuneUnsure},
		{"within the margin", time.Millisecond, 970 * time.Microsecond, 1, tuneUnsure},
		{"threads cost a little", time.Millisecond, 1050 * time.Microsecond, 1, tuneUnsure},
		{"threads cost", time.Millisecond, 1200 * time.Microsecond, 1, tuneUnsure},
		{"threads cost much", time.Millisecond, 1300 * time.Microsecond, 1, tuneFor},
	} {
		now := time.Unix(1000, 0)
		bind := sym.Bindings{}
		tu := settled(&now, bind, c.one, c.many)
		for range 2 * tuneRuns {
			_, way := tu.choose(bind)
			d := c.one
			if way == 1 {
				d = c.many
			}
			tu.record(bind, way, d, runSplit{split: true})
		}
		now = now.Add(c.stands - time.Millisecond)
		if th, way := tu.choose(bind); th != c.use || way != -1 {
			t.Fatalf("%s: just before %v, %d threads timed %d; want %d untimed", c.name, c.stands, th, way, c.use)
		}
		now = now.Add(2 * time.Millisecond)
		// Noticed within the runs given without the clock (fastRuns of
		// the chosen way's fastest run).
		run := c.one
		if c.use > 1 {
			run = c.many
		}
		for n := 0; ; n++ {
			if _, way := tu.choose(bind); way != -1 {
				break
			}
			if n >= int(fastRuns(run)) {
				t.Fatalf("%s: %d runs after %v, none timed", c.name, n+1, c.stands)
			}
		}
	}
}

// A decided choice is given to the next runs at its binding without the
// lock or the clock, for fewer runs the longer they take; a run at
// another binding takes its own.
func TestThreadTunerFastChoice(t *testing.T) {
	for _, c := range []struct {
		run  time.Duration
		want int32
	}{{0, 1}, {time.Microsecond, fastMax}, {time.Millisecond, 10}, {time.Second, 1}} {
		if got := fastRuns(c.run); got != c.want {
			t.Errorf("fastRuns(%v) = %d, want %d", c.run, got, c.want)
		}
	}
	clock := 0
	now := time.Unix(1000, 0)
	tu := newThreadTuner(2)
	tu.now = func() time.Time { clock++; return now }
	a, b := sym.Bindings{"s0": 4}, sym.Bindings{"s0": 5}
	decide := func(bind sym.Bindings, one, many time.Duration) {
		for range tuneWarmup + 2*tuneRuns {
			if _, way := tu.choose(bind); way >= 0 {
				d := one
				if way == 1 {
					d = many
				}
				tu.record(bind, way, d, runSplit{split: true})
			}
		}
	}
	decide(a, time.Millisecond, 400*time.Microsecond)
	decide(b, time.Millisecond, 2*time.Millisecond)
	if th, _ := tu.choose(a); th != 2 {
		t.Fatalf("binding a: %d threads, want 2", th)
	}
	before := clock
	for range fastRuns(400 * time.Microsecond) {
		if th, way := tu.choose(a); th != 2 || way != -1 {
			t.Fatalf("binding a, a fast run: %d threads timed %d", th, way)
		}
	}
	if clock != before {
		t.Errorf("the clock was read %d times in the runs given the choice without it", clock-before)
	}
	if th, way := tu.choose(b); th != 1 || way != -1 {
		t.Fatalf("binding b after a: %d threads timed %d, want 1 untimed", th, way)
	}
	if th, _ := tu.choose(a); th != 2 {
		t.Fatalf("binding a after b: %d threads, want 2", th)
	}
}
