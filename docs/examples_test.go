package docs_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/delegate"
	"github.com/seam-rt/seam/demo"
	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/inspect"
	"github.com/seam-rt/seam/lower"
	"github.com/seam-rt/seam/partition"
	"github.com/seam-rt/seam/pt2"
	"github.com/seam-rt/seam/report"
)

var update = flag.Bool("update", false, "rewrite the examples in the documents")

// marker introduces an example: the fenced block after it is what the
// command prints.
var marker = regexp.MustCompile("(?m)^<!-- seam: (.*?) -->\n```(\\w*)\n((?s:.*?))```\n")

func TestBackendContractExamples(t *testing.T) { checkDocument(t, "backend-contract.md") }

func checkDocument(t *testing.T, name string) {
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	found := 0
	out := marker.ReplaceAllStringFunc(text, func(block string) string {
		m := marker.FindStringSubmatch(block)
		found++
		got, err := example(strings.Fields(m[1]))
		if err != nil {
			t.Errorf("example %q: %v", m[1], err)
			return block
		}
		if got != m[3] && !*update {
			t.Errorf("%s: example %q is out of date (go test ./docs -update rewrites it):\n--- document\n%s\n--- seam\n%s", name, m[1], m[3], got)
		}
		return "<!-- seam: " + m[1] + " -->\n```" + m[2] + "\n" + got + "```\n"
	})
	if found == 0 {
		t.Fatalf("%s has no examples", name)
	}
	if *update && out != text {
		if err := os.WriteFile(name, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// example produces what an example shows, through the code paths the
// commands use.
func example(args []string) (string, error) {
	var sb strings.Builder
	switch args[0] {
	case "backends":
		p, ok := backend.Builtin(args[1])
		if !ok {
			return "", fmt.Errorf("no profile %s", args[1])
		}
		err := p.WriteJSON(&sb)
		return sb.String(), err
	case "inspect":
		a, err := pt2.Open(modelPath(args[1]))
		if err != nil {
			return "", err
		}
		defer a.Close()
		l, err := a.Lowered()
		if err != nil {
			return "", err
		}
		s := inspect.SummarizeLowered(l, demo.Options())
		err = s.WriteText(&sb, args[1]+".pt2")
		return sb.String(), err
	case "profile-file":
		b, err := os.ReadFile(filepath.Join("profiles", args[1]+".json"))
		return string(b), err
	case "partition-head":
		// The report's headline: up to the first partition.
		a, err := pt2.Open(modelPath(args[1]))
		if err != nil {
			return "", err
		}
		defer a.Close()
		p, _ := a.Program()
		prof, ok := backend.Builtin(args[2])
		if !ok {
			return "", fmt.Errorf("no profile %s", args[2])
		}
		plan, err := partition.ProposeProgram(p, prof, partition.GraphOptions{})
		if err != nil {
			return "", err
		}
		var js []report.Judgement
		for _, j := range lower.Judge(p, plan, prof, lower.Auto) {
			js = append(js, report.Judgement(j))
		}
		r := report.Build(p, plan, report.Options{Model: args[1] + ".pt2", Backend: prof.Name, Printer: demo.Options().Printer, Judgements: js})
		if err := r.WriteText(&sb); err != nil {
			return "", err
		}
		head, _, _ := strings.Cut(sb.String(), "\n\n")
		return head + "\n", nil
	case "lower", "lower-error", "print-module":
		a, err := pt2.Open(modelPath(args[1]))
		if err != nil {
			return "", err
		}
		defer a.Close()
		p, _ := a.Program()
		prof, err := profileNamed(args[2])
		if err != nil {
			return "", err
		}
		pol, err := lower.ParsePolicy(args[3])
		if err != nil {
			return "", err
		}
		res, err := delegate.Program(p, prof, delegate.Options{Policy: pol})
		if args[0] == "lower-error" {
			var refusal *lower.Error
			if !errors.As(err, &refusal) {
				return "", fmt.Errorf("want a refusal, got %v", err)
			}
			return "seam: " + err.Error() + "\n", nil
		}
		if err != nil {
			return "", err
		}
		if args[0] == "lower" {
			rep := res.Report(demo.Options(), prof.Name, pol)
			if len(args) > 4 {
				// The header and the first N modules.
				n, _ := strconv.Atoi(args[4])
				if err := rep.WriteText(&sb); err != nil {
					return "", err
				}
				blocks := strings.Split(sb.String(), "\n\n")
				if n+1 >= len(blocks) {
					return "", fmt.Errorf("the report has fewer than %d modules", n)
				}
				return strings.Join(blocks[:n+1], "\n\n") + fmt.Sprintf("\n\n(%d more modules)\n", len(rep.Modules)-n), nil
			}
			err = rep.WriteText(&sb)
			return sb.String(), err
		}
		m, ok := res.Module(args[4])
		if !ok {
			return "", fmt.Errorf("no module %s", args[4])
		}
		n, _ := strconv.Atoi(args[5])
		if err := demo.Options().Printer.FprintClass(&sb, m.Name, m.Program); err != nil {
			return "", err
		}
		lines := strings.SplitAfter(sb.String(), "\n")
		if n < len(lines) {
			lines = append(lines[:n], "        ...\n")
		}
		return strings.Join(lines, ""), nil
	case "naive-cut":
		r, err := demo.Run(context.Background())
		if err != nil {
			return "", err
		}
		return "seam: " + r.Naive.RunError + "\n", nil
	}
	return "", fmt.Errorf("unknown example %q", args[0])
}

// modelPath finds a fixture: models/NAME, or extra/NAME.
func modelPath(name string) string {
	if rest, ok := strings.CutPrefix(name, "extra/"); ok {
		return filepath.Join(fixtures.ExtraDir(rest), "model.pt2")
	}
	return fixtures.Model(name)
}

// profileNamed is a built-in profile, or one of the profile files the
// document shows (profiles/NAME.json next to it).
func profileNamed(name string) (*backend.Profile, error) {
	if p, ok := backend.Builtin(name); ok {
		return p, nil
	}
	return backend.Load(filepath.Join("profiles", name+".json"))
}

// TestGoSnippetsMatchTheCode: the interfaces the document shows are the
// ones package backend declares, line for line.
func TestGoSnippetsMatchTheCode(t *testing.T) {
	doc, err := os.ReadFile("backend-contract.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("../backend/runtime.go")
	if err != nil {
		t.Fatal(err)
	}
	code := map[string]bool{}
	for _, l := range strings.Split(string(src), "\n") {
		code[strings.TrimSpace(l)] = true
	}
	blocks := regexp.MustCompile("(?s)```go\n(.*?)```").FindAllStringSubmatch(string(doc), -1)
	if len(blocks) == 0 {
		t.Fatal("no Go snippet in the document")
	}
	for _, b := range blocks {
		inType := false
		for _, l := range strings.Split(b[1], "\n") {
			l = strings.TrimSpace(l)
			if strings.HasPrefix(l, "type ") {
				inType = true
			}
			if inType && !code[l] {
				t.Errorf("the document shows %q, which backend/runtime.go does not declare", l)
			}
			if l == "}" {
				inType = false
			}
		}
	}
}
