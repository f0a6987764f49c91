package atomicfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"sync"
)

// namedOnly makes every temporary file a named one (for tests).
var namedOnly = false

// Named temporary files are hidden, next to their destination, and
// registered so that a signal removes them.

func tempName(dir, base string) string {
	var b [6]byte
	rand.Read(b[:])
	return filepath.Join(dir, "."+base+".tmp-"+hex.EncodeToString(b[:]))
}

// createNamed creates a named temporary file, mode 0644 less the umask.
func createNamed(dir, base string) (*os.File, string, error) {
	for range 100 {
		name := tempName(dir, base)
		remember(name)
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			return f, name, nil
		}
		forget(name)
		if !errors.Is(err, os.ErrExist) {
			return nil, "", err
		}
	}
	return nil, "", errors.New("cannot find a free temporary name")
}

var (
	tempMu sync.Mutex
	temps  = map[string]bool{}
)

// remember registers a temporary file for removal on a signal.
func remember(name string) {
	tempMu.Lock()
	defer tempMu.Unlock()
	if len(temps) == 0 {
		watchSignals()
	}
	temps[name] = true
}

func forget(name string) {
	tempMu.Lock()
	defer tempMu.Unlock()
	if !temps[name] {
		return
	}
	delete(temps, name)
	if len(temps) == 0 {
		unwatchSignals()
	}
}

// removeAll removes every registered temporary file (on a signal).
func removeAll() {
	tempMu.Lock()
	defer tempMu.Unlock()
	for name := range temps {
		os.Remove(name)
		delete(temps, name)
	}
}
