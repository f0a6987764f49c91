package runtime

import (
	"hash/maphash"
	"sync"
	"sync/atomic"
	"time"

	"github.com/seam-rt/seam/sym"
)

// Whether splitting kernels across goroutines pays depends on more than
// each kernel's work: on a small model the second core's cold caches and
// the hand-offs can cost more than the split saves, and a threshold per
// kernel cannot see that. So a program asked for several threads measures
// it: for each binding of its symbols (the input sizes), its first runs
// are timed on Threads and on one thread, in alternating blocks, and from
// then on it uses the faster, until it measures again (tuneFirst after
// the first choice, tuneFor, or tuneUnsure after a close call). When no kernel split in the runs on Threads, one thread is
// chosen without timing it. Kernels compute the same bits whatever the
// thread count, so the choice changes only the time.

const (
	// tuneWarmup is how many untimed runs a binding gets first, on
	// Threads; tuneRuns how many timed runs each way before the choice,
	// in blocks of tuneBlock.
	tuneWarmup = 3
	tuneRuns   = 10
	tuneBlock  = 5
	// tuneMargin: several threads are kept only when their fastest run
	// beats one thread's by this factor, so noise does not buy a split
	// that does not pay.
	tuneMargin = 0.95
	// tuneBindings bounds the bindings remembered; runs at others use
	// Threads untimed.
	tuneBindings = 256
	// tuneFor is how long a choice stands before the next run measures
	// again: what pays on an idle machine costs on a busy one, where a
	// split waits for a worker the OS has put aside.
	tuneFor = 10 * time.Second
	// A close call (Threads' fastest run within a factor tuneClear of
	// one thread's, either way) stands only tuneUnsure: on a machine
	// whose speed drifts, one measurement can land in a slow spell for
	// one way and a fast one for the other, and a wrong choice then
	// lasts a second rather than ten. So does a choice that reverses the
	// binding's last one, until a measurement confirms it: a host that
	// takes the second core away for a few milliseconds (a VM's
	// neighbours) makes Threads look slow for exactly the runs measured.
	tuneClear  = 0.8
	tuneUnsure = time.Second
	// A binding's first choice is made on the runs right after a load
	// (or its first at these sizes), slower than later ones and unevenly
	// so (pages first touched, caches cold, the load's garbage collected:
	// gpt2_tiny's first runs on two threads came out 1.3x slower than one
	// thread's in two loads of six, its later ones 1.3x faster), so it
	// stands only tuneFirst, then the binding is measured again.
	tuneFirst = 200 * time.Millisecond
	// A choice made while most runs on Threads ran alone (their workers
	// ran chunks of fewer than half their splits: the host had the other
	// cores elsewhere, or the workers woke too late) stands only
	// tuneUnsure too, so that a few milliseconds without them do not
	// decide for the next ten seconds.
)

// runSplit is what the kernels of a timed run did: whether any split its
// work, and whether the workers ran chunks of fewer than half the splits.
type runSplit struct{ split, alone bool }

// splitBetween is what a run did between two readings of kernels.Splits.
func splitBetween(regions0, helped0, regions1, helped1 uint64) runSplit {
	regions, helped := regions1-regions0, helped1-helped0
	return runSplit{split: regions > 0, alone: regions > 0 && helped*2 < regions}
}

// threadTuner holds the choice per binding.
type threadTuner struct {
	threads int
	seed    maphash.Seed
	mu      sync.Mutex
	byBind  map[uint64]*threadTrial
	now     func() time.Time // time.Now; tests set it
	// fast is the last choice a run was given, read without the lock or
	// the clock for its next runs: a program runs at one binding run
	// after run, and on a model of a few microseconds the lock, the map
	// and the clock (70 ns on this VM) cost a few percent of each run.
	fast atomic.Pointer[fastChoice]
}

