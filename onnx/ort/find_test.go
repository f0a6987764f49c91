package ort

import (
	"errors"
	"strings"
	"testing"
)

// TestFindSaysHowToInstall: without a library, the error lists where seam
// looked and gives the one command that installs it; a library the
// environment names but that does not load is an error of its own, never
// a silent fallback.
func TestFindSaysHowToInstall(t *testing.T) {
	_, err := find("", []string{"/nonexistent/libonnxruntime.so.1", "libno-such-onnxruntime.so"})
	var nf *NotFoundError
	if !errors.As(err, &nf) || len(nf.Tried) != 2 {
		t.Fatalf("error %v, want a NotFoundError listing 2 tries", err)
	}
	if !strings.Contains(err.Error(), InstallCommand()) || !strings.Contains(err.Error(), EnvVar) {
		t.Errorf("error lacks the install command or %s:\n%v", EnvVar, err)
	}
	_, err = find("/nonexistent/libonnxruntime.so.1", []string{"libc.so.6"})
	var ue *UnusableError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), InstallCommand()) {
		t.Errorf("an unusable %s: %v", EnvVar, err)
	}
	if !strings.Contains(InstallCommand(), "onnxruntime-node@"+Version) || !strings.Contains(InstallCommand(), "--ignore-scripts") {
		t.Errorf("install command %q", InstallCommand())
	}
}
