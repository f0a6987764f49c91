//go:build !unix

package atomicfile

import (
	"os"
	"os/signal"
)

var sigs chan os.Signal

func watchSignals() {
	if sigs == nil {
		sigs = make(chan os.Signal, 1)
		go func() {
			for range sigs {
				removeAll()
				os.Exit(1)
			}
		}()
	}
	signal.Notify(sigs, os.Interrupt)
}

func unwatchSignals() { signal.Stop(sigs) }
