package tensor

import "testing"

func TestDTypeNumbersMatchExportSchema(t *testing.T) {
	want := map[DType]struct {
		num   uint8
		short string
		size  int
	}{
		Uint8: {1, "u8", 1}, Int8: {2, "i8", 1}, Int16: {3, "i16", 2}, Int32: {4, "i32", 4},
		Int64: {5, "i64", 8}, Float16: {6, "f16", 2}, Float32: {7, "f32", 4}, Float64: {8, "f64", 8},
		Bool: {12, "b8", 1}, BFloat16: {13, "bf16", 2},
	}
	for d, w := range want {
		if uint8(d) != w.num || d.String() != w.short || d.Size() != w.size || !d.Valid() {
			t.Errorf("%v: num %d name %q size %d", d, uint8(d), d.String(), d.Size())
		}
		for _, name := range []string{w.short, d.Name(), "torch." + d.Name()} {
			if got, err := ParseDType(name); err != nil || got != d {
				t.Errorf("ParseDType(%q) = %v, %v", name, got, err)
			}
		}
	}
	for _, bad := range []DType{0, 9, 11, 14, 200} {
		if bad.Valid() || bad.Size() != 0 {
			t.Errorf("%d should be invalid", bad)
		}
	}
	if _, err := ParseDType("complex64"); err == nil {
		t.Error("complex64 parsed")
	}
	if DTypeOf[F16]() != Float16 || DTypeOf[BF16]() != BFloat16 || DTypeOf[bool]() != Bool {
		t.Error("DTypeOf")
	}
}
