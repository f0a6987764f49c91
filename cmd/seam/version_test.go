package main

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionFlag(t *testing.T) {
	out := mustSeam(t, "--version")
	for _, want := range []string{"seam ", "github.com/seam-rt/seam", "revision: ", "go: go1."} {
		if !strings.Contains(out, want) {
			t.Errorf("seam --version lacks %q:\n%s", want, out)
		}
	}
}

func TestVersionText(t *testing.T) {
	info := &debug.BuildInfo{
		GoVersion: "go1.26.8",
		Main:      debug.Module{Path: "github.com/seam-rt/seam", Version: "v0.3.1"},
		Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "42ed7cc0e4df0e9f4b87a6ed336f92b2e6d91c2b"},
			{Key: "vcs.time", Value: "2026-11-30T02:42:33Z"},
			{Key: "vcs.modified", Value: "true"},
		},
	}
	got := versionText(info, true)
	for _, want := range []string{
		"seam v0.3.1 (github.com/seam-rt/seam)\n",
		"revision: 42ed7cc0e4df0e9f4b87a6ed336f92b2e6d91c2b (2026-11-30T02:42:33Z), with uncommitted changes\n",
		"go: go1.26.8 ",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("versionText lacks %q:\n%s", want, got)
		}
	}
	info.Settings = nil
	if got := versionText(info, true); !strings.Contains(got, "revision: unknown") {
		t.Errorf("without VCS settings:\n%s", got)
	}
	if got := versionText(nil, false); !strings.Contains(got, "no build information") {
		t.Errorf("without build information: %q", got)
	}
}
