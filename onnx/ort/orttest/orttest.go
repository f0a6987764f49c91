// Package orttest finds ONNX Runtime for tests: a test that needs it
// skips when the library is absent, and fails instead when
// SEAM_ONNXRUNTIME_LIB names a library that cannot be used or
// SEAM_REQUIRE_ONNXRUNTIME=1 says it must be there (CI sets both).
package orttest

import (
	"os"
	"testing"

	"github.com/seam-rt/seam/onnx/ort"
)

// RequireEnv makes a missing library a test failure rather than a skip.
const RequireEnv = "SEAM_REQUIRE_ONNXRUNTIME"

// Library returns the loaded library, or skips (or fails) the test.
func Library(t testing.TB) *ort.Library {
	t.Helper()
	l, err := ort.Open()
	if err == nil {
		return l
	}
	if os.Getenv(ort.EnvVar) != "" || os.Getenv(RequireEnv) == "1" {
		t.Fatalf("ONNX Runtime is required here: %v", err)
	}
	t.Skipf("ONNX Runtime not installed (%s=1 makes this a failure): %v", RequireEnv, err)
	return nil
}
