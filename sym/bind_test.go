package sym_test

import (
	"strings"
	"testing"

	"github.com/seam-rt/seam/sym"
)

func TestBinder(t *testing.T) {
	s53 := mustParse(t, "Symbol('s53', positive=True, integer=True)")
	ranges := map[string]sym.Range{"s53": sym.IntRange(2, 200), "s0": sym.IntRangeBounds(ptr(2), nil)}

	t.Run("agree", func(t *testing.T) {
		b := sym.NewBinder(ranges)
		for _, step := range []struct {
			e     *sym.Expr
			v     int64
			where string
		}{
			{sym.Int(1), 1, "input input_ids dim 0"},
			{s53, 5, "input input_ids dim 1"},
			{s53, 5, "input attention_mask dim 1"},
			{mustParse(t, "2*s0 + 1"), 9, "input x dim 0"},
			{mustParse(t, "s0*s53"), 20, "input y dim 0"},
		} {
			if err := b.Bind(step.e, step.v, step.where); err != nil {
				t.Fatal(err)
			}
		}
		got, err := b.Finish()
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got["s53"] != 5 || got["s0"] != 4 {
			t.Errorf("bindings %v", got)
		}
	})

	t.Run("conflict", func(t *testing.T) {
		b := sym.NewBinder(ranges)
		if err := b.Bind(s53, 5, "input input_ids dim 1"); err != nil {
			t.Fatal(err)
		}
		err := b.Bind(s53, 7, "input attention_mask dim 1")
		want := "s53: input attention_mask dim 1 is 7 but input input_ids dim 1 is 5"
		if err == nil || err.Error() != want {
			t.Errorf("got %v, want %s", err, want)
		}
	})

	t.Run("range", func(t *testing.T) {
		b := sym.NewBinder(ranges)
		if err := b.Bind(s53, 500, "input attention_mask dim 1"); err != nil {
			t.Fatal(err)
		}
		if err := b.Bind(sym.Sym("s0"), 1, "input x dim 0"); err != nil {
			t.Fatal(err)
		}
		_, err := b.Finish()
		for _, want := range []string{"s53 = 500 outside [2, 200] (input attention_mask dim 1)", "s0 = 1 outside [2, int_oo] (input x dim 0)"} {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("got %v, want %s", err, want)
			}
		}
	})

	t.Run("constant", func(t *testing.T) {
		b := sym.NewBinder(nil)
		err := b.Bind(sym.Int(4), 5, "input x dim 1")
		if err == nil || err.Error() != "input x dim 1 is 5 but the program requires 4" {
			t.Errorf("got %v", err)
		}
	})

	t.Run("solve", func(t *testing.T) {
		b := sym.NewBinder(nil)
		if err := b.Bind(mustParse(t, "2*s0"), 10, "input x dim 0"); err != nil {
			t.Fatal(err)
		}
		if v, ok := b.Value("s0"); !ok || v != 5 {
			t.Errorf("s0 = %d, %v", v, ok)
		}
		err := b.Bind(mustParse(t, "2*s0 + 1"), 12, "input y dim 0")
		if err == nil || !strings.Contains(err.Error(), "2*s0 + 1: input y dim 0 is 12 but 2*s0 + 1 = 11 (s0 = 5 from input x dim 0 (2*s0 = 10))") {
			t.Errorf("got %v", err)
		}
		err = b.Bind(mustParse(t, "3*s1"), 10, "input z dim 0")
		if err == nil || !strings.Contains(err.Error(), "3*s1: input z dim 0 is 10, which no integer s1 satisfies") {
			t.Errorf("got %v", err)
		}
	})

	t.Run("deferred", func(t *testing.T) {
		b := sym.NewBinder(nil)
		// FloorDiv cannot be solved for s0; it is checked once s0 is known.
		if err := b.Bind(mustParse(t, "FloorDiv(s0, 2)"), 3, "input x dim 0"); err != nil {
			t.Fatal(err)
		}
		// Two unknowns: waits until s1 is bound, then solves s2.
		if err := b.Bind(mustParse(t, "s1 + s2"), 10, "input y dim 0"); err != nil {
			t.Fatal(err)
		}
		if err := b.Bind(sym.Sym("s1"), 4, "input z dim 0"); err != nil {
			t.Fatal(err)
		}
		if err := b.Bind(sym.Sym("s0"), 7, "input w dim 0"); err != nil {
			t.Fatal(err)
		}
		got, err := b.Finish()
		if err != nil || got["s2"] != 6 {
			t.Errorf("got %v, %v", got, err)
		}
	})

	t.Run("undetermined", func(t *testing.T) {
		// Sizes nothing else determines are units: no error, but two
		// sizes with one expression agree, and each lies in its range.
		b := sym.NewBinder(map[string]sym.Range{"s0": sym.IntRange(2, 10), "s1": sym.IntRange(1, 4)})
		for _, step := range []struct {
			e     string
			v     int64
			where string
		}{
			{"FloorDiv(s0, 2)", 3, "input x dim 0"},
			{"s0*s1", 24, "input y dim 0"},
			{"s1*s0", 24, "input z dim 0"},
		} {
			if err := b.Bind(mustParse(t, step.e), step.v, step.where); err != nil {
				t.Fatal(err)
			}
		}
		got, err := b.Finish()
		if err != nil || len(got) != 0 {
			t.Errorf("got %v, %v; want no bindings and no error", got, err)
		}
		b = sym.NewBinder(map[string]sym.Range{"s0": sym.IntRange(2, 10), "s1": sym.IntRange(1, 4)})
		b.Bind(mustParse(t, "s0*s1"), 24, "input y dim 0")
		b.Bind(mustParse(t, "s0*s1"), 25, "input z dim 0")
		b.Bind(mustParse(t, "FloorDiv(s0, 2)"), 7, "input x dim 0")
		_, err = b.Finish()
		for _, want := range []string{"s0*s1: input z dim 0 is 25 but input y dim 0 is 24", "(s0//2): input x dim 0 is 7, outside the range [1, 5]"} {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("got %v, want %s", err, want)
			}
		}
		// A bound symbol narrows the unit's range: with s1 = 4, s0*s1 is
		// linear and solved (s0 = 6); with s1 = 3 it would need s0 = 8.
		b = sym.NewBinder(map[string]sym.Range{"s0": sym.IntRange(2, 10), "s1": sym.IntRange(1, 4)})
		b.Bind(mustParse(t, "FloorDiv(s0, 2)*s1"), 30, "input y dim 0")
		b.Bind(sym.Sym("s1"), 3, "input w dim 0")
		_, err = b.Finish()
		if err == nil || !strings.Contains(err.Error(), "is 30, outside the range [3, 15]") {
			t.Errorf("got %v", err)
		}
	})

	t.Run("deferred mismatch", func(t *testing.T) {
		b := sym.NewBinder(nil)
		if err := b.Bind(mustParse(t, "FloorDiv(s0, 2)"), 3, "input x dim 0"); err != nil {
			t.Fatal(err)
		}
		if err := b.Bind(sym.Sym("s0"), 9, "input w dim 0"); err != nil {
			t.Fatal(err)
		}
		_, err := b.Finish()
		if err == nil || !strings.Contains(err.Error(), "(s0//2): input x dim 0 is 3 but (s0//2) = 4 (s0 = 9 from input w dim 0)") {
			t.Errorf("got %v", err)
		}
	})
}
