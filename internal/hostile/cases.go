package hostile

import (
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/delegate"
	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/lower"
	"github.com/seam-rt/seam/pt2"
)

// Case is one hostile input and what seam must do with it.
type Case struct {
	// Name is unique; Class is the kind of attack (format, nesting, bomb,
	// crc, unbounded, contract, names, blame, scale).
	Name, Class string
	// Make writes the case's files into dir.
	Make func(dir string) error
	// Archive, when set, is the case's model.pt2 (Make writes it).
	Archive []byte
	// Args is the seam command line; "DIR/" at the start of an argument
	// stands for the case's folder.
	Args []string
	// Env adds environment variables (SEAM_LIMIT_*=...).
	Env []string
	// Want are substrings the output must hold; the file is named too.
	Want []string
	// Absent are substrings the output must not hold.
	Absent []string
	// Accept: the command must succeed (a valid input that is only large
	// or deep); otherwise it must fail cleanly.
	Accept bool
	// Slow marks a case that needs seconds, not milliseconds.
	Slow bool
	// Culprit, when set, is what a refusal must name instead of a file
	// (a bad flag).
	Culprit string
}

// Model is the archive path most cases use.
const Model = "DIR/model.pt2"

func fixturePath(model string) string { return fixtures.Model(model) }

// Cases builds every case. Cases whose inputs need a file system feature
// (holes, FIFOs) make them in Make.
func Cases() ([]Case, error) {
	var all []Case
	for _, build := range []func() ([]Case, error){
		formatCases, nestingCases, bombCases, crcCases, unboundedCases, contractCases, compiledCases, nameCases, blameCases, scaleCases,
	} {
		cs, err := build()
		if err != nil {
			return nil, err
		}
		all = append(all, cs...)
	}
	for i := range all {
		c := &all[i]
		if c.Args == nil {
			c.Args = []string{"inspect", Model}
		}
		if c.Make == nil && c.Archive != nil {
			data := c.Archive
			c.Make = func(dir string) error { return os.WriteFile(filepath.Join(dir, "model.pt2"), data, 0o644) }
		}
	}
	return all, nil
}

const (
	weightCfg = "data/weights/model_weights_config.json"
	modelJSON = "models/model.json"
)

func graphOf(m map[string]any) map[string]any {
	return m["graph_module"].(map[string]any)["graph"].(map[string]any)
}

func firstNode(m map[string]any) map[string]any {
	return graphOf(m)["nodes"].([]any)[0].(map[string]any)
}

func editModel(recs []Record, fn func(m map[string]any)) []byte {
	out, err := EditJSON(recs, modelJSON, fn)
	if err != nil {
		panic(err)
	}
	return Zip("m/", out)
}

