package ir

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/seam-rt/seam/limits"
)

// The decoder reads the schema's JSON in one pass, straight into the ir
// types: every byte is looked at once, whatever the nesting, and nothing
// is allocated from a size the input declares. It checks the limits of
// package limits as it goes (depth, string length, node and value
// counts), refuses invalid UTF-8 with its byte offset, and says where in
// the document an error is.
//
// Errors are sticky: the first one is kept in err, every later call does
// nothing, and the loops below end. Objects and arrays are read with
// loops, not callbacks, so that decoding allocates only what it returns.

// SyntaxError is malformed JSON, or a value of the wrong type, at a byte
// offset of the record.
type SyntaxError struct {
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("at byte %d: %s", e.Offset, e.Msg) }

type decoder struct {
	// data is the window of the input being read, pos the position in
	// it and base the input offset of data[0]. Reading a whole document
	// (DecodeProgram) the window is all of it; reading from src
	// (DecodeProgramFrom) it holds what is read but not yet consumed.
	data  []byte
	pos   int
	base  int
	src   io.Reader
	eof   bool
	chunk int // what one read from src asks for (readChunk; less in tests)
	// keys holds a copy of the key being read at each depth, when its
	// bytes do not stay put (an escaped key, or reading a stream once
	// copyKeys is set).
	keys [][]byte
	err  error

	// Reading a stream, a key aliases the window buffer it was read in,
	// and keyGen records that buffer's generation at the key's depth (0
	// for a copy): fill never reuses a buffer that a live key (one at
	// this depth or above) is in, but takes another from windows, so
	// that keys need no copies. Once every pooled buffer holds one, keys
	// are copied for the rest of the decode (copyKeys), which bounds what
	// the keys keep alive to a few buffers.
	keyGen   []uint32
	gen      uint32 // the generation of the window's buffer
	lastGen  uint32
	windows  []window
	copyKeys bool

	depth, maxDepth   int
	maxString         int
	nodes, maxNodes   int
	values, maxValues int

	scratch []byte
	// arena holds the bytes of the strings decoded so far: strings are
	// carved out of it, so that a program's many short names cost a few
	// allocations, not one each. Bytes once written are never changed.
	arena []byte
	// interned holds the strings that repeat across nodes (targets,
	// argument names, metadata keys, symbolic expressions), so that each
	// is stored once.
	interned map[string]string
	// recent caches interned strings by a cheap hash of their bytes: a
	// program repeats a few strings (targets, keys) so often that a
	// map lookup each time shows.
	recent [256]string

	// Slabs the structs of each node are carved from, for the same reason.
	nodeSlab []Node
	metaSlab []TensorMeta
	exprSlab []SymExpr
	hintSlab []Hint

	// Where the lists of each kind are read (see list), and the stack
	// lists of nodes are gathered on.
	args      list[Argument]
	namedArgs list[NamedArgument]
	symInts   list[SymInt]
	metas     list[MetadataEntry]
	nodeStack []*Node
	// and the slab short lists of nodes are carved from.
	nodeListSlab []*Node
	// The keys of the last node's metadata.
	metaKeys learnedKeys

	// checks, when set, holds what the structure checks found in each
	// graph as it was read (see DecodeProgramChecked).
	checks map[*Graph]*graphCheck
}

func newDecoder(data []byte) *decoder {
	return &decoder{
		data:      data,
		eof:       true,
		chunk:     readChunk,
		maxDepth:  limits.JSONDepth.Int(),
		maxString: limits.StringBytes.Int(),
		maxNodes:  limits.Nodes.Int(),
		maxValues: limits.Values.Int(),
		interned:  make(map[string]string, 256),
	}
}

func (d *decoder) fail(err error) {
	if d.err == nil {
		d.err = err
	}
}

// failAt records an error at index i of the window.
func (d *decoder) failAt(i int, format string, args ...any) {
	d.failOff(d.base+i, format, args...)
}

// failOff records an error at offset off of the input (see off).
func (d *decoder) failOff(off int, format string, args ...any) {
	d.fail(&SyntaxError{Offset: off, Msg: fmt.Sprintf(format, args...)})
}

func (d *decoder) failf(format string, args ...any) { d.failAt(d.pos, format, args...) }

// failLimit records a limit met at the current position.
func (d *decoder) failLimit(err error) { d.fail(fmt.Errorf("at byte %d: %w", d.off(), err)) }

// off is the input offset of the current position. Positions kept across
// reads are offsets: reading may move the window.
func (d *decoder) off() int { return d.base + d.pos }

// readChunk is what one read from src asks for.
const readChunk = 64 << 10

// window is a buffer a stream is read into, and its generation.
type window struct {
	buf []byte
	gen uint32
}

// maxWindows bounds the buffers a stream is read into (of readChunk
// bytes, unless a token is longer): a program's keys that are live
// together, one per level, fall in a few (the outermost in the first,
// the graph's key in another, the current node's in the window's).
const maxWindows = 8

