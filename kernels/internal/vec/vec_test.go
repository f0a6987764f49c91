package vec

import (
	"math"
	"math/rand"
	"testing"
)

const ulp = 1.0 / (1 << 23)

// lengths cover empty slices, the masked tail alone, whole vectors, the
// unrolled loop and every remainder after it.
var lengths = func() []int {
	var l []int
	for n := 0; n <= 70; n++ {
		l = append(l, n)
	}
	return append(l, 127, 128, 129, 1000, 4099)
}()

func randSlice(r *rand.Rand, n int, scale float64) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(r.NormFloat64() * scale)
	}
	return x
}

// specials are the values every loop must carry through.
var specials = []float32{0, float32(math.Copysign(0, -1)), 1, -1, float32(math.NaN()), float32(math.Inf(1)),
	float32(math.Inf(-1)), math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32, 1e-30, -1e-30}

func same(a, b float32) bool { return a == b || a != a && b != b }

// close reports whether got is within rel (relative) or abs of want.
func closeTo(got, want float64, rel, abs float64) bool {
	if math.IsNaN(want) {
		return math.IsNaN(got)
	}
	if math.IsInf(want, 0) {
		return got == want
	}
	return math.Abs(got-want) <= abs+rel*math.Abs(want)
}

func TestBinary(t *testing.T) { forEachISA(t, testBinary) }

func testBinary(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	type vv struct {
		name string
		f    func(dst, a, b []float32)
		ref  func(a, b float32) float32
	}
	for _, c := range []vv{
		{"Add", Add, func(a, b float32) float32 { return a + b }},
		{"Sub", Sub, func(a, b float32) float32 { return a - b }},
		{"Mul", Mul, func(a, b float32) float32 { return a * b }},
		{"Div", Div, func(a, b float32) float32 { return a / b }},
	} {
		for _, n := range lengths {
			a, b := randSlice(r, n, 3), randSlice(r, n, 3)
			for i := 0; i < n && i < len(specials); i++ {
				a[i] = specials[i]
				b[(i*7)%n] = specials[(i+3)%len(specials)]
			}
			dst := make([]float32, n+1)
			dst[n] = 42
			c.f(dst, a, b)
			for i := 0; i < n; i++ {
				if want := c.ref(a[i], b[i]); !same(dst[i], want) {
					t.Fatalf("%s n=%d [%d]: %g op %g = %g, want %g", c.name, n, i, a[i], b[i], dst[i], want)
				}
			}
			if dst[n] != 42 {
				t.Fatalf("%s n=%d wrote past the end", c.name, n)
			}
			// In place.
			c.f(a, a, b)
			for i := 0; i < n; i++ {
				if !same(a[i], dst[i]) {
					t.Fatalf("%s in place n=%d [%d] differs", c.name, n, i)
				}
			}
		}
	}
	type vs struct {
		name string
		f    func(dst, a []float32, s float32)
		ref  func(a, s float32) float32
	}
	for _, c := range []vs{
		{"AddScalar", AddScalar, func(a, s float32) float32 { return a + s }},
		{"SubScalar", SubScalar, func(a, s float32) float32 { return a - s }},
		{"MulScalar", MulScalar, func(a, s float32) float32 { return a * s }},
		{"DivScalar", DivScalar, func(a, s float32) float32 { return a / s }},
		{"ScalarSub", func(dst, a []float32, s float32) { ScalarSub(dst, s, a) }, func(a, s float32) float32 { return s - a }},
		{"ScalarDiv", func(dst, a []float32, s float32) { ScalarDiv(dst, s, a) }, func(a, s float32) float32 { return s / a }},
	} {
		for _, n := range lengths {
			a := randSlice(r, n, 3)
			copy(a, specials)
			for _, s := range []float32{0.5, -3, 0, float32(math.Inf(1)), float32(math.NaN())} {
				dst := make([]float32, n+1)
				dst[n] = 42
				c.f(dst, a, s)
				for i := 0; i < n; i++ {
					if want := c.ref(a[i], s); !same(dst[i], want) {
						t.Fatalf("%s n=%d s=%g [%d]: %g -> %g, want %g", c.name, n, s, i, a[i], dst[i], want)
					}
				}
				if dst[n] != 42 {
					t.Fatalf("%s n=%d wrote past the end", c.name, n)
				}
			}
		}
	}
}

func TestMax(t *testing.T) { forEachISA(t, testMax) }

func testMax(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for _, n := range lengths {
		x := randSlice(r, n, 10)
		want := float32(math.Inf(-1))
		for _, v := range x {
			want = max(want, v)
		}
		if got := Max(x); got != want {
			t.Fatalf("Max n=%d = %g, want %g", n, got, want)
		}
		if got := maxGo(x); got != want {
			t.Fatalf("maxGo n=%d = %g, want %g", n, got, want)
		}
		for i := 0; i < n; i += 1 + n/5 {
			y := append([]float32(nil), x...)
			y[i] = float32(math.NaN())
			if got := Max(y); got == got {
				t.Fatalf("Max n=%d with NaN at %d = %g", n, i, got)
			}
		}
	}
	if Max([]float32{float32(math.Inf(-1)), float32(math.Inf(-1))}) != float32(math.Inf(-1)) {
		t.Fatal("Max of -Inf")
	}
}