// fastChoice is a decided binding's choice, given to the next left runs
// at that binding without looking at the clock. The binding is kept as
// its symbols and values, compared by lookups: ranging over the run's
// map and hashing its names for the key cost more than the rest of the
// fast path.
type fastChoice struct {
	boundValues
	key  uint64
	use  int
	left atomic.Int32
}

// boundValues is a binding kept as its symbols and values, for a run to
// compare its own binding with by lookups, without ranging over the
// run's map or hashing its names.
type boundValues struct {
	names []string
	vals  []int64
}

func boundOf(bind sym.Bindings) boundValues {
	var b boundValues
	for name, v := range bind {
		b.names, b.vals = append(b.names, name), append(b.vals, v)
	}
	return b
}

// at reports whether bind is this binding.
func (b *boundValues) at(bind sym.Bindings) bool {
	if len(bind) != len(b.names) {
		return false
	}
	for i, name := range b.names {
		if v, ok := bind[name]; !ok || v != b.vals[i] {
			return false
		}
	}
	return true
}

const fastMax = 64

// fastRuns is how many runs a choice is given without the clock: at most
// fastMax, and few enough that the runs between looks take less than a
// hundredth of tuneUnsure, so a choice is measured again at most that
// late.
func fastRuns(run time.Duration) int32 {
	if run <= 0 {
		return 1
	}
	return int32(max(1, min(fastMax, int64(tuneUnsure/100/run))))
}

// threadTrial is one binding's measurements and, once made, its choice.
type threadTrial struct {
	bind    sym.Bindings
	runs    int              // runs started, warm-up included
	best    [2]time.Duration // fastest run on one thread, on Threads
	timed   [2]int
	split   bool // a kernel split in one of the runs on Threads
	alone   int  // timed runs on Threads that ran alone
	decided bool
	use     int
	last    int       // the choice before this measurement (0: none)
	until   time.Time // when the choice is measured again
}

// ThreadChoice is what a program measured for one binding of its symbols:
// its fastest run on one thread and on Threads, and how many goroutines
// its runs use now (0 while it is still measuring).
type ThreadChoice struct {
	Bind      sym.Bindings
	Threads   int
	One, Many time.Duration
	Use       int
	// Splits says whether a kernel split its work in a run on Threads;
	// when none did, runs use one thread, and One was not measured.
	Splits bool
}

func newThreadTuner(threads int) *threadTuner {
	if threads <= 1 {
		return nil
	}
	return &threadTuner{threads: threads, seed: maphash.MakeSeed(), byBind: map[uint64]*threadTrial{}, now: time.Now}
}

// choose returns the goroutines the next run at bind uses, and which way
// it is timed (0: one thread, 1: Threads; -1: not timed).
func (t *threadTuner) choose(bind sym.Bindings) (threads, way int) {
	if f := t.fast.Load(); f != nil && f.at(bind) {
		// A load and a store, not an atomic decrement: concurrent runs may
		// both take the same count, which at worst lets a few more runs
		// through before the clock is read, and the lock prefix would cost
		// a tenth of what the fast path does.
		if n := f.left.Load(); n > 0 {
			f.left.Store(n - 1)
			return f.use, -1
		}
	}
	key := t.key(bind)
	t.mu.Lock()
	defer t.mu.Unlock()
	tr := t.byBind[key]
	if tr == nil {
		if len(t.byBind) >= tuneBindings {
			return t.threads, -1
		}
		tr = &threadTrial{bind: bind}
		t.byBind[key] = tr
	}
	if tr.decided {
		if t.now().Before(tr.until) {
			t.giveFast(key, tr)
			return tr.use, -1
		}
		// Measure again, without a warm-up: the frame is warm.
		*tr = threadTrial{bind: tr.bind, runs: tuneWarmup, last: tr.use}
	}
	tr.runs++
	if tr.runs <= tuneWarmup {
		// The first runs fill the frame's buffers, the caches and the
		// process's pool of workers.
		return t.threads, -1
	}
	// Blocks of runs, Threads' first, right after the warm-up, then one
	// thread's, and again: runs on Threads together, since the process's
	// workers park after a short idle spin, so runs on Threads
	// alternating with longer ones on one thread would each begin by
	// waking parked workers, which steady runs do not; two blocks each
	// way, so that a spell of a few milliseconds when the machine is
	// slower (or its other cores taken) falls on one block of one way,
	// not on all of its runs.
	way = 1 - (tr.runs-tuneWarmup-1)/tuneBlock%2
	if tr.timed[way] >= tuneRuns {
		way = 1 - way
	}
	if way == 0 {
		return 1, 0
	}
	return t.threads, 1
}

