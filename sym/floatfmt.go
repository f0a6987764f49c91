package sym

import (
	"math"
	"strconv"
	"strings"
)

// Float text as SymPy writes it. SymPy formats Floats with mpmath's to_str:
// the exact decimal expansion truncated, rounded half-up on the first dropped
// digit, fixed notation when the exponent is in (min(-dps/3, -5), dps),
// otherwise "d.ddde-7" / "d.ddde+20". str() uses dps = prec_to_dps(prec) (15
// for float64) and strips trailing zeros only when the Float is nested in a
// larger expression; srepr uses repr_dps (17 for float64), always stripped.

// precToDps is mpmath.libmp.prec_to_dps.
func precToDps(prec int) int {
	return max(1, int(math.RoundToEven(float64(prec)/3.3219280948873626))-1)
}

// reprDps is mpmath.libmp.repr_dps.
func reprDps(prec int) int {
	d := precToDps(prec)
	if d == 15 {
		return 17
	}
	return d + 3
}

// mpmathStr is mpmath.libmp.to_str(v, dps, strip_zeros) for a finite float64.
func mpmathStr(v float64, dps int, strip bool) string {
	if v == 0 {
		return "0.0"
	}
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	// The exact expansion: a float64 has at most 767 significant digits.
	s := strconv.FormatFloat(v, 'e', 800, 64)
	ei := strings.IndexByte(s, 'e')
	exponent, _ := strconv.Atoi(s[ei+1:])
	all := s[:1] + s[2:ei]
	if len(all) <= dps {
		all += strings.Repeat("0", dps+1-len(all))
	}
	digits := []byte(all[:dps])
	if all[dps] >= '5' {
		i := dps - 1
		for i >= 0 && digits[i] == '9' {
			digits[i] = '0'
			i--
		}
		if i >= 0 {
			digits[i]++
		} else {
			digits[0] = '1'
			exponent++
		}
	}
	ds := string(digits)
	minFixed, maxFixed := min(-(dps/3), -5), dps
	split := 1
	if minFixed < exponent && exponent < maxFixed {
		if exponent < 0 {
			ds = strings.Repeat("0", -exponent) + ds
		} else {
			split = exponent + 1
			if split > dps {
				ds += strings.Repeat("0", split-dps)
			}
		}
		exponent = 0
	}
	ds = ds[:split] + "." + ds[split:]
	if strip {
		ds = strings.TrimRight(ds, "0")
		if strings.HasSuffix(ds, ".") {
			ds += "0"
		}
	}
	switch {
	case exponent == 0:
		return sign + ds
	case exponent > 0:
		return sign + ds + "e+" + strconv.Itoa(exponent)
	}
	return sign + ds + "e" + strconv.Itoa(exponent)
}

// formatShortest is a float's shortest round-trip text, for keys.
func formatShortest(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// PyRepr is Python's repr() of a str, as srepr quotes symbol names; the
// graph printer quotes string arguments with it too.
func PyRepr(s string) string {
	q := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		q = '"'
	}
	var sb strings.Builder
	sb.WriteByte(q)
	for _, r := range s {
		switch {
		case r == '\\':
			sb.WriteString(`\\`)
		case r == rune(q):
			sb.WriteByte('\\')
			sb.WriteByte(q)
		case r == '\n':
			sb.WriteString(`\n`)
		case r == '\r':
			sb.WriteString(`\r`)
		case r == '\t':
			sb.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			sb.WriteString(`\x`)
			sb.WriteString(strconv.FormatInt(int64(r)|0x100, 16)[1:])
		case r == 0xFFFD:
			sb.WriteString(`\ufffd`)
		default:
			sb.WriteRune(r)
		}
	}
	sb.WriteByte(q)
	return sb.String()
}