// checkUnary compares f over x against a float64 reference within rel
// (relative) and abs, and against the portable loop.
func checkUnary(t *testing.T, name string, f, generic func(dst, x []float32), x []float32, ref func(float64) float64, rel, abs float64) {
	t.Helper()
	got := make([]float32, len(x)+1)
	got[len(x)] = 42
	f(got, x)
	gen := make([]float32, len(x))
	generic(gen, x)
	worst := 0.0
	for i, v := range x {
		want := float64(float32(ref(float64(v))))
		if !closeTo(float64(got[i]), want, rel, abs) {
			t.Fatalf("%s(%g) = %g, want %g", name, v, got[i], want)
		}
		if !closeTo(float64(gen[i]), want, rel, abs) {
			t.Fatalf("%s portable(%g) = %g, want %g", name, v, gen[i], want)
		}
		if !math.IsNaN(want) && !math.IsInf(want, 0) && math.Abs(want) >= 0x1p-126 {
			worst = max(worst, math.Abs(float64(got[i])-want)/math.Abs(want))
		}
	}
	if got[len(x)] != 42 {
		t.Fatalf("%s wrote past the end", name)
	}
	t.Logf("%s: %d values, worst relative error %.3g ULP", name, len(x), worst/ulp)
}

func grid(lo, hi float64, n int) []float32 {
	x := make([]float32, n+1)
	for i := range x {
		x[i] = float32(lo + (hi-lo)*float64(i)/float64(n))
	}
	return x
}

func TestExp(t *testing.T) { forEachISA(t, testExp) }

func testExp(t *testing.T) {
	exp := func(dst, x []float32) { ExpShiftSum(dst, x, 0) }
	expGo := func(dst, x []float32) { expShiftSumGo(dst, x, 0) }
	checkUnary(t, "exp", exp, expGo, grid(-87, 88.7, 100001), math.Exp, 3*ulp, 0)
	// Where exp is subnormal the loops give an exact 0.
	flushed := func(x float64) float64 {
		if e := math.Exp(x); e >= 0x1p-126 || e != e {
			return e
		}
		return 0
	}
	checkUnary(t, "exp subnormal", exp, expGo, grid(-104, -87, 10001), flushed, 3*ulp, 0)
	checkUnary(t, "exp specials", exp, expGo, append(specials, -200, 200, 88.72, 88.73, -103.98, -math.MaxFloat32), flushed, 3*ulp, 0)
}

// TestExpFlush checks every float32 around the flush point: a normal
// result or an exact +0, never a subnormal, and 0 exactly where exp(x) is
// below the least normal float32.
func TestExpFlush(t *testing.T) { forEachISA(t, testExpFlush) }

func testExpFlush(t *testing.T) {
	lo := math.Float32bits(-87.3)
	var x []float32
	for b := lo; b <= math.Float32bits(-87.4); b++ {
		x = append(x, math.Float32frombits(b))
	}
	got, gen := make([]float32, len(x)), make([]float32, len(x))
	ExpShiftSum(got, x, 0)
	expShiftSumGo(gen, x, 0)
	for i, v := range x {
		normal := math.Exp(float64(v)) >= 0x1p-126
		for _, r := range []float32{got[i], gen[i], Exp(v)} {
			if normal && r < 0x1p-126 || !normal && (r != 0 || math.Signbit(float64(r))) {
				t.Fatalf("exp(%g) = %g (true value %g)", v, r, math.Exp(float64(v)))
			}
		}
	}
}

func TestExpShiftSum(t *testing.T) { forEachISA(t, testExpShiftSum) }

func testExpShiftSum(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for _, n := range lengths {
		x := randSlice(r, n, 4)
		shift := Max(x)
		dst := make([]float32, n)
		s := ExpShiftSum(dst, x, shift)
		want := 0.0
		for i, v := range x {
			e := math.Exp(float64(v - shift))
			want += e
			if !closeTo(float64(dst[i]), e, 4*ulp, 1e-45) {
				t.Fatalf("n=%d [%d] exp(%g-%g) = %g, want %g", n, i, v, shift, dst[i], e)
			}
		}
		if !closeTo(s, want, 4*ulp, 0) {
			t.Fatalf("n=%d sum %g, want %g", n, s, want)
		}
		if g := expShiftSumGo(make([]float32, n), x, shift); !closeTo(g, want, 4*ulp, 0) {
			t.Fatalf("n=%d portable sum %g, want %g", n, g, want)
		}
	}
	// A masked softmax row: -Inf and the most negative float give 0.
	x := []float32{0, float32(math.Inf(-1)), -math.MaxFloat32, 1, 2, 3, 4, 5, 6, 7, 8}
	dst := make([]float32, len(x))
	ExpShiftSum(dst, x, 8)
	if dst[1] != 0 || dst[2] != 0 || dst[10] != 1 {
		t.Fatalf("masked row: %v", dst)
	}
}

func TestTanh(t *testing.T) { forEachISA(t, testTanh) }

func testTanh(t *testing.T) {
	checkUnary(t, "tanh", Tanh, tanhGo, grid(-10, 10, 100001), math.Tanh, 8*ulp, 0)
	checkUnary(t, "tanh small", Tanh, tanhGo, grid(-0.01, 0.01, 10001), math.Tanh, 4*ulp, 0)
	checkUnary(t, "tanh specials", Tanh, tanhGo, specials, math.Tanh, 8*ulp, 0)
}

func geluTanh64(x float64) float64 {
	return 0.5 * x * (1 + math.Tanh(geluBeta*(x+geluKappa*x*x*x)))
}

func geluErf64(x float64) float64 { return x * 0.5 * math.Erfc(-x/math.Sqrt2) }

