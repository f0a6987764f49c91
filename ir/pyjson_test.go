package ir_test

import (
	"testing"

	"github.com/seam-rt/seam/ir"
)

// TestEncodeAsPythonJSONDumps: the encoder writes strings and separators
// as PyTorch's json.dumps does (ensure_ascii: every non-ASCII rune, DEL
// and the controls escaped, lower-case hex, surrogate pairs beyond the
// BMP; "/", "<", ">" and "&" kept). The expected bytes are what Python
// 3.11's json.dumps printed for the same dict.
func TestEncodeAsPythonJSONDumps(t *testing.T) {
	cfg := map[string]ir.PayloadMeta{"a\u00e9\x7f\U0001F600\u2028\x01\"\\/<>&": {PathName: "weight_0", IsParam: true}}
	got, err := ir.EncodePayloadConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"config": {"a\u00e9\u007f\ud83d\ude00\u2028\u0001\"\\/<>&": {"path_name": "weight_0", "is_param": true, "use_pickle": false, "tensor_meta": null}}}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	empty, _ := ir.EncodePayloadConfig(nil)
	if string(empty) != `{"config": {}}` {
		t.Errorf("an empty config is %s, PyTorch writes {\"config\": {}}", empty)
	}
}