// windowFor returns a buffer of at least need bytes that no live key is
// in, as the window's next buffer.
func (d *decoder) windowFor(need int) []byte {
	live := func(gen uint32) bool {
		for k := 0; k <= d.depth && k < len(d.keyGen); k++ {
			if d.keyGen[k] == gen {
				return true
			}
		}
		return false
	}
	d.lastGen++
	d.gen = d.lastGen
	free := -1
	for i := range d.windows {
		if w := &d.windows[i]; !live(w.gen) {
			if len(w.buf) >= need {
				w.gen = d.gen
				return w.buf
			}
			free = i
		}
	}
	buf := make([]byte, need)
	switch {
	case free >= 0:
		// A free buffer too small for the token: replace it.
		d.windows[free] = window{buf, d.gen}
	case len(d.windows) < maxWindows:
		d.windows = append(d.windows, window{buf, d.gen})
	default:
		// Every buffer holds a live key: forget one (its keys keep it
		// while they live), and copy keys from now on, so that no
		// more buffers are pinned.
		d.copyKeys = true
		d.windows[0] = window{buf, d.gen}
	}
	return buf
}

// fill reads more of src into the window, keeping what is not consumed
// yet (from pos on: a scanner that ran out of window starts its token
// again). It reports whether bytes came or the window moved: either way
// the scanner's indices are stale, and it starts again. The window's buffer is reused
// while what is kept fills at most half of it (keys, which live longer
// than a token, are copies: see keyColon), and doubled when a token
// outgrows it.
func (d *decoder) fill() bool {
	if d.eof || d.err != nil {
		return false
	}
	keep := d.data[d.pos:]
	buf := d.windowFor(max(d.chunk, 2*len(keep)))
	copy(buf, keep)
	n, err := io.ReadFull(d.src, buf[len(keep):])
	switch err {
	case nil:
	case io.EOF, io.ErrUnexpectedEOF:
		d.eof = true
	default:
		d.eof = true
		d.fail(fmt.Errorf("at byte %d: reading: %w", d.base+len(d.data)+n, err))
		return false
	}
	moved := d.pos > 0
	d.base += d.pos
	d.pos = 0
	d.data = buf[:len(keep)+n]
	return n > 0 || moved
}

// wrap prefixes the error, if any, with where it happened.
func (d *decoder) wrap(format string, args ...any) {
	if d.err != nil {
		d.addPath(fmt.Sprintf(format, args...))
	}
}

// wrapName and wrapIndex are wrap without formatting: they run for every
// value decoded, and boxing their argument for a format would allocate.
func (d *decoder) wrapName(name string) {
	if d.err != nil {
		d.addPath(name)
	}
}

func (d *decoder) wrapIndex(i int) {
	if d.err != nil {
		d.addPath("[" + strconv.Itoa(i) + "]")
	}
}

// wrapKey prefixes the error, if any, with the object key it is under.
func (d *decoder) wrapKey(key []byte) {
	if d.err != nil {
		d.addPath(string(key))
	}
}

func (d *decoder) addPath(seg string) {
	pe, ok := d.err.(*pathError)
	if !ok {
		pe = &pathError{err: d.err}
		d.err = pe
	}
	pe.path = append(pe.path, seg)
}

// pathError is an error with where in the document it happened, the
// innermost step first. An error ten thousand levels down keeps every
// step, but prints the outermost and innermost few: wrapping it at each
// level must not cost time or memory quadratic in the depth.
type pathError struct {
	path []string
	err  error
}

// maxPathShown is how many steps of each end of a path an error prints.
const maxPathShown = 12

func (e *pathError) Error() string {
	var sb strings.Builder
	n := len(e.path)
	for i := n - 1; i >= 0; i-- {
		if n > 2*maxPathShown && i == n-1-maxPathShown {
			fmt.Fprintf(&sb, ": ... (%d levels) ...", n-2*maxPathShown)
			i = maxPathShown
		}
		seg := e.path[i]
		// An index follows its list's name: inputs[0].
		if sb.Len() > 0 && !strings.HasPrefix(seg, "[") {
			sb.WriteString(": ")
		}
		sb.WriteString(seg)
	}
	sb.WriteString(": ")
	sb.WriteString(e.err.Error())
	return sb.String()
}

func (e *pathError) Unwrap() error { return e.err }

// whole decodes the one value of the input with fn, refusing trailing data.
func (d *decoder) whole(fn func()) error {
	fn()
	if d.err == nil {
		if d.ws(); d.pos < len(d.data) {
			d.failf("data after the end of the value")
		}
	}
	return d.err
}

func (d *decoder) ws() {
	for {
		for d.pos < len(d.data) {
			switch d.data[d.pos] {
			case ' ', '\t', '\n', '\r':
				d.pos++
			default:
				return
			}
		}
		if !d.fill() {
			return
		}
	}
}

// peek returns the next non-space byte without consuming it (0 at the
// end). It runs before every token: the next byte is most often one
// already, and that case is kept small enough to inline.
func (d *decoder) peek() byte {
	if uint(d.pos) < uint(len(d.data)) {
		if c := d.data[d.pos]; c > ' ' {
			return c
		}
	}
	return d.peekSpace()
}

// cur is the byte at pos (0 past the window's end). The hottest callers
// of peek use it, then peekSpace when it is a space or 0: peek itself is
// just too big to inline.
func (d *decoder) cur() byte {
	if uint(d.pos) < uint(len(d.data)) {
		return d.data[d.pos]
	}
	return 0
}

// peekSpace is peek past whitespace, or at the window's end.
func (d *decoder) peekSpace() byte {
	// One space, as after Python's ", " and ": ", is the common case.
	if i := d.pos + 1; i < len(d.data) && d.data[d.pos] == ' ' && d.data[i] > ' ' {
		d.pos = i
		return d.data[i]
	}
	d.ws()
	if d.pos < len(d.data) {
		return d.data[d.pos]
	}
	return 0
}