func TestGelu(t *testing.T) { forEachISA(t, testGelu) }

func testGelu(t *testing.T) {
	// The tanh form is as close as tanh is, relative to the result, except
	// where 1 + tanh cancels (large negative x): there, absolutely.
	checkUnary(t, "gelu_tanh", GeluTanh, geluTanhGo, grid(-12, 12, 100001), geluTanh64, 16*ulp, 1e-6)
	checkUnary(t, "gelu_tanh specials", GeluTanh, geluTanhGo, specials[:8], geluTanh64, 16*ulp, 1e-6)
	// erf by A&S 7.1.26: absolute error below 1.5e-7 in erf, so below
	// 1e-7*|x| in gelu; float32 rounding adds an ULP or two.
	x := grid(-12, 12, 100001)
	checkUnary(t, "gelu_erf", GeluErf, geluErfGo, x, geluErf64, 4*ulp, 1.2e-6)
	for _, v := range x {
		got := GeluErf1(v)
		if d := math.Abs(float64(got) - geluErf64(float64(v))); d > 2e-7*math.Abs(float64(v))+1e-30 && d > 8*ulp*math.Abs(geluErf64(float64(v))) {
			t.Fatalf("gelu_erf(%g) = %g, want %g", v, got, geluErf64(float64(v)))
		}
	}
	checkUnary(t, "gelu_erf specials", GeluErf, geluErfGo, []float32{0, 1, -1, float32(math.NaN()), float32(math.Inf(1)), 1e-30, -1e-30}, geluErf64, 4*ulp, 1e-7)
}

func TestClampExtrema(t *testing.T) { forEachISA(t, testClampExtrema) }

func testClampExtrema(t *testing.T) {
	r := rand.New(rand.NewSource(9))
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	for _, n := range lengths {
		a, b := randSlice(r, n, 4), randSlice(r, n, 4)
		copy(a, specials)
		for i := 0; i < n && i < len(specials); i++ {
			b[(i*5)%n] = specials[(i+2)%len(specials)]
		}
		for _, c := range []struct {
			name string
			f    func(dst, a, b []float32)
			ref  func(a, b float32) float32
		}{
			{"Maximum", Maximum, func(a, b float32) float32 {
				if a != a || b != b {
					return nan
				}
				return max(a, b)
			}},
			{"Minimum", Minimum, func(a, b float32) float32 {
				if a != a || b != b {
					return nan
				}
				return min(a, b)
			}},
		} {
			dst := make([]float32, n+1)
			dst[n] = 42
			c.f(dst, a, b)
			for i := 0; i < n; i++ {
				if want := c.ref(a[i], b[i]); !same(dst[i], want) {
					t.Fatalf("%s n=%d [%d]: (%g, %g) = %g, want %g", c.name, n, i, a[i], b[i], dst[i], want)
				}
			}
			if dst[n] != 42 {
				t.Fatalf("%s n=%d wrote past the end", c.name, n)
			}
		}
		for _, bounds := range [][2]float32{{0, 6}, {-1, 1}, {-inf, 0.5}, {-0.5, inf}, {2, 1}, {nan, 1}, {0, nan}} {
			lo, hi := bounds[0], bounds[1]
			dst := make([]float32, n+1)
			dst[n] = 42
			Clamp(dst, a, lo, hi)
			for i, v := range a[:n] {
				want := Clamp1(v, lo, hi)
				if lo != lo || hi != hi {
					want = nan
				}
				if !same(dst[i], want) {
					t.Fatalf("Clamp(%g, %g, %g) n=%d = %g, want %g", v, lo, hi, n, dst[i], want)
				}
			}
			if dst[n] != 42 {
				t.Fatalf("Clamp n=%d wrote past the end", n)
			}
		}
	}
}

// The hard activations compute exactly the float32 steps of their
// decomposition; sigmoid and silu are within a few ULP of float64.
func TestActivations(t *testing.T) { forEachISA(t, testActivations) }

func testActivations(t *testing.T) {
	r := rand.New(rand.NewSource(10))
	for _, n := range lengths {
		x := randSlice(r, n, 5)
		copy(x, specials)
		for _, c := range []struct {
			name string
			f    func(dst, x []float32)
			ref  func(float32) float32
		}{
			{"Hardswish", Hardswish, func(v float32) float32 {
				t := v + 3
				t = Clamp1(t, 0, 6)
				t = v * t
				return t / 6
			}},
			{"Hardsigmoid", Hardsigmoid, func(v float32) float32 { return Clamp1(v+3, 0, 6) / 6 }},
		} {
			dst := make([]float32, n+1)
			dst[n] = 42
			c.f(dst, x)
			for i, v := range x {
				if want := c.ref(v); !same(dst[i], want) {
					t.Fatalf("%s(%g) = %g, want %g", c.name, v, dst[i], want)
				}
			}
			if dst[n] != 42 {
				t.Fatalf("%s n=%d wrote past the end", c.name, n)
			}
		}
	}
	sigmoid := func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
	silu := func(x float64) float64 { return x / (1 + math.Exp(-x)) }
	x := append(grid(-20, 20, 100001), specials...)
	checkUnary(t, "sigmoid", Sigmoid, sigmoidGo, x, sigmoid, 4*ulp, 0)
	// Far out the float32 exp is 0 or +Inf (flushed or overflowed): 1 and
	// 0 (or -0 for silu); true values there are below 1e-38.
	checkUnary(t, "sigmoid far", Sigmoid, sigmoidGo, grid(-120, 120, 1001), sigmoid, 4*ulp, 1e-38)
	checkUnary(t, "silu", Silu, siluGo, x, silu, 4*ulp, 1e-38)
	checkUnary(t, "silu far", Silu, siluGo, grid(-120, 120, 1001), silu, 4*ulp, 1e-36)
}