// formatCases are archives that are not what they claim to be: the kinds
// pt2's reader has always refused.
func formatCases() ([]Case, error) {
	base, err := FixtureRecords("mlp")
	if err != nil {
		return nil, err
	}
	var cfg map[string]map[string]map[string]any
	if err := json.Unmarshal(Find(base, weightCfg), &cfg); err != nil {
		return nil, err
	}
	var someFQN, someFile string
	for _, fqn := range ir.SortedKeys(cfg["config"]) {
		someFQN, someFile = fqn, cfg["config"][fqn]["path_name"].(string)
		break
	}
	absolute := Zip("", append([]Record{{Name: "ABSOLUTE_MARKER", Data: []byte("x")}}, base...))
	absolute = []byte(strings.ReplaceAll(string(absolute), "ABSOLUTE_MARKER", "/bsolute_marker"))
	c := func(name string, archive []byte, want ...string) Case {
		return Case{Name: name, Class: "format", Archive: archive, Want: want}
	}
	return []Case{
		c("not_a_zip", []byte("hello, not a zip"), "not a zip"),
		c("empty_file", []byte{}, "not a zip"),
		c("missing_model_json", Zip("m/", Drop(base, modelJSON)), "models/model.json", "missing"),
		c("malformed_model_json", Zip("m/", Replace(base, modelJSON, []byte(`{"graph_module": [`))), "models/model.json", "malformed"),
		c("wrong_archive_format", Zip("m/", Replace(base, "archive_format", []byte("zip"))), "archive_format", `"zip"`),
		c("wrong_archive_version", Zip("m/", Replace(base, "archive_version", []byte("1"))), "archive_version"),
		c("schema_major_9", editModel(base, func(m map[string]any) {
			m["schema_version"] = map[string]any{"major": 9, "minor": 0}
		}), "schema version 9.0", "8.x"),
		c("name_never_defined", editModel(base, func(m map[string]any) {
			in := firstNode(m)["inputs"].([]any)[0].(map[string]any)
			in["arg"] = map[string]any{"as_tensor": map[string]any{"name": "ghost"}}
		}), "models/model.json", `"ghost"`, "never defined"),
		c("unknown_union_member", editModel(base, func(m map[string]any) {
			in := firstNode(m)["inputs"].([]any)[0].(map[string]any)
			in["arg"] = map[string]any{"as_quaternion": 1}
		}), "unknown Argument member", "as_quaternion"),
		c("negative_size", editModel(base, func(m map[string]any) {
			tv := graphOf(m)["tensor_values"].(map[string]any)
			tv[ir.SortedKeys(tv)[0]].(map[string]any)["sizes"] = []any{map[string]any{"as_int": -3}}
		}), "negative size -3"),
		c("overflowing_sizes", editModel(base, func(m map[string]any) {
			tv := graphOf(m)["tensor_values"].(map[string]any)
			big := map[string]any{"as_int": int64(1) << 40}
			tv[ir.SortedKeys(tv)[0]].(map[string]any)["sizes"] = []any{big, big}
		}), "overflow"),
		c("weight_size_disagrees", Zip("m/", Replace(base, "data/weights/"+someFile, []byte{1, 2, 3})),
			"data/weights/"+someFile, someFQN, "3 bytes"),
		c("weight_file_missing", Zip("m/", Drop(base, "data/weights/"+someFile)), weightCfg, "missing"),
		c("specialization_program_missing", Zip("m/", With(base, Record{Name: "data/specializations.json",
			Data: []byte(`{"specializations": [{"bind": {"s77": 4}, "program": "ghost"}]}`)})),
			"data/specializations.json", "ghost", "does not have"),
		c("specialization_record_malformed", Zip("m/", With(base, Record{Name: "data/specializations.json",
			Data: []byte(`{"specializations": [{"bind": {"s77": "four"}}]}`)})),
			"data/specializations.json", "malformed specializations record"),
		c("dot_dot_entry", Zip("m/", append(append([]Record(nil), base...), Record{Name: "../../etc/passwd", Data: []byte("x")})),
			"m/../../etc/passwd", "climbs out"),
		c("absolute_entry", absolute, "absolute"),
		c("entry_name_not_utf8", Zip("m/", append(append([]Record(nil), base...), Record{Name: "extra/n\xffme", Data: []byte("x")})), "not UTF-8"),
		c("entry_name_escape_sequence", Zip("m/", append(append([]Record(nil), base...), Record{Name: "extra/\x1b[2J", Data: []byte("x")})),
			"control character in entry path"),
		c("entry_too_large", Zip("m/", append(append([]Record(nil), base...), Record{Name: "extra/huge", Data: []byte("tiny"), Claim: 1 << 40})),
			"too large"),
		c("pytorch_2_8_layout", Zip("m/", append(Drop(Drop(base, "archive_format"), weightCfg), Record{Name: "data/weights/model.pt", Data: []byte("pickle")})),
			"PyTorch 2.8", "re-save"),
		c("pytorch_2_7_layout", Zip("m/", []Record{{Name: "serialized_exported_program.json", Data: []byte("{}")}, {Name: "version", Data: []byte("1")}}),
			"PyTorch 2.7", "re-save"),
	}, nil
}

