package termsafe

import (
	"bytes"
	"testing"
)

func TestString(t *testing.T) {
	for in, want := range map[string]string{
		"relu_1":            "relu_1",
		"né😀":               "né😀",
		"x\x1b[2Jy":         `x\x1b[2Jy`,
		"bell\a":            `bell\x07`,
		"cr\roverwrite":     `cr\roverwrite`,
		"nl\nname":          `nl\nname`,
		"del\x7f":           `del\u007f`,
		"c1\u009b31m":       `c1\u009b31m`,
		"bidi\u202egnp.exe": `bidi\u202egnp.exe`,
		"bad\xffutf8":       `bad\xffutf8`,
		"sep\u2028line":     `sep\u2028line`,
	} {
		if got := String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Text("a\tb\nc\x1b"); got != "a\tb\nc\\x1b" {
		t.Errorf("Text: %q", got)
	}
}

// Writes split anywhere, even inside a character, come out the same.
func TestWriterSplits(t *testing.T) {
	in := []byte("ok é😀 \x1b[31m red \u009b\n\xff end")
	var whole bytes.Buffer
	w := NewWriter(&whole)
	w.Write(in)
	w.Flush()
	for cut := 0; cut <= len(in); cut++ {
		var b bytes.Buffer
		w := NewWriter(&b)
		w.Write(in[:cut])
		w.Write(in[cut:])
		w.Flush()
		if b.String() != whole.String() {
			t.Errorf("cut at %d: %q, want %q", cut, b.String(), whole.String())
		}
	}
	if bytes.ContainsAny(whole.Bytes(), "\x1b\u009b") {
		t.Errorf("raw control characters passed: %q", whole.String())
	}
}