func TestAxpy(t *testing.T) { forEachISA(t, testAxpy) }

func testAxpy(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	for _, n := range lengths {
		x, d := randSlice(r, n, 3), randSlice(r, n, 3)
		dst := append(append([]float32(nil), d...), 42)
		Axpy(dst, x, 0.75)
		for i := range x {
			want := float64(d[i]) + 0.75*float64(x[i])
			if !closeTo(float64(dst[i]), want, 0, ulp*(math.Abs(float64(d[i]))+math.Abs(0.75*float64(x[i])))) {
				t.Fatalf("n=%d [%d] = %g, want %g", n, i, dst[i], want)
			}
		}
		if dst[n] != 42 {
			t.Fatalf("n=%d wrote past the end", n)
		}
	}
}

func TestShortDestinationPanics(t *testing.T) { forEachISA(t, testShortDestinationPanics) }

func testShortDestinationPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	Add(make([]float32, 3), make([]float32, 4), make([]float32, 4))
}

func BenchmarkVec(b *testing.B) {
	r := rand.New(rand.NewSource(1))
	x, y := randSlice(r, 32768, 2), randSlice(r, 32768, 2)
	dst := make([]float32, len(x))
	bench := func(name string, f func()) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(4 * len(x)))
			for b.Loop() {
				f()
			}
		})
	}
	bench("Add", func() { Add(dst, x, y) })
	bench("MulScalar", func() { MulScalar(dst, x, 0.5) })
	bench("Max", func() { Max(x) })
	bench("ExpShiftSum", func() { ExpShiftSum(dst, x, 4) })
	bench("Tanh", func() { Tanh(dst, x) })
	bench("GeluTanh", func() { GeluTanh(dst, x) })
	bench("GeluErf", func() { GeluErf(dst, x) })
	bench("GeluErf/go", func() { geluErfGo(dst, x) })
	bench("Clamp", func() { Clamp(dst, x, 0, 6) })
	bench("Hardswish", func() { Hardswish(dst, x) })
	bench("Silu", func() { Silu(dst, x) })
	bench("Silu/go", func() { siluGo(dst, x) })
	masked := make([]float32, len(x))
	for i := range masked {
		masked[i] = x[i]
		if i%2 == 1 {
			masked[i] = -math.MaxFloat32
		}
	}
	bench("ExpShiftSum/masked", func() { ExpShiftSum(dst, masked, 4) })
}

func TestMeanVar(t *testing.T) { forEachISA(t, testMeanVar) }

func testMeanVar(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	for _, n := range lengths {
		x := randSlice(r, n, 3)
		for i := range x {
			x[i] += 10
		}
		var s float64
		for _, v := range x {
			s += float64(v)
		}
		mean := s / float64(n)
		var ss float64
		for _, v := range x {
			ss += (float64(v) - mean) * (float64(v) - mean)
		}
		variance := ss / float64(n)
		for name, f := range map[string]func([]float32) (float64, float64){"asm": MeanVar, "go": meanVarGo} {
			m, v := f(x)
			if n == 0 {
				if m == m || v == v {
					t.Fatalf("%s n=0: %g %g", name, m, v)
				}
				continue
			}
			if math.Abs(m-mean) > 1e-12*math.Abs(mean) || math.Abs(v-variance) > 1e-12*variance {
				t.Fatalf("%s n=%d: mean %g var %g, want %g %g", name, n, m, v, mean, variance)
			}
		}
	}
}

func TestNormalize(t *testing.T) { forEachISA(t, testNormalize) }

func testNormalize(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	for _, n := range lengths {
		x, g, b := randSlice(r, n, 3), randSlice(r, n, 1), randSlice(r, n, 1)
		dst := make([]float32, n+1)
		dst[n] = 42
		Normalize(dst, x, g, b, 0.25, 1.5)
		for i := 0; i < n; i++ {
			want := (float64(x[i])-0.25)*1.5*float64(g[i]) + float64(b[i])
			if !closeTo(float64(dst[i]), want, 4*ulp, 4*ulp*(math.Abs(float64(x[i]))+1)*math.Abs(float64(g[i]))) {
				t.Fatalf("n=%d [%d] = %g, want %g", n, i, dst[i], want)
			}
		}
		if dst[n] != 42 {
			t.Fatalf("n=%d wrote past the end", n)
		}
	}
}

func TestReluScaleAdd(t *testing.T) { forEachISA(t, testReluScaleAdd) }

func testReluScaleAdd(t *testing.T) {
	r := rand.New(rand.NewSource(6))
	for _, n := range lengths {
		x := randSlice(r, n, 3)
		copy(x, specials)
		dst := make([]float32, n+1)
		dst[n] = 42
		Relu(dst, x)
		for i, v := range x {
			want := v
			if v < 0 {
				want = 0
			}
			if !same(dst[i], want) || math.Signbit(float64(dst[i])) != math.Signbit(float64(want)) {
				t.Fatalf("Relu(%g) = %g, want %g", v, dst[i], want)
			}
		}
		ScaleAdd(dst, x, 1.5, -0.25)
		for i, v := range x {
			want := float64(v)*1.5 - 0.25
			// Unfused, the product rounds first: an ULP of each term.
			tol := ulp * (math.Abs(float64(v)*1.5) + 0.25)
			if !closeTo(float64(dst[i]), want, 0, tol) && !(math.IsInf(float64(v), 0) || v != v || math.Abs(float64(v)) > 1e38) {
				t.Fatalf("ScaleAdd(%g) = %g, want %g", v, dst[i], want)
			}
		}
		if dst[n] != 42 {
			t.Fatalf("n=%d wrote past the end", n)
		}
	}
}

