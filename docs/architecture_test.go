package docs

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/seam-rt/seam"

// goPackage is what go list says of one package.
type goPackage struct {
	ImportPath string
	Imports    []string
}

// listPackages runs go list ./... in the repository (the tests run in
// docs/), without test imports.
func listPackages(t *testing.T) []goPackage {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	cmd := exec.Command(goTool, "list", "-json=ImportPath,Imports", "./...")
	cmd.Dir = ".."
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []goPackage
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p goPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

var layerRow = regexp.MustCompile("^\\| (\\w+) \\| `([a-z0-9/_]+)` \\|")

// architecture reads architecture.md's package table: each package's
// layer, by the order the layers first appear.
func architecture(t *testing.T) (layer map[string]int, names []string) {
	t.Helper()
	f, err := os.Open("architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	layer = map[string]int{}
	order := map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := layerRow.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		if _, ok := order[m[1]]; !ok {
			order[m[1]] = len(order)
			names = append(names, m[1])
		}
		if _, dup := layer[m[2]]; dup {
			t.Errorf("architecture.md lists %s twice", m[2])
		}
		layer[m[2]] = order[m[1]]
	}
	return layer, names
}

// TestArchitecture: architecture.md lists exactly the packages go list
// finds, and no package imports a package of a later layer: the import
// graph has no edge back down the pipeline.
func TestArchitecture(t *testing.T) {
	layer, layers := architecture(t)
	if len(layer) < 10 {
		t.Fatalf("architecture.md lists %d packages: the table did not parse", len(layer))
	}
	pkgs := listPackages(t)
	listed := map[string]bool{}
	for _, p := range pkgs {
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		listed[rel] = true
		if _, ok := layer[rel]; !ok {
			t.Errorf("package %s is missing from architecture.md", rel)
		}
	}
	for rel := range layer {
		if !listed[rel] {
			t.Errorf("architecture.md lists %s, which go list does not find", rel)
		}
	}
	for _, p := range pkgs {
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		from, ok := layer[rel]
		if !ok {
			continue
		}
		for _, imp := range p.Imports {
			if !strings.HasPrefix(imp, module+"/") {
				continue
			}
			dep := strings.TrimPrefix(imp, module+"/")
			if to, ok := layer[dep]; ok && to > from {
				t.Errorf("%s (layer %s) imports %s (layer %s): a back-edge", rel, layers[from], dep, layers[to])
			}
		}
	}
	// The archive stays at the edges.
	for _, p := range pkgs {
		if slices.Contains([]string{module + "/verify", module + "/runtime", module + "/lower"}, p.ImportPath) &&
			slices.Contains(p.Imports, module+"/pt2") {
			t.Errorf("%s imports pt2", p.ImportPath)
		}
	}
}
