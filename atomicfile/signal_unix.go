//go:build unix

package atomicfile

import (
	"os"
	"os/signal"
	"syscall"
)

var sigs chan os.Signal

// watchSignals makes SIGINT, SIGTERM and SIGHUP remove the temporary files
// and then end the process as the signal would have.
func watchSignals() {
	if sigs == nil {
		sigs = make(chan os.Signal, 1)
		go func() {
			for sig := range sigs {
				removeAll()
				signal.Reset(sig)
				s := sig.(syscall.Signal)
				syscall.Kill(os.Getpid(), s)
				os.Exit(128 + int(s))
			}
		}()
	}
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
}

func unwatchSignals() {
	signal.Stop(sigs)
}
