package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/seam-rt/seam/internal/hostile"
)

// The caps every hostile case runs under: an address-space limit the
// child sets on itself (3 GiB, the ulimit -v 3000000: Go's runtime
// reserves far more address space than it uses, and needs that much to
// read a 150 MB program), a soft memory limit, and a time limit.
// A reader that allocates from a declared size, or works quadratically,
// dies or times out under them.
const (
	memoryCap = 3 << 30
	timeCap   = 20 * time.Second
	slowCap   = 60 * time.Second
)

func TestMain(m *testing.M) {
	if os.Getenv("SEAM_TEST_RUN_MAIN") == "1" {
		capAddressSpace()
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// runSeam runs the seam command line in a child process under the caps.
func runSeam(t *testing.T, limit time.Duration, env []string, args ...string) (string, int, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SEAM_LIMIT_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "SEAM_TEST_RUN_MAIN=1", fmt.Sprintf("SEAM_TEST_RLIMIT_AS=%d", memoryCap), "GOMEMLIMIT=1GiB")
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	timedOut := ctx.Err() != nil
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running seam: %v", err)
	}
	return string(out), code, timedOut
}

// TestHostileInputs runs every case of package hostile through seam, each
// under a memory and a time cap: a valid input (only large or deep) must
// be read; anything else must be refused cleanly, naming the file, with
// no panic, no crash, no blame on seam.
func TestHostileInputs(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("FIFOs, sparse files and address-space limits")
	}
	cases, err := hostile.Cases()
	if err != nil {
		t.Fatal(err)
	}
	classes := map[string]int{}
	for _, c := range cases {
		classes[c.Class]++
		t.Run(c.Class+"/"+c.Name, func(t *testing.T) {
			dir := t.TempDir()
			if err := c.Make(dir); err != nil {
				t.Fatal(err)
			}
			checkCase(t, c, dir, c.Args)
		})
	}
	for _, class := range []string{"format", "nesting", "bomb", "crc", "unbounded", "contract", "names", "blame", "scale"} {
		if classes[class] == 0 {
			t.Errorf("no case of class %s", class)
		}
	}
}

// checkCase runs one hostile case's files, in dir, through the seam
// command line args ("DIR/" standing for dir) under the caps, and checks
// what it must do: a valid input is read; anything else is refused as the
// input's fault, naming the file and the reason (c.Want), with no panic,
// no crash, no blame on seam and no raw control character.
func checkCase(t *testing.T, c hostile.Case, dir string, caseArgs []string) int {
	t.Helper()
	args := make([]string, len(caseArgs))
	var files []string
	for i, a := range caseArgs {
		if rest, ok := strings.CutPrefix(a, "DIR/"); ok {
			a = filepath.Join(dir, rest)
			files = append(files, a)
		} else if strings.HasPrefix(a, "/") {
			files = append(files, a)
		}
		args[i] = a
	}
	limit := timeCap
	if c.Slow {
		limit = slowCap
	}
	start := time.Now()
	out, code, timedOut := runSeam(t, limit, c.Env, args...)
	took := time.Since(start)
	switch {
	case timedOut:
		t.Fatalf("seam %s: still running after %v", strings.Join(caseArgs, " "), limit)
	case c.Accept && code != 0:
		t.Errorf("refused (exit %d):\n%s", code, out)
	case !c.Accept && !refusal(caseArgs[0], code):
		t.Errorf("exit %d, want %d (a clean refusal):\n%s", code, exitInput, out)
	}
	for _, bad := range []string{"panic:", "fatal error", "goroutine ", "SIGSEGV", "a bug in seam"} {
		if strings.Contains(out, bad) {
			t.Errorf("output says %q:\n%s", bad, out)
		}
	}
	if i := strings.IndexFunc(out, func(r rune) bool { return r < 0x20 && r != '\n' && r != '\t' || r == 0x7f }); i >= 0 {
		t.Errorf("output holds a raw control character at %d: %q", i, limitText(out))
	}
	for _, w := range c.Want {
		if !strings.Contains(out, w) {
			t.Errorf("output does not say %q:\n%s", w, limitText(out))
		}
	}
	for _, a := range c.Absent {
		if strings.Contains(out, a) {
			t.Errorf("output holds %q:\n%q", a, limitText(out))
		}
	}
	if !c.Accept && c.Culprit != "" && !strings.Contains(out, c.Culprit) {
		t.Errorf("the refusal does not name %s:\n%s", c.Culprit, limitText(out))
	}
	if !c.Accept && c.Culprit == "" {
		named := false
		for _, f := range files {
			named = named || strings.Contains(out, f)
		}
		if !named {
			t.Errorf("the refusal names none of %v:\n%s", files, limitText(out))
		}
	}
	t.Logf("%v", took.Round(time.Millisecond))
	return code
}

