// Command gen writes the hostile inputs of package hostile to a folder.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/seam-rt/seam/internal/hostile"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gen DIR")
		os.Exit(2)
	}
	dir := os.Args[1]
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fail(err)
	}
	for _, s := range hostile.Scales() {
		data, err := hostile.Archive(s.Program())
		if err != nil {
			fail(err)
		}
		if err := os.WriteFile(filepath.Join(dir, s.Name+".pt2"), data, 0o644); err != nil {
			fail(err)
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gen:", err)
	os.Exit(1)
}
