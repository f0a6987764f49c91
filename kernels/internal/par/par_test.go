package par

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestForCoversEachItemOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 48, 100, 1001} {
		for _, align := range []int{1, 4, 48} {
			for k := 0; k <= 5; k++ {
				hits := make([]int32, n)
				var chunks atomic.Int32
				For(k, n, align, func(lo, hi int) {
					chunks.Add(1)
					if lo%align != 0 && lo != n {
						t.Errorf("n=%d align=%d k=%d: chunk starts at %d", n, align, k, lo)
					}
					for i := lo; i < hi; i++ {
						atomic.AddInt32(&hits[i], 1)
					}
				})
				for i, h := range hits {
					if h != 1 {
						t.Fatalf("n=%d align=%d k=%d: item %d run %d times", n, align, k, i, h)
					}
				}
				if int(chunks.Load()) > max(k, 1) {
					t.Fatalf("n=%d k=%d: %d chunks", n, k, chunks.Load())
				}
			}
		}
	}
}

// ForChunks numbers its chunks 0 to Count-1, once each, with the bounds
// Bounds gives.
func TestForChunksIndexesMatchBounds(t *testing.T) {
	for _, n := range []int{1, 7, 100, 1001} {
		for _, align := range []int{1, 4, 48} {
			for k := 1; k <= 5; k++ {
				c := Count(k, n, align)
				seen := make([]int32, c)
				ForChunks(k, n, align, func(i, lo, hi int) {
					atomic.AddInt32(&seen[i], 1)
					if wl, wh := Bounds(c, n, align, i); lo != wl || hi != wh {
						t.Errorf("n=%d align=%d k=%d: chunk %d is [%d, %d), Bounds says [%d, %d)", n, align, k, i, lo, hi, wl, wh)
					}
				})
				for i, h := range seen {
					if h != 1 {
						t.Fatalf("n=%d align=%d k=%d: chunk %d run %d times", n, align, k, i, h)
					}
				}
			}
		}
	}
}

func TestChunksKeepsSmallWorkInline(t *testing.T) {
	if c := Chunks(8, 1000, 10); c != 1 {
		t.Fatalf("10,000 units of work in %d chunks", c)
	}
	if c := Chunks(1, 1<<20, 1<<20); c != 1 {
		t.Fatalf("one thread: %d chunks", c)
	}
	if c := Chunks(2, 64, MinWork); c != 2 {
		t.Fatalf("64 items of MinWork on 2 threads: %d chunks", c)
	}
	if c := Chunks(16, 3, MinWork); c != 3 {
		t.Fatalf("3 items on 16 threads: %d chunks", c)
	}
}

// Regions offered from several goroutines at once (concurrent runs), and
// from inside a chunk (a kernel that splits inside a split), still run
// each item exactly once: only one region is on offer at a time, and the
// others run in their callers.
func TestForConcurrentAndNested(t *testing.T) {
	const n = 1000
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for rep := range 200 {
				hits := make([]int32, n)
				For(2+(g+rep)%3, n, 1+g, func(lo, hi int) {
					For(2, hi-lo, 1, func(ilo, ihi int) {
						for i := lo + ilo; i < lo+ihi; i++ {
							atomic.AddInt32(&hits[i], 1)
						}
					})
				})
				for i, h := range hits {
					if h != 1 {
						t.Errorf("goroutine %d rep %d: item %d run %d times", g, rep, i, h)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}

// The pool starts at most GOMAXPROCS-1 workers however many regions and
// callers there are, and they stop spinning (park) soon after the last
// region: an idle program does not burn a core.
func TestPoolIsBoundedAndParks(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	before := runtime.NumGoroutine()
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 500 {
				For(8, 64, 1, func(lo, hi int) {})
			}
		}()
	}
	wg.Wait()
	if s, limit := int(workers.started.Load()), runtime.GOMAXPROCS(0)-1; s < 1 || s > limit {
		t.Fatalf("%d workers started, want 1 to %d", s, limit)
	}
	// Parking takes spinFor after the last region; allow a loaded machine
	// many times that.
	deadline := time.Now().Add(5 * time.Second)
	for workers.spinning.Load() > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d workers still spinning %v after the last region", workers.spinning.Load(), 5*time.Second)
		}
		time.Sleep(time.Millisecond)
	}
	if g := runtime.NumGoroutine(); g > before+int(workers.started.Load()) {
		t.Fatalf("%d goroutines after the regions, %d before and %d workers", g, before, workers.started.Load())
	}
	// A parked worker still serves the next region: while the caller
	// sleeps in one chunk, a worker takes the other. The regions above
	// were over before most wakes arrived, so the first maxHold offers
	// may wake nobody.
	before = int(workers.served.Load())
	for try := 0; try < maxHold+200 && int(workers.served.Load()) == before; try++ {
		For(2, 2, 1, func(lo, hi int) { time.Sleep(time.Millisecond) })
	}
	if int(workers.served.Load()) == before {
		t.Fatal("no region's chunk ran on a worker once they had parked")
	}
}