// giveFast lets the next runs at key take tr's choice without the lock.
func (t *threadTuner) giveFast(key uint64, tr *threadTrial) {
	way := 0
	if tr.use > 1 {
		way = 1
	}
	run := tr.best[way]
	if tr.timed[way] == 0 {
		// One thread, chosen without timing it (nothing split): its runs
		// take about as long as Threads' did.
		run = tr.best[1-way]
	}
	n := fastRuns(run)
	if f := t.fast.Load(); f != nil && f.key == key && f.use == tr.use {
		f.left.Store(n)
		return
	}
	f := &fastChoice{boundValues: boundOf(tr.bind), key: key, use: tr.use}
	f.left.Store(n)
	t.fast.Store(f)
}

// record adds a run choose timed (way 0 or 1; rs: what its kernels did)
// and makes the choice once both ways have had their runs, or once
// Threads' runs have and none split: then threads cannot pay, and a
// measurement of one thread would only let noise choose.
func (t *threadTuner) record(bind sym.Bindings, way int, d time.Duration, rs runSplit) {
	key := t.key(bind)
	t.mu.Lock()
	defer t.mu.Unlock()
	tr := t.byBind[key]
	if tr == nil || tr.decided {
		return
	}
	if tr.timed[way] == 0 || d < tr.best[way] {
		tr.best[way] = d
	}
	tr.timed[way]++
	tr.split = tr.split || way == 1 && rs.split
	if way == 1 && rs.alone {
		tr.alone++
	}
	if tr.timed[1] >= tuneBlock && !tr.split {
		tr.decided, tr.use = true, 1
		tr.until = t.now().Add(tuneFor)
		return
	}
	if tr.timed[0] >= tuneRuns && tr.timed[1] >= tuneRuns {
		ratio := float64(tr.best[1]) / float64(tr.best[0])
		tr.decided, tr.use = true, 1
		if ratio < tuneMargin {
			tr.use = t.threads
		}
		tr.until = t.now().Add(tuneFor)
		if ratio > tuneClear && ratio < 1/tuneClear || tr.last != 0 && tr.last != tr.use || 2*tr.alone > tr.timed[1] {
			tr.until = t.now().Add(tuneUnsure)
		}
		if tr.last == 0 {
			tr.until = t.now().Add(tuneFirst)
		}
	}
}

// key hashes a binding: a sum over its entries, so that the order of a
// map's entries does not matter, of each name's hash and its value mixed
// (splitmix64's finalizer).
func (t *threadTuner) key(bind sym.Bindings) uint64 {
	if len(bind) == 0 {
		return 0 // without ranging over the map, a tenth of a tiny model's choice
	}
	var k uint64
	for name, v := range bind {
		x := maphash.String(t.seed, name) + uint64(v)*0x9e3779b97f4a7c15
		x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
		x = (x ^ x>>27) * 0x94d049bb133111eb
		k += x ^ x>>31
	}
	return k
}

// choices lists what the tuner measured, one entry per binding.
func (t *threadTuner) choices() []ThreadChoice {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []ThreadChoice
	for _, tr := range t.byBind {
		c := ThreadChoice{Bind: tr.bind, Threads: t.threads, One: tr.best[0], Many: tr.best[1], Splits: tr.split}
		if tr.decided {
			c.Use = tr.use
		}
		out = append(out, c)
	}
	return out
}
