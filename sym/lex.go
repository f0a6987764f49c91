package sym

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The lexer reads the Python expression syntax both SymPy forms use.

type tokKind uint8

const (
	tokEOF tokKind = iota
	tokInt
	tokFloat
	tokString
	tokName
	tokOp
)

type token struct {
	kind tokKind
	text string // source text; for strings, the decoded value
	pos  int    // byte offset in the input
}

// ParseError is a syntax or content error in expression text, with the byte
// position it was found at.
type ParseError struct {
	Text string
	Pos  int
	Msg  string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("sym: parse %s: at %d: %s", snippet(e.Text, e.Pos), e.Pos, e.Msg)
}

// snippet quotes the input, shortened around pos when it is long.
func snippet(text string, pos int) string {
	const width = 60
	if len(text) <= 2*width {
		return fmt.Sprintf("%q", text)
	}
	lo, hi := max(pos-width, 0), min(pos+width, len(text))
	s := fmt.Sprintf("%q", text[lo:hi])
	if lo > 0 {
		s = "..." + s
	}
	if hi < len(text) {
		s += "..."
	}
	return s
}

// twoCharOps are matched before single characters.
var twoCharOps = []string{"**", "//", "<=", ">=", "==", "!=", "<<", ">>"}

const singleCharOps = "()[],=+-*/%<>&|~^."

func lex(text string) ([]token, error) {
	var toks []token
	i := 0
	fail := func(pos int, format string, args ...any) ([]token, error) {
		return nil, &ParseError{Text: text, Pos: pos, Msg: fmt.Sprintf(format, args...)}
	}
	for i < len(text) {
		c := text[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case isDigit(c) || (c == '.' && i+1 < len(text) && isDigit(text[i+1])):
			j, isFloat := scanNumber(text, i)
			if j < len(text) && isNameStart(rune(text[j])) {
				return fail(j, "unexpected %q after number", text[j])
			}
			kind := tokInt
			if isFloat {
				kind = tokFloat
			}
			toks = append(toks, token{kind, text[i:j], i})
			i = j
		case c == '\'' || c == '"':
			s, j, err := scanString(text, i)
			if err != nil {
				return nil, err
			}
			toks = append(toks, token{tokString, s, i})
			i = j
		default:
			r, size := utf8.DecodeRuneInString(text[i:])
			if isNameStart(r) {
				j := i + size
				for j < len(text) {
					r, size := utf8.DecodeRuneInString(text[j:])
					if !isNameStart(r) && !unicode.IsDigit(r) {
						break
					}
					j += size
				}
				toks = append(toks, token{tokName, text[i:j], i})
				i = j
				continue
			}
			matched := false
			for _, op := range twoCharOps {
				if strings.HasPrefix(text[i:], op) {
					toks = append(toks, token{tokOp, op, i})
					i += 2
					matched = true
					break
				}
			}
			if matched {
				continue
			}
			if strings.IndexByte(singleCharOps, c) >= 0 {
				toks = append(toks, token{tokOp, text[i : i+1], i})
				i++
				continue
			}
			if r == utf8.RuneError && size == 1 {
				return fail(i, "invalid UTF-8")
			}
			return fail(i, "unexpected character %q", r)
		}
	}
	return append(toks, token{tokEOF, "", len(text)}), nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isNameStart(r rune) bool {
	return r == '_' || unicode.IsLetter(r)
}

// scanNumber scans a Python int or float literal starting at i.
func scanNumber(text string, i int) (end int, isFloat bool) {
	j := i
	for j < len(text) && isDigit(text[j]) {
		j++
	}
	if j < len(text) && text[j] == '.' {
		isFloat = true
		j++
		for j < len(text) && isDigit(text[j]) {
			j++
		}
	}
	if j < len(text) && (text[j] == 'e' || text[j] == 'E') {
		k := j + 1
		if k < len(text) && (text[k] == '+' || text[k] == '-') {
			k++
		}
		if k < len(text) && isDigit(text[k]) {
			for k < len(text) && isDigit(text[k]) {
				k++
			}
			return k, true
		}
	}
	return j, isFloat
}

// scanString decodes a Python string literal (the quoting PyRepr writes).
func scanString(text string, i int) (string, int, error) {
	q := text[i]
	var sb strings.Builder
	j := i + 1
	for j < len(text) {
		c := text[j]
		switch {
		case c == q:
			if !utf8.ValidString(sb.String()) {
				return "", 0, &ParseError{Text: text, Pos: i, Msg: "invalid UTF-8 in string"}
			}
			return sb.String(), j + 1, nil
		case c == '\n':
			return "", 0, &ParseError{Text: text, Pos: j, Msg: "newline in string"}
		case c == '\\':
			if j+1 >= len(text) {
				return "", 0, &ParseError{Text: text, Pos: j, Msg: "unterminated string"}
			}
			e := text[j+1]
			switch e {
			case '\\', '\'', '"':
				sb.WriteByte(e)
				j += 2
			case 'n':
				sb.WriteByte('\n')
				j += 2
			case 'r':
				sb.WriteByte('\r')
				j += 2
			case 't':
				sb.WriteByte('\t')
				j += 2
			case 'x', 'u', 'U':
				n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
				if j+2+n > len(text) {
					return "", 0, &ParseError{Text: text, Pos: j, Msg: "short escape"}
				}
				var v rune
				for _, h := range text[j+2 : j+2+n] {
					d := hexVal(h)
					if d < 0 {
						return "", 0, &ParseError{Text: text, Pos: j, Msg: "bad escape"}
					}
					v = v*16 + rune(d)
				}
				if !utf8.ValidRune(v) {
					return "", 0, &ParseError{Text: text, Pos: j, Msg: "bad escape"}
				}
				sb.WriteRune(v)
				j += 2 + n
			default:
				return "", 0, &ParseError{Text: text, Pos: j, Msg: fmt.Sprintf("unsupported escape \\%c", e)}
			}
		default:
			sb.WriteByte(c)
			j++
		}
	}
	return "", 0, &ParseError{Text: text, Pos: i, Msg: "unterminated string"}
}

func hexVal(r rune) int {
	switch {
	case r >= '0' && r <= '9':
		return int(r - '0')
	case r >= 'a' && r <= 'f':
		return int(r-'a') + 10
	case r >= 'A' && r <= 'F':
		return int(r-'A') + 10
	}
	return -1
}
