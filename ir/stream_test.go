package ir

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/seam-rt/seam/limits"
)

// windowChunks are the read sizes the streaming tests use: every token
// of the inputs below meets the window's edge somewhere.
var windowChunks = []int{1, 2, 3, 5, 8, 13, 64}

// sameDecoding checks that reading data through a window of each size
// gives what reading it whole gives: the same program, byte for byte once
// encoded, or the same error, offsets included.
func sameDecoding(t *testing.T, label string, data []byte) {
	t.Helper()
	want, wantErr := DecodeProgram(data)
	var wantJSON []byte
	if wantErr == nil {
		var err error
		if wantJSON, err = EncodeProgram(want); err != nil {
			t.Fatalf("%s: encoding: %v", label, err)
		}
	}
	for _, chunk := range windowChunks {
		got, err := decodeProgramFrom(bytes.NewReader(data), chunk)
		if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
			t.Errorf("%s, %d-byte reads: error %v, reading whole: %v", label, chunk, err, wantErr)
			continue
		}
		if err != nil {
			continue
		}
		gotJSON, err := EncodeProgram(got)
		if err != nil || !bytes.Equal(gotJSON, wantJSON) {
			t.Errorf("%s, %d-byte reads: program differs from reading whole (%v)", label, chunk, err)
		}
	}
}

// TestDecodeFromWindow: malformed programs are refused with the same
// error, at the same byte, whatever the window; valid ones (every
// argument kind, escapes, non-ASCII text, numbers of every form) decode
// the same.
func TestDecodeFromWindow(t *testing.T) {
	for _, c := range decodeErrorCases() {
		sameDecoding(t, c.in, []byte(c.in))
	}
	g := &Graph{Inputs: []Argument{TensorArg("x")}, Outputs: []Argument{TensorArg("x")}}
	n := &Node{Target: "torch.ops.aten.t.default", Name: "n\u00e9\U0001F600",
		Metadata: MetadataOf(map[string]string{"stack_trace": "line\n\t\"x\" \\ \u2028 \U0001F600 end"})}
	for _, c := range everyArgument() {
		n.Inputs = append(n.Inputs, NamedArgument{Name: c.arg.Kind.String(), Arg: c.arg, Kind: KindKeyword})
	}
	n.Inputs = append(n.Inputs, NamedArgument{Name: "f", Arg: FloatArg(-1.25e-300)}, NamedArgument{Name: "i", Arg: IntArg(-9223372036854775808)})
	g.Nodes = []*Node{n}
	for _, p := range []*Program{{Graph: g, SchemaVersion: CurrentSchema}, benchChain(50)} {
		data, err := EncodeProgram(p)
		if err != nil {
			t.Fatal(err)
		}
		sameDecoding(t, "program", data)
		// Indented, and with whitespace at every edge.
		sameDecoding(t, "spaced program", bytes.ReplaceAll(data, []byte(", "), []byte(" ,\n\t ")))
	}
	for _, in := range []string{
		minimal(`{"target": "t", "inputs": [{"name": "x", "arg": {"as_string": "\ud83d\ude00\u00e9\\n"}}]}`),
		minimal(`{"target": "t", "inputs": [{"name": "x", "arg": {"as_string": "half \ud83d then"}}]}`),
		minimal(`{"target": "t", "inputs": [{"name": "x", "arg": {"as_float": 1e`),
		minimal(`{"target": "t", "inputs": [{"name": "x", "arg": {"as_float": 12345678901234567890.5e-3}}]}`),
		minimal(`{"target": "t", "inputs": [{"name": "x", "arg": {"as_bool": tru`),
		minimal(`{"target": "t", "inputs": [{"name": "x", "arg": {"as_string": "` + "\xe2\x82" + `"}}]}`),
		minimal(`{"target": "t"}`) + "   ",
		minimal(`{"target": "t", "name": "né😀éé😀 raw"}`),
		minimal(`{"target": "t", "name": "n\né😀éé😀 raw, escaped"}`),
	} {
		sameDecoding(t, in, []byte(in))
	}
}

// TestDecodeFromReadError: a failing reader's error is the decoder's,
// wrapped with where it came.
func TestDecodeFromReadError(t *testing.T) {
	boom := errors.New("boom")
	data := []byte(minimal(`{"target": "t"}`))
	r := io.MultiReader(bytes.NewReader(data[:40]), iotest.ErrReader(boom))
	_, err := decodeProgramFrom(r, 8)
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "at byte 40") {
		t.Fatalf("error %v, want boom at byte 40", err)
	}
}