// After a wake that came too late, the next offers wake nobody, for a
// hold that doubles with each late wake up to maxHold; a useful wake
// clears it. (A pool of its own, with no workers, whose parked count is
// set by hand.)
func TestLateWakesHoldOffers(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	p := &pool{wake: make(chan struct{}, 1)}
	p.started.Store(1)
	p.parked.Store(1)
	offer := func() (woke bool) {
		r := &region{k: 2}
		if !p.offer(r) {
			t.Fatal("offer refused with the slot free")
		}
		p.withdraw(r)
		select {
		case <-p.wake:
			return true
		default:
			return false
		}
	}
	if !offer() {
		t.Fatal("a parked worker was not woken")
	}
	for _, hold := range []int{1, 2, 4} {
		p.woke(false)
		for i := range hold {
			if offer() {
				t.Fatalf("hold %d: offer %d woke a worker", hold, i)
			}
		}
		if !offer() {
			t.Fatalf("hold %d: no wake after it", hold)
		}
	}
	for range 20 {
		p.woke(false)
	}
	if h := p.hold.Load(); h != maxHold {
		t.Fatalf("hold %d after many late wakes, want %d", h, maxHold)
	}
	p.woke(true)
	if !offer() {
		t.Fatal("no wake after a useful one")
	}
}

// A run that splits wakes the parked workers as it begins, and keeps
// them watching until spinFor after it ends. (A pool of its own, with no
// workers, whose counts are set by hand.)
func TestRunWakesAndKeepsWorkers(t *testing.T) {
	p := &pool{wake: make(chan struct{}, 4)}
	p.started.Store(1)
	p.parked.Store(1)
	p.procs.Store(2)
	now := time.Now()
	if p.inRun(now) {
		t.Fatal("in a run before any began")
	}
	p.beginRun()
	if len(p.wake) != 1 {
		t.Fatalf("a run began with one worker parked and sent %d wakes", len(p.wake))
	}
	if !p.inRun(now.Add(time.Hour)) {
		t.Fatal("not in a run while one is under way")
	}
	p.endRun()
	end := time.Now()
	if !p.inRun(end.Add(spinFor / 2)) {
		t.Fatal("workers stop watching less than spinFor after the run")
	}
	if p.inRun(end.Add(2 * spinFor)) {
		t.Fatal("workers still watch 2*spinFor after the run")
	}
}

// Within a run, a worker that served a region still watches for the
// next one long after spinFor, where it would otherwise have parked;
// after the run it parks.
func TestWorkersWatchThroughARun(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	BeginRun()
	ended := false
	defer func() {
		if !ended {
			EndRun()
		}
	}()
	// A worker whose thread loses its core parks even in a run: on a
	// loaded machine, try a few times.
	watching := false
	for try := 0; try < 20 && !watching; try++ {
		before := workers.served.Load()
		For(2, 2, 1, func(lo, hi int) { time.Sleep(time.Millisecond) })
		if workers.served.Load() == before {
			continue
		}
		time.Sleep(10 * spinFor)
		watching = workers.spinning.Load() > 0
	}
	if !watching {
		t.Fatal("no worker watched for regions 10*spinFor after one, within a run")
	}
	EndRun()
	ended = true
	deadline := time.Now().Add(5 * time.Second)
	for workers.spinning.Load() > 0 {
		if time.Now().After(deadline) {
			t.Fatal("workers still spinning 5s after the run ended")
		}
		time.Sleep(time.Millisecond)
	}
}

// The caller claims a region's chunks from the front and workers from the
// back, each chunk once, so that on two threads the caller runs the first
// chunks of every region and a worker the last.
func TestCallerClaimsFrontWorkersBack(t *testing.T) {
	r := newRegion(nil, 50, 5, 1)
	var got []int
	for _, front := range []bool{true, false, false, true, true, false, true} {
		got = append(got, r.claim(front))
	}
	want := []int{0, 4, 3, 1, 2, -1, -1}
	if !slices.Equal(got, want) {
		t.Fatalf("claims (front, back, back, front, front, back, front) = %v, want %v", got, want)
	}
}
