// Command gen writes the hostile inputs of package hostile to a folder:
// DIR/<case>/ holds each case's files and, in cmd, the seam command line
// that must refuse them (or read them, for the valid large ones). -scale
// also writes the large valid programs the issue measured as DIR/<name>.pt2.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/seam-rt/seam/internal/hostile"
)

func main() {
	scale := flag.Bool("scale", false, "write only the large valid programs, as DIR/NAME.pt2")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: gen [-scale] DIR")
		os.Exit(2)
	}
	dir := flag.Arg(0)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fail(err)
	}
	if *scale {
		for _, s := range hostile.Scales() {
			data, err := hostile.Archive(s.Program())
			if err != nil {
				fail(err)
			}
			if err := os.WriteFile(filepath.Join(dir, s.Name+".pt2"), data, 0o644); err != nil {
				fail(err)
			}
		}
		return
	}
	cases, err := hostile.Cases()
	if err != nil {
		fail(err)
	}
	for _, c := range cases {
		cd := filepath.Join(dir, c.Class+"_"+c.Name)
		if err := os.MkdirAll(cd, 0o755); err != nil {
			fail(err)
		}
		if err := c.Make(cd); err != nil {
			fail(fmt.Errorf("%s: %w", c.Name, err))
		}
		args := make([]string, len(c.Args))
		for i, a := range c.Args {
			if rest, ok := strings.CutPrefix(a, "DIR/"); ok {
				a = filepath.Join(cd, rest)
			}
			args[i] = a
		}
		line := strings.Join(append(c.Env, append([]string{"seam"}, args...)...), " ")
		if err := os.WriteFile(filepath.Join(cd, "cmd"), []byte(line+"\n"), 0o644); err != nil {
			fail(err)
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gen:", err)
	os.Exit(1)
}
