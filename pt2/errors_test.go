package pt2_test

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"hash/crc32"
	"os"
	"strings"
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/pt2"
)

type record struct {
	name string
	data []byte
	// claim, when set, is the size the zip headers claim instead of len(data).
	claim uint64
}

// fixtureRecords returns a fixture's records, names relative to its root.
func fixtureRecords(t testing.TB, model string) []record {
	t.Helper()
	data, err := os.ReadFile(fixtures.Model(model))
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var recs []record
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		buf.ReadFrom(rc)
		rc.Close()
		recs = append(recs, record{name: strings.SplitN(f.Name, "/", 2)[1], data: buf.Bytes()})
	}
	return recs
}

func buildZip(t testing.TB, root string, recs []record) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, r := range recs {
		size := uint64(len(r.data))
		if r.claim != 0 {
			size = r.claim
		}
		w, err := zw.CreateRaw(&zip.FileHeader{Name: root + r.name, Method: zip.Store,
			CRC32: crc32.ChecksumIEEE(r.data), CompressedSize64: size, UncompressedSize64: size})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(r.data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func replace(recs []record, name string, data []byte) []record {
	out := append([]record(nil), recs...)
	for i := range out {
		if out[i].name == name {
			out[i].data = data
			return out
		}
	}
	return append(out, record{name: name, data: data})
}

func drop(recs []record, name string) []record {
	var out []record
	for _, r := range recs {
		if r.name != name {
			out = append(out, r)
		}
	}
	return out
}

// editModel rewrites models/model.json through fn on its decoded form.
func editModel(t testing.TB, recs []record, fn func(m map[string]any)) []record {
	t.Helper()
	for _, r := range recs {
		if r.name == "models/model.json" {
			var m map[string]any
			if err := json.Unmarshal(r.data, &m); err != nil {
				t.Fatal(err)
			}
			fn(m)
			data, _ := json.Marshal(m)
			return replace(recs, "models/model.json", data)
		}
	}
	t.Fatal("no models/model.json")
	return nil
}

func graphOf(m map[string]any) map[string]any {
	return m["graph_module"].(map[string]any)["graph"].(map[string]any)
}

func firstNode(m map[string]any) map[string]any {
	return graphOf(m)["nodes"].([]any)[0].(map[string]any)
}

func TestReadErrors(t *testing.T) {
	base := fixtureRecords(t, "mlp")
	weightCfg := "data/weights/model_weights_config.json"
	var cfg map[string]map[string]map[string]any
	for _, r := range base {
		if r.name == weightCfg {
			json.Unmarshal(r.data, &cfg)
		}
	}
	var someFQN, someFile string
	for fqn, meta := range cfg["config"] {
		someFQN, someFile = fqn, meta["path_name"].(string)
		break
	}
	cases := []struct {
		name string
		data func() []byte
		want []string // substrings of the error
	}{
		{"not a zip", func() []byte { return []byte("hello, not a zip") }, []string{"bad.pt2", "not a zip"}},
		{"empty file", func() []byte { return nil }, []string{"not a zip"}},
		{"missing model.json", func() []byte { return buildZip(t, "m/", drop(base, "models/model.json")) },
			[]string{"models/model.json", "missing"}},
		{"malformed model.json", func() []byte {
			return buildZip(t, "m/", replace(base, "models/model.json", []byte(`{"graph_module": [`)))
		},
			[]string{"models/model.json", "malformed"}},
		{"wrong archive_format", func() []byte { return buildZip(t, "m/", replace(base, "archive_format", []byte("zip"))) },
			[]string{"archive_format", `"zip"`}},
		{"wrong archive_version", func() []byte { return buildZip(t, "m/", replace(base, "archive_version", []byte("1"))) },
			[]string{"archive_version"}},
		{"schema major 9", func() []byte {
			return buildZip(t, "m/", editModel(t, base, func(m map[string]any) {
				m["schema_version"] = map[string]any{"major": 9, "minor": 0}
			}))
		}, []string{"schema version 9.0", "8.x"}},
		{"name never defined", func() []byte {
			return buildZip(t, "m/", editModel(t, base, func(m map[string]any) {
				in := firstNode(m)["inputs"].([]any)[0].(map[string]any)
				in["arg"] = map[string]any{"as_tensor": map[string]any{"name": "ghost"}}
			}))
		}, []string{"models/model.json", `"ghost"`, "never defined"}},
		{"unknown union member", func() []byte {
			return buildZip(t, "m/", editModel(t, base, func(m map[string]any) {
				in := firstNode(m)["inputs"].([]any)[0].(map[string]any)
				in["arg"] = map[string]any{"as_quaternion": 1}
			}))
		}, []string{"unknown Argument member", "as_quaternion"}},
		{"negative size", func() []byte {
			return buildZip(t, "m/", editModel(t, base, func(m map[string]any) {
				for _, v := range graphOf(m)["tensor_values"].(map[string]any) {
					v.(map[string]any)["sizes"] = []any{map[string]any{"as_int": -3}}
					break
				}
			}))
		}, []string{"negative size -3"}},
		{"overflowing sizes", func() []byte {
			return buildZip(t, "m/", editModel(t, base, func(m map[string]any) {
				for _, v := range graphOf(m)["tensor_values"].(map[string]any) {
					big := map[string]any{"as_int": int64(1) << 40}
					v.(map[string]any)["sizes"] = []any{big, big}
					break
				}
			}))
		}, []string{"overflow"}},
		{"weight size disagrees", func() []byte {
			return buildZip(t, "m/", replace(base, "data/weights/"+someFile, []byte{1, 2, 3}))
		}, []string{"data/weights/" + someFile, someFQN, "3 bytes"}},
		{"weight file missing", func() []byte { return buildZip(t, "m/", drop(base, "data/weights/"+someFile)) },
			[]string{weightCfg, "missing"}},
		{"dot-dot entry", func() []byte {
			return buildZip(t, "m/", append(append([]record(nil), base...), record{name: "../../etc/passwd", data: []byte("x")}))
		}, []string{"m/../../etc/passwd", "climbs out"}},
		{"absolute entry", func() []byte {
			// Go's zip writer refuses nothing, but patch the name in
			// place anyway so the test does not depend on that.
			recs := append([]record{{name: "ABSOLUTE_MARKER", data: []byte("x")}}, base...)
			z := buildZip(t, "", recs)
			return bytes.ReplaceAll(z, []byte("ABSOLUTE_MARKER"), []byte("/bsolute_marker"))
		}, []string{"absolute"}},
		{"entry too large", func() []byte {
			recs := append([]record(nil), base...)
			recs = append(recs, record{name: "extra/huge", data: []byte("tiny"), claim: 1 << 40})
			return buildZip(t, "m/", recs)
		}, []string{"too large"}},
		{"pytorch 2.8 layout", func() []byte {
			recs := drop(drop(base, "archive_format"), weightCfg)
			recs = append(recs, record{name: "data/weights/model.pt", data: []byte("pickle")})
			return buildZip(t, "m/", recs)
		}, []string{"PyTorch 2.8", "re-save"}},
		{"pytorch 2.7 layout", func() []byte {
			return buildZip(t, "m/", []record{{name: "serialized_exported_program.json", data: []byte("{}")}, {name: "version", data: []byte("1")}})
		}, []string{"PyTorch 2.7", "re-save"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := pt2.ReadBytes(c.data(), "bad.pt2")
			if err == nil {
				t.Fatal("read succeeded")
			}
			var pe *pt2.Error
			if !errors.As(err, &pe) {
				t.Errorf("error %T is not a *pt2.Error", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			if !strings.HasPrefix(err.Error(), "bad.pt2") {
				t.Errorf("error %q does not name the file", err)
			}
		})
	}
}

func TestReadAcceptsAnyRootAndMinor(t *testing.T) {
	base := fixtureRecords(t, "mlp")
	recs := editModel(t, base, func(m map[string]any) {
		m["schema_version"] = map[string]any{"major": 8, "minor": 99}
		m["a_future_field"] = "ignored"
		firstNode(m)["another_future_field"] = 1
	})
	a, err := pt2.ReadBytes(buildZip(t, "archive/", recs), "x.pt2")
	if err != nil {
		t.Fatal(err)
	}
	p, _ := a.Program()
	if p.SchemaVersion.Minor != 99 {
		t.Errorf("minor %d", p.SchemaVersion.Minor)
	}
}
