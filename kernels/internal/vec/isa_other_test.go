//go:build !amd64 || purego

package vec

import "testing"

// forEachISA runs f on the portable loops, the only ones here.
func forEachISA(t *testing.T, f func(*testing.T)) { t.Run("go", f) }