// The row loops give exactly what the separate steps give: Max,
// ExpShiftSum and MulScalar, after MulScalar and Add for the masked form.
func TestSoftmaxRows(t *testing.T) { forEachISA(t, testSoftmaxRows) }

func testSoftmaxRows(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for _, n := range append(lengths[1:40], 127, 128, 129, 511, 512, 513, 1000) {
		rows := 1 + r.Intn(4)
		xs, ds := n+r.Intn(3), n+r.Intn(3)
		x := randSlice(r, (rows-1)*xs+n, 4)
		mask := randSlice(r, n, 1)
		for i := range mask {
			if r.Intn(5) == 0 {
				mask[i] = -math.MaxFloat32
			}
		}
		if n > 3 {
			x[2] = float32(math.Inf(-1))
		}
		ref := func(masked bool) []float32 {
			want := make([]float32, (rows-1)*ds+n)
			for k := 0; k < rows; k++ {
				o, in := want[k*ds:][:n], x[k*xs:][:n]
				if masked {
					MulScalar(o, in, 0.125)
					Add(o, o, mask)
					in = o
				}
				s := ExpShiftSum(o, in, Max(in))
				MulScalar(o, o, float32(1/s))
			}
			return want
		}
		got := make([]float32, (rows-1)*ds+n)
		SoftmaxRows(got, x, n, rows, ds, xs)
		want := ref(false)
		for i := range want {
			if !same(got[i], want[i]) {
				t.Fatalf("n=%d rows=%d [%d] = %g, want %g", n, rows, i, got[i], want[i])
			}
		}
		got = make([]float32, (rows-1)*ds+n)
		ScaledMaskedSoftmaxRows(got, x, mask, 0.125, n, rows, ds, xs, 0)
		want = ref(true)
		for i := range want {
			if !same(got[i], want[i]) {
				t.Fatalf("masked n=%d rows=%d [%d] = %g, want %g", n, rows, i, got[i], want[i])
			}
		}
		// In place.
		y := append([]float32(nil), x[:n]...)
		SoftmaxRows(y, y, n, 1, 0, 0)
		want = ref(false)
		for i := 0; i < n; i++ {
			if !same(y[i], want[i]) {
				t.Fatalf("in place n=%d [%d] = %g, want %g", n, i, y[i], want[i])
			}
		}
	}
}

// LayerNormRows gives exactly what MeanVar and Normalize give row by row.
func TestLayerNormRows(t *testing.T) { forEachISA(t, testLayerNormRows) }

func testLayerNormRows(t *testing.T) {
	r := rand.New(rand.NewSource(8))
	for _, n := range append(lengths[1:40], 64, 127, 768, 1000) {
		rows := 1 + r.Intn(5)
		x, g, b := randSlice(r, n*rows, 2), randSlice(r, n, 1), randSlice(r, n, 1)
		for i := range x {
			x[i] += 3
		}
		got := make([]float32, n*rows+1)
		got[n*rows] = 42
		means, rstds := make([]float64, rows), make([]float64, rows)
		LayerNormRows(got, x, g, b, means, rstds, n, rows, 1e-5)
		for k := 0; k < rows; k++ {
			mean, variance := MeanVar(x[k*n : (k+1)*n])
			rstd := 1 / math.Sqrt(math.Max(variance, 0)+1e-5)
			if means[k] != mean || rstds[k] != rstd {
				t.Fatalf("n=%d row %d: stats %g %g, want %g %g", n, k, means[k], rstds[k], mean, rstd)
			}
			want := make([]float32, n)
			Normalize(want, x[k*n:(k+1)*n], g, b, float32(mean), float32(rstd))
			for i := range want {
				if got[k*n+i] != want[i] {
					t.Fatalf("n=%d row %d [%d] = %g, want %g", n, k, i, got[k*n+i], want[i])
				}
			}
		}
		if got[n*rows] != 42 {
			t.Fatalf("n=%d wrote past the end", n)
		}
	}
}

func TestTaps(t *testing.T) { forEachISA(t, testTaps) }

