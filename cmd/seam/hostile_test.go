package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
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
	timeCap   = 10 * time.Second
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
			args := make([]string, len(c.Args))
			var files []string
			for i, a := range c.Args {
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
				t.Fatalf("seam %s: still running after %v", strings.Join(c.Args, " "), limit)
			case c.Accept && code != 0:
				t.Errorf("refused (exit %d):\n%s", code, out)
			case !c.Accept && !refusal(c.Args[0], code):
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
		})
	}
	for _, class := range []string{"format", "nesting", "bomb", "crc", "unbounded", "contract", "names", "blame", "scale"} {
		if classes[class] == 0 {
			t.Errorf("no case of class %s", class)
		}
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
