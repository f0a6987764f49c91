package par

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// A fresh goroutine per chunk costs an OS thread wake (a futex, tens of
// microseconds on a VM) before it runs, and Go first queues it behind the
// caller, so a caller that finishes its own chunk first ends up running
// the other one too: the split paid for nothing. Instead the process keeps
// up to GOMAXPROCS-1 workers that, after a region, spin for spinFor
// (yielding the processor as they go) watching for the next one, then
// park; a region's hand-off to a spinning worker is an atomic load, and
// one to a parked worker costs the caller a channel send and nothing more,
// since the caller does not wait for a chunk nobody has claimed.

// spinFor is how long a worker watches for the next region before it
// parks: longer than the gaps between parallel regions within one run of
// a model (the serial ops between two products), short enough that an
// idle program gives its core back at once. Within a run that says it
// splits (BeginRun), workers watch until it ends and spinFor after.
const spinFor = 200 * time.Microsecond

// wokenFor is how long a woken worker spins before it has run a chunk:
// on a machine with more threads than cores, a wake reaches the worker
// after its region is over, and a worker that then spun for spinFor would
// take the caller's core (Linux places a woken thread beside its waker
// when no core is idle) for nothing.
const wokenFor = 20 * time.Microsecond

// waitSpin is how long a caller spins for its workers' chunks to finish
// before it blocks.
const waitSpin = 50 * time.Microsecond

// preempted is a gap between two looks at the clock that says the
// worker's thread lost its core: the machine has more running threads
// than cores. A spinning worker then parks at once, since one that
// spins through its time slice is likely to be descheduled again while
// it holds a chunk, and its caller waits for that chunk; a parked one
// wakes with the scheduler's favour for sleepers.
const preempted = 100 * time.Microsecond

// A spinning worker looks at the slot in a tight loop (an atomic load, a
// few nanoseconds), the clock every clockEvery looks, and yields its
// processor every yieldEvery, so that the GC's workers and other goroutines
// get it without waiting for preemption: Gosched takes the scheduler's
// lock, which a caller handing off regions also takes, so yielding on
// every look cost a quarter of a two-thread run in profiles.
const (
	clockEvery = 1 << 8
	yieldEvery = 1 << 14
)

// region is one For call: k chunks, claimed by index, the caller's from
// the front and the workers' from the back. So on two threads the caller
// runs the first half of every region and the worker the second (unless
// it comes late), and consecutive kernels that split the same way (by
// samples, say) each find on their core the part they wrote, where a
// race for the next chunk would hand the halves out by chance and move
// each op's output between the cores' caches half the time.
type region struct {
	fn    func(i, lo, hi int)
	id    uint64 // which offer this is, so a worker serves it once
	n, k  int
	align int
	// left is the chunks not yet claimed, [front, back): front in the low
	// 32 bits, back in the high 32 (newRegion sets back to k).
	left     atomic.Uint64
	finished atomic.Int32  // chunks done
	done     chan struct{} // closed by the chunk that finishes last
}

func newRegion(fn func(i, lo, hi int), n, k, align int) *region {
	r := &region{fn: fn, n: n, k: k, align: align, done: make(chan struct{})}
	r.left.Store(uint64(k) << 32)
	return r
}

// claim takes the first unclaimed chunk (front) or the last, or returns
// -1 when none is left.
func (r *region) claim(front bool) int {
	for {
		v := r.left.Load()
		f, b := v&(1<<32-1), v>>32
		if f >= b {
			return -1
		}
		if front {
			if r.left.CompareAndSwap(v, v+1) {
				return int(f)
			}
		} else if r.left.CompareAndSwap(v, (b-1)<<32|f) {
			return int(b - 1)
		}
	}
}

// chunk runs chunk i.
func (r *region) chunk(i int) {
	lo, hi := Bounds(r.k, r.n, r.align, i)
	r.fn(i, lo, hi)
}

// work claims and runs chunks (from the front for the caller, from the
// back for a worker) until none is left, and says how many it ran.
func (r *region) work(front bool) int {
	for ran := 0; ; ran++ {
		i := r.claim(front)
		if i < 0 {
			return ran
		}
		r.chunk(i)
		if r.finished.Add(1) == int32(r.k) {
			close(r.done)
		}
	}
}

// wait returns once every chunk is done. Those still running were claimed
// by workers that are running them, so this is usually at most one
// chunk's time, spent spinning; past waitSpin the worker has likely lost
// its core (perhaps to this very thread), and the caller blocks, which
// gives the core back to the OS.
func (r *region) wait() {
	start := time.Now()
	for spins := 1; r.finished.Load() < int32(r.k); spins++ {
		if spins%clockEvery == 0 && time.Since(start) > waitSpin {
			<-r.done
			return
		}
	}
}

// pool is the process's workers and the one region they serve at a time.
type pool struct {
	slot    atomic.Pointer[region] // the region on offer, or nil
	parked  atomic.Int32           // workers parked (or about to) on wake
	wake    chan struct{}
	offers  atomic.Uint64 // regions offered so far
	procs   atomic.Int32  // GOMAXPROCS, as last seen
	mu      sync.Mutex
	started atomic.Int32 // workers started, at most GOMAXPROCS-1
	// A wake that reaches its worker after the region is over (the
	// machine's cores are taken) costs the caller a syscall and often its
	// core: after one, the next hold offers wake nobody, and backoff, the
	// hold after the next late wake, doubles up to maxHold; a wake that
	// lets its worker run a chunk clears both.
	hold, backoff atomic.Int32
	// runs counts the runs under way that split (BeginRun), and runEnd is
	// when the last one ended, in nanoseconds since epoch.
	runs   atomic.Int32
	runEnd atomic.Int64
	// spinning counts workers watching the slot, served the chunks they
	// ran (for tests).
	spinning atomic.Int32
	served   atomic.Int64
}

