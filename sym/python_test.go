package sym_test

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/seam-rt/seam/sym"
)

// symForPython is the expression of torch's symbolic functions that each
// Python scalar function of an exported program becomes when its operands
// are symbols (the forms torch.utils._sympy.functions gives them).
var symForPython = map[string]string{
	"_operator.add":      "a + b",
	"_operator.sub":      "a - b",
	"_operator.mul":      "a*b",
	"_operator.floordiv": "FloorDiv(a, b)",
	"_operator.mod":      "PythonMod(a, b)",
	"_operator.truediv":  "IntTrueDiv(a, b)",
	"_operator.pow":      "PowByNatural(a, b)", // FloatPow(ToFloat(a), ToFloat(b)) for b < 0
	"_operator.eq":       "Eq(a, b)",
	"_operator.ne":       "Ne(a, b)",
	"_operator.lt":       "a < b",
	"_operator.le":       "a <= b",
	"_operator.gt":       "a > b",
	"_operator.ge":       "a >= b",
	"_operator.and_":     "BitwiseFn_bitwise_and(a, b)",
	"_operator.or_":      "BitwiseFn_bitwise_or(a, b)",
	"torch.sym_max":      "Max(a, b)",
	"torch.sym_min":      "Min(a, b)",
	"_operator.neg":      "-a",
	"_operator.abs":      "Abs(a)",
	"torch.sym_float":    "ToFloat(a)",
	"math.sqrt":          "OpaqueUnaryFn_sqrt(ToFloat(a))",
}

// TestEvalMatchesPython evaluates, with int symbols bound to the operands,
// the expression of every int case in the runtime's scalar golden file
// (../runtime/testdata/scalar_golden.jsonl.gz, values Python computed):
// sym and the runtime give symbolic scalars one semantics, Python's.
func TestEvalMatchesPython(t *testing.T) {
	f, err := os.Open("../runtime/testdata/scalar_golden.jsonl.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	exprs := map[string]*sym.Expr{}
	for op, text := range symForPython {
		if exprs[op], err = sym.Parse(text); err != nil {
			t.Fatalf("%s: %v", text, err)
		}
	}
	floatPow, err := sym.Parse("FloatPow(ToFloat(a), ToFloat(b))")
	if err != nil {
		t.Fatal(err)
	}
	ran := map[string]int{}
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		var c struct {
			Op       string
			Args     []string
			Out, Err string
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		e, ok := exprs[c.Op]
		if !ok {
			continue
		}
		b := sym.Bindings{}
		ints := true
		for i, a := range c.Args {
			kind, text, _ := strings.Cut(a, ":")
			if kind != "i" {
				ints = false
				break
			}
			v, err := strconv.ParseInt(text, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			b[string(rune('a'+i))] = v
		}
		if !ints {
			continue
		}
		if c.Op == "_operator.pow" && b["b"] < 0 {
			e = floatPow // what torch makes of a negative int exponent
		}
		ran[c.Op]++
		name := c.Op + "(" + strings.Join(c.Args, ", ") + ")"
		got, err := e.Eval(b)
		if c.Err != "" {
			if err == nil {
				t.Errorf("%s = %v, Python raises %s", name, got, c.Err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v, Python gives %s", name, err, c.Out)
			continue
		}
		want := pyRepr(c.Out)
		if got.String() == want {
			continue
		}
		// SymPy's Float has no negative zero; and FloatPow is math.Pow,
		// within a few ulp of the correctly rounded power CPython's libm
		// gives.
		w, err := strconv.ParseFloat(want, 64)
		if got.Type() == sym.TypeFloat && err == nil && (w == 0 && got.Float() == 0 ||
			e == floatPow && math.Abs(got.Float()-w) <= 4*ulp(w)) {
			continue
		}
		t.Errorf("%s = %s, Python gives %s", name, got, want)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for op := range symForPython {
		if ran[op] < 10 {
			t.Errorf("%s: only %d int cases ran", op, ran[op])
		}
	}
}

func ulp(f float64) float64 { return math.Nextafter(math.Abs(f), math.Inf(1)) - math.Abs(f) }

// pyRepr turns a golden value ("f:2.5", "i:-4", "b:True") into the text
// Python prints, which is what sym.Value.String gives.
func pyRepr(v string) string {
	_, text, _ := strings.Cut(v, ":")
	return text
}
