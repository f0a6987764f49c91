package ops

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// Parse reads a schema in native_functions.yaml syntax, qualified with its
// namespace: "aten.add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor".
// A name without an overload gets overload "default".
func Parse(text string) (*Schema, error) {
	s := &Schema{Text: text}
	open := strings.IndexByte(text, '(')
	arrow := strings.LastIndex(text, "->")
	if open < 0 || arrow < open {
		return nil, fmt.Errorf("schema %q: want name(args) -> returns", text)
	}
	closeArgs := strings.LastIndex(text[:arrow], ")")
	if closeArgs < open {
		return nil, fmt.Errorf("schema %q: unbalanced parentheses", text)
	}
	parts := strings.Split(strings.TrimSpace(text[:open]), ".")
	if len(parts) < 2 || len(parts) > 3 {
		return nil, fmt.Errorf("schema %q: want namespace.name[.overload]", text)
	}
	s.Namespace, s.Name, s.Overload = parts[0], parts[1], "default"
	if len(parts) == 3 {
		s.Overload = parts[2]
	}
	kwargOnly := false
	for _, item := range splitTop(text[open+1 : closeArgs]) {
		if item == "*" {
			kwargOnly = true
			continue
		}
		a, err := parseArg(item)
		if err != nil {
			return nil, fmt.Errorf("schema %q: %v", text, err)
		}
		a.KwargOnly = kwargOnly
		s.Args = append(s.Args, a)
	}
	rets, err := parseReturns(strings.TrimSpace(text[arrow+2:]))
	if err != nil {
		return nil, fmt.Errorf("schema %q: %v", text, err)
	}
	s.Returns = rets
	return s, nil
}

// splitTop splits on commas outside brackets, parentheses and quotes.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '[' || c == '(':
			depth++
		case c == ']' || c == ')':
			depth--
		case c == ',' && depth == 0:
			out = append(out, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
	}
	if last := strings.TrimSpace(s[start:]); last != "" {
		out = append(out, last)
	}
	return out
}

// parseType reads a type at the start of s and returns the rest.
func parseType(s string) (Type, *Alias, string, error) {
	var t Type
	i := 0
	for i < len(s) && (isIdent(s[i])) {
		i++
	}
	base, ok := baseNames[s[:i]]
	if !ok {
		return t, nil, "", fmt.Errorf("unknown type %q", s[:i])
	}
	t.Base = base
	var alias *Alias
	if i < len(s) && s[i] == '(' {
		end := strings.IndexByte(s[i:], ')')
		if end < 0 {
			return t, nil, "", fmt.Errorf("unclosed alias annotation in %q", s)
		}
		alias = parseAlias(s[i+1 : i+end])
		i += end + 1
	}
	if i < len(s) && s[i] == '?' {
		if i+1 < len(s) && s[i+1] == '[' {
			t.ElemOptional = true
		} else {
			t.Optional = true
		}
		i++
	}
	if i < len(s) && s[i] == '[' {
		end := strings.IndexByte(s[i:], ']')
		if end < 0 {
			return t, nil, "", fmt.Errorf("unclosed list type in %q", s)
		}
		t.List = true
		if n := s[i+1 : i+end]; n != "" {
			l, err := strconv.Atoi(n)
			if err != nil {
				return t, nil, "", fmt.Errorf("bad list size %q", n)
			}
			t.Len = l
		}
		i += end + 1
		if i < len(s) && s[i] == '(' { // Tensor[](a) is not used; tolerate nothing else
			return t, nil, "", fmt.Errorf("unexpected alias after list in %q", s)
		}
		if i < len(s) && s[i] == '?' {
			t.Optional = true
			i++
		}
	}
	if strings.HasPrefix(s[i:], "...") {
		t.Variadic = true
		i += 3
	}
	return t, alias, s[i:], nil
}

func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func parseAlias(s string) *Alias {
	a := &Alias{}
	if before, after, ok := strings.Cut(s, "->"); ok {
		s = strings.TrimSpace(before)
		a.AfterSet = strings.TrimSpace(after)
	}
	if strings.HasSuffix(s, "!") {
		a.Write = true
		s = strings.TrimSuffix(s, "!")
	}
	a.Set = strings.TrimSpace(s)
	return a
}

