package main

import (
	"regexp"

	"github.com/seam-rt/seam/inspect"
	"github.com/seam-rt/seam/irtext"
)

// TODO(sym): replace with package sym once it lands.
var symbolRE = regexp.MustCompile(`Symbol\('(\w+)'[^)]*\)`)

func printer() *irtext.Printer {
	return &irtext.Printer{Expr: func(s string) string { return symbolRE.ReplaceAllString(s, "$1") }}
}

func inspectOptions() inspect.Options {
	return inspect.Options{Printer: printer(), Symbols: func(s string) []string {
		var out []string
		for _, m := range symbolRE.FindAllStringSubmatch(s, -1) {
			out = append(out, m[1])
		}
		return out
	}}
}
