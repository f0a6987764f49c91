// Command mutate checks that the tests catch small mistakes. It applies
// each mutation in mutations.go on its own, through go test -overlay (the
// working tree is never written), runs the tests that must catch it, and
// prints a table of each mutation and the tests that failed. It exits 1 if
// a mutation survives, no longer applies, or does not compile.
//
//	go run ./scripts/mutate [-run REGEXP] [-v]
//
// Run it from the repository root. It takes a few minutes on two cores.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

func main() {
	only := flag.String("run", "", "apply only the mutations whose name matches `REGEXP`")
	verbose := flag.Bool("v", false, "print the go test output of each mutation")
	flag.Parse()
	if err := run(*only, *verbose); err != nil {
		fmt.Fprintln(os.Stderr, "mutate:", err)
		os.Exit(1)
	}
}

func run(only string, verbose bool) error {
	sel, err := regexp.Compile(only)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "seam-mutate-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	fmt.Println("| # | mutation | file | caught by |")
	fmt.Println("|---|---|---|---|")
	bad := 0
	for i, m := range mutations {
		if !sel.MatchString(m.Name) {
			continue
		}
		start := time.Now()
		caughtBy, out, err := apply(tmp, i, m)
		if verbose {
			fmt.Fprintf(os.Stderr, "== %s (%s)\n%s\n", m.Name, time.Since(start).Round(time.Second), out)
		}
		verdict := strings.Join(caughtBy, ", ")
		if err != nil {
			verdict, bad = "**"+err.Error()+"**", bad+1
		}
		fmt.Printf("| %d | %s | %s | %s |\n", i+1, m.Name, m.File, verdict)
	}
	if bad > 0 {
		return fmt.Errorf("%d mutations not caught or not applied", bad)
	}
	return nil
}

// usesRapid reports whether pkg's test binaries link pgregory.net/rapid,
// which then accepts -rapid.nofailfile (other binaries reject the flag).
func usesRapid(pkg string) bool {
	out, err := exec.Command("go", "list", "-test", "-deps", "-f", "{{.ImportPath}}", pkg).Output()
	return err == nil && strings.Contains("\n"+string(out), "\npgregory.net/rapid\n")
}

var (
	failLine    = regexp.MustCompile(`(?m)^\s*--- FAIL: (\S+)`)
	runningLine = regexp.MustCompile(`(?m)^\t\t(Test\w+) \(`) // under "running tests:" at a timeout
)

// apply runs the mutation's tests with the mutated file overlaid and
// returns the top-level tests that failed.
func apply(tmp string, i int, m mutation) ([]string, string, error) {
	src, err := os.ReadFile(m.File)
	if err != nil {
		return nil, "", err
	}
	if n := strings.Count(string(src), m.Old); n != 1 {
		return nil, "", fmt.Errorf("the text to mutate occurs %d times in %s", n, m.File)
	}
	abs, err := filepath.Abs(m.File)
	if err != nil {
		return nil, "", err
	}
	dir := filepath.Join(tmp, fmt.Sprint(i))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, "", err
	}
	mutated := filepath.Join(dir, filepath.Base(m.File))
	if err := os.WriteFile(mutated, []byte(strings.Replace(string(src), m.Old, m.New, 1)), 0o644); err != nil {
		return nil, "", err
	}
	overlay := filepath.Join(dir, "overlay.json")
	ov, _ := json.Marshal(map[string]map[string]string{"Replace": {abs: mutated}})
	if err := os.WriteFile(overlay, ov, 0o644); err != nil {
		return nil, "", err
	}
	var text string
	var failed error
	for _, pkg := range m.Pkgs {
		// A mutation that makes a test hang is caught too, by the timeout.
		args := []string{"test", "-count=1", "-timeout=3m", "-overlay=" + overlay}
		if m.Run != "" {
			args = append(args, "-run", m.Run)
		}
		args = append(args, pkg)
		if usesRapid(pkg) {
			// Failing properties must not leave testdata/rapid files behind.
			args = append(args, "-args", "-rapid.nofailfile")
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		out, e := exec.CommandContext(ctx, "go", args...).CombinedOutput()
		cancel()
		text += string(out)
		if e != nil {
			failed = e
		}
	}
	if strings.Contains(text, "[build failed]") || strings.Contains(text, "[setup failed]") {
		return nil, text, fmt.Errorf("the mutated code does not compile")
	}
	if failed == nil {
		return nil, text, fmt.Errorf("survived: no test failed")
	}
	if strings.Contains(text, "panic: test timed out") {
		var hung []string
		for _, m := range runningLine.FindAllStringSubmatch(text, -1) {
			hung = append(hung, m[1]+" (hangs)")
		}
		return hung, text, nil
	}
	var caught []string
	seen := map[string]bool{}
	for _, f := range failLine.FindAllStringSubmatch(text, -1) {
		name := strings.SplitN(f[1], "/", 2)[0]
		if !seen[name] {
			seen[name] = true
			caught = append(caught, name)
		}
	}
	if len(caught) == 0 {
		return nil, text, fmt.Errorf("go test failed without a failing test: %v", failed)
	}
	return caught, text, nil
}