// describe names the value that starts at the current position, for errors.
func (d *decoder) describe() string {
	switch c := d.peek(); {
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == '"':
		return "a string"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	case c == 0:
		return "the end of the input"
	case c == '-' || c >= '0' && c <= '9':
		return "a number"
	default:
		return fmt.Sprintf("%q", c)
	}
}

func (d *decoder) literal(word string) bool {
	for len(d.data)-d.pos < len(word) && d.fill() {
	}
	if len(d.data)-d.pos >= len(word) && string(d.data[d.pos:d.pos+len(word)]) == word {
		d.pos += len(word)
		return true
	}
	return false
}

// null consumes a null if one comes next.
func (d *decoder) null() bool {
	if d.err != nil {
		return false
	}
	nb := d.cur()
	if nb <= ' ' {
		nb = d.peekSpace()
	}
	return nb == 'n' && d.literal("null")
}

// enter and count are small enough to inline: they run for every
// object, array and element.
func (d *decoder) enter() {
	if d.depth++; d.depth > d.maxDepth {
		d.tooDeep()
	}
}

func (d *decoder) tooDeep() { d.failLimit(limits.JSONDepth.Exceeded()) }

func (d *decoder) count() {
	if d.values++; d.values > d.maxValues {
		d.tooMany()
	}
}

func (d *decoder) tooMany() { d.failLimit(limits.Values.Exceeded()) }

// Objects:
//
//	if d.openObject(nullable) {
//		for key, ok := d.firstKey(); ok; key, ok = d.nextKey() { ... }
//	}
//
// The key is valid until the next string is read.

// openObject consumes '{'; false for null (when nullable) or an error.
func (d *decoder) openObject(nullable bool) bool { return d.open('{', "an object", nullable) }

// open consumes the bracket that opens an object or an array.
func (d *decoder) open(bracket byte, what string, nullable bool) bool {
	if d.err != nil {
		return false
	}
	nb := d.cur()
	if nb <= ' ' {
		nb = d.peekSpace()
	}
	switch nb {
	case bracket:
		d.pos++
		d.enter()
		d.newKeySlot()
		return d.err == nil
	case 'n':
		if nullable && d.null() {
			return false
		}
	}
	d.failf("want %s, got %s", what, d.describe())
	return false
}

func (d *decoder) firstKey() ([]byte, bool) {
	if d.err != nil {
		return nil, false
	}
	nb := d.cur()
	if nb <= ' ' {
		nb = d.peekSpace()
	}
	if nb == '}' {
		d.pos++
		d.depth--
		return nil, false
	}
	return d.keyColon()
}

func (d *decoder) nextKey() ([]byte, bool) {
	if d.err != nil {
		return nil, false
	}
	// Python's separator, ", ", then the key.
	if i, data := d.pos, d.data; i+2 < len(data) && data[i] == ',' && data[i+1] == ' ' {
		d.pos = i + 2
		return d.keyColon()
	}
	switch d.peek() {
	case ',':
		d.pos++
		return d.keyColon()
	case '}':
		d.pos++
		d.depth--
		return nil, false
	}
	d.failf("want ',' or '}' in an object, got %s", d.describe())
	return nil, false
}

func (d *decoder) keyColon() ([]byte, bool) {
	// The common key: plain, whole in the window, then ": ".
	if i, data := d.pos, d.data; i < len(data) && data[i] == '"' {
		start := i + 1
		// Most keys end within their first eight bytes.
		var j int
		if start+8 <= len(data) {
			if m := special8(binary.LittleEndian.Uint64(data[start:])); m != 0 {
				j = start + bits.TrailingZeros64(m)>>3
			} else {
				j = plainEnd(data, start+8)
			}
		} else {
			j = plainEnd(data, start)
		}
		if j+2 < len(data) && data[j] == '"' && data[j+1] == ':' && j-start <= d.maxString {
			key := data[start:j]
			if j += 2; data[j] == ' ' {
				j++
			}
			d.pos = j
			if d.src != nil {
				key = d.streamKey(key)
			}
			return key, true
		}
	}
	if d.peek() != '"' {
		d.failf("want a key (a string), got %s", d.describe())
		return nil, false
	}
	start := d.off()
	key := d.stringBytes(true)
	if d.src != nil || d.off()-start != len(key)+2 {
		// Unescaped into the scratch buffer, which the value's strings
		// reuse, or in a window that reading the value moves: keep a
		// copy for the key's errors, in the slot of this object's depth
		// (its next key replaces it).
		key = d.keepKey(key)
	}
	if d.err == nil && d.peek() != ':' {
		d.failf("want ':' after a key, got %s", d.describe())
	}
	d.pos++
	return key, d.err == nil
}

// Objects of the schema's structs, whose keys come in the order of the
// schema's fields (PyTorch writes them so, and so does seam):
//
//	f := d.fields(nodeFields)
//	for key, ok := f.first(); ok; key, ok = f.next() { ... }
//
// reads each key by matching the one expected next, as Python writes it
// (`, "name": `), whole: on a large program these keys are a fifth of
// what is read token by token. A key that is not the one expected (a
// field left out, keys in another order, other spacing) is read as a
// token, and the one after it expected next.

// fieldOrder is a struct's keys in the schema's order, each with the
// text that writes it.
type fieldOrder []fieldKey

