package bench

import (
	"sort"
	"time"

	"github.com/seam-rt/seam/onnx"
	"github.com/seam-rt/seam/onnx/ort"
	"github.com/seam-rt/seam/onnx/ortbackend"
	"github.com/seam-rt/seam/pt2"
)

// ORTAvailable reports whether ONNX Runtime loads in this process, so
// that bench run adds its column on seam's export.
func ORTAvailable() bool {
	_, err := ort.Open()
	return err == nil
}

// TimeORTSeamExport times ONNX Runtime, in this process on one thread
// (intra-op and inter-op), running seam's own translation of the whole
// program (what seam export onnx writes), as TimeRun times seam: a
// warm-up, then runs until both minRuns runs and minTime have passed.
// Each run goes through the onnxruntime backend's runner, which binds and
// checks the inputs' symbols first, as a lowered program's calls do.
func TimeORTSeamExport(model, dir string, minRuns int, minTime time.Duration) (median, fastest time.Duration, err error) {
	lib, err := ort.Open()
	if err != nil {
		return 0, 0, err
	}
	a, err := pt2.Open(model)
	if err != nil {
		return 0, 0, err
	}
	defer a.Close()
	p, err := a.Program()
	if err != nil {
		return 0, 0, err
	}
	tr, err := onnx.Translate(p)
	if err != nil {
		return 0, 0, err
	}
	r, err := ortbackend.NewRunner(lib, tr.Model.Marshal(), p, ortbackend.Options{Threads: 1})
	if err != nil {
		return 0, 0, err
	}
	defer r.Close()
	inputs, err := Inputs(dir)
	if err != nil {
		return 0, 0, err
	}
	median, fastest, _, err = timeRuns(func() error { _, err := r.Run(inputs); return err }, minRuns, minTime)
	return median, fastest, err
}

// timeRuns times run: three warm-up runs, then runs until both minRuns
// runs and minTime have passed; the median and fastest run, and the count.
func timeRuns(run func() error, minRuns int, minTime time.Duration) (median, fastest time.Duration, runs int, err error) {
	for i := 0; i < 3; i++ {
		if err := run(); err != nil {
			return 0, 0, 0, err
		}
	}
	var times []time.Duration
	start := time.Now()
	for len(times) < minRuns || time.Since(start) < minTime {
		t0 := time.Now()
		if err := run(); err != nil {
			return 0, 0, 0, err
		}
		times = append(times, time.Since(t0))
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	return times[len(times)/2], times[0], len(times), nil
}