// nestingCases are programs deep enough to find work quadratic in depth.
func nestingCases() ([]Case, error) {
	deep, err := Archive(NestedCond(1000))
	if err != nil {
		return nil, err
	}
	deeper, err := Archive(NestedCond(2000))
	if err != nil {
		return nil, err
	}
	base, err := FixtureRecords("mlp")
	if err != nil {
		return nil, err
	}
	brackets := `{"graph_module": {"graph": {"nodes": [{"target": "t", "a_future_field": ` +
		strings.Repeat("[", 1_000_000) + strings.Repeat("]", 1_000_000) + `}]}}}`
	return []Case{
		{Name: "nested_cond_1000", Class: "nesting", Archive: deep, Accept: true, Want: []string{"nodes"}},
		{Name: "nested_cond_1000_verify", Class: "nesting", Archive: deep, Accept: true, Args: []string{"verify", Model}, Want: []string{"OK"}},
		{Name: "nested_cond_1000_print", Class: "nesting", Archive: deep, Accept: true, Args: []string{"print", Model}, Want: []string{"class true_graph_0"}},
		{Name: "nested_cond_1000_lower", Class: "nesting", Archive: deep, Accept: true,
			Args: []string{"lower", Model, "--backend", "tensor-only", "-o", "DIR/low.pt2"}, Want: []string{"wrote"}},
		{Name: "nested_cond_2000", Class: "nesting", Archive: deeper, Want: []string{"models/model.json", "json-depth", "SEAM_LIMIT_JSON_DEPTH"}},
		{Name: "brackets_1000000_deep", Class: "nesting", Archive: Zip("m/", Replace(base, modelJSON, []byte(brackets))),
			Want: []string{"models/model.json", "json-depth"}},
	}, nil
}

const gib = 1 << 30

// bombCases are records that claim, or expand to, far more than their
// archive holds.
func bombCases() ([]Case, error) {
	base, err := FixtureRecords("mlp")
	if err != nil {
		return nil, err
	}
	spaces, spacesCRC := Deflated(' ', 2*gib), repeatedCRC(' ', 2*gib)
	bomb := func(name string) []Record {
		return With(base, Record{Name: name, Data: spaces, Deflated: true, Claim: 2 * gib, CRC: &spacesCRC})
	}
	var cfg map[string]map[string]map[string]any
	json.Unmarshal(Find(base, weightCfg), &cfg)
	weight := "data/weights/" + cfg["config"][ir.SortedKeys(cfg["config"])[0]]["path_name"].(string)
	overlapping, err := DuplicateEntry(Zip("m/", With(base, Record{Name: "extra/blob", Data: make([]byte, 1<<20)})), "m/extra/blob", 2000)
	if err != nil {
		return nil, err
	}
	lies := With(base, Record{Name: "extra/notes", Data: Deflated('x', 10<<20), Deflated: true, Claim: 100})
	tiny := `{"graph_module": {"graph": {"nodes": [` + strings.TrimSuffix(strings.Repeat(`{"target":"a"},`, 2_100_000), ",") +
		`]}}, "schema_version": {"major": 8, "minor": 17}}`
	chain, err := Archive(Chain(200, true))
	if err != nil {
		return nil, err
	}
	sparse := func(recs []Record) func(dir string) error {
		return func(dir string) error { return WriteZip(filepath.Join(dir, "model.pt2"), "m/", recs) }
	}
	return []Case{
		{Name: "deflated_model_json_2GiB", Class: "bomb", Archive: Zip("m/", bomb(modelJSON)), Want: []string{"models/model.json", "expansion"}},
		{Name: "deflated_weights_config_2GiB", Class: "bomb", Archive: Zip("m/", bomb(weightCfg)), Want: []string{"expansion"}},
		{Name: "deflated_extra_2GiB", Class: "bomb", Archive: Zip("m/", bomb("extra/notes")), Want: []string{"extra/notes", "expansion"}},
		{Name: "deflated_sample_inputs_2GiB", Class: "bomb", Archive: Zip("m/", bomb("data/sample_inputs/model.pt")),
			Args: []string{"lower", Model, "--backend", "tensor-only", "-o", "DIR/low.pt2"}, Want: []string{"expansion"}},
		{Name: "deflated_weight_2GiB", Class: "bomb", Make: withArchive(Zip("m/", bomb(weight)), mlpCase),
			Args: []string{"run", Model, "--case", "DIR/case"}, Want: []string{"expansion"}},
		{Name: "stored_weight_2GiB_for_a_few_KB", Class: "bomb", Make: both(sparse(With(base, Record{Name: weight, Hole: 2 * gib})), mlpCase),
			Args: []string{"run", Model, "--case", "DIR/case"}, Want: []string{weight, "weight-slack"}},
		{Name: "stored_weight_2GiB_verify", Class: "bomb", Make: sparse(With(base, Record{Name: weight, Hole: 2 * gib})),
			Args: []string{"verify", Model}, Want: []string{weight, "weight-slack"}},
		{Name: "stored_model_json_1GiB", Class: "bomb", Make: sparse(With(base, Record{Name: modelJSON, Hole: 1 * gib})),
			Want: []string{"models/model.json", "json-bytes", "SEAM_LIMIT_JSON_BYTES"}},
		{Name: "overlapping_records", Class: "bomb", Archive: overlapping, Want: []string{"overlap"}},
		{Name: "records_limit", Class: "bomb", Archive: overlapping, Env: []string{"SEAM_LIMIT_RECORDS=1000"},
			Want: []string{"2014 records in one archive", "records limit"}},
		{Name: "header_claims_less_than_it_holds", Class: "bomb", Archive: Zip("m/", lies), Want: []string{"extra/notes", "more than the 100 bytes"}},
		{Name: "two_million_tiny_nodes", Class: "bomb", Archive: Zip("m/", Replace(base, modelJSON, []byte(tiny))),
			Want: []string{"models/model.json", "over the nodes limit", "--limit nodes=N"}},
		{Name: "node_limit_from_env", Class: "bomb", Archive: chain, Env: []string{"SEAM_LIMIT_NODES=100"},
			Want: []string{"more than 100", "nodes limit"}},
		{Name: "node_limit_from_flag", Class: "bomb", Archive: chain, Args: []string{"inspect", Model, "--limit", "nodes=150"},
			Want: []string{"more than 150", "nodes limit"}},
		{Name: "bad_limit_flag", Class: "bomb", Archive: chain, Args: []string{"inspect", Model, "--limit", "nodes=lots"},
			Want: []string{`"lots" is not a non-negative number`}, Culprit: "--limit"},
	}, nil
}