type fieldKey struct {
	first, next literal // `"name": ` first in its object, `, "name": ` after a value
	key         []byte  // name (read-only: it is first's)
}

func newFieldOrder(keys ...string) fieldOrder {
	o := make(fieldOrder, len(keys))
	for i, k := range keys {
		lit := `"` + k + `": `
		o[i] = fieldKey{newLiteral(lit), newLiteral(", " + lit), unsafe.Slice(unsafe.StringData(lit[1:]), len(k))}
	}
	return o
}

// literal is a short text to match, also as the words that hold it
// (masked to its length), which match with a few loads where the window
// has room for them.
type literal struct {
	text  string
	words [4]uint64
	masks [4]uint64
	n     int // words used
}

func newLiteral(text string) literal {
	l := literal{text: text, n: (len(text) + 7) / 8}
	if l.n > len(l.words) {
		l.n = 0 // too long for words: matched as text
	}
	for j := 0; j < l.n; j++ {
		var b [8]byte
		k := copy(b[:], text[8*j:])
		l.words[j] = binary.LittleEndian.Uint64(b[:])
		l.masks[j] = ^uint64(0) >> (64 - 8*k)
	}
	return l
}

// at reports whether data holds the literal at i.
func (l *literal) at(data []byte, i int) bool {
	if l.n == 0 || len(data)-i < 8*l.n {
		return len(data)-i >= len(l.text) && string(data[i:i+len(l.text)]) == l.text
	}
	for j := 0; j < l.n; j++ {
		if binary.LittleEndian.Uint64(data[i+8*j:])&l.masks[j] != l.words[j] {
			return false
		}
	}
	return true
}

// fieldIter reads the keys of one object of a struct: i is the key
// expected next.
type fieldIter struct {
	d     *decoder
	order fieldOrder
	i     int
}

func (d *decoder) fields(order fieldOrder) fieldIter { return fieldIter{d: d, order: order} }

// first is firstKey, expecting the struct's first key.
func (f *fieldIter) first() ([]byte, bool) { return f.key(true) }

// next is nextKey, expecting the key after the last one.
func (f *fieldIter) next() ([]byte, bool) { return f.key(false) }

// key reads the struct's next key, the one expected when it comes (and
// is within the string limit, as any key must be: past it, it is read as
// a token, which refuses it).
func (f *fieldIter) key(first bool) ([]byte, bool) {
	d := f.d
	if f.i < len(f.order) && d.err == nil {
		k := &f.order[f.i]
		lit := &k.next
		if first {
			lit = &k.first
		}
		if lit.at(d.data, d.pos) && len(k.key) <= d.maxString {
			d.keyMatched(len(lit.text))
			f.i++
			return k.key, true
		}
	}
	key, ok := d.keyToken(first)
	if ok {
		f.after(key)
	}
	return key, ok
}

// keyToken reads the next key of an object as a token.
func (d *decoder) keyToken(first bool) ([]byte, bool) {
	if first {
		return d.firstKey()
	}
	return d.nextKey()
}

// keyMatched consumes a key matched whole, n bytes with its separators.
func (d *decoder) keyMatched(n int) {
	d.pos += n
	if d.depth < len(d.keyGen) {
		d.keyGen[d.depth] = 0 // the key is in no window
	}
}

// after expects, after a key read as a token, the key that follows it in
// the struct (or, for a key the struct has not, the same as before).
func (f *fieldIter) after(key []byte) {
	for i := range f.order {
		if string(f.order[i].key) == string(key) {
			f.i = i + 1
			return
		}
	}
}

// learnedKeys reads the keys of objects whose keys are free (node
// metadata) expecting those of the last such object, in the same order:
// a program's nodes mostly have the same few (stack_trace,
// nn_module_stack, torch_fn, from_node), each key matched whole and
// returned interned.
type learnedKeys struct {
	keys [maxLearnedKeys]learnedKey
	i    int // the key expected next
}

const maxLearnedKeys = 8

type learnedKey struct {
	key         string // interned
	first, next literal
}

// first is firstKey, expecting the last object's first key.
func (ks *learnedKeys) first(d *decoder) (string, bool) {
	ks.i = 0
	return ks.key(d, true)
}

// next is nextKey, expecting the key that came next in the last object.
func (ks *learnedKeys) next(d *decoder) (string, bool) { return ks.key(d, false) }

// key reads the object's next key. (A key learnt was read as a token
// once, within the limits of this decode.)
func (ks *learnedKeys) key(d *decoder, first bool) (string, bool) {
	if ks.i < len(ks.keys) && ks.keys[ks.i].key != "" && d.err == nil {
		k := &ks.keys[ks.i]
		lit := &k.next
		if first {
			lit = &k.first
		}
		if lit.at(d.data, d.pos) {
			d.keyMatched(len(lit.text))
			ks.i++
			return k.key, true
		}
	}
	key, ok := d.keyToken(first)
	if !ok {
		return "", false
	}
	return ks.learn(d, key), true
}

// learn interns a key read as a token and, when it is plain (written as
// it reads: no escape, nothing past ASCII), expects it at its place from
// now on.
func (ks *learnedKeys) learn(d *decoder, key []byte) string {
	if d.err != nil {
		return ""
	}
	k := d.intern(key)
	if ks.i < len(ks.keys) && plainEnd(key, 0) == len(key) {
		if l := &ks.keys[ks.i]; l.key != k {
			text := `"` + k + `": `
			*l = learnedKey{k, newLiteral(text), newLiteral(", " + text)}
		}
	}
	ks.i++
	return k
}

