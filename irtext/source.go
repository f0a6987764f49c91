package irtext

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/sym"
)

// The comments print_readable() puts above nodes, as torch.fx's CodeGen
// writes them (append_stacktrace_summary in torch/fx/graph.py, PyTorch
// 2.11): the innermost frame of the node's stack trace, `# File: PATH:LINE
// in FUNC, code: CODE`, or `# No stacktrace found for following nodes`,
// each time it changes from the node before. Export keeps the stack trace
// in the node's metadata (`stack_trace`) and a user annotation as JSON
// (`custom`).

// noStackTrace is what FX prints when a node's trace says nothing usable.
const noStackTrace = "No stacktrace found for following nodes"

// framePattern is _parse_stack_trace's pattern for a frame's first line.
var framePattern = regexp.MustCompile(`^File "(.+)", line (\d+), in (.+)$`)

// sourceComment is the comment FX would print above node n.
func sourceComment(n *ir.Node) string {
	summary := noStackTrace
	if s, ok := stackSummary(n.Metadata.Get("stack_trace")); ok {
		summary = s
	}
	annotation := ""
	if custom := n.Metadata.Get("custom"); custom != "" {
		if repr, ok := pyReprJSON(custom); ok && repr != "{}" {
			annotation = " Annotation: " + repr
		}
	}
	return "#" + annotation + " " + summary
}

// stackSummary finds the innermost frame that has a code line after it,
// scanning from the second-to-last line up, as _parse_stack_trace does.
func stackSummary(trace string) (string, bool) {
	if trace == "" {
		return "", false
	}
	lines := strings.Split(strings.TrimSpace(trace), "\n")
	for i := len(lines) - 2; i >= 0; i-- {
		m := framePattern.FindStringSubmatch(strings.TrimSpace(lines[i]))
		if m == nil {
			continue
		}
		code := strings.TrimSpace(lines[i+1])
		return "File: " + m[1] + ":" + m[2] + " in " + m[3] + ", code: " + code, true
	}
	return "", false
}

// pyReprJSON prints a JSON document as Python's repr() shows the value
// json.loads makes of it: dicts keep their order, strings take Python's
// quotes, true is True, null is None.
func pyReprJSON(doc string) (string, bool) {
	dec := json.NewDecoder(strings.NewReader(doc))
	dec.UseNumber()
	var sb strings.Builder
	if err := pyReprValue(dec, &sb); err != nil {
		return "", false
	}
	if _, err := dec.Token(); err == nil {
		return "", false // trailing data
	}
	return sb.String(), true
}

func pyReprValue(dec *json.Decoder, sb *strings.Builder) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch t := tok.(type) {
	case json.Delim:
		open, close := "[", "]"
		if t == '{' {
			open, close = "{", "}"
		}
		sb.WriteString(open)
		for i := 0; dec.More(); i++ {
			if i > 0 {
				sb.WriteString(", ")
			}
			if t == '{' {
				key, err := dec.Token()
				if err != nil {
					return err
				}
				sb.WriteString(sym.PyRepr(key.(string)) + ": ")
			}
			if err := pyReprValue(dec, sb); err != nil {
				return err
			}
		}
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return err
		}
		sb.WriteString(close)
	case string:
		sb.WriteString(sym.PyRepr(t))
	case json.Number:
		sb.WriteString(pyNumber(t))
	case bool:
		sb.WriteString(pyBool(t))
	case nil:
		sb.WriteString("None")
	}
	return nil
}

// pyNumber prints a JSON number as the int or float json.loads makes.
func pyNumber(n json.Number) string {
	s := n.String()
	if !strings.ContainsAny(s, ".eE") {
		return s
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return s
	}
	return ir.FormatPyFloat(f)
}