// repeatedCRC is the CRC-32 of n bytes c.
func repeatedCRC(c byte, n int64) uint32 {
	chunk := make([]byte, 1<<20)
	for i := range chunk {
		chunk[i] = c
	}
	var crc uint32
	for n > 0 {
		k := min(n, int64(len(chunk)))
		crc = crc32.Update(crc, crc32.IEEETable, chunk[:k])
		n -= k
	}
	return crc
}

func crc32Of(b []byte) uint32 { return crc32.ChecksumIEEE(b) }

func both(fns ...func(string) error) func(string) error {
	return func(dir string) error {
		for _, fn := range fns {
			if err := fn(dir); err != nil {
				return err
			}
		}
		return nil
	}
}

// mlpCase copies the mlp fixture's reference case to DIR/case.
func mlpCase(dir string) error { return CopyCase(dir, "mlp", "case0") }

// CopyCase copies a fixture model's reference case (io/NAME) to DIR/case.
func CopyCase(dir, model, name string) error {
	src := filepath.Join(fixtures.ModelDir(model), "io", name)
	dst := filepath.Join(dir, "case")
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	ents, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// flip returns data with one byte changed.
func flip(data []byte, at int) []byte {
	out := append([]byte(nil), data...)
	out[at%len(out)] ^= 0x20
	return out
}

// crcCases are records whose bytes do not match their CRC: a flipped bit
// in a weight must fail the run, not change its outputs.
func crcCases() ([]Case, error) {
	base, err := FixtureRecords("mlp")
	if err != nil {
		return nil, err
	}
	var cfg map[string]map[string]map[string]any
	json.Unmarshal(Find(base, weightCfg), &cfg)
	weight := "data/weights/" + cfg["config"][ir.SortedKeys(cfg["config"])[0]]["path_name"].(string)
	orig := Find(base, weight)
	flipped := Zip("m/", With(base, Record{Name: weight, Data: flip(orig, 100), CRC: ptr(crc32Of(orig))}))
	zeroCRC := Zip("m/", With(base, Record{Name: weight, Data: flip(orig, 100), CRC: ptr(uint32(0))}))
	js := Find(base, modelJSON)
	at := strings.Index(string(js), "permute_1")
	jsonFlipped := Zip("m/", With(base, Record{Name: modelJSON, Data: flip(js, at), CRC: ptr(crc32Of(js))}))
	want := []string{weight, "CRC-32", "damaged"}
	return []Case{
		{Name: "flipped_weight_verify", Class: "crc", Archive: flipped, Args: []string{"verify", Model}, Want: want},
		{Name: "flipped_weight_run", Class: "crc", Make: withArchive(flipped, mlpCase), Args: []string{"run", Model, "--case", "DIR/case"}, Want: want},
		{Name: "flipped_weight_lower", Class: "crc", Archive: flipped, Args: []string{"lower", Model, "--backend", "tensor-only", "-o", "DIR/low.pt2"}, Want: want},
		{Name: "flipped_weight_zero_crc", Class: "crc", Archive: zeroCRC, Args: []string{"verify", Model}, Want: want},
		{Name: "flipped_model_json", Class: "crc", Archive: jsonFlipped, Want: []string{"models/model.json", "CRC-32"}},
	}, nil
}

// unboundedCases are files that never end or are far larger than they
// say: each must be refused before it is read.
func unboundedCases() ([]Case, error) {
	mlp, err := os.ReadFile(fixturePath("mlp"))
	if err != nil {
		return nil, err
	}
	withModel := func(more func(dir string) error) func(dir string) error {
		return func(dir string) error {
			if err := os.WriteFile(filepath.Join(dir, "model.pt2"), mlp, 0o644); err != nil {
				return err
			}
			return more(dir)
		}
	}
	sparseNPY := func(dir string) error {
		f, err := os.Create(filepath.Join(dir, "big.npy"))
		if err != nil {
			return err
		}
		hdr := "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 32), }"
		hdr += strings.Repeat(" ", (64-(10+len(hdr)+1)%64)%64) + "\n"
		b := append([]byte("\x93NUMPY\x01\x00"), byte(len(hdr)), byte(len(hdr)>>8))
		f.Write(append(b, hdr...))
		f.Truncate(3 * gib)
		return f.Close()
	}
	hugeHeader := func(dir string) error {
		b := append([]byte("\x93NUMPY\x02\x00"), 0, 0, 0, 0)
		binary.LittleEndian.PutUint32(b[8:], 0xffffff00)
		return os.WriteFile(filepath.Join(dir, "big.npy"), b, 0o644)
	}
	sparseProfile := func(dir string) error {
		f, err := os.Create(filepath.Join(dir, "npu.json"))
		if err != nil {
			return err
		}
		f.WriteString(`{"name": "npu", "ops": {"include": ["aten.*"]}}`)
		f.Truncate(3 * gib)
		return f.Close()
	}
	fifo := func(name string) func(dir string) error {
		return func(dir string) error { return mkfifo(filepath.Join(dir, name)) }
	}
	fifoCase := func(dir string) error {
		if err := mlpCase(dir); err != nil {
			return err
		}
		os.Remove(filepath.Join(dir, "case", "in_0.npy"))
		return fifo("case/in_0.npy")(dir)
	}
	return []Case{
		{Name: "input_dev_zero", Class: "unbounded", Make: withModel(noop), Args: []string{"run", Model, "--input", "/dev/zero"},
			Want: []string{"/dev/zero", "not a regular file"}},
		{Name: "profile_dev_zero", Class: "unbounded", Make: withModel(noop), Args: []string{"partition", Model, "--backend", "/dev/zero"},
			Want: []string{"/dev/zero", "not a regular file"}},
		{Name: "input_fifo", Class: "unbounded", Make: withModel(fifo("in.npy")), Args: []string{"run", Model, "--input", "DIR/in.npy"},
			Want: []string{"in.npy", "not a regular file"}},
		{Name: "case_with_a_fifo", Class: "unbounded", Make: withModel(fifoCase), Args: []string{"run", Model, "--case", "DIR/case"},
			Want: []string{"in_0.npy", "not a regular file"}},
		{Name: "model_fifo", Class: "unbounded", Make: fifo("model.pt2"), Want: []string{"model.pt2", "not a regular file"}},
		{Name: "sparse_npy_3GB", Class: "unbounded", Make: withModel(sparseNPY), Args: []string{"run", Model, "--input", "DIR/big.npy"},
			Want: []string{"big.npy", "payload is", "needs 256"}},
		{Name: "npy_header_4GB", Class: "unbounded", Make: withModel(hugeHeader), Args: []string{"run", Model, "--input", "DIR/big.npy"},
			Want: []string{"big.npy", "header length"}},
		{Name: "sparse_profile_3GB", Class: "unbounded", Make: withModel(sparseProfile), Args: []string{"partition", Model, "--backend", "DIR/npu.json"},
			Want: []string{"npu.json", "profile-bytes"}},
	}, nil
}

func noop(string) error { return nil }

// contractCases are lowered archives whose delegate records claim a
// contract the backend does not have.
func contractCases() ([]Case, error) {
	prof, _ := backend.Builtin("tensor-only")
	low, done, err := lowerFixture("gpt2_tiny", prof)
	if err != nil {
		return nil, err
	}
	defer done()
	la := pt2.FromLowered(low, nil)
	lying := *prof
	lying.Placeholders.SymInt = backend.Scalar
	rec, _ := json.Marshal(&lying)
	for _, d := range la.Delegates {
		d.Contract = rec
	}
	data, err := writeArchive(la)
	if err != nil {
		return nil, err
	}
	gpt2Case := func(dir string) error { return CopyCase(dir, "gpt2_tiny", "case1") }
	want := []string{"placeholders.sym_int: int recorded, refuse registered"}
	return []Case{
		{Name: "recorded_contract_verify", Class: "contract", Archive: data, Args: []string{"verify", Model},
			Want: append(want, "contract-recorded")},
		{Name: "recorded_contract_run", Class: "contract", Make: withArchive(data, gpt2Case), Args: []string{"run", Model, "--case", "DIR/case"},
			Want: append(want, "--trust-recorded-contract")},
		{Name: "recorded_contract_trusted", Class: "contract", Accept: true,
			Args: []string{"run", Model, "--case", "DIR/case", "--trust-recorded-contract"}, Want: []string{"ok"}, Make: withArchive(data, gpt2Case)},
	}, nil
}

// lowerFixture lowers a fixture's program for a backend; the weights are
// read from the fixture until done is called.
func lowerFixture(model string, prof *backend.Profile) (low *ir.Lowered, done func(), err error) {
	a, err := pt2.Open(fixturePath(model))
	if err != nil {
		return nil, nil, err
	}
	p, err := a.Program()
	if err == nil {
		var res *lower.Result
		if res, err = delegate.Program(p, prof, delegate.Options{}); err == nil {
			return res.Lowered, func() { a.Close() }, nil
		}
	}
	a.Close()
	return nil, nil, err
}

func withArchive(data []byte, more func(string) error) func(string) error {
	return func(dir string) error {
		if err := os.WriteFile(filepath.Join(dir, "model.pt2"), data, 0o644); err != nil {
			return err
		}
		return more(dir)
	}
}

func writeArchive(a *pt2.Archive) ([]byte, error) {
	var sb strings.Builder
	if err := pt2.Write(&sb, a, "model"); err != nil {
		return nil, err
	}
	return []byte(sb.String()), nil
}

// nameCases are names that are not text, or that a terminal acts on.
func nameCases() ([]Case, error) {
	base, err := FixtureRecords("mlp")
	if err != nil {
		return nil, err
	}
	js := string(Find(base, modelJSON))
	badUTF8 := strings.Replace(js, `"name": "permute_1"`, "\"name\": \"permute\xff1\"", 1)
	surrogate := strings.Replace(js, `"name": "permute_1"`, `"name": "permute\ud8001"`, 1)
	controls := strings.ReplaceAll(js, `"relu"`, `"relu\u001b]0;pwned\u0007\u001b[2J"`)
	cfg := strings.Replace(string(Find(base, weightCfg)), `"l1.weight"`, "\"l1.w\xffeight\"", 1)
	return []Case{
		{Name: "invalid_utf8_name", Class: "names", Archive: Zip("m/", Replace(base, modelJSON, []byte(badUTF8))),
			Want: []string{"models/model.json", "invalid UTF-8", "at byte"}},
		{Name: "half_surrogate_name", Class: "names", Archive: Zip("m/", Replace(base, modelJSON, []byte(surrogate))),
			Want: []string{"half of a surrogate pair", "at byte"}},
		{Name: "invalid_utf8_fqn", Class: "names", Archive: Zip("m/", Replace(base, weightCfg, []byte(cfg))),
			Want: []string{weightCfg, "invalid UTF-8", "at byte"}},
		{Name: "control_characters_print", Class: "names", Archive: Zip("m/", Replace(base, modelJSON, []byte(controls))),
			Args: []string{"print", Model}, Accept: true, Want: []string{`relu\x1b]0;pwned\x07\x1b[2J`}, Absent: []string{"\x1b", "\a"}},
		{Name: "control_characters_inspect", Class: "names", Archive: Zip("m/", Replace(base, modelJSON, []byte(controls))),
			Args: []string{"partition", Model, "--backend", "tensor-only"}, Accept: true, Absent: []string{"\x1b", "\a"}},
	}, nil
}

// blameCases are inputs seam lower must blame on the input, not itself.
func blameCases() ([]Case, error) {
	base, err := FixtureRecords("mlp")
	if err != nil {
		return nil, err
	}
	lowerArgs := []string{"lower", Model, "--backend", "tensor-only", "-o", "DIR/low.pt2"}
	fails := func(name string, want string, fn func(m map[string]any)) Case {
		return Case{Name: name, Class: "blame", Archive: editModel(base, fn), Args: lowerArgs,
			Want: []string{"model.pt2 does not verify", want}, Absent: []string{"bug in seam"}}
	}
	a, err := pt2.Open(fixturePath("gpt2_tiny"))
	if err != nil {
		return nil, err
	}
	defer a.Close()
	p, _ := a.Program()
	prof, _ := backend.Builtin("tensor-only")
	res, err := delegate.Program(p, prof, delegate.Options{})
	if err != nil {
		return nil, err
	}
	lowered, err := writeArchive(pt2.FromLowered(res.Lowered, nil))
	if err != nil {
		return nil, err
	}
	return []Case{
		fails("used_before_defined", "defined-before-use", func(m map[string]any) {
			nodes := graphOf(m)["nodes"].([]any)
			nodes[0], nodes[1] = nodes[1], nodes[0]
		}),
		fails("wrong_argument_kind", "op-argument-kind", func(m map[string]any) {
			in := firstNode(m)["inputs"].([]any)[1].(map[string]any)
			in["arg"] = map[string]any{"as_string": "not dims"}
		}),
		fails("unknown_op_argument", "op-arguments", func(m map[string]any) {
			n := firstNode(m)
			n["inputs"] = append(n["inputs"].([]any), map[string]any{"name": "bogus", "arg": map[string]any{"as_int": 1}, "kind": 2})
		}),
		fails("output_spec_names_another_value", "output-name", func(m map[string]any) {
			sig := m["graph_module"].(map[string]any)["signature"].(map[string]any)
			out := sig["output_specs"].([]any)[0].(map[string]any)["user_output"].(map[string]any)
			out["arg"] = map[string]any{"as_tensor": map[string]any{"name": "relu"}}
		}),
		{Name: "lower_a_lowered_program", Class: "blame", Archive: lowered, Args: lowerArgs,
			Want: []string{"already lowered", "lowered_module_"}, Absent: []string{"bug in seam"}},
	}, nil
}

// scaleCases are valid programs large enough to find quadratic work or
// waste: each must be read within the caps.
func scaleCases() ([]Case, error) {
	var out []Case
	for _, s := range Scales() {
		if !strings.HasPrefix(s.Name, "chain_200000") && !strings.HasPrefix(s.Name, "unused") {
			continue
		}
		prog := s.Program
		out = append(out, Case{Name: s.Name, Class: "scale", Accept: true, Slow: true, Want: []string{"nodes"},
			Make: func(dir string) error {
				data, err := Archive(prog())
				if err != nil {
					return err
				}
				return os.WriteFile(filepath.Join(dir, "model.pt2"), data, 0o644)
			}})
	}
	return out, nil
}
