package backend

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"
)

// dtypeChoices lists the dtype names a profile uses, as it writes them.
const dtypeChoices = "use f32, f64, f16, bf16, i64, i32, i16, i8, u8, b8"

// Problem is one thing wrong in a profile: the key path of the value
// ("placeholders.sym_int", "dtypes[2]"; "" for the whole file) and what
// is wrong with it.
type Problem struct {
	Key string
	Msg string
}

func (p Problem) String() string {
	if p.Key == "" {
		return p.Msg
	}
	return p.Key + ": " + p.Msg
}

// ProfileError lists every problem found in a profile, so that its author
// fixes them in one pass.
type ProfileError struct {
	// File is the profile's path ("" when parsed from bytes).
	File     string
	Problems []Problem
}

func (e *ProfileError) Error() string {
	prefix := ""
	if e.File != "" {
		prefix = e.File + ": "
	}
	if len(e.Problems) == 1 {
		return prefix + e.Problems[0].String()
	}
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = "  " + p.String()
	}
	return fmt.Sprintf("%s%d problems:\n%s", prefix, len(e.Problems), strings.Join(lines, "\n"))
}

// Parse reads a profile from JSON. Every unknown field and bad value is
// reported, each by its key path, in one *ProfileError. Absent fields
// default to: placeholders refused, every dtype, dynamic shapes,
// single-node partitions, weights owned.
func Parse(data []byte) (*Profile, error) {
	d := &profileDecoder{}
	p := d.profile(data)
	if len(d.problems) > 0 {
		return nil, &ProfileError{Problems: d.problems}
	}
	if err := p.compile(); err != nil {
		return nil, &ProfileError{Problems: []Problem{{Msg: err.Error()}}}
	}
	return p, nil
}

// Load reads a profile file: a regular file no larger than the
// profile-bytes limit, checked before it is read. A .json file is JSON, a
// .yaml or .yml file YAML; any other name is read as JSON when its first
// character opens an object, else as YAML.
func Load(path string) (*Profile, error) {
	data, err := readProfileFile(path)
	if err != nil {
		return nil, err
	}
	if isYAML(path, data) {
		if data, err = yamlToJSON(data); err != nil {
			return nil, &ProfileError{File: path, Problems: []Problem{{Msg: "malformed YAML: " + strings.TrimPrefix(err.Error(), "error converting YAML to JSON: ")}}}
		}
	}
	p, err := Parse(data)
	var pe *ProfileError
	if errors.As(err, &pe) {
		pe.File = path
	}
	return p, err
}

// isYAML decides a profile file's format: by its extension, or, when the
// extension says nothing, by its content (a JSON profile is an object).
func isYAML(path string, data []byte) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".json":
		return false
	case ".yaml", ".yml":
		return true
	}
	rest := bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), " \t\r\n")
	return !bytes.HasPrefix(rest, []byte("{"))
}

// profileDecoder reads a profile field by field, recording every problem
// instead of stopping at the first.
type profileDecoder struct {
	problems []Problem
}

func (d *profileDecoder) add(key, format string, args ...any) {
	d.problems = append(d.problems, Problem{Key: key, Msg: fmt.Sprintf(format, args...)})
}

// field is one member of a JSON object, in file order.
type field struct {
	key string
	raw json.RawMessage
}

// profileFields are the file form's fields, in the order WriteJSON writes them.
var profileFields = []string{"name", "description", "ops", "exclude_nodes", "placeholders", "dtypes", "dynamic_shapes",
	"single_node_partitions", "full_graph", "owns_weights", "owns_buffers", "compile_options", "policy_order"}