func parseArg(item string) (Arg, error) {
	t, alias, rest, err := parseType(item)
	if err != nil {
		return Arg{}, err
	}
	rest = strings.TrimSpace(rest)
	name, def, hasDef := strings.Cut(rest, "=")
	name = strings.TrimSpace(name)
	if name == "" || strings.ContainsAny(name, " \t") {
		return Arg{}, fmt.Errorf("bad argument %q", item)
	}
	a := Arg{Name: name, Type: t, Alias: alias, HasDefault: hasDef, DefaultText: strings.TrimSpace(def)}
	if hasDef {
		v, err := parseDefault(t, strings.TrimSpace(def))
		if err != nil {
			return Arg{}, fmt.Errorf("argument %s: %v", name, err)
		}
		a.Default = v
	}
	return a, nil
}

func parseReturns(s string) ([]Return, error) {
	if s == "()" {
		return nil, nil
	}
	var items []string
	if strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") {
		items = splitTop(s[1 : len(s)-1])
	} else {
		items = []string{s}
	}
	var out []Return
	for _, it := range items {
		t, alias, rest, err := parseType(it)
		if err != nil {
			return nil, err
		}
		out = append(out, Return{Name: strings.TrimSpace(rest), Type: t, Alias: alias})
	}
	return out, nil
}

var memoryFormats = map[string]int{
	"contiguous_format": value.MemoryFormatContiguous, "channels_last": value.MemoryFormatChannelsLast,
	"channels_last_3d": 3, "preserve_format": value.MemoryFormatPreserve,
}

// parseDefault reads a default as native_functions.yaml writes it. A scalar
// default of a sized list (int[2] padding=0) repeats to the list's size.
func parseDefault(t Type, s string) (value.Value, error) {
	if s == "None" {
		if !t.Optional {
			return value.Value{}, fmt.Errorf("default None for non-optional %v", t)
		}
		return value.NoneValue(), nil
	}
	if t.List {
		var items []string
		if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
			items = splitTop(s[1 : len(s)-1])
		} else {
			items = []string{s}
			for len(items) < t.Len {
				items = append(items, s)
			}
		}
		switch t.Base {
		case IntT, SymIntT:
			l := make([]int64, len(items))
			for i, it := range items {
				n, err := strconv.ParseInt(it, 10, 64)
				if err != nil {
					return value.Value{}, fmt.Errorf("bad int %q in default %q", it, s)
				}
				l[i] = n
			}
			return value.FromInts(l), nil
		case BoolT:
			l := make([]bool, len(items))
			for i, it := range items {
				b, err := parseBool(it)
				if err != nil {
					return value.Value{}, err
				}
				l[i] = b
			}
			return value.FromBools(l), nil
		case FloatT:
			l := make([]float64, len(items))
			for i, it := range items {
				f, err := strconv.ParseFloat(it, 64)
				if err != nil {
					return value.Value{}, fmt.Errorf("bad float %q", it)
				}
				l[i] = f
			}
			return value.FromDoubles(l), nil
		}
		return value.Value{}, fmt.Errorf("unsupported list default %q for %v", s, t)
	}
	switch t.Base {
	case IntT, SymIntT:
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return value.Value{}, fmt.Errorf("bad int default %q", s)
		}
		return value.FromInt(n), nil
	case FloatT:
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return value.Value{}, fmt.Errorf("bad float default %q", s)
		}
		return value.FromDouble(f), nil
	case ScalarT:
		if b, err := parseBool(s); err == nil {
			return value.FromBool(b), nil
		}
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return value.FromInt(n), nil
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return value.Value{}, fmt.Errorf("bad Scalar default %q", s)
		}
		return value.FromDouble(f), nil
	case BoolT:
		b, err := parseBool(s)
		if err != nil {
			return value.Value{}, err
		}
		return value.FromBool(b), nil
	case StrT:
		if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
			return value.FromString(s[1 : len(s)-1]), nil
		}
		return value.Value{}, fmt.Errorf("bad str default %q", s)
	case ScalarTypeT:
		d, err := tensor.ParseDType(s)
		if err != nil {
			return value.Value{}, err
		}
		return value.FromScalarType(d), nil
	case LayoutT:
		if s == "strided" {
			return value.FromLayout(value.LayoutStrided), nil
		}
	case MemoryFormatT:
		if m, ok := memoryFormats[s]; ok {
			return value.FromMemoryFormat(m), nil
		}
	case DeviceT:
		if s == "cpu" {
			return value.FromDevice(value.DeviceCPU, -1), nil
		}
	}
	return value.Value{}, fmt.Errorf("unsupported default %q for %v", s, t)
}

func parseBool(s string) (bool, error) {
	switch s {
	case "True":
		return true, nil
	case "False":
		return false, nil
	}
	return false, fmt.Errorf("bad bool %q", s)
}
