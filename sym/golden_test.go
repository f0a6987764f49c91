package sym

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

// goldenCase is one line of testdata/golden.jsonl, written by SymPy 1.14
// (testdata/gen_golden.py): what SymPy prints for an expression.
type goldenCase struct {
	Kind     string `json:"kind"`
	Input    string `json:"input"`
	Str      string `json:"str"`
	Srepr    string `json:"srepr"`
	Expanded bool   `json:"expanded"`
}

func readGolden(t *testing.T) []goldenCase {
	t.Helper()
	f, err := os.Open("testdata/golden.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []goldenCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var c goldenCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 1000 {
		t.Fatalf("only %d golden cases", len(cases))
	}
	return cases
}

// TestGoldenSrepr: srepr text as export writes it prints as SymPy prints it,
// and writes back unchanged.
func TestGoldenSrepr(t *testing.T) {
	for _, c := range readGolden(t) {
		if c.Kind != "srepr" {
			continue
		}
		e, err := Parse(c.Input)
		if err != nil {
			t.Errorf("Parse(%s): %v", c.Input, err)
			continue
		}
		if got := e.String(); got != c.Str {
			t.Errorf("String of %s\n got %s\nwant %s", c.Input, got, c.Str)
		}
		if got := e.Srepr(); got != c.Srepr {
			t.Errorf("Srepr of %s\n got %s", c.Input, got)
		}
	}
}

// TestGoldenInfix: unevaluated Python text (the str form of older files)
// evaluates as sympify evaluates it, and Canonical leaves SymPy's results
// alone when SymPy has nothing left to expand.
func TestGoldenInfix(t *testing.T) {
	for _, c := range readGolden(t) {
		if c.Kind != "infix" {
			continue
		}
		e, err := Parse(c.Input)
		if err != nil {
			t.Errorf("Parse(%s): %v", c.Input, err)
			continue
		}
		if got := e.String(); got != c.Str {
			t.Errorf("String of %s\n got %s\nwant %s", c.Input, got, c.Str)
		}
		if c.Expanded {
			if got := e.Canonical().String(); got != c.Str {
				t.Errorf("Canonical of %s\n got %s\nwant %s", c.Input, got, c.Str)
			}
		}
	}
}
