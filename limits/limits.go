// Package limits holds the bounds seam puts on what an input may make it
// do: how large a record may be once inflated, how deep its JSON may nest,
// how many nodes and values a program may have. Every reader checks its
// input against them before allocating, so a hostile file is refused in
// words instead of exhausting memory or time; a legitimately huge model
// raises the limit it meets.
//
// Limits are set for the whole process: from SEAM_LIMIT_<NAME> environment
// variables (SEAM_LIMIT_JSON_BYTES=2GiB), or by the command line's
// --limit NAME=VALUE, which calls Set. Each error names the limit, the
// value it met and both ways to raise it.
package limits

import (
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"sync"
)

// Limit is one bound.
type Limit struct {
	// Name is how --limit names it ("json-bytes").
	Name string
	// What says what it counts, after the count ("nodes in one program";
	// for a byte count, after the bytes: "of JSON in one record").
	What string
	// Bytes: the value is a byte count (printed and parsed with units).
	Bytes bool
	def   int64

	mu  sync.Mutex
	set bool
	val int64
}

var all []*Limit

func define(name, what string, bytes bool, def int64) *Limit {
	l := &Limit{Name: name, What: what, Bytes: bytes, def: def}
	all = append(all, l)
	return l
}

// The limits. Defaults are far above any real export's figures (gpt2 with
// 12 layers: a 1.8 MB model.json, 700 nodes; a 70B Llama export: about
// 100 MB and 100,000 nodes) and low enough that a file meeting them
// cannot take more than a few GB of memory.
var (
	JSONBytes    = define("json-bytes", "of JSON in one record (a program, a payload config, a delegate record)", true, 512<<20)
	RecordBytes  = define("record-bytes", "in one record read whole (extra/*)", true, 256<<20)
	WeightSlack  = define("weight-slack", "of a weight file beyond the largest tensor view of it", true, 64<<20)
	Expansion    = define("expansion", "of compressed records once inflated, in one archive", true, 1<<30)
	JSONDepth    = define("json-depth", "levels of JSON nesting (a cond nested in a cond adds 7)", false, 10000)
	StringBytes  = define("string-bytes", "in one JSON string", true, 16<<20)
	Nodes        = define("nodes", "nodes in one program, nested graphs included", false, 2_000_000)
	Values       = define("values", "values in one program's JSON (arguments, value-table entries, list elements)", false, 16_000_000)
	Records      = define("records", "records in one archive", false, 250_000)
	NPYBytes     = define("npy-bytes", "in one .npy file", true, 8<<30)
	ProfileBytes = define("profile-bytes", "in one backend profile file", true, 1<<20)
	// A compiled form holds its module's weights (an ONNX model holds them
	// as initializers); 2 GiB is protobuf's own bound on one message.
	CompiledBytes = define("compiled-bytes", "in one lowered module's compiled form (data/delegates/*.bin), read whole", true, 2<<30)
)

// All lists the limits in a fixed order.
func All() []*Limit { return all }

// Env is the environment variable that sets the limit.
func (l *Limit) Env() string {
	return "SEAM_LIMIT_" + strings.ToUpper(strings.ReplaceAll(l.Name, "-", "_"))
}

// Default is the limit's value when nothing sets it.
func (l *Limit) Default() int64 { return l.def }

// Value is the limit in force: set by Set, else by its environment
// variable, else the default. A malformed environment variable leaves
// the default (EnvErrors reports it).
func (l *Limit) Value() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.set {
		l.val, l.set = l.def, true
		if s, ok := os.LookupEnv(l.Env()); ok {
			if v, err := l.parse(s); err == nil {
				l.val = v
			}
		}
	}
	return l.val
}

// Int is Value as an int (limits are far below the int range).
func (l *Limit) Int() int { return int(l.Value()) }

// Check returns an *Error when got exceeds the limit.
func (l *Limit) Check(got int64) error {
	if max := l.Value(); got > max {
		return &Error{Limit: l, Got: got, Max: max}
	}
	return nil
}

// Exceeded is the error for a count that passed the limit while counting:
// it says "more than" the limit, not how many there were.
func (l *Limit) Exceeded() error {
	max := l.Value()
	return &Error{Limit: l, Got: max + 1, Max: max, AtLeast: true}
}

