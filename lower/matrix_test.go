package lower_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"text/tabwriter"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/delegate"
	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/fixtures/refcase"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/lower"
	"github.com/seam-rt/seam/pt2"
	"github.com/seam-rt/seam/runtime"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
	"github.com/seam-rt/seam/verify"
)

// matrixFixture is a program with its reference cases, run in order on one
// loaded program (buffer_mutation's state carries from case to case).
type matrixFixture struct {
	name  string
	prog  *ir.Program
	cases []refCase
}

type refCase struct {
	name string
	in   []value.Value
	out  []*tensor.Tensor
}

func readCases(t testing.TB, dir string) []refCase {
	t.Helper()
	var cases []refCase
	for _, fc := range refcase.Read(t, dir) {
		c := refCase{name: filepath.Base(fc.Dir), out: fc.Outputs}
		for _, x := range fc.Inputs {
			c.in = append(c.in, runtime.InputValue(x))
		}
		cases = append(cases, c)
	}
	return cases
}

func matrixFixtures(t testing.TB) []matrixFixture {
	var out []matrixFixture
	add := func(name, dir string) {
		a, err := pt2.Open(filepath.Join(dir, "model.pt2"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { a.Close() })
		p, err := a.Program()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, matrixFixture{name: name, prog: p, cases: readCases(t, dir)})
	}
	for _, name := range fixtures.Models() {
		add(name, fixtures.ModelDir(name))
	}
	for _, name := range fixtures.Extras() {
		add("extra/"+name, fixtures.ExtraDir(name))
	}
	return out
}

// cell is what became of one fixture, profile and policy.
type cell struct {
	lowered, verified, ran, matched bool
	refused                         string // the refusal's kind
	failure                         string
}

// runMatrixCell lowers, writes and reads back the archive, verifies it as
// `seam verify` does, and runs every case through the delegates.
func runMatrixCell(f matrixFixture, prof *backend.Profile, pol lower.Policy) cell {
	var c cell
	res, err := delegate.Program(f.prog, prof, delegate.Options{Policy: pol})
	var refusal *lower.Error
	switch {
	case errors.As(err, &refusal):
		c.refused = refusalKind(refusal)
		if refusal.Value == "" || refusal.Producer == "" || refusal.Consumer == "" {
			c.failure = "a refusal that does not name the value, its producer and its consumer: " + err.Error()
		}
		if pol == lower.Auto {
			c.failure = "the default policy refused: " + err.Error()
		}
		return c
	case err != nil:
		c.failure = "lower: " + err.Error()
		return c
	}
	c.lowered = true
	var buf bytes.Buffer
	if err := pt2.Write(&buf, pt2.FromLowered(res.Lowered, nil), "low"); err != nil {
		c.failure = "write: " + err.Error()
		return c
	}
	a, err := pt2.ReadBytes(buf.Bytes(), "low.pt2")
	if err != nil {
		c.failure = "read: " + err.Error()
		return c
	}
	l, err := a.Lowered()
	if err != nil {
		c.failure = "read: " + err.Error()
		return c
	}
	if vs := verify.Errors(verify.Lowered(l)); len(vs) > 0 {
		c.failure = "verify: " + vs[0].String()
		return c
	}
	c.verified = true
	p, err := runtime.LoadLowered(l, runtime.Options{})
	if err != nil {
		c.failure = "load: " + err.Error()
		return c
	}
	c.matched = true
	for _, rc := range f.cases {
		outs, err := p.Run(context.Background(), rc.in)
		if err != nil {
			c.failure = fmt.Sprintf("run %s: %v", rc.name, err)
			c.matched = false
			return c
		}
		if len(outs) != len(rc.out) {
			c.failure = fmt.Sprintf("run %s: %d outputs, want %d", rc.name, len(outs), len(rc.out))
			c.matched = false
			return c
		}
		for j := range rc.out {
			got, err := runtime.OutputTensor(outs[j])
			if err == nil {
				_, err = tensor.AllClose(got, rc.out[j], 1e-4, 1e-5)
			}
			if err != nil && c.matched {
				c.failure = fmt.Sprintf("%s output %d: %v", rc.name, j, err)
				c.matched = false
			}
		}
	}
	c.ran = true
	return c
}

var refusalKinds = []struct {
	re   *regexp.Regexp
	kind string
}{
	{regexp.MustCompile(`^pass: .* refuses`), "the contract refuses the scalar"},
	{regexp.MustCompile(`^box: .* refuses`), "the contract refuses its box"},
	{regexp.MustCompile(`^hoist: .*not available`), "hoist: the chain reads a tensor the module lacks"},
	{regexp.MustCompile(`^hoist: .*graph input`), "hoist: a graph input, not computed"},
	{regexp.MustCompile(`^hoist: .*made inside the module`), "hoist: the chain reads a value the module makes"},
	{regexp.MustCompile(`^hoist: .*not a scalar op`), "hoist: made by a tensor op"},
	{regexp.MustCompile(`^rederive: no tensor`), "rederive: no tensor it receives determines the symbol"},
	{regexp.MustCompile(`^rederive: `), "rederive: other"},
	{regexp.MustCompile(`^exclude: `), "exclude: other"},
}