// countingReader counts the bytes read from it.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// TestDecodeFromLimits: the limits hold reading from a stream, and a
// string over the limit is refused before the window grows to hold it.
func TestDecodeFromLimits(t *testing.T) {
	defer limits.Reset()
	if err := limits.Set("string-bytes", "100"); err != nil {
		t.Fatal(err)
	}
	long := minimal(`{"target": "t", "name": "` + strings.Repeat("a", 1<<20) + `"}`)
	cr := &countingReader{r: strings.NewReader(long)}
	_, err := decodeProgramFrom(cr, 64)
	var le *limits.Error
	if !errors.As(err, &le) || le.Limit != limits.StringBytes {
		t.Fatalf("error %v, want the string-bytes limit", err)
	}
	if cr.n > 1024 {
		t.Errorf("read %d bytes of a string over a 100-byte limit", cr.n)
	}
	limits.Reset()
	if err := limits.Set("json-depth", "40"); err != nil {
		t.Fatal(err)
	}
	deep := strings.Repeat(`{"as_string_to_argument": {"k": `, 50) + `{"as_int": 1}` + strings.Repeat(`}}`, 50)
	_, err = decodeProgramFrom(strings.NewReader(minimal(`{"target": "t", "outputs": [`+deep+`]}`)), 7)
	if !errors.As(err, &le) || le.Limit != limits.JSONDepth {
		t.Fatalf("error %v, want the json-depth limit", err)
	}
}

// FuzzDecodeProgramFrom: reading through a window of any size decodes
// what reading whole decodes, or fails with the same error.
func FuzzDecodeProgramFrom(f *testing.F) {
	for _, c := range decodeErrorCases() {
		f.Add([]byte(c.in), uint8(3))
	}
	data, err := EncodeProgram(benchChain(20))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data, uint8(7))
	f.Fuzz(func(t *testing.T, data []byte, chunk uint8) {
		want, wantErr := DecodeProgram(data)
		got, err := decodeProgramFrom(bytes.NewReader(data), 1+int(chunk)%64)
		if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
			t.Fatalf("error %v, reading whole: %v", err, wantErr)
		}
		if err != nil {
			return
		}
		a, errA := EncodeProgram(want)
		b, errB := EncodeProgram(got)
		if (errA == nil) != (errB == nil) || !bytes.Equal(a, b) {
			t.Fatalf("program differs from reading whole")
		}
	})
}

// streamDecoder decodes data as DecodeProgramFrom does and returns the
// decoder, for its windows.
func streamDecoder(t *testing.T, data []byte) (*decoder, *Program, error) {
	t.Helper()
	d := newDecoder(nil)
	d.src, d.eof, d.chunk = bytes.NewReader(data), false, readChunk
	d.keyGen = make([]uint32, 64)
	p := new(Program)
	err := d.whole(func() { d.program(p) })
	return d, p, err
}

// TestStreamWindows: reading a program's stream, keys stay in the
// buffers they were read into, which are reused once no live key is in
// them (no key copied, a few buffers); where live keys pin every buffer
// (keys at many levels far apart), keys are copied from then on, and the
// buffers stay a few. Either way the program is what reading it whole
// gives, errors (which name the keys) included.
func TestStreamWindows(t *testing.T) {
	data, err := EncodeProgram(benchChain(3000))
	if err != nil {
		t.Fatal(err)
	}
	d, _, err := streamDecoder(t, data)
	if err != nil || d.copyKeys || len(d.windows) > maxWindows || d.lastGen < 10 {
		t.Fatalf("chain: err %v, keys copied %v, %d buffers for %d fills", err, d.copyKeys, len(d.windows), d.lastGen)
	}
	// Twenty levels of keys, each a window apart.
	const levels = 20
	gap := strings.Repeat(" ", readChunk+100)
	for _, leaf := range []string{"1", "1.5"} {
		in := strings.Repeat(`{"as_string_to_argument": {"k": `+gap, levels) + `{"as_int": ` + leaf + `}` + strings.Repeat(`}}`, levels)
		doc := minimal(`{"target": "t", "outputs": [` + in + `]}`)
		d, p, err := streamDecoder(t, []byte(doc))
		if !d.copyKeys || len(d.windows) > maxWindows {
			t.Errorf("deep keys: keys copied %v, %d buffers", d.copyKeys, len(d.windows))
		}
		want, wantErr := DecodeProgram([]byte(doc))
		if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
			t.Fatalf("deep keys: error %v, reading whole %v", err, wantErr)
		}
		if err == nil {
			a, _ := EncodeProgram(p)
			b, _ := EncodeProgram(want)
			if !bytes.Equal(a, b) {
				t.Fatal("deep keys: program differs from reading whole")
			}
		} else if !strings.Contains(err.Error(), "as_string_to_argument: k: as_string_to_argument: k: ") {
			t.Errorf("deep keys: error %.200q does not name the keys", err)
		}
	}
}
