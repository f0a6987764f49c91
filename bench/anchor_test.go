package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The shim hands an anchor script the special floats as floats, in scalar
// and list fields, leaving strings that are not float-typed alone, and
// passes the script its own path and arguments.
func TestFloatsShim(t *testing.T) {
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("no /usr/bin/python3: the anchors cannot run here either")
	}
	dir := t.TempDir()
	doc := filepath.Join(dir, "model.json")
	if err := os.WriteFile(doc, []byte(`{"a": {"as_float": "-Infinity"}, "b": {"as_floats": [1.5, "NaN", "Infinity"]}, "c": {"as_string": "NaN"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "anchor.py")
	if err := os.WriteFile(script, []byte(`import json, sys
d = json.loads(open(sys.argv[1]).read())
print(sys.argv[0].endswith("anchor.py"), repr(d["a"]["as_float"]), repr(d["b"]["as_floats"]), repr(d["c"]["as_string"]), __name__)
`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := anchorCommand(script, doc).CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	want := "True -inf [1.5, nan, inf] 'NaN' __main__"
	if got := strings.TrimSpace(string(out)); got != want {
		t.Fatalf("the script printed %q, want %q", got, want)
	}
}