func (d *profileDecoder) profile(data []byte) *Profile {
	if !utf8.Valid(data) {
		i := 0
		for i < len(data) {
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				break
			}
			i += size
		}
		d.add("", "invalid UTF-8 (byte %#02x) at byte %d", data[i], i)
		return nil
	}
	fields, err := objectFields(data, true)
	if err != nil {
		d.add("", "%v", err)
		return nil
	}
	if fields == nil {
		d.add("", "want an object (a profile), got %s", jsonKind(data))
		return nil
	}
	p := &Profile{DynamicShapes: true, SingleNodePartitions: true, OwnsWeights: true}
	seen := map[string]bool{}
	for _, f := range fields {
		if seen[f.key] {
			d.add(f.key, "given twice")
			continue
		}
		seen[f.key] = true
		switch f.key {
		case "name":
			d.str(f.key, f.raw, &p.Name)
		case "description":
			d.str(f.key, f.raw, &p.Description)
		case "ops":
			d.ops(f.raw, &p.Ops)
		case "exclude_nodes":
			p.ExcludeNodes = d.strings(f.key, f.raw)
		case "placeholders":
			d.placeholders(f.raw, &p.Placeholders)
		case "dtypes":
			p.DTypes = d.dtypes(f.key, f.raw)
		case "dynamic_shapes":
			d.boolean(f.key, f.raw, &p.DynamicShapes)
		case "single_node_partitions":
			d.boolean(f.key, f.raw, &p.SingleNodePartitions)
		case "full_graph":
			d.boolean(f.key, f.raw, &p.FullGraph)
		case "owns_weights":
			d.boolean(f.key, f.raw, &p.OwnsWeights)
		case "owns_buffers":
			d.boolean(f.key, f.raw, &p.OwnsBuffers)
		case "compile_options":
			d.compileOptions(f.raw, &p.CompileOptions)
		case "policy_order":
			d.policyOrder(f.raw, &p.PolicyOrder)
		default:
			d.add(f.key, "unknown field (the fields are %s)", strings.Join(profileFields, ", "))
		}
	}
	if p.Name == "" && !seen["name"] {
		d.add("name", "missing")
	} else if p.Name == "" {
		d.add("name", "empty")
	}
	if !seen["ops"] {
		d.add("ops", "missing (give \"include\" globs such as \"aten.*\")")
	}
	return p
}

// objectFields splits a JSON object into its members in file order; it
// returns nil, nil for a value that is not an object. top: the value is
// the whole file (trailing data is an error).
func objectFields(data []byte, top bool) ([]field, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, syntaxError(err)
	}
	if tok != json.Delim('{') {
		if top {
			// Read the rest, so that trailing garbage is still reported as
			// malformed JSON.
			var rest json.RawMessage
			if err := json.Unmarshal(data, &rest); err != nil {
				return nil, syntaxError(err)
			}
		}
		return nil, nil
	}
	fields := []field{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, syntaxError(err)
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, syntaxError(err)
		}
		fields = append(fields, field{key, raw})
	}
	if _, err := dec.Token(); err != nil {
		return nil, syntaxError(err)
	}
	if top {
		if _, err := dec.Token(); err != io.EOF {
			return nil, fmt.Errorf("trailing data after the profile (at byte %d)", dec.InputOffset())
		}
	}
	return fields, nil
}

func syntaxError(err error) error {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		return fmt.Errorf("malformed JSON at byte %d: %v", se.Offset, err)
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return fmt.Errorf("malformed JSON: it ends too soon")
	}
	return fmt.Errorf("malformed JSON: %v", err)
}

