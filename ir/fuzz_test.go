package ir_test

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/seam-rt/seam/internal/hostile"
	"github.com/seam-rt/seam/ir"
)

// FuzzDecodePayloadConfig: no payload config makes the decoder panic, and
// one it accepts encodes and decodes to itself.
func FuzzDecodePayloadConfig(f *testing.F) {
	for _, m := range []string{"mlp", "cnn", "buffer_mutation", "gpt2_tiny"} {
		recs, err := hostile.FixtureRecords(m)
		if err != nil {
			f.Fatal(err)
		}
		for _, name := range []string{"data/weights/model_weights_config.json", "data/constants/model_constants_config.json"} {
			if data := hostile.Find(recs, name); data != nil {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := ir.DecodePayloadConfig(data)
		if err != nil {
			return
		}
		out, err := ir.EncodePayloadConfig(cfg)
		if err != nil {
			return
		}
		again, err := ir.DecodePayloadConfig(out)
		if err != nil {
			t.Fatalf("decoding what seam encoded: %v\n%s", err, out)
		}
		if diff := cmp.Diff(cfg, again, cmpopts.EquateEmpty(), cmpopts.EquateNaNs(), complexNaNs); diff != "" {
			t.Fatalf("re-decoded config differs:\n%s", diff)
		}
	})
}

// complexNaNs equates complex numbers whose parts are equal or both NaN.
var complexNaNs = cmp.Comparer(func(a, b complex128) bool {
	same := func(x, y float64) bool { return x == y || math.IsNaN(x) && math.IsNaN(y) }
	return same(real(a), real(b)) && same(imag(a), imag(b))
})
