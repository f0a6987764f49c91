package main

import (
	"fmt"
	"strings"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/verify"
)

// InputError is an input that lowering refuses before it starts: the
// input's fault, not seam's (lower.BugError is kept for output seam broke).
type InputError struct {
	File string
	Msg  string
}

func (e *InputError) Error() string { return e.File + " " + e.Msg }

// checkLowerInput verifies what seam lower is given, so that a program
// that does not verify is reported as the input's fault, and refuses a
// program that is already lowered, saying so.
func checkLowerInput(file string, l *ir.Lowered) error {
	if len(l.Specializations) > 0 {
		return &InputError{File: file, Msg: fmt.Sprintf("is already lowered, with %d specializations; "+
			"seam lowers a program once: lower the program it was lowered from", len(l.Specializations))}
	}
	if mods := lowered(l); len(mods) > 0 {
		return &InputError{File: file, Msg: fmt.Sprintf("is already lowered (its delegate calls run %s); "+
			"seam lowers a program once: lower the program it was lowered from", strings.Join(mods, ", "))}
	}
	vs := verify.Errors(verify.Lowered(l))
	if len(vs) == 0 {
		return nil
	}
	const show = 10
	lines := make([]string, 0, show+1)
	for i, v := range vs {
		if i == show {
			lines = append(lines, fmt.Sprintf("  ... and %d more (seam verify %s lists them all)", len(vs)-show, file))
			break
		}
		lines = append(lines, "  "+v.String())
	}
	return &InputError{File: file, Msg: "does not verify:\n" + strings.Join(lines, "\n")}
}

// lowered lists the lowered modules the main program's delegate calls
// name, and any other program of the archive.
func lowered(l *ir.Lowered) []string {
	seen := map[string]bool{}
	var out []string
	add := func(name string) {
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	for _, n := range l.Main.Graph.Nodes {
		if m, ok := n.DelegateModule(); ok {
			add(m)
		}
	}
	for _, name := range l.ModuleNames() {
		add(name)
	}
	return out
}