// jsonKind names the kind of a JSON value, for "want ..., got ..." messages.
func jsonKind(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "a list"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

func isNull(raw []byte) bool { return string(bytes.TrimSpace(raw)) == "null" }

func (d *profileDecoder) str(key string, raw json.RawMessage, out *string) bool {
	if isNull(raw) {
		return false
	}
	if err := json.Unmarshal(raw, out); err != nil {
		d.add(key, "want a string, got %s", jsonKind(raw))
		return false
	}
	return true
}

func (d *profileDecoder) boolean(key string, raw json.RawMessage, out *bool) {
	if isNull(raw) {
		return
	}
	if err := json.Unmarshal(raw, out); err != nil {
		d.add(key, "want true or false, got %s", jsonKind(raw))
	}
}

// list splits a JSON list into its elements; a problem, and nil, when the
// value is not a list.
func (d *profileDecoder) list(key string, raw json.RawMessage, want string) []json.RawMessage {
	if isNull(raw) {
		return nil
	}
	var elems []json.RawMessage
	if err := json.Unmarshal(raw, &elems); err != nil {
		d.add(key, "want a list of %s, got %s", want, jsonKind(raw))
		return nil
	}
	return elems
}

func (d *profileDecoder) strings(key string, raw json.RawMessage) []string {
	elems := d.list(key, raw, "strings")
	if elems == nil {
		return nil
	}
	out := make([]string, 0, len(elems))
	for i, e := range elems {
		var s string
		if d.str(fmt.Sprintf("%s[%d]", key, i), e, &s) {
			out = append(out, s)
		}
	}
	return out
}

// object splits a JSON object into its members; a problem, and false,
// when the value is not an object.
func (d *profileDecoder) object(key string, raw json.RawMessage) ([]field, bool) {
	if isNull(raw) {
		return nil, false
	}
	fields, err := objectFields(raw, false)
	if err != nil || fields == nil {
		d.add(key, "want an object, got %s", jsonKind(raw))
		return nil, false
	}
	seen := map[string]bool{}
	kept := fields[:0]
	for _, f := range fields {
		if seen[f.key] {
			d.add(key+"."+f.key, "given twice")
			continue
		}
		seen[f.key] = true
		kept = append(kept, f)
	}
	return kept, true
}

func (d *profileDecoder) ops(raw json.RawMessage, out *OpSet) {
	// ops is required: null (YAML's "ops:" with nothing under it) is no
	// ops at all, not an empty set that a written profile could not say.
	if isNull(raw) {
		d.add("ops", "missing (give \"include\" globs such as \"aten.*\")")
		return
	}
	fields, ok := d.object("ops", raw)
	if !ok {
		return
	}
	hasInclude := false
	for _, f := range fields {
		key := "ops." + f.key
		switch f.key {
		case "include":
			hasInclude = true
			out.Include = d.patterns(key, f.raw)
		case "exclude":
			out.Exclude = d.patterns(key, f.raw)
		default:
			d.add(key, "unknown field (the fields are include, exclude)")
		}
	}
	if !hasInclude || (len(out.Include) == 0 && !d.has("ops.include")) {
		d.add("ops.include", "missing (globs such as \"aten.*\")")
	}
}

// has reports whether a problem was recorded under key or below it.
func (d *profileDecoder) has(key string) bool {
	for _, p := range d.problems {
		if p.Key == key || strings.HasPrefix(p.Key, key+"[") || strings.HasPrefix(p.Key, key+".") {
			return true
		}
	}
	return false
}

func (d *profileDecoder) patterns(key string, raw json.RawMessage) []string {
	elems := d.list(key, raw, "op globs")
	var out []string
	for i, e := range elems {
		k := fmt.Sprintf("%s[%d]", key, i)
		var s string
		if !d.str(k, e, &s) {
			continue
		}
		if s == "" {
			d.add(k, "empty pattern (a glob such as \"aten.add.*\")")
			continue
		}
		out = append(out, s)
	}
	return out
}

func (d *profileDecoder) placeholders(raw json.RawMessage, out *Placeholders) {
	fields, ok := d.object("placeholders", raw)
	if !ok {
		return
	}
	for _, f := range fields {
		key := "placeholders." + f.key
		var a *Acceptance
		switch f.key {
		case "sym_int":
			a = &out.SymInt
		case "sym_bool":
			a = &out.SymBool
		case "sym_float":
			a = &out.SymFloat
		default:
			d.add(key, "unknown field (the fields are sym_int, sym_bool, sym_float)")
			continue
		}
		if err := a.UnmarshalJSON(f.raw); err != nil {
			d.add(key, "%v", err)
		}
	}
}

func (d *profileDecoder) dtypes(key string, raw json.RawMessage) DTypeList {
	elems := d.list(key, raw, "dtype names")
	if elems == nil {
		return nil
	}
	out := make(DTypeList, 0, len(elems))
	for i, e := range elems {
		k := fmt.Sprintf("%s[%d]", key, i)
		var s string
		if !d.str(k, e, &s) {
			continue
		}
		t, ok := ParseDType(s)
		if !ok {
			d.add(k, "unknown dtype %q (%s)", s, dtypeChoices)
			continue
		}
		out = append(out, t)
	}
	return out
}

func (d *profileDecoder) compileOptions(raw json.RawMessage, out *map[string]string) {
	fields, ok := d.object("compile_options", raw)
	if !ok {
		return
	}
	*out = map[string]string{}
	for _, f := range fields {
		var s string
		if d.str("compile_options."+f.key, f.raw, &s) {
			(*out)[f.key] = s
		}
	}
}

func (d *profileDecoder) policyOrder(raw json.RawMessage, out *[]string) {
	elems := d.list("policy_order", raw, "policy names")
	if elems == nil {
		return
	}
	if len(elems) == 0 {
		d.add("policy_order", "empty (name some of %s, or leave it out)", strings.Join(PolicySteps, ", "))
		return
	}
	order := []string{}
	for i, e := range elems {
		k := fmt.Sprintf("policy_order[%d]", i)
		var s string
		switch {
		case !d.str(k, e, &s):
		case !slices.Contains(PolicySteps, s):
			d.add(k, "%q is not one of %s", s, strings.Join(PolicySteps, ", "))
		case slices.Contains(order, s):
			d.add(k, "%q is named twice", s)
		default:
			order = append(order, s)
		}
	}
	*out = order
}