// refusalKind names a refusal by the reason its chosen policy gave (the
// first one tried).
func refusalKind(e *lower.Error) string {
	if len(e.Why) == 0 {
		return "no policy applies"
	}
	for _, k := range refusalKinds {
		if k.re.MatchString(e.Why[0]) {
			return k.kind
		}
	}
	return e.Why[0]
}

// TestMatrix lowers every fixture (the exported ones, llama_tiny and the
// multi-symbol programs) for every built-in profile under every policy,
// writes and reads back the result, verifies it, and runs every reference
// case through the delegates, in order on one loaded program. Whatever
// lowering writes and verify accepts runs and matches PyTorch's outputs: no
// verified program fails. A refusal names the value, its producer and its
// consumer, and the default policy never refuses. Run with -v for the
// table.
func TestMatrix(t *testing.T) {
	type total struct{ cells, lowered, verified, ran, matched, refused int }
	refusals := map[string]int{}
	sums := map[string]*total{}
	byPolicy := map[string]*total{}
	var order []string
	for _, f := range matrixFixtures(t) {
		sum := &total{}
		sums[f.name] = sum
		order = append(order, f.name)
		for _, bn := range backend.BuiltinNames() {
			prof, _ := backend.Builtin(bn)
			for _, pol := range lower.Policies() {
				c := runMatrixCell(f, prof, pol)
				if byPolicy[bn+" "+pol.String()] == nil {
					byPolicy[bn+" "+pol.String()] = &total{}
				}
				bp := byPolicy[bn+" "+pol.String()]
				bp.cells++
				if c.matched {
					bp.matched++
				}
				if c.refused != "" {
					bp.refused++
				}
				sum.cells++
				if c.lowered {
					sum.lowered++
				}
				if c.verified {
					sum.verified++
				}
				if c.ran {
					sum.ran++
				}
				if c.matched {
					sum.matched++
				}
				if c.refused != "" {
					sum.refused++
					refusals[c.refused]++
				}
				if c.failure != "" {
					t.Errorf("%s / %s / %s: %s", f.name, bn, pol, c.failure)
				}
			}
		}
	}
	var sb strings.Builder
	tw := tabwriter.NewWriter(&sb, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "fixture\tcells\tlowered\tverified\tran\tmatched\trefused")
	var all total
	for _, name := range order {
		s := sums[name]
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\n", name, s.cells, s.lowered, s.verified, s.ran, s.matched, s.refused)
		all.cells += s.cells
		all.lowered += s.lowered
		all.verified += s.verified
		all.ran += s.ran
		all.matched += s.matched
		all.refused += s.refused
	}
	fmt.Fprintf(tw, "all\t%d\t%d\t%d\t%d\t%d\t%d\n", all.cells, all.lowered, all.verified, all.ran, all.matched, all.refused)
	tw.Flush()
	sb.WriteString("\nmatched / refused of each profile and policy, over the fixtures:\n")
	tw = tabwriter.NewWriter(&sb, 0, 4, 2, ' ', 0)
	fmt.Fprint(tw, "profile")
	for _, pol := range lower.Policies() {
		fmt.Fprintf(tw, "\t%s", pol)
	}
	fmt.Fprintln(tw)
	for _, bn := range backend.BuiltinNames() {
		fmt.Fprint(tw, bn)
		for _, pol := range lower.Policies() {
			bp := byPolicy[bn+" "+pol.String()]
			fmt.Fprintf(tw, "\t%d / %d", bp.matched, bp.refused)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	sb.WriteString("\nrefused, by the reason of the policy asked for:\n")
	kinds := make([]string, 0, len(refusals))
	for k := range refusals {
		kinds = append(kinds, k)
	}
	sort.Slice(kinds, func(i, j int) bool {
		return refusals[kinds[i]] > refusals[kinds[j]] || refusals[kinds[i]] == refusals[kinds[j]] && kinds[i] < kinds[j]
	})
	for _, k := range kinds {
		fmt.Fprintf(&sb, "  %4d  %s\n", refusals[k], k)
	}
	t.Logf("%d profiles x %d policies\n%s", len(backend.BuiltinNames()), len(lower.Policies()), sb.String())
	if all.verified != all.lowered || all.ran != all.verified || all.matched != all.ran {
		t.Errorf("lowered %d, verified %d, ran %d, matched %d: every verified program must run and match", all.lowered, all.verified, all.ran, all.matched)
	}
	// A floor that catches lowering refusing what it used to take.
	if all.lowered < all.cells*9/10 {
		t.Errorf("only %d of %d lowered", all.lowered, all.cells)
	}
}
