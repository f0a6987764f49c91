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
// Python scalar function of an exported program becomes on symbolic
// operands (the forms torch.utils._sympy.functions gives them); {a} and {b}
// are the operands.
var symForPython = map[string]string{
	"_operator.add":      "{a} + {b}",
	"_operator.sub":      "{a} - {b}",
	"_operator.mul":      "{a}*{b}",
	"_operator.floordiv": "FloorDiv({a}, {b})",
	"_operator.mod":      "PythonMod({a}, {b})",
	"_operator.truediv":  "IntTrueDiv({a}, {b})",   // FloatTrueDiv with a float operand
	"_operator.pow":      "PowByNatural({a}, {b})", // FloatPow(ToFloat(a), ToFloat(b)) otherwise
	"_operator.eq":       "Eq({a}, {b})",
	"_operator.ne":       "Ne({a}, {b})",
	"_operator.lt":       "{a} < {b}",
	"_operator.le":       "{a} <= {b}",
	"_operator.gt":       "{a} > {b}",
	"_operator.ge":       "{a} >= {b}",
	"_operator.and_":     "BitwiseFn_bitwise_and({a}, {b})",
	"_operator.or_":      "BitwiseFn_bitwise_or({a}, {b})",
	"torch.sym_max":      "Max({a}, {b})",
	"torch.sym_min":      "Min({a}, {b})",
	"_operator.neg":      "-{a}",
	"_operator.abs":      "Abs({a})",
	"torch.sym_float":    "ToFloat({a})",
	"math.sqrt":          "OpaqueUnaryFn_sqrt(ToFloat({a}))",
}

// floatOps take float operands in sym too, as Float literals: the
// functions SymPy keeps as they are written (it folds a + 0.0 into a, as
// Python would not).
var floatOps = map[string]bool{"_operator.floordiv": true, "_operator.mod": true, "_operator.truediv": true,
	"_operator.lt": true, "_operator.le": true, "_operator.gt": true, "_operator.ge": true}

// TestEvalMatchesPython evaluates the expression of every case of the
// runtime's scalar golden file (../runtime/testdata/scalar_golden.jsonl.gz,
// values Python computed) that sym can state: int operands bound to
// symbols, and finite nonzero float operands as Float literals for floor
// division, modulo, true division and the orderings. sym and the runtime give symbolic scalars one
// semantics, Python's.
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
	ran, floats := map[string]int{}, 0
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
		text, ok := symForPython[c.Op]
		if !ok {
			continue
		}
		b := sym.Bindings{}
		float := false
		stateable := true
		operands := make([]string, len(c.Args))
		for i, a := range c.Args {
			kind, v, _ := strings.Cut(a, ":")
			name := string(rune('a' + i))
			switch kind {
			case "i":
				n, err := strconv.ParseInt(v, 10, 64)
				if err != nil {
					t.Fatal(err)
				}
				b[name], operands[i] = n, name
			case "f":
				x, err := strconv.ParseFloat(v, 64)
				// SymPy's Float has no -0.0, NaN or infinity of Python's
				// kind, and folds a zero operand away.
				if err != nil || math.IsInf(x, 0) || x != x || x == 0 || !floatOps[c.Op] {
					stateable = false
				}
				float, operands[i] = true, "Float('"+v+"', precision=53)"
			default:
				stateable = false
			}
		}
		if !stateable {
			continue
		}
		switch {
		case c.Op == "_operator.pow" && b["b"] < 0:
			text = "FloatPow(ToFloat({a}), ToFloat({b}))" // what torch makes of a negative exponent
		case c.Op == "_operator.truediv" && float:
			text = "FloatTrueDiv(ToFloat({a}), ToFloat({b}))"
		}
		text = strings.NewReplacer("{a}", operands[0], "{b}", operands[min(1, len(operands)-1)]).Replace(text)
		e, err := sym.Parse(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		ran[c.Op]++
		if float {
			floats++
		}
		name := c.Op + "(" + strings.Join(c.Args, ", ") + ") as " + text
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
			strings.HasPrefix(text, "FloatPow") && math.Abs(got.Float()-w) <= 4*ulp(w)) {
			continue
		}
		t.Errorf("%s = %s, Python gives %s", name, got, want)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for op := range symForPython {
		if ran[op] < 10 {
			t.Errorf("%s: only %d cases ran", op, ran[op])
		}
	}
	if floats < 500 {
		t.Errorf("only %d cases with float operands ran", floats)
	}
}

func ulp(f float64) float64 { return math.Nextafter(math.Abs(f), math.Inf(1)) - math.Abs(f) }

// pyRepr turns a golden value ("f:2.5", "i:-4", "b:True") into the text
// Python prints, which is what sym.Value.String gives.
func pyRepr(v string) string {
	_, text, _ := strings.Cut(v, ":")
	return text
}