// newKeySlot clears the key slot of the depth just entered: the key left
// there is its last object's, which has ended, and must not keep its
// buffer from reuse (see keyGen).
func (d *decoder) newKeySlot() {
	if d.depth < len(d.keyGen) {
		d.keyGen[d.depth] = 0
	}
}

// streamKey keeps a key read from a stream for as long as its object is
// read: in the window, its buffer's generation recorded (see keyGen), or
// as a copy.
func (d *decoder) streamKey(key []byte) []byte {
	if d.copyKeys || d.depth >= len(d.keyGen) {
		return d.keepKey(key)
	}
	d.keyGen[d.depth] = d.gen
	return key
}

// keepKey copies a key to the slot of this object's depth (its next key
// replaces it).
func (d *decoder) keepKey(key []byte) []byte {
	if d.depth < len(d.keyGen) {
		d.keyGen[d.depth] = 0
	}
	if d.depth < len(d.keys) {
		// The slot usually has room: reslicing it in place writes no
		// pointer.
		if k := &d.keys[d.depth]; len(key) <= cap(*k) {
			*k = (*k)[:len(key)]
			copy(*k, key)
			return *k
		}
	}
	for len(d.keys) <= d.depth {
		d.keys = append(d.keys, nil)
	}
	d.keys[d.depth] = append(make([]byte, 0, max(32, len(key))), key...)
	return d.keys[d.depth]
}

// Arrays:
//
//	if d.openArray() {
//		for ok := d.firstElem(); ok; ok = d.nextElem() { ... }
//	}

// openArray consumes '['; false for null or an error.
func (d *decoder) openArray() bool { return d.open('[', "an array", true) }

func (d *decoder) firstElem() bool {
	if d.err != nil {
		return false
	}
	nb := d.cur()
	if nb <= ' ' {
		nb = d.peekSpace()
	}
	if nb == ']' {
		d.pos++
		d.depth--
		return false
	}
	d.count()
	return d.err == nil
}

func (d *decoder) nextElem() bool {
	if d.err != nil {
		return false
	}
	if i, data := d.pos, d.data; i+1 < len(data) && data[i] == ',' && data[i+1] == ' ' {
		d.pos = i + 2
		d.count()
		return d.err == nil
	}
	switch d.peek() {
	case ',':
		d.pos++
		d.count()
		return d.err == nil
	case ']':
		d.pos++
		d.depth--
		return false
	}
	d.failf("want ',' or ']' in an array, got %s", d.describe())
	return false
}

// Unions, one-member objects:
//
//	if key, ok := d.openUnion("Argument"); ok { ...; d.closeUnion("Argument", start) }

func (d *decoder) openUnion(union string) ([]byte, int, bool) {
	if d.err != nil {
		return nil, 0, false
	}
	nb := d.cur()
	if nb <= ' ' {
		nb = d.peekSpace()
	}
	if nb != '{' {
		d.failf("%s: want an object with one member, got %s", union, d.describe())
		return nil, 0, false
	}
	start := d.off()
	d.pos++
	d.enter()
	d.newKeySlot()
	if d.err == nil && d.peek() == '}' {
		d.failOff(start, "%s: want exactly one member, got 0", union)
	}
	if d.err != nil {
		return nil, 0, false
	}
	key, ok := d.keyColon()
	return key, start, ok
}

func (d *decoder) closeUnion(union string, start int) {
	if d.err != nil {
		return
	}
	nb := d.cur()
	if nb <= ' ' {
		nb = d.peekSpace()
	}
	switch nb {
	case '}':
		d.pos++
		d.depth--
	case ',':
		d.failOff(start, "%s: want exactly one member, got several", union)
	default:
		d.failf("want '}' closing %s, got %s", union, d.describe())
	}
}

// Strings.

// stringBytes reads a string; the result aliases the input or the
// decoder's scratch buffer and is valid until the next string is read.
// In names (of values, nodes, targets, FQNs) an escaped half of a
// surrogate pair is refused; in free text (stack traces) it becomes
// U+FFFD, as Python would have written it had it been able to.
func (d *decoder) stringBytes(name bool) []byte {
	if d.err != nil {
		return nil
	}
	nb := d.cur()
	if nb <= ' ' {
		nb = d.peekSpace()
	}
	if nb != '"' {
		d.failf("want a string, got %s", d.describe())
		return nil
	}
	start := d.pos + 1
	data := d.data
	// A short plain string ends in its first eight bytes.
	if start+8 <= len(data) {
		if m := special8(binary.LittleEndian.Uint64(data[start:])); m != 0 {
			if i := start + bits.TrailingZeros64(m)>>3; data[i] == '"' && i-start <= d.maxString {
				d.pos = i + 1
				return data[start:i]
			}
		}
	}
	for i := start; i < len(data); {
		if i = plainEnd(data, i); i >= len(data) {
			break
		}
		c := data[i]
		switch {
		case c == '"':
			if i-start > d.maxString {
				d.pos = start
				d.failLimit(&limits.Error{Limit: limits.StringBytes, Got: int64(i - start), Max: int64(d.maxString)})
				return nil
			}
			d.pos = i + 1
			return data[start:i]
		case c == '\\':
			return d.escapedString(start, i, name)
		case c < 0x20:
			d.failAt(i, "control character %#02x in a string (JSON needs it escaped)", c)
			return nil
		case c >= utf8.RuneSelf:
			if !utf8.FullRune(data[i:]) && d.fill() {
				return d.stringBytes(name)
			}
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				d.failAt(i, "invalid UTF-8 (byte %#02x) in a string", c)
				return nil
			}
			i += size
		default:
			i++
		}
	}
	if len(data)-start > d.maxString {
		// Refused before the window grows to hold more of it.
		d.pos = start
		d.failLimit(&limits.Error{Limit: limits.StringBytes, Got: int64(len(data) - start), Max: int64(d.maxString), AtLeast: true})
		return nil
	}
	if d.fill() {
		return d.stringBytes(name)
	}
	d.failAt(start-1, "string never ends")
	return nil
}