func testTaps(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	for _, n := range lengths {
		for _, taps := range []int{1, 3, 9, 25} {
			src := randSlice(r, n+40, 1)
			w := randSlice(r, taps, 1)
			offs := make([]int, taps)
			for i := range offs {
				offs[i] = r.Intn(41)
			}
			dst := make([]float32, n+1)
			dst[n] = 42
			Taps(dst[:n], src, offs, w, 0.5)
			for i := 0; i < n; i++ {
				want, mag := 0.5, 0.5
				for k, o := range offs {
					want += float64(w[k]) * float64(src[i+o])
					mag += math.Abs(float64(w[k]) * float64(src[i+o]))
				}
				if !closeTo(float64(dst[i]), want, 0, float64(taps+1)*ulp*mag) {
					t.Fatalf("n=%d taps=%d [%d] = %g, want %g", n, taps, i, dst[i], want)
				}
			}
			if dst[n] != 42 {
				t.Fatalf("n=%d taps=%d wrote past the end", n, taps)
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Fatal("an offset reading past src did not panic")
		}
	}()
	Taps(make([]float32, 8), make([]float32, 10), []int{3}, []float32{1}, 0)
}

func TestSum(t *testing.T) { forEachISA(t, testSum) }

func testSum(t *testing.T) {
	r := rand.New(rand.NewSource(12))
	for _, n := range lengths {
		x := randSlice(r, n, 3)
		want, mag := 0.0, 0.0
		for _, v := range x {
			want += float64(v)
			mag += math.Abs(float64(v))
		}
		if got := Sum(x); math.Abs(got-want) > 1e-12*mag {
			t.Fatalf("n=%d: sum %g, want %g", n, got, want)
		}
	}
}

func TestDeinterleave(t *testing.T) { forEachISA(t, testDeinterleave) }

func testDeinterleave(t *testing.T) {
	for _, n := range lengths {
		src := make([]float32, n)
		for i := range src {
			src[i] = float32(i)
		}
		ne, no := (n+1)/2, n/2
		even, odd := make([]float32, ne+1), make([]float32, no+1)
		even[ne], odd[no] = 42, 42
		Deinterleave(even[:ne], odd[:no], src)
		for i := 0; i < ne; i++ {
			if even[i] != float32(2*i) {
				t.Fatalf("n=%d even[%d] = %g", n, i, even[i])
			}
		}
		for i := 0; i < no; i++ {
			if odd[i] != float32(2*i+1) {
				t.Fatalf("n=%d odd[%d] = %g", n, i, odd[i])
			}
		}
		if even[ne] != 42 || odd[no] != 42 {
			t.Fatalf("n=%d wrote past the end", n)
		}
	}
}

func TestTapsChannels(t *testing.T) { forEachISA(t, testTapsChannels) }

func testTapsChannels(t *testing.T) {
	r := rand.New(rand.NewSource(13))
	for _, n := range lengths {
		for _, nc := range []int{1, 3, 4, 5, 8, 9, 12, 16, 21} {
			taps := 1 + r.Intn(27)
			src := randSlice(r, n+40, 1)
			w, bias := randSlice(r, nc*taps, 1), randSlice(r, nc, 1)
			offs := make([]int, taps)
			for i := range offs {
				offs[i] = r.Intn(41)
			}
			ds := n + 3
			dst := make([]float32, nc*ds)
			for i := range dst {
				dst[i] = 42
			}
			TapsChannels(dst, ds, n, src, offs, w, bias)
			for c := 0; c < nc; c++ {
				for i := 0; i < ds; i++ {
					got := dst[c*ds+i]
					if i >= n {
						if got != 42 {
							t.Fatalf("n=%d nc=%d: wrote [%d][%d]", n, nc, c, i)
						}
						continue
					}
					want, mag := float64(bias[c]), math.Abs(float64(bias[c]))
					for k, o := range offs {
						want += float64(w[c*taps+k]) * float64(src[i+o])
						mag += math.Abs(float64(w[c*taps+k]) * float64(src[i+o]))
					}
					if !closeTo(float64(got), want, 0, float64(taps+1)*ulp*mag) {
						t.Fatalf("n=%d nc=%d taps=%d [%d][%d] = %g, want %g", n, nc, taps, c, i, got, want)
					}
				}
			}
		}
	}
}

func TestTapsPlanes(t *testing.T) { forEachISA(t, testTapsPlanes) }

// Each plane of TapsPlanes is bitwise what Taps gives it alone.
func testTapsPlanes(t *testing.T) {
	r := rand.New(rand.NewSource(14))
	for _, n := range lengths {
		np, taps := 1+r.Intn(5), 1+r.Intn(25)
		ss, ws, ds := n+41, taps+2, n+5
		src := randSlice(r, np*ss, 1)
		w, bias := randSlice(r, np*ws, 1), randSlice(r, np, 1)
		offs := make([]int, taps)
		for i := range offs {
			offs[i] = r.Intn(41)
		}
		dst := make([]float32, np*ds)
		TapsPlanes(dst, ds, n, src, ss, offs, w, ws, bias)
		for p := 0; p < np; p++ {
			want := make([]float32, n)
			Taps(want, src[p*ss:], offs, w[p*ws:p*ws+taps], bias[p])
			for i := range want {
				if !same(dst[p*ds+i], want[i]) {
					t.Fatalf("n=%d plane %d [%d] = %g, Taps gives %g", n, p, i, dst[p*ds+i], want[i])
				}
			}
		}
	}
}

func TestDeinterleaveRows(t *testing.T) { forEachISA(t, testDeinterleaveRows) }

// Each row of DeinterleaveRows is what Deinterleave makes of it, and
// nothing between the rows is written.
func testDeinterleaveRows(t *testing.T) {
	for _, n := range lengths[1:] {
		rows, ds, ss := 3, n+2, 2*n+3
		src := make([]float32, (rows-1)*ss+2*n)
		for i := range src {
			src[i] = float32(i)
		}
		even, odd := make([]float32, (rows-1)*ds+n+1), make([]float32, (rows-1)*ds+n+1)
		for i := range even {
			even[i], odd[i] = 42, 42
		}
		DeinterleaveRows(even, odd, ds, src, ss, n, rows)
		for r := 0; r < rows; r++ {
			for i := 0; i < ds && r*ds+i < len(even); i++ {
				we, wo := float32(42), float32(42)
				if i < n {
					we, wo = src[r*ss+2*i], src[r*ss+2*i+1]
				}
				if even[r*ds+i] != we || odd[r*ds+i] != wo {
					t.Fatalf("n=%d row %d [%d]: %g %g, want %g %g", n, r, i, even[r*ds+i], odd[r*ds+i], we, wo)
				}
			}
		}
	}
}

func TestCopyRows(t *testing.T) { forEachISA(t, testCopyRows) }

// Each row of CopyRows is its source row, and nothing between the rows
// or past the last is written.
func testCopyRows(t *testing.T) {
	for _, n := range lengths[1:] {
		rows, ds, ss := 3, n+3, n+1
		src := make([]float32, (rows-1)*ss+n)
		for i := range src {
			src[i] = float32(i + 1)
		}
		dst := make([]float32, (rows-1)*ds+n+5)
		for i := range dst {
			dst[i] = 42
		}
		CopyRows(dst, ds, src, ss, n, rows)
		for i, v := range dst {
			r, c := i/ds, i%ds
			want := float32(42)
			if r < rows && c < n {
				want = src[r*ss+c]
			}
			if v != want {
				t.Fatalf("n=%d dst[%d] (row %d, column %d) = %g, want %g", n, i, r, c, v, want)
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Fatal("rows past the destination's end did not panic")
		}
	}()
	CopyRows(make([]float32, 10), 5, make([]float32, 20), 5, 5, 3)
}

func TestHWC8(t *testing.T) { forEachISA(t, testHWC8) }

// PackHWC8 puts every pixel's eight channels where its offset says and
// touches nothing else, UnpackHWC8 undoes it, and TapsHWC8 is the sum
// its doc describes, for every pixel count (the last eight overlap).
func testHWC8(t *testing.T) {
	for _, n := range lengths[1:] {
		plane := n + 3
		src := make([]float32, 7*plane+n)
		for i := range src {
			src[i] = float32(i%97) - 40
		}
		// Pixel p goes to 8*(2p+1): gaps between pixels stay 42.
		offs := make([]int, n)
		for p := range offs {
			offs[p] = 8 * (2*p + 1)
		}
		packed := make([]float32, 8*(2*n+2))
		for i := range packed {
			packed[i] = 42
		}
		PackHWC8(packed, NewPixels(offs), src, plane)
		for i, v := range packed {
			want := float32(42)
			if q := i/8 - 1; q >= 0 && q%2 == 0 && q/2 < n {
				want = src[i%8*plane+q/2]
			}
			if v != want {
				t.Fatalf("n=%d pack [%d] = %g, want %g", n, i, v, want)
			}
		}
		dense := make([]float32, 8*n)
		for p := 0; p < n; p++ {
			copy(dense[8*p:], packed[offs[p]:offs[p]+8])
		}
		back := make([]float32, 7*plane+n+2)
		for i := range back {
			back[i] = 42
		}
		UnpackHWC8(back, plane, dense, n)
		for i, v := range back {
			want := float32(42)
			if i%plane < n && i/plane < 8 {
				want = src[i]
			}
			if v != want {
				t.Fatalf("n=%d unpack [%d] = %g, want %g", n, i, v, want)
			}
		}
		// Three taps per pixel over the packed plane: itself and the gaps
		// either side.
		taps := []int{-8, 0, 8}
		w := make([]float32, 8*len(taps))
		for i := range w {
			w[i] = float32(i%5) - 2.5
		}
		bias := []float32{1, 2, 3, 4, 5, 6, 7, 8}
		out := make([]float32, 8*n+8)
		out[8*n] = 42
		TapsHWC8(out, packed, NewPixels(offs), NewPixels(taps), w, bias)
		for p := 0; p < n; p++ {
			for c := 0; c < 8; c++ {
				want := float64(bias[c])
				for k, o := range taps {
					want += float64(w[8*k+c]) * float64(packed[offs[p]+o+c])
				}
				if got := out[8*p+c]; math.Abs(float64(got)-want) > 1e-4*math.Max(1, math.Abs(want)) {
					t.Fatalf("n=%d taps pixel %d channel %d = %g, want %g", n, p, c, got, want)
				}
			}
		}
		if out[8*n] != 42 {
			t.Fatalf("n=%d taps wrote past its pixels", n)
		}
	}
}

func TestTranspose(t *testing.T) { forEachISA(t, testTranspose) }

// Transpose moves every value to its transposed place and writes nothing
// else, for block and edge sizes on both sides.
func testTranspose(t *testing.T) {
	for _, rows := range []int{1, 7, 8, 9, 16, 17, 65} {
		for _, cols := range []int{1, 5, 8, 15, 16, 24} {
			ls, ld := cols+3, rows+2
			src := make([]float32, (rows-1)*ls+cols)
			for i := range src {
				src[i] = float32(i + 1)
			}
			dst := make([]float32, (cols-1)*ld+rows+4)
			for i := range dst {
				dst[i] = -1
			}
			Transpose(dst, ld, src, ls, rows, cols)
			for i, v := range dst {
				c, r := i/ld, i%ld
				want := float32(-1)
				if c < cols && r < rows {
					want = src[r*ls+c]
				}
				if v != want {
					t.Fatalf("%dx%d: dst[%d] (row %d, column %d) = %g, want %g", rows, cols, i, c, r, v, want)
				}
			}
		}
	}
}

func TestGateRows(t *testing.T) { forEachISA(t, testGateRows) }

func testGateRows(t *testing.T) {
	r := rand.New(rand.NewSource(13))
	ops := []struct {
		op  RowOp
		ref func(x, s float32) float32
	}{
		{RowAdd, func(x, s float32) float32 { return x + s }},
		{RowSub, func(x, s float32) float32 { return x - s }},
		{RowMul, func(x, s float32) float32 { return x * s }},
		{RowDiv, func(x, s float32) float32 { return x / s }},
		{RowSubFrom, func(x, s float32) float32 { return s - x }},
		{RowDivInto, func(x, s float32) float32 { return s / x }},
	}
	for _, o := range ops {
		for _, cols := range []int{1, 3, 7, 8, 9, 16, 36, 49, 196} {
			for _, rows := range []int{1, 2, 5, 17} {
				for _, step := range []int{0, 1, 3} {
					x := randSlice(r, rows*cols, 3)
					gate := randSlice(r, (rows-1)*step+1, 2)
					// Specials in the rows and in the gate.
					for i := range x {
						if r.Intn(8) == 0 {
							x[i] = specials[r.Intn(len(specials))]
						}
					}
					gate[0] = specials[r.Intn(len(specials))]
					dst := make([]float32, len(x)+1)
					dst[len(x)] = 42
					GateRows(o.op, dst[:len(x)], x, gate, cols, step)
					for i, v := range x {
						if want := o.ref(v, gate[i/cols*step]); !same(dst[i], want) {
							t.Fatalf("op %d cols %d rows %d step %d: element %d is %v, want %v", o.op, cols, rows, step, i, dst[i], want)
						}
					}
					if dst[len(x)] != 42 {
						t.Fatalf("op %d cols %d rows %d: wrote past the rows", o.op, cols, rows)
					}
					// In place.
					GateRows(o.op, x, x, gate, cols, step)
					for i := range x {
						if !same(x[i], dst[i]) {
							t.Fatalf("op %d cols %d rows %d step %d: in place, element %d is %v, want %v", o.op, cols, rows, step, i, x[i], dst[i])
						}
					}
				}
			}
		}
	}
}

func TestGateRowsBadRowsPanic(t *testing.T) {
	for name, f := range map[string]func(){
		"short dst":  func() { GateRows(RowMul, make([]float32, 3), make([]float32, 4), make([]float32, 2), 2, 1) },
		"ragged":     func() { GateRows(RowMul, make([]float32, 5), make([]float32, 5), make([]float32, 3), 2, 1) },
		"short gate": func() { GateRows(RowMul, make([]float32, 6), make([]float32, 6), make([]float32, 2), 2, 1) },
		"zero cols":  func() { GateRows(RowMul, make([]float32, 6), make([]float32, 6), make([]float32, 2), 0, 1) },
		"mean rows":  func() { MeanRows(make([]float32, 3), make([]float32, 8), 3) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

func TestMeanRows(t *testing.T) { forEachISA(t, testMeanRows) }

// testMeanRows checks MeanRows against what Sum gives each row, bit for
// bit: a mean's value must not depend on whether its rows were pooled
// one at a time or all at once.
func testMeanRows(t *testing.T) {
	r := rand.New(rand.NewSource(14))
	for _, cols := range []int{1, 2, 7, 8, 9, 15, 16, 17, 36, 49, 196, 1000} {
		for _, rows := range []int{1, 2, 9} {
			x := randSlice(r, rows*cols, 3)
			if cols > 2 {
				x[r.Intn(len(x))] = specials[r.Intn(len(specials))]
			}
			dst := make([]float32, rows+1)
			dst[rows] = 42
			MeanRows(dst[:rows], x, cols)
			for i := 0; i < rows; i++ {
				if want := float32(Sum(x[i*cols:(i+1)*cols]) / float64(cols)); !same(dst[i], want) {
					t.Fatalf("cols %d rows %d: row %d mean %v, want %v", cols, rows, i, dst[i], want)
				}
			}
			if dst[rows] != 42 {
				t.Fatalf("cols %d rows %d: wrote past the rows", cols, rows)
			}
		}
	}
}

// KeepMax keeps, lane by lane, the later value only where it is larger or
// NaN: bit for bit the scalar rule, -0 and +0 and NaNs on either side
// included, at every length and on every ISA path.
func TestKeepMax(t *testing.T) { forEachISA(t, testKeepMax) }

func testKeepMax(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	odd := []float32{0, float32(math.Copysign(0, -1)), float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 1, -1}
	pick := func() float32 {
		if r.Intn(3) == 0 {
			return odd[r.Intn(len(odd))]
		}
		return float32(r.Intn(5) - 2)
	}
	for _, n := range lengths {
		cur, later := make([]float32, n), make([]float32, n)
		for i := range cur {
			cur[i], later[i] = pick(), pick()
		}
		got := make([]float32, n)
		KeepMax(got, cur, later)
		for i := range cur {
			want := cur[i]
			if v := later[i]; v > want || v != v {
				want = v
			}
			if math.Float32bits(got[i]) != math.Float32bits(want) {
				t.Fatalf("n=%d [%d]: KeepMax(%g, %g) = %g (%#x), want %g (%#x)", n, i, cur[i], later[i], got[i], math.Float32bits(got[i]), want, math.Float32bits(want))
			}
		}
		// In place, as a pool's running maximum is kept.
		KeepMax(cur, cur, later)
		for i := range cur {
			if math.Float32bits(cur[i]) != math.Float32bits(got[i]) {
				t.Fatalf("n=%d [%d]: in place %g, want %g", n, i, cur[i], got[i])
			}
		}
	}
}
