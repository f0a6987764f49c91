package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// versionText says what was built: the module and its version ("(devel)"
// for a build from a checkout), the VCS revision with its time and whether
// the tree had uncommitted changes, and the Go that built it. It reads the
// build information the Go linker embeds, so it cannot drift from the
// binary.
func versionText(info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil {
		return "seam: no build information in this binary\n"
	}
	version := info.Main.Version
	if version == "" {
		version = "(unknown version)"
	}
	path := info.Main.Path
	if path == "" {
		path = "github.com/seam-rt/seam"
	}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "seam %s (%s)\n", version, path)
	if rev := settings["vcs.revision"]; rev != "" {
		fmt.Fprintf(&sb, "revision: %s", rev)
		if t := settings["vcs.time"]; t != "" {
			fmt.Fprintf(&sb, " (%s)", t)
		}
		if settings["vcs.modified"] == "true" {
			sb.WriteString(", with uncommitted changes")
		}
		sb.WriteByte('\n')
	} else {
		sb.WriteString("revision: unknown (built without VCS information)\n")
	}
	fmt.Fprintf(&sb, "go: %s %s/%s\n", info.GoVersion, runtime.GOOS, runtime.GOARCH)
	return sb.String()
}
