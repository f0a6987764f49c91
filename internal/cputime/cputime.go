// Package cputime reads the CPU time this process has used, for the
// benchmarks that report it beside the wall clock: on a machine shared
// with other work it says what a step costs better than the wall clock.
package cputime

import "time"

// Used is the CPU time this process has used so far, all threads (the
// garbage collector's included); 0 where the system does not say.
func Used() time.Duration { return used() }

// Report adds the CPU time per operation since start to b as cpu-ms/op.
func Report(b interface {
	ReportMetric(float64, string)
}, start time.Duration, ops int) {
	if d := Used() - start; d > 0 && start > 0 && ops > 0 {
		b.ReportMetric(float64(d.Microseconds())/1e3/float64(ops), "cpu-ms/op")
	}
}
