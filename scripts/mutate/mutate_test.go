package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMutationsApply keeps the list from rotting as the code changes:
// every mutation's text occurs exactly once in its file, and there are
// at least 25 of them across the packages the check covers. (The check
// itself, go run ./scripts/mutate, runs the tests of each mutation.)
func TestMutationsApply(t *testing.T) {
	root := filepath.Join("..", "..")
	pkgs := map[string]int{}
	names := map[string]bool{}
	for _, m := range mutations {
		if names[m.Name] {
			t.Errorf("%s: two mutations of that name", m.Name)
		}
		names[m.Name] = true
		src, err := os.ReadFile(filepath.Join(root, m.File))
		if err != nil {
			t.Errorf("%s: %v", m.Name, err)
			continue
		}
		if n := strings.Count(string(src), m.Old); n != 1 {
			t.Errorf("%s: the text to mutate occurs %d times in %s", m.Name, n, m.File)
		}
		if m.Old == m.New || len(m.Pkgs) == 0 {
			t.Errorf("%s: no change, or no package to test", m.Name)
		}
		pkgs[strings.SplitN(m.File, "/", 2)[0]]++
	}
	if len(mutations) < 25 {
		t.Errorf("%d mutations, want at least 25", len(mutations))
	}
	for _, p := range []string{"kernels", "runtime", "sym", "partition", "lower", "pt2"} {
		if pkgs[p] < 2 {
			t.Errorf("%d mutations in %s, want at least 2", pkgs[p], p)
		}
	}
}
