// Package termsafe escapes the characters of untrusted text (names read
// from a program) that a terminal would act on instead of showing: control
// characters (ESC starts the sequences that move the cursor, retitle the
// window or rewrite the screen; BEL rings; CR overwrites the line), DEL,
// the C1 controls, the Unicode marks that reorder text (bidirectional
// overrides and isolates) or separate lines, and bytes that are not UTF-8.
// Each becomes a visible escape: \x1b, \x07, \r, \u009b, \u202e, \xff.
// Characters past ASCII are escaped as \uXXXX, so that JSON printed
// through a Writer stays JSON (its encoder has escaped the rest already).
//
// Newlines and tabs pass through: printers put them there to lay text
// out. A name that holds one is escaped by String.
package termsafe

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// unsafeRune reports whether r must be escaped.
func unsafeRune(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return true // bidirectional embeddings, overrides, isolates and marks
	case r == 0x2028, r == 0x2029:
		return true // line and paragraph separators
	}
	return false
}

func escape(sb *strings.Builder, r rune) {
	switch {
	case r == '\n':
		sb.WriteString(`\n`)
	case r == '\r':
		sb.WriteString(`\r`)
	case r == '\t':
		sb.WriteString(`\t`)
	case r < 0x20:
		fmt.Fprintf(sb, `\x%02x`, r)
	default:
		fmt.Fprintf(sb, `\u%04x`, r)
	}
}

// String returns s with every character a terminal would act on escaped,
// newlines and tabs included: for one name or value printed in a line.
func String(s string) string { return escapeAll(s, false) }

// Text is String for text laid out in lines: newlines and tabs stay.
func Text(s string) string { return escapeAll(s, true) }

func escapeAll(s string, layout bool) string {
	if safe(s, layout) {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&sb, `\x%02x`, s[i])
		case layout && (r == '\n' || r == '\t'):
			sb.WriteRune(r)
		case unsafeRune(r):
			escape(&sb, r)
		default:
			sb.WriteString(s[i : i+size])
		}
		i += size
	}
	return sb.String()
}

func safe(s string, layout bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return false // decide rune by rune
		}
		if c < 0x20 || c == 0x7f {
			if !layout || c != '\n' && c != '\t' {
				return false
			}
		}
	}
	return true
}

// Writer escapes what is written through it as Text does. A UTF-8
// sequence split across writes is held until its end arrives.
type Writer struct {
	w       io.Writer
	pending []byte
}

// NewWriter returns a Writer writing to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

func (w *Writer) Write(p []byte) (int, error) {
	n := len(p)
	if len(w.pending) > 0 {
		p = append(w.pending, p...)
		w.pending = nil
	}
	// Hold back an incomplete sequence at the end.
	if cut := incompleteTail(p); cut < len(p) {
		w.pending = append([]byte(nil), p[cut:]...)
		p = p[:cut]
	}
	if _, err := io.WriteString(w.w, Text(string(p))); err != nil {
		return 0, err
	}
	return n, nil
}

// Flush writes a held-back incomplete sequence (escaped: it was not UTF-8).
func (w *Writer) Flush() error {
	if len(w.pending) == 0 {
		return nil
	}
	p := w.pending
	w.pending = nil
	_, err := io.WriteString(w.w, Text(string(p)))
	return err
}

// incompleteTail is where a UTF-8 sequence that p ends in the middle of
// starts (len(p) when p ends on a boundary).
func incompleteTail(p []byte) int {
	for i := len(p) - 1; i >= 0 && i >= len(p)-utf8.UTFMax; i-- {
		c := p[i]
		if c < utf8.RuneSelf {
			return len(p)
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRune(p[i:]) {
				return i
			}
			return len(p)
		}
	}
	return len(p)
}
