//go:build unix

package main

import (
	"os"
	"strconv"
	"syscall"
)

// capAddressSpace applies the address-space limit the parent asked for.
func capAddressSpace() {
	if v, err := strconv.ParseUint(os.Getenv("SEAM_TEST_RLIMIT_AS"), 10, 64); err == nil {
		syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: v, Max: v})
	}
}
