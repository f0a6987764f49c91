package main

// A mutation is one small mistake in one file: Old (which must occur
// exactly once) becomes New. Pkgs are the packages whose tests must catch
// it; Run, when set, narrows them to the tests that should (a regexp for
// go test -run), to keep the whole check a few minutes long.
type mutation struct {
	Name     string
	File     string
	Old, New string
	Pkgs     []string
	Run      string
}

var mutations = []mutation{
	// kernels
	{"f32 tensor-tensor sub computes add", "kernels/elementwise.go",
		"\t\tcase opSub:\n\t\t\tvec.Sub(o, a, b)", "\t\tcase opSub:\n\t\t\tvec.Add(o, a, b)",
		[]string{"./kernels"}, "Golden|Fixture"},
	{"integer floor division truncates", "kernels/elementwise.go",
		"\t\t\tq := a / b\n\t\t\tif a%b != 0 && (a < 0) != (b < 0) {\n\t\t\t\tq--\n\t\t\t}", "\t\t\tq := a / b",
		[]string{"./kernels"}, "Golden"},
	{"integer remainder takes the dividend's sign", "kernels/elementwise.go",
		"\t\t\tm := a % b\n\t\t\tif m != 0 && (m < 0) != (b < 0) {\n\t\t\t\tm += b\n\t\t\t}", "\t\t\tm := a % b",
		[]string{"./kernels"}, "Golden"},
	{"sign(NaN) is NaN", "kernels/unary.go",
		"return 0 // 0, -0 and NaN", "return x // 0, -0 and NaN",
		[]string{"./kernels"}, "Golden"},
	{"float64 softmax computes in float32", "kernels/softmax.go",
		"\tif dt == tensor.Float64 {\n\t\twork = tensor.Float64\n\t}", "\tif dt == tensor.Float64 {\n\t\twork = tensor.Float32\n\t}",
		[]string{"./kernels"}, "Golden"},
	{"float64 layer norm drops eps", "kernels/norm.go",
		"ms[r], rs[r] = m, 1/math.Sqrt(v+eps)", "ms[r], rs[r] = m, 1/math.Sqrt(v)",
		[]string{"./kernels"}, "Golden"},
	{"uint8 with int8 promotes to int8", "kernels/promote.go",
		"\t\tif other == tensor.Int8 {\n\t\t\treturn tensor.Int16", "\t\tif other == tensor.Int8 {\n\t\t\treturn tensor.Int8",
		[]string{"./kernels"}, "Golden"},
	{"gather and scatter wrap negative indices", "kernels/indexing.go",
		"\tlo := int64(0)\n\tif wrap {", "\tlo := -int64(size)\n\tif wrap {",
		[]string{"./kernels"}, "Golden"},
	{"fill value overflow not refused", "kernels/args.go",
		"\t\t\tbad = float64(i) < lo || float64(i) > hi", "\t\t\tbad = false",
		[]string{"./kernels"}, "Golden"},
	{"float64 convolution flips the kernel", "kernels/conv64.go",
		"kern[(ic*g.kh+i)*g.kw+j]", "kern[(ic*g.kh+i)*g.kw+(g.kw-1-j)]",
		[]string{"./kernels"}, "Golden"},
	{"any/all of uint8 return bool", "kernels/reduction.go",
		"\t\t\toutDT = tensor.Uint8 // ATen keeps uint8 for any/all", "\t\t\toutDT = tensor.Bool",
		[]string{"./kernels"}, "Golden"},
	{"logsumexp of all -inf is NaN", "kernels/reduction.go",
		"\t\tif math.IsInf(m, 0) || m != m {\n\t\t\tif len(row) == 0 {", "\t\tif len(row) == 0 {\n\t\t\tif len(row) == 0 {",
		[]string{"./kernels"}, "Golden"},
	{"addmm swaps alpha and beta", "kernels/matmul.go",
		`r, err := mm(ctx, a, b, bias, alpha.Double(), beta.Double(), "mat1", "mat2")`, `r, err := mm(ctx, a, b, bias, beta.Double(), alpha.Double(), "mat1", "mat2")`,
		[]string{"./kernels"}, "Golden"},

	// runtime: scalar ops and the executor
	{"_operator.floordiv truncates", "runtime/scalar.go",
		"\t\tq := x / y\n\t\tif (x%y != 0) && ((x < 0) != (y < 0)) {\n\t\t\tq--\n\t\t}", "\t\tq := x / y",
		[]string{"./runtime"}, "Scalar"},
	{"_operator.mod takes the dividend's sign", "runtime/scalar.go",
		"\t\tm := x % y\n\t\tif m != 0 && ((m < 0) != (y < 0)) {\n\t\t\tm += y\n\t\t}", "\t\tm := x % y",
		[]string{"./runtime"}, "Scalar"},
	{"float floordiv as floor(x/y)", "runtime/scalar.go",
		"\tq, _ := pyFloatDivmod(num(a[0]), y)\n\treturn value.FromDouble(q), nil", "\treturn value.FromDouble(math.Floor(num(a[0]) / y)), nil",
		[]string{"./runtime"}, "Scalar"},
	{"int truediv rounds twice beyond 2**53", "runtime/scalar.go",
		"x != 0 && (x > exact", "false && (x > exact",
		[]string{"./runtime"}, "Scalar"},
	{"int add wraps on overflow", "runtime/scalar.go",
		"\tr := x + y\n\treturn r, (x^r)&(y^r) >= 0", "\tr := x + y\n\treturn r, true",
		[]string{"./runtime"}, "Scalar"},
	{"int/float comparison through float64", "runtime/scalar.go",
		"\t\tc, ordered := pyCompare(a[0], a[1])", "\t\tc, ordered := cmp3(num(a[0]) < num(a[1]), num(a[0]) > num(a[1])), num(a[0]) == num(a[0]) && num(a[1]) == num(a[1])",
		[]string{"./runtime"}, "Scalar"},
	{"sym_max keeps an int beside a float", "runtime/scalar.go",
		"\t\tif x.Kind() == value.Double || y.Kind() == value.Double {\n\t\t\treturn value.FromDouble(num(r)), nil\n\t\t}\n", "",
		[]string{"./runtime"}, "Scalar"},
	{"sym_size counts dims from the end", "runtime/scalar.go",
		"return value.FromInt(int64(a[0].Tensor().Size(d))), nil", "return value.FromInt(int64(a[0].Tensor().Size(a[0].Tensor().Dim() - 1 - d))), nil",
		[]string{"./runtime"}, "TestFixtureCases"},

	// sym
	{"FloorDiv truncates", "sym/evalarith.go",
		"\t\t\tq := x.i / y.i\n\t\t\tif (x.i%y.i != 0) && ((x.i < 0) != (y.i < 0)) {\n\t\t\t\tq--\n\t\t\t}", "\t\t\tq := x.i / y.i",
		[]string{"./sym"}, ""},
	{"PythonMod takes the dividend's sign", "sym/evalarith.go",
		"\t\t\tif m != 0 && ((m < 0) != (y.i < 0)) {\n\t\t\t\tm += y.i\n\t\t\t}", "",
		[]string{"./sym"}, ""},
	{"float divmod forgets the floor", "sym/evalarith.go",
		"\t\t\tmod += wx\n\t\t\tdiv -= 1.0", "\t\t\tmod += wx",
		[]string{"./sym"}, ""},
	{"<= evaluates as <", "sym/evalarith.go",
		"\tcase OpLe:\n\t\treturn boolNum(c <= 0)", "\tcase OpLe:\n\t\treturn boolNum(c < 0)",
		[]string{"./sym"}, ""},

	// partition
	{"Check misses cycles", "partition/check.go",
		"\t\t\tcase grey:\n\t\t\t\treturn cycleViolation(path, w, n)", "\t\t\tcase grey:\n\t\t\t\t_ = cycleViolation",
		[]string{"./partition"}, ""},
	{"Check accepts unsupported nodes", "partition/check.go",
		"\t\t\tif !r.Supported[v] {", "\t\t\tif false && !r.Supported[v] {",
		[]string{"./partition"}, ""},
	{"views count as compute", "partition/program.go",
		"\treturn s.Kind != ops.Python && !s.IsView()", "\treturn s.Kind != ops.Python",
		[]string{"./partition"}, ""},
	{"single compute nodes form partitions", "partition/program.go",
		"\t\treq.MinCompute = 2", "\t\treq.MinCompute = 1",
		[]string{"./partition"}, ""},

	// lower
	{"rederive takes symbols no size determines", "sym/know.go",
		"\t\tif !k.Determined(s) {\n\t\t\treturn false", "\t\tif false && !k.Determined(s) {\n\t\t\treturn false",
		[]string{"./lower", "./sym"}, ""},
	{"a value the graph outputs is not kept in the parent", "lower/decide.go",
		"\tif gc.outUse[v] || viaParent[v] {", "\tif viaParent[v] {",
		[]string{"./lower"}, ""},
	{"a boxed value is not kept in the parent", "lower/decide.go",
		"\t\t\tcase doPass, doBox:\n\t\t\t\tneedInParent[v] = true", "\t\t\tcase doPass:\n\t\t\t\tneedInParent[v] = true",
		[]string{"./lower"}, ""},

	// pt2 writer
	{"record alignment 32 bytes", "pt2/write.go",
		"const alignment = 64", "const alignment = 32",
		[]string{"./pt2"}, ""},
	{".data/version without its newline", "pt2/write.go",
		`{".data/version", "6\n"}`, `{".data/version", "6"}`,
		[]string{"./pt2"}, ""},
	{"archive_version before archive_format", "pt2/write.go",
		`{"archive_format", "pt2"}, {"archive_version", "0"}`, `{"archive_version", "0"}, {"archive_format", "pt2"}`,
		[]string{"./pt2"}, ""},
	{"weight files in reverse number order", "pt2/write.go",
		"\t\tif na != nb {\n\t\t\treturn na - nb", "\t\tif na != nb {\n\t\t\treturn nb - na",
		[]string{"./pt2"}, ""},
}