// readingCommands is every command that reads a program from an archive,
// as a hostile archive case runs it (DIR/case is the mlp fixture's case0:
// every archive case is built from mlp).
var readingCommands = [][]string{
	{"inspect", hostile.Model},
	{"verify", hostile.Model},
	{"print", hostile.Model},
	{"partition", hostile.Model, "--backend", "tensor-only"},
	{"explain", hostile.Model, "--backend", "tensor-only", "relu"},
	{"lower", hostile.Model, "--backend", "tensor-only", "-o", "DIR/low.pt2"},
	{"run", hostile.Model, "--case", "DIR/case"},
	{"specialize", hostile.Model, "--bind", "s77=4", "-o", "DIR/static.pt2"},
	{"export", "onnx", hostile.Model, "-o", "DIR/model.onnx"},
	{"bench", "partition", hostile.Model, "--backend", "tensor-only"},
	{"bench", "run", hostile.Model, "--case", "DIR/case"},
}

// TestHostileArchivesEveryCommand runs every hostile archive that reading
// alone must refuse through every command that reads an archive: each must
// refuse it as inspect does (exit status 2, the file and the reason named,
// within the caps) and write nothing.
func TestHostileArchivesEveryCommand(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("FIFOs, sparse files and address-space limits")
	}
	cases, err := hostile.Cases()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range cases {
		if c.Accept || len(c.Env) > 0 || !slices.Equal(c.Args, []string{"inspect", hostile.Model}) {
			continue
		}
		n++
		t.Run(c.Class+"/"+c.Name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if err := c.Make(dir); err != nil {
				t.Fatal(err)
			}
			if err := hostile.CopyCase(dir, "mlp", "case0"); err != nil {
				t.Fatal(err)
			}
			for _, args := range readingCommands {
				t.Run(strings.Join(args[:min(2, len(args))], "_"), func(t *testing.T) {
					if code := checkCase(t, c, dir, args); code != exitInput {
						t.Errorf("exit %d, want %d", code, exitInput)
					}
					for _, written := range []string{"low.pt2", "static.pt2", "model.onnx"} {
						if _, err := os.Stat(filepath.Join(dir, written)); err == nil {
							t.Errorf("wrote %s from a refused archive", written)
						}
					}
				})
			}
		})
	}
	if n < 30 {
		t.Errorf("only %d archive cases", n)
	}
}

// refusal reports whether an exit status is a clean refusal: bad input
// (2), or, from verify, the check failing (1).
func refusal(command string, code int) bool {
	return code == exitInput || (command == "verify" && code == exitFailed)
}

func limitText(s string) string {
	if len(s) > 4000 {
		return s[:4000] + "..."
	}
	return s
}

// seamCommand is a seam lower of model to out in a child process.
func seamCommand(model, out string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "lower", model, "--backend", "tensor-only", "-o", out)
	cmd.Env = append(os.Environ(), "SEAM_TEST_RUN_MAIN=1")
	return cmd
}

// writing reports whether a process has a file open for writing in dir
// (an unnamed O_TMPFILE one included), as far as /proc shows.
func writing(dir string) bool {
	links, _ := filepath.Glob("/proc/[0-9]*/fd/*")
	for _, l := range links {
		if target, err := os.Readlink(l); err == nil && strings.HasPrefix(target, dir+"/") {
			return true
		}
	}
	return false
}