func (l *Limit) format(v int64) string {
	if l.Bytes {
		return FormatBytes(v)
	}
	return strconv.FormatInt(v, 10)
}

func (l *Limit) parse(s string) (int64, error) {
	s = strings.TrimSpace(s)
	mult := int64(1)
	if l.Bytes {
		for _, u := range []struct {
			suffix string
			mult   int64
		}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12}, {"B", 1}} {
			if rest, ok := strings.CutSuffix(s, u.suffix); ok {
				s, mult = strings.TrimSpace(rest), u.mult
				break
			}
		}
	}
	v, err := strconv.ParseInt(strings.ReplaceAll(s, "_", ""), 10, 64)
	if err != nil || v < 0 || v > (1<<62)/mult {
		unit := ""
		if l.Bytes {
			unit = " (a byte count such as 2GiB, 512MiB or 1000000)"
		}
		return 0, fmt.Errorf("limit %s: %q is not a non-negative number%s", l.Name, s, unit)
	}
	return v * mult, nil
}

// Set sets a limit by name, as --limit NAME=VALUE does.
func Set(name, value string) error {
	l := Lookup(name)
	if l == nil {
		names := make([]string, len(all))
		for i, l := range all {
			names[i] = l.Name
		}
		return fmt.Errorf("no limit named %q (limits: %s)", name, strings.Join(names, ", "))
	}
	v, err := l.parse(value)
	if err != nil {
		return err
	}
	l.mu.Lock()
	l.val, l.set = v, true
	l.mu.Unlock()
	return nil
}

// Lookup finds a limit by name.
func Lookup(name string) *Limit {
	for _, l := range all {
		if l.Name == name {
			return l
		}
	}
	return nil
}

// Reset forgets Set and re-reads the environment on next use (for tests).
func Reset() {
	for _, l := range all {
		l.mu.Lock()
		l.set = false
		l.mu.Unlock()
	}
}

// EnvErrors reports malformed SEAM_LIMIT_* variables.
func EnvErrors() error {
	for _, l := range all {
		if s, ok := os.LookupEnv(l.Env()); ok {
			if _, err := l.parse(s); err != nil {
				return fmt.Errorf("%s: %w", l.Env(), err)
			}
		}
	}
	return nil
}

// Error is an input that meets a limit.
type Error struct {
	Limit *Limit
	// Got is what the input has (or would need); Max the limit.
	Got, Max int64
	// AtLeast: Got is only a lower bound (counting stopped at the limit).
	AtLeast bool
}

func (e *Error) Error() string {
	l := e.Limit
	got := l.format(e.Got)
	if e.AtLeast {
		got = "more than " + l.format(e.Max)
	}
	return fmt.Sprintf("%s %s: over the %s limit of %s; if the input is trusted, raise it with --limit %s=N or %s=N",
		got, l.What, l.Name, l.format(e.Max), l.Name, l.Env())
}

// Help describes the limit for --help: "bytes of JSON in one record".
func (l *Limit) Help() string {
	if l.Bytes {
		return "bytes " + l.What
	}
	return l.What
}

// RegularFile refuses what is not a regular file: a device or a pipe has
// no size to check before reading, and may never end.
func RegularFile(st fs.FileInfo) error {
	m := st.Mode()
	if m.IsRegular() {
		return nil
	}
	what := "not a regular file"
	switch {
	case m.IsDir():
		what = "a folder"
	case m&fs.ModeNamedPipe != 0:
		what = "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		what = "a socket"
	case m&fs.ModeCharDevice != 0:
		what = "a character device"
	case m&fs.ModeDevice != 0:
		what = "a device"
	case m&fs.ModeSymlink != 0:
		what = "a symbolic link"
	}
	return fmt.Errorf("not a regular file but %s: seam reads only regular files, whose size it can check first", what)
}

// FormatBytes prints a byte count exactly, with a binary unit when it
// is a whole number of one (1 GiB, 3,000,000 bytes).
func FormatBytes(v int64) string {
	for _, u := range []struct {
		name string
		size int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if v >= u.size && v%u.size == 0 {
			return fmt.Sprintf("%d %s", v/u.size, u.name)
		}
	}
	return fmt.Sprintf("%d bytes", v)
}