// plainEnd returns the index of the first byte from i on that needs a
// look in a string (see special8), or len(data). Most of a program is
// text: it goes eight bytes at a time.
func plainEnd(data []byte, i int) int {
	for ; i+8 <= len(data); i += 8 {
		if m := special8(binary.LittleEndian.Uint64(data[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < len(data); i++ {
		if c := data[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' {
			break
		}
	}
	return i
}

// special8 marks (with the high bit of its byte) the bytes of w that
// need a look: a quote, a backslash, a control character or a byte past
// ASCII. A mark may also fall above a marked byte (a borrow carries),
// never below one: the lowest mark is exact, and it is the one used.
func special8(w uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	zero := func(x uint64) uint64 { return (x - ones) & ^x }
	return (w | zero(w^(ones*'"')) | zero(w^(ones*'\\')) | (w-ones*0x20)&^w) & highs
}

// escapedString finishes a string that has escapes, from i (a backslash).
func (d *decoder) escapedString(start, i int, name bool) []byte {
	data := d.data
	buf := append(d.scratch[:0], data[start:i]...)
	defer func() { d.scratch = buf[:0] }()
	for i < len(data) {
		if len(buf) > d.maxString {
			d.pos = start
			d.failLimit(&limits.Error{Limit: limits.StringBytes, Got: int64(len(buf)), Max: int64(d.maxString), AtLeast: true})
			return nil
		}
		// Copy the plain run up to the next byte that needs a look, no
		// further than one byte past the limit.
		if j := min(plainEnd(data, i), i+d.maxString+1-len(buf)); j > i {
			buf = append(buf, data[i:j]...)
			i = j
			continue
		}
		c := data[i]
		switch {
		case c == '"':
			d.pos = i + 1
			return buf
		case c == '\\':
			if i+5 >= len(data) && d.fill() {
				// The escape, or the \u escape after it, may go on past
				// the window.
				return d.stringBytes(name)
			}
			if i+1 >= len(data) {
				d.failAt(i, "string never ends")
				return nil
			}
			e := data[i+1]
			i += 2
			switch e {
			case '"', '\\', '/':
				buf = append(buf, e)
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case 'u':
				r, ok := hex4(data, i)
				if !ok {
					d.failAt(i-2, "bad \\u escape")
					return nil
				}
				at := i - 2
				i += 4
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if i+6 > len(data) && d.fill() {
						return d.stringBytes(name)
					}
					if i+6 <= len(data) && data[i] == '\\' && data[i+1] == 'u' {
						r2, _ = hex4(data, i+2)
					}
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						r = dec
						i += 6
					} else if name {
						d.failAt(at, "\\u%04x is half of a surrogate pair, not a character", r)
						return nil
					} else {
						r = utf8.RuneError
					}
				}
				buf = utf8.AppendRune(buf, r)
			default:
				d.failAt(i-2, "bad escape \\%c", e)
				return nil
			}
		case c < 0x20:
			d.failAt(i, "control character %#02x in a string (JSON needs it escaped)", c)
			return nil
		case c >= utf8.RuneSelf:
			if !utf8.FullRune(data[i:]) && d.fill() {
				return d.stringBytes(name)
			}
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				d.failAt(i, "invalid UTF-8 (byte %#02x) in a string", c)
				return nil
			}
			buf = append(buf, data[i:i+size]...)
			i += size
		default:
			buf = append(buf, c)
			i++
		}
	}
	if d.fill() {
		return d.stringBytes(name)
	}
	d.failAt(start-1, "string never ends")
	return nil
}

func hex4(data []byte, i int) (rune, bool) {
	if i+4 > len(data) {
		return 0, false
	}
	var r rune
	for _, c := range data[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// plainString reads, when the window holds them whole at pos, the bytes
// prefix, a plain string's text (no escape, nothing past ASCII; prefix
// ends with its opening quote), its closing quote and the bytes suffix,
// and returns the text: the whole of a small value the schema writes
// often ({"name": "x"}), read without its tokens. It reads nothing, and
// says false, for anything else, which the token-by-token reader then
// reads (or refuses). The caller checks that the objects prefix opens fit
// the depth limit; strings are checked here.
func (d *decoder) plainString(prefix, suffix string) ([]byte, bool) {
	data, i := d.data, d.pos
	if len(data)-i < len(prefix) || string(data[i:i+len(prefix)]) != prefix {
		return nil, false
	}
	start := i + len(prefix)
	j := plainEnd(data, start)
	if j-start > d.maxString || len(data)-j <= len(suffix) || data[j] != '"' || string(data[j+1:j+1+len(suffix)]) != suffix {
		return nil, false
	}
	d.pos = j + 1 + len(suffix)
	return data[start:j], true
}

// str reads a string (null reads as "").
func (d *decoder) str(name bool) string {
	if d.null() {
		return ""
	}
	return d.save(d.stringBytes(name))
}

// arenaChunk is the size of the arena's blocks: large enough that
// allocating them costs nothing per string, small enough that a few
// strings kept alive keep little else.
const arenaChunk = 32 << 10

// save copies b into the arena and returns it as a string.
func (d *decoder) save(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > arenaChunk/4 {
		return string(b)
	}
	if cap(d.arena)-len(d.arena) < len(b) {
		d.arena = make([]byte, 0, arenaChunk)
	}
	start := len(d.arena)
	d.arena = append(d.arena, b...)
	return unsafe.String(&d.arena[start], len(b))
}

// maxInterned bounds the strings worth interning.
const maxInterned = 512

// intern returns b as a string stored once however often it repeats.
func (d *decoder) intern(b []byte) string {
	if len(b) > maxInterned {
		return d.save(b)
	}
	slot := &d.recent[internHash(b)]
	if *slot == string(b) && len(b) > 0 {
		return *slot
	}
	s, ok := d.interned[string(b)]
	if !ok {
		s = d.save(b)
		d.interned[s] = s
	}
	*slot = s
	return s
}

// internHash is the slot of recent for b: its length and up to eight of
// its last bytes, mixed.
func internHash(b []byte) uint8 {
	var w uint64
	if n := len(b); n >= 8 {
		w = binary.LittleEndian.Uint64(b[n-8:])
	} else {
		for _, c := range b {
			w = w<<8 | uint64(c)
		}
	}
	return uint8((w ^ uint64(len(b))*0x9e3779b97f4a7c15) * 0xff51afd7ed558ccd >> 56)
}

// name reads the name of a value, node or FQN.
func (d *decoder) name() string { return d.str(true) }

// text reads free text.
func (d *decoder) text() string { return d.str(false) }

// common reads a string that repeats across a program (a target, an
// argument name, a device, a symbolic expression).
func (d *decoder) common(name bool) string {
	if d.null() {
		return ""
	}
	b := d.stringBytes(name)
	if d.err != nil {
		return ""
	}
	return d.intern(b)
}

// carve returns a zero T from slab, refilled 64 at a time: a program's
// many nodes and metadata cost one allocation per 64.
func carve[T any](slab *[]T) *T {
	if len(*slab) == 0 {
		*slab = make([]T, 64)
	}
	v := &(*slab)[0]
	*slab = (*slab)[1:]
	return v
}

// Numbers and booleans.

// number scans a JSON number and returns its text.
func (d *decoder) number() ([]byte, bool) {
	d.ws()
	// The number's characters must all be in the window.
	j := d.pos
	for j < len(d.data) && numberByte(d.data[j]) {
		j++
	}
	if j == len(d.data) && d.fill() {
		return d.number()
	}
	start, i := d.pos, d.pos
	data := d.data
	if i < len(data) && data[i] == '-' {
		i++
	}
	digits := i
	for i < len(data) && data[i] >= '0' && data[i] <= '9' {
		i++
	}
	if i == digits || data[digits] == '0' && i-digits > 1 {
		d.failf("want a number, got %s", d.describe())
		return nil, false
	}
	integer := true
	if i < len(data) && data[i] == '.' {
		integer = false
		i++
		f := i
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
		if i == f {
			d.failAt(i, "bad number: no digits after '.'")
			return nil, false
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		integer = false
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		e := i
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
		if i == e {
			d.failAt(i, "bad number: no digits in the exponent")
			return nil, false
		}
	}
	d.pos = i
	return data[start:i], integer
}

func numberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// fastInt parses the integer at i when it is plain: an optional '-', at
// most 18 digits without a leading zero, and a byte after it in data that
// cannot continue a number. Anything else is number's to read (and
// refuse).
func fastInt(data []byte, i int) (int64, int, bool) {
	neg := i < len(data) && data[i] == '-'
	if neg {
		i++
	}
	start := i
	var v int64
	for ; i < len(data) && i-start <= 18; i++ {
		c := data[i] - '0'
		if c > 9 {
			break
		}
		v = v*10 + int64(c)
	}
	n := i - start
	if n == 0 || n > 18 || n > 1 && data[start] == '0' || i >= len(data) || numberByte(data[i]) {
		return 0, 0, false
	}
	if neg {
		v = -v
	}
	return v, i, true
}

// int64 reads an integer (null reads as 0).
func (d *decoder) int64() int64 {
	if d.err != nil {
		return 0
	}
	nb := d.cur()
	if nb <= ' ' {
		nb = d.peekSpace()
	}
	if c := nb; c == '-' || c >= '0' && c <= '9' {
		if v, end, ok := fastInt(d.data, d.pos); ok {
			d.pos = end
			return v
		}
	}
	if d.null() {
		return 0
	}
	start := d.off()
	b, integer := d.number()
	if d.err != nil {
		return 0
	}
	text := b
	if !integer {
		d.failOff(start, "want an integer, got %s", b)
		return 0
	}
	neg := b[0] == '-'
	if neg {
		b = b[1:]
	}
	var v uint64
	for _, c := range b {
		if v > (math.MaxUint64-9)/10 {
			v = math.MaxUint64
			break
		}
		v = v*10 + uint64(c-'0')
	}
	switch {
	case neg && v <= 1<<63:
		return -int64(v)
	case !neg && v <= math.MaxInt64:
		return int64(v)
	}
	d.failOff(start, "integer %s does not fit in 64 bits", text)
	return 0
}

// int reads an integer of an enum or a version.
func (d *decoder) int() int {
	start := d.off()
	v := d.int64()
	if v > math.MaxInt32 || v < math.MinInt32 {
		d.failOff(start, "integer %d out of range", v)
		return 0
	}
	return int(v)
}

// float reads a float: a number, or the strings Python's serializer
// writes for non-finite values ("Infinity", "-Infinity", "NaN").
func (d *decoder) float() float64 {
	if d.err != nil || d.null() {
		return 0
	}
	start := d.off()
	if d.peek() == '"' {
		s := d.stringBytes(false)
		switch string(s) {
		case "Infinity", "inf":
			return math.Inf(1)
		case "-Infinity", "-inf":
			return math.Inf(-1)
		case "NaN", "nan":
			return math.NaN()
		}
		if d.err == nil {
			d.failOff(start, "float written as string %q", s)
		}
		return 0
	}
	b, _ := d.number()
	if d.err != nil {
		return 0
	}
	// ParseFloat keeps nothing of its argument (its errors copy it).
	f, err := strconv.ParseFloat(unsafe.String(&b[0], len(b)), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		d.failOff(start, "bad float %s", b)
	}
	return f
}

func (d *decoder) bool() bool {
	if d.err != nil {
		return false
	}
	switch d.peek() {
	case 't':
		if d.literal("true") {
			return true
		}
	case 'f':
		if d.literal("false") {
			return false
		}
	case 'n':
		if d.null() {
			return false
		}
	}
	d.failf("want true or false, got %s", d.describe())
	return false
}

// optBool reads a bool that may be null.
func (d *decoder) optBool() *bool {
	if d.null() {
		return nil
	}
	b := d.bool()
	return &b
}

// optInt reads an integer that may be null.
func (d *decoder) optInt() *int64 {
	if d.null() {
		return nil
	}
	v := d.int64()
	return &v
}

// skip reads past one value of any kind, checking its syntax.
func (d *decoder) skip() {
	if d.err != nil {
		return
	}
	switch c := d.peek(); {
	case c == '{':
		if d.openObject(false) {
			for _, ok := d.firstKey(); ok; _, ok = d.nextKey() {
				d.skip()
			}
		}
	case c == '[':
		if d.openArray() {
			for ok := d.firstElem(); ok; ok = d.nextElem() {
				d.skip()
			}
		}
	case c == '"':
		d.stringBytes(false)
	case c == 't' || c == 'f':
		d.bool()
	case c == 'n':
		if !d.null() {
			d.failf("want a value, got %s", d.describe())
		}
	case c == '-' || c >= '0' && c <= '9':
		d.number()
	default:
		d.failf("want a value, got %s", d.describe())
	}
}

// Generic containers.

func (d *decoder) strings(name bool) []string {
	var out []string
	if d.openArray() {
		for ok := d.firstElem(); ok; ok = d.nextElem() {
			out = append(out, d.str(name))
		}
	}
	return out
}

func (d *decoder) ints() []int64 {
	var out []int64
	if d.openArray() {
		for ok := d.firstElem(); ok; ok = d.nextElem() {
			out = append(out, d.int64())
		}
	}
	return out
}

// mapKey reads the key of a map entry (a name), counting it as a value.
func (d *decoder) mapKey(key []byte) string {
	d.count()
	return d.save(key)
}

// stringMap reads an object of strings (node metadata: its keys repeat,
// and so do values such as nn_module_stack).
func (d *decoder) stringMap() map[string]string {
	if !d.openObject(true) {
		return nil
	}
	m := make(map[string]string, 4)
	for key, ok := d.firstKey(); ok; key, ok = d.nextKey() {
		d.count()
		k := d.intern(key)
		if k == "nn_module_stack" {
			m[k] = d.common(false)
		} else {
			m[k] = d.text()
		}
		d.wrapName(k)
	}
	return m
}

// metadata reads a node's metadata, sorted as it goes; a key given twice
// takes its last value.
func (d *decoder) metadata() Metadata {
	if !d.openObject(true) {
		return nil
	}
	l := d.metas.begin()
	ks := &d.metaKeys
	for k, ok := ks.first(d); ok; k, ok = ks.next(d) {
		d.count()
		var v string
		if k == "nn_module_stack" {
			v = d.common(false)
		} else {
			v = d.text()
		}
		d.wrapName(k)
		// Insert in order: export writes a few keys, mostly in the
		// same order, so this is a step or two.
		got := l.elems()
		i := len(got)
		for i > 0 && got[i-1].Key > k {
			i--
		}
		if i > 0 && got[i-1].Key == k {
			got[i-1].Value = v
			continue
		}
		e := l.next()
		*e = MetadataEntry{k, v}
		l.done(e)
		if i < len(got) {
			// Out of order: move it to i.
			all := l.elems()
			copy(all[i+1:], all[i:len(all)-1])
			all[i] = MetadataEntry{k, v}
		}
	}
	return l.end()
}

func (d *decoder) intMap() map[string]int64 {
	return decodeTable(d, (*decoder).int64)
}
