package ir

import (
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