var workers = pool{wake: make(chan struct{}, 256)}

// offer puts r on offer to the workers, starting or waking those that r's
// chunks could use, or reports false when another region is on offer
// (a concurrent run, or a For inside a chunk): r then runs in the caller.
func (p *pool) offer(r *region) bool {
	r.id = p.offers.Add(1)
	// GOMAXPROCS takes the scheduler's lock: look at it now and then.
	if r.id%256 == 1 {
		p.procs.Store(int32(runtime.GOMAXPROCS(0)))
	}
	want := min(r.k-1, int(p.procs.Load())-1, cap(p.wake))
	if want <= 0 {
		return false
	}
	if !p.slot.CompareAndSwap(nil, r) {
		return false
	}
	if int(p.started.Load()) < want {
		p.start(want)
	}
	if n := min(int(p.parked.Load()), want); n > 0 {
		if p.hold.Load() > 0 {
			p.hold.Add(-1)
			return true
		}
		for range n {
			select {
			case p.wake <- struct{}{}:
			default:
			}
		}
	}
	return true
}

// withdraw takes r off offer once all its chunks are claimed.
func (p *pool) withdraw(r *region) { p.slot.CompareAndSwap(r, nil) }

// start starts workers until want are running.
func (p *pool) start(want int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for int(p.started.Load()) < want {
		p.started.Add(1)
		go p.worker()
	}
}

// worker serves regions: it runs chunks of whatever is on offer, watches
// the slot for spinFor after the last region it saw, then parks until an
// offer wakes it.
func (p *pool) worker() {
	var last uint64 // the last region served; not the region, which would keep its buffers alive
	woken := false
	for window := spinFor; ; window = wokenFor {
		p.spinning.Add(1)
		looked := time.Now()
		deadline := looked.Add(window)
		for spins := 1; ; spins++ {
			if r := p.slot.Load(); r != nil && r.id != last {
				last = r.id
				ran := r.work(false)
				p.served.Add(int64(ran))
				looked = time.Now()
				if ran > 0 {
					deadline = looked.Add(spinFor)
				}
				if woken {
					p.woke(ran > 0)
					woken = false
				}
				continue
			}
			if spins%clockEvery == 0 {
				now := time.Now()
				if now.After(deadline) && !p.inRun(now) || now.Sub(looked) > preempted {
					break
				}
				looked = now
				if spins%yieldEvery == 0 {
					runtime.Gosched()
				}
			}
		}
		if woken {
			p.woke(false)
			woken = false
		}
		p.spinning.Add(-1)
		p.parked.Add(1)
		// An offer made between the last look and parked's increment sent
		// no wake: look once more before sleeping.
		if r := p.slot.Load(); r != nil && r.id != last {
			p.parked.Add(-1)
			continue
		}
		<-p.wake
		p.parked.Add(-1)
		// A wake in a run is not judged late: the run keeps its workers
		// watching, so the wake serves its next regions if not this one.
		woken = p.runs.Load() == 0
	}
}

// maxHold is the most offers that go by without a wake after late ones:
// a few runs of a small model, so that a machine that has become quiet
// gets its workers back soon.
const maxHold = 256

// woke records whether a wake let its worker run a chunk.
func (p *pool) woke(useful bool) {
	if useful {
		p.backoff.Store(0)
		p.hold.Store(0)
		return
	}
	b := min(max(2*p.backoff.Load(), 1), maxHold)
	p.backoff.Store(b)
	p.hold.Store(b)
}

// A model's run on several threads is a string of regions (its products
// and convolutions) between serial ops, and on a machine whose wakes take
// 35-110 microseconds a worker that parked in a serial gap of more than
// spinFor (a classifier's tail, the time between runs) came back after
// the next region was over; the late wake then held off the offers after
// it, and whole runs went by on one thread (mobilenet_tiny_b8 on two
// cores: about a quarter of its regions ran without the worker). So a run
// that splits says so: its workers watch for regions from its start to its
// end, parking only when their thread loses its core.

// Offers is how many regions the process has offered its workers so far
// (For calls that cut their work in chunks, whether or not a worker took
// one): a caller that sees it unchanged across a run knows nothing in the
// run split.
func Offers() uint64 { return workers.offers.Load() }

// Served is how many chunks the process's workers have run so far.
func Served() uint64 { return uint64(workers.served.Load()) }

// BeginRun tells the workers that a run that splits has begun: until the
// matching EndRun they watch for regions whatever the gaps between them,
// and parked workers are woken now, to be watching by its first region.
func BeginRun() { workers.beginRun() }

// EndRun ends a BeginRun; the workers go on watching for spinFor.
func EndRun() { workers.endRun() }

func (p *pool) beginRun() {
	p.runs.Add(1)
	for range min(int(p.parked.Load()), int(p.procs.Load())-1, cap(p.wake)) {
		select {
		case p.wake <- struct{}{}:
		default:
		}
	}
}

func (p *pool) endRun() {
	p.runEnd.Store(time.Now().UnixNano())
	p.runs.Add(-1)
}

// inRun reports whether a run is under way, or the last one ended less
// than spinFor before now.
func (p *pool) inRun(now time.Time) bool {
	return p.runs.Load() > 0 || now.UnixNano()-p.runEnd.Load() < int64(spinFor)
}
