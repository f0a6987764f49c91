package backend

import "strings"

// glob is a pattern over op names in which `*` matches any run of
// characters (including none) and everything else matches itself.
type glob struct {
	text  string
	parts []string // the text between stars
}

func compileGlob(p string) glob { return glob{text: p, parts: strings.Split(p, "*")} }

// match runs in time linear in len(s) per part: greedy leftmost matching
// of the pieces between stars is exact for `*`-only patterns.
func (g glob) match(s string) bool {
	parts := g.parts
	if len(parts) == 1 {
		return s == parts[0]
	}
	first, last := parts[0], parts[len(parts)-1]
	if !strings.HasPrefix(s, first) || !strings.HasSuffix(s, last) || len(s) < len(first)+len(last) {
		return false
	}
	s = s[len(first) : len(s)-len(last)]
	for _, mid := range parts[1 : len(parts)-1] {
		i := strings.Index(s, mid)
		if i < 0 {
			return false
		}
		s = s[i+len(mid):]
	}
	return true
}

type globSet []glob

func compileGlobs(ps []string) globSet {
	gs := make(globSet, len(ps))
	for i, p := range ps {
		gs[i] = compileGlob(p)
	}
	return gs
}

// first returns the first pattern matching s, if any.
func (gs globSet) first(s string) (string, bool) {
	for _, g := range gs {
		if g.match(s) {
			return g.text, true
		}
	}
	return "", false
}
