package limits

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestValueFromFlagEnvAndDefault(t *testing.T) {
	defer Reset()
	t.Setenv("SEAM_LIMIT_JSON_BYTES", "2GiB")
	t.Setenv("SEAM_LIMIT_NODES", "1_000")
	Reset()
	if v := JSONBytes.Value(); v != 2<<30 {
		t.Errorf("json-bytes from the environment: %d", v)
	}
	if v := Nodes.Value(); v != 1000 {
		t.Errorf("nodes from the environment: %d", v)
	}
	if err := Set("json-bytes", "512 MB"); err != nil || JSONBytes.Value() != 512e6 {
		t.Errorf("Set: %v %d", err, JSONBytes.Value())
	}
	if v := Expansion.Value(); v != Expansion.Default() {
		t.Errorf("expansion: %d", v)
	}
	for _, bad := range [][2]string{{"nodes", "1GiB"}, {"nodes", "-1"}, {"json-bytes", "lots"}, {"no-such", "1"}} {
		if err := Set(bad[0], bad[1]); err == nil {
			t.Errorf("Set(%q, %q) accepted", bad[0], bad[1])
		}
	}
	t.Setenv("SEAM_LIMIT_VALUES", "many")
	if err := EnvErrors(); err == nil || !strings.Contains(err.Error(), "SEAM_LIMIT_VALUES") {
		t.Errorf("EnvErrors: %v", err)
	}
}

func TestErrorSaysHowToRaiseIt(t *testing.T) {
	defer Reset()
	Reset()
	err := JSONBytes.Check(1 << 30)
	var le *Error
	if !errors.As(err, &le) {
		t.Fatalf("Check: %v", err)
	}
	want := "1 GiB of JSON in one record (a program, a payload config, a delegate record): over the json-bytes limit of 512 MiB; " +
		"if the input is trusted, raise it with --limit json-bytes=N or SEAM_LIMIT_JSON_BYTES=N"
	if err.Error() != want {
		t.Errorf("got  %s\nwant %s", err, want)
	}
	if got := Nodes.Exceeded().Error(); !strings.HasPrefix(got, "more than 2000000 nodes in one program") {
		t.Errorf("Exceeded: %s", got)
	}
	if JSONBytes.Check(512<<20) != nil {
		t.Error("a value at the limit refused")
	}
}

func TestRegularFile(t *testing.T) {
	st, err := os.Stat("/dev/null")
	if err != nil {
		t.Skip(err)
	}
	if err := RegularFile(st); err == nil || !strings.Contains(err.Error(), "character device") {
		t.Errorf("/dev/null: %v", err)
	}
	st, _ = os.Stat(".")
	if err := RegularFile(st); err == nil || !strings.Contains(err.Error(), "a folder") {
		t.Errorf("folder: %v", err)
	}
	st, _ = os.Stat("limits.go")
	if err := RegularFile(st); err != nil {
		t.Errorf("a file: %v", err)
	}
}

// The README's table of limits lists every limit with its default.
func TestReadmeListsEveryLimit(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Skip(err)
	}
	for _, l := range All() {
		def := l.format(l.Default())
		if !l.Bytes {
			def = commas(l.Default())
		}
		row := "| `" + l.Name + "` |"
		i := strings.Index(string(readme), row)
		if i < 0 {
			t.Errorf("README has no row for %s", l.Name)
			continue
		}
		line, _, _ := strings.Cut(string(readme[i:]), "\n")
		if !strings.HasSuffix(strings.TrimSpace(line), "| "+def+" |") {
			t.Errorf("README row %q does not end with the default %s", line, def)
		}
	}
}

func commas(v int64) string {
	s := fmt.Sprint(v)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
