package ir

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func TestNonFiniteFloats(t *testing.T) {
	cases := []struct {
		in   string
		want float64
	}{
		{`{"as_float": "Infinity"}`, math.Inf(1)},
		{`{"as_float": "-Infinity"}`, math.Inf(-1)},
		{`{"as_float": "NaN"}`, math.NaN()},
		{`{"as_float": 1e-05}`, 1e-05},
	}
	for _, c := range cases {
		var a Argument
		if err := json.Unmarshal([]byte(c.in), &a); err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if a.Kind != ArgFloat || !(a.Float == c.want || math.IsNaN(a.Float) && math.IsNaN(c.want)) {
			t.Errorf("%s decoded to %+v", c.in, a)
		}
		out, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		if strings.ReplaceAll(string(out), " ", "") != strings.ReplaceAll(c.in, " ", "") {
			t.Errorf("%s encoded back as %s", c.in, out)
		}
	}
	var a Argument
	if err := json.Unmarshal([]byte(`{"as_float": "Infinite"}`), &a); err == nil {
		t.Error(`"Infinite" accepted as a float`)
	}
}

func TestFormatPyFloat(t *testing.T) {
	for f, want := range map[float64]string{
		2: "2.0", 0.5: "0.5", 1e-05: "1e-05", -3.4028234663852886e+38: "-3.4028234663852886e+38",
		1e16: "1e+16", 123456789012345.0: "123456789012345.0", 0.0001: "0.0001", math.Inf(-1): "-inf",
	} {
		if got := FormatPyFloat(f); got != want {
			t.Errorf("FormatPyFloat(%v) = %s, want %s", f, got, want)
		}
	}
}

func TestUnionErrors(t *testing.T) {
	for in, want := range map[string]string{
		`{"as_int": 1, "as_float": 2.0}`:  "exactly one member",
		`{}`:                              "exactly one member",
		`{"as_nothing": 1}`:               `unknown Argument member "as_nothing"`,
		`[1]`:                             "want an object",
		`{"as_sym_int": {"as_name": ""}}`: "empty name",
	} {
		var a Argument
		err := json.Unmarshal([]byte(in), &a)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
}
