//go:build unix

package kernels_test

import "syscall"

// cpuNanos is the CPU time this process has used, user and system.
func cpuNanos() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
