package irtext

import (
	"strings"
	"testing"

	"github.com/seam-rt/seam/ir"
)

func TestSourceComment(t *testing.T) {
	cases := []struct {
		meta map[string]string
		want string
	}{
		{nil, "# No stacktrace found for following nodes"},
		// One line, no code after it: _parse_stack_trace finds nothing.
		{map[string]string{"stack_trace": `File "torch/fx/passes/runtime_assert.py", line 24, in insert_deferred_runtime_asserts`},
			"# No stacktrace found for following nodes"},
		// The innermost frame with a code line wins; indentation is trimmed.
		{map[string]string{"stack_trace": "File \"a.py\", line 3, in forward\n    y = f(x)\n  File \"b.py\", line 9, in f\n    return x.sin()\n"},
			"# File: b.py:9 in f, code: return x.sin()"},
		{map[string]string{"stack_trace": "File \"a.py\", line 3, in forward\n    y = f(x)\nnot a frame"},
			"# File: a.py:3 in forward, code: y = f(x)"},
		{map[string]string{"custom": `{"stage": "encoder", "n": 2, "w": 1.0, "ok": true, "none": null, "l": [1, "it's"]}`,
			"stack_trace": "File \"a.py\", line 3, in forward\n    y = f(x)"},
			`# Annotation: {'stage': 'encoder', 'n': 2, 'w': 1.0, 'ok': True, 'none': None, 'l': [1, "it's"]} File: a.py:3 in forward, code: y = f(x)`},
		// Malformed custom metadata is left out, not guessed at.
		{map[string]string{"custom": `{"stage": `}, "# No stacktrace found for following nodes"},
	}
	for _, c := range cases {
		if got := sourceComment(&ir.Node{Metadata: ir.MetadataOf(c.meta)}); got != c.want {
			t.Errorf("%v:\n got %s\nwant %s", c.meta, got, c.want)
		}
	}
}

// FuzzSourceComment: metadata comes from the archive; any stack trace or
// annotation gives one comment line, never a panic or a second line.
func FuzzSourceComment(f *testing.F) {
	f.Add("File \"a.py\", line 3, in forward\n    y = f(x)", `{"stage": [1, 2.5, null, true]}`)
	f.Add(`File "x", line 1, in f`, `{"a": {"b": "it's"}}`)
	f.Add("", `[`)
	f.Fuzz(func(t *testing.T, trace, custom string) {
		c := sourceComment(&ir.Node{Metadata: ir.MetadataOf(map[string]string{"stack_trace": trace, "custom": custom})})
		if !strings.HasPrefix(c, "#") || strings.Contains(c, "\n") {
			t.Fatalf("comment %q", c)
		}
	})
}
