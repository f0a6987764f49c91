package ir

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// FormatPyFloat formats a float as Python's repr() does (`2.0`, `1e-05`,
// `-3.4028234663852886e+38`, `inf`, `nan`), so printed graphs and written
// JSON read as PyTorch's do.
func FormatPyFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	// Shortest round-trip digits, then Python's layout rule: scientific
	// when the decimal exponent is < -4 or >= 16.
	e := strconv.FormatFloat(f, 'e', -1, 64)
	mant, expText, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expText)
	if exp < -4 || exp >= 16 {
		sign := "+"
		if exp < 0 {
			sign, exp = "-", -exp
		}
		return fmt.Sprintf("%se%s%02d", mant, sign, exp)
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.ContainsAny(s, ".") {
		s += ".0"
	}
	return s
}

// pyFloat is a float in the export JSON: a number, or one of the strings
// "Infinity", "-Infinity", "NaN" that json.dumps(allow_nan=False) callers
// write instead.
type pyFloat float64

func (f pyFloat) MarshalJSON() ([]byte, error) {
	v := float64(f)
	switch {
	case math.IsInf(v, 1):
		return []byte(`"Infinity"`), nil
	case math.IsInf(v, -1):
		return []byte(`"-Infinity"`), nil
	case math.IsNaN(v):
		return []byte(`"NaN"`), nil
	}
	return []byte(FormatPyFloat(v)), nil
}

func (f *pyFloat) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		switch s {
		case "Infinity", "inf":
			*f = pyFloat(math.Inf(1))
		case "-Infinity", "-inf":
			*f = pyFloat(math.Inf(-1))
		case "NaN", "nan":
			*f = pyFloat(math.NaN())
		default:
			return fmt.Errorf("float written as string %q", s)
		}
		return nil
	}
	var v float64
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Errorf("bad float %s", truncate(b))
	}
	*f = pyFloat(v)
	return nil
}

func truncate(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "..."
	}
	return string(b)
}
