package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteText prints the report for a person: the summary, each partition
// with its nodes and boundary, then the nodes left to the parent grouped by
// reason. Symbolic inputs are marked with "!" in the margin.
func (r *Report) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	r.writeHeader(bw)
	for _, p := range r.Partitions {
		bw.WriteString("\n")
		writePartitionText(bw, p)
	}
	r.writeUnsupportedText(bw)
	return bw.Flush()
}

func (r *Report) writeHeader(w *bufio.Writer) {
	title := "backend " + r.Backend
	if r.Model != "" {
		title = r.Model + " for " + title
	}
	s := r.Summary
	fmt.Fprintf(w, "%s\n", title)
	fmt.Fprintf(w, "%s: %d delegated in %s, %d left to the parent",
		plural(s.Nodes, "node"), s.Delegated, plural(s.Partitions, "partition"), s.Unsupported)
	if s.Graphs > 1 {
		fmt.Fprintf(w, " (%d graphs)", s.Graphs)
	}
	w.WriteString(".\n")
	syms := r.SymbolicInputs()
	if len(syms) == 0 {
		w.WriteString("No symbolic value crosses a partition boundary.\n")
		return
	}
	if len(syms) == 1 {
		w.WriteString("! 1 partition input is a symbolic value")
	} else {
		fmt.Fprintf(w, "! %d partition inputs are symbolic values", len(syms))
	}
	if !r.judged {
		w.WriteString(":\n")
	} else {
		refused := 0
		for _, s := range syms {
			if s.Value.Accepted != nil && !*s.Value.Accepted {
				refused++
			}
		}
		fmt.Fprintf(w, "; %s's contract accepts %d as placeholders, refuses %d:\n", r.Backend, len(syms)-refused, refused)
	}
	for _, s := range syms {
		fmt.Fprintf(w, "!   %s %s into partition %d, from %s", s.Value.Name, s.Value.Annotation, s.Partition, origin(s.Value))
		if s.Value.Accepted != nil {
			fmt.Fprintf(w, ": %s; %s", acceptedText(*s.Value.Accepted), judgementText(s.Value))
		}
		w.WriteString("\n")
	}
}

func acceptedText(accepted bool) string {
	if accepted {
		return "accepted"
	}
	return "refused"
}

// judgementText says what lowering would do with a symbolic value.
func judgementText(v Value) string {
	if v.Policy == "refused" {
		return "lowering would refuse it (" + v.PolicyDetail + ")"
	}
	return "lowering would " + v.Policy + " it (" + v.PolicyDetail + ")"
}

func writePartitionText(w *bufio.Writer, p Partition) {
	where := ""
	if p.Graph != "" {
		where = " in " + p.Graph
	}
	fmt.Fprintf(w, "partition %d%s: %s\n", p.ID, where, plural(len(p.Nodes), "node"))
	w.WriteString("  nodes:\n")
	wrapList(w, "    ", p.Nodes, 100)
	writeValues(w, "inputs", "from", p.Inputs, origin)
	writeValues(w, "outputs", "to", p.Outputs, destination)
}

func writeValues(w *bufio.Writer, title, prep string, vs []Value, where func(Value) string) {
	if len(vs) == 0 {
		fmt.Fprintf(w, "  %s: none\n", title)
		return
	}
	fmt.Fprintf(w, "  %s:\n", title)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, v := range vs {
		mark := " "
		if v.Symbolic {
			mark = "!"
		}
		judged := ""
		if v.Accepted != nil {
			judged = fmt.Sprintf("; %s, lowering: %s", acceptedText(*v.Accepted), v.Policy)
		}
		fmt.Fprintf(tw, "  %s %s\t%s\t%s\t%s %s%s\n", mark, v.Name, v.Type, v.Annotation, prep, where(v), judged)
	}
	tw.Flush()
}

// origin says where an input comes from: "user_input", "node sym_size_int_24",
// "partition 1 (add_3)".
func origin(v Value) string {
	switch {
	case v.From == "node":
		return "node " + v.Producer
	case v.Producer != "":
		return v.From + " (" + v.Producer + ")"
	}
	return v.From
}

// destination says where an output goes, naming a few of its users.
func destination(v Value) string {
	s := strings.Join(v.To, ", ")
	if len(v.Users) > 0 {
		const show = 3
		users := v.Users
		more := ""
		if len(users) > show {
			more = fmt.Sprintf(", +%d more", len(users)-show)
			users = users[:show]
		}
		s += " (" + strings.Join(users, ", ") + more + ")"
	}
	return s
}

func (r *Report) writeUnsupportedText(w *bufio.Writer) {
	w.WriteString("\n")
	if len(r.Unsupported) == 0 {
		w.WriteString("Every node is delegated.\n")
		return
	}
	fmt.Fprintf(w, "left to the parent: %s\n", plural(len(r.Unsupported), "node"))
	for _, g := range r.ByReason() {
		fmt.Fprintf(w, "  %s (%d):\n", g.Reason, len(g.Nodes))
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for _, u := range g.Nodes {
			name := u.Node
			if u.Graph != "" {
				name = u.Graph + "/" + u.Node
			}
			fmt.Fprintf(tw, "    %s\t%s\t%s\n", name, u.Target, u.Detail)
		}
		tw.Flush()
	}
}

// wrapList prints names separated by commas, wrapped at width columns.
func wrapList(w *bufio.Writer, indent string, names []string, width int) {
	col := 0
	for i, n := range names {
		// The name and its comma, written without joining them (a
		// partition of a large graph lists thousands).
		comma := i < len(names)-1
		size := len(n)
		if comma {
			size++
		}
		switch {
		case col == 0:
			w.WriteString(indent)
			col = len(indent)
		case col+1+size > width:
			w.WriteByte('\n')
			w.WriteString(indent)
			col = len(indent)
		default:
			w.WriteByte(' ')
			col++
		}
		w.WriteString(n)
		if comma {
			w.WriteByte(',')
		}
		col += size
	}
	if col > 0 {
		w.WriteByte('\n')
	}
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
