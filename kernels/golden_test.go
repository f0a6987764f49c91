package kernels_test

import (
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/seam-rt/seam/kernels"
	"github.com/seam-rt/seam/ops"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// testdata/golden.json.gz holds kernel cases computed by PyTorch
// (testdata/gen_golden.py, which documents the format): arguments, and the
// results or the fact of an error. Every registered kernel has a case for
// each of the ten dtypes seam stores (TestGoldenCoverage): what PyTorch
// computes for a dtype, seam computes too, or refuses with an error and is
// listed in unclaimed; what PyTorch refuses, seam refuses.

type goldenTensor struct {
	DType   string
	Shape   []int
	Strides []int
	Offset  int
	Data    []byte // base64 in the file
	Gen     *uint64
}

type goldenArg struct {
	T       *int
	None    bool
	B       *bool
	I       *int64
	F       any
	S       *string
	DType   *string
	MF      *int
	Ints    []int64
	Floats  []any
	Bools   []bool
	Tensors []goldenArg
}

type goldenCase struct {
	Target string
	Args   []goldenArg
	Kwargs map[string]goldenArg
	DType  string // the dtype the case proves
	Out    []goldenArg
	Error  string
	Check  int       // compare only the first Check outputs
	Meta   string    // uninitialised results: compare dtype and shape ("shape") and strides ("strides")
	Tol    []float64 // rtol, atol derived for this case
	Via    string
	Tag    string
}

type golden struct {
	Tensors []goldenTensor
	Cases   []goldenCase
}

// unclaimed lists what PyTorch computes and seam refuses by design, by
// "target dtype" or "target #tag". A kernel claims every other dtype.
var unclaimed = map[string]string{
	"aten._native_batch_norm_legit.default #training": "training-mode batch norm updates running statistics",
	"aten.dropout.default #train":                     "dropout in training needs a random generator",
	"aten.convolution.default #transposed":            "transposed convolution",
	"aten.avg_pool2d.default i64":                     "integer average pooling",
}

func init() {
	for _, dt := range []string{"i64", "i32", "i16", "i8", "u8"} {
		unclaimed["aten.convolution.default "+dt] = "integer convolution"
	}
}

var allDTypes = []tensor.DType{tensor.Float32, tensor.Float64, tensor.Float16, tensor.BFloat16, tensor.Int64,
	tensor.Int32, tensor.Int16, tensor.Int8, tensor.Uint8, tensor.Bool}

var goldenOnce struct {
	sync.Once
	g   *golden
	err error
}

func loadGolden(t *testing.T) *golden {
	t.Helper()
	goldenOnce.Do(func() {
		f, err := os.Open("testdata/golden.json.gz")
		if err != nil {
			goldenOnce.err = err
			return
		}
		defer f.Close()
		zr, err := gzip.NewReader(f)
		if err != nil {
			goldenOnce.err = err
			return
		}
		var g golden
		if err := json.NewDecoder(zr).Decode(&g); err != nil {
			goldenOnce.err = fmt.Errorf("testdata/golden.json.gz: %w", err)
			return
		}
		goldenOnce.g = &g
	})
	if goldenOnce.err != nil {
		t.Fatal(goldenOnce.err)
	}
	return goldenOnce.g
}

func parseNum(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case string:
		switch x {
		case "nan":
			return math.NaN()
		case "inf":
			return math.Inf(1)
		case "-inf":
			return math.Inf(-1)
		}
	}
	panic(fmt.Sprintf("golden: %v is not a number", v))
}

// tensor builds table entry i with PyTorch's layout: the values in logical
// order, copied into a storage with the recorded strides and offset.
func (g *golden) tensor(t testing.TB, i int) *tensor.Tensor {
	t.Helper()
	if i < 0 || i >= len(g.Tensors) {
		t.Fatalf("golden: tensor %d of %d", i, len(g.Tensors))
	}
	gt := g.Tensors[i]
	dt, err := tensor.ParseDType(gt.DType)
	if err != nil {
		t.Fatal(err)
	}
	if gt.Gen != nil {
		return goldenGen(t, dt, gt.Shape, *gt.Gen)
	}
	src, err := tensor.FromBytes(dt, gt.Shape, nil, 0, gt.Data)
	if err != nil {
		t.Fatalf("golden tensor %d: %v", i, err)
	}
	need := gt.Offset + 1
	for d, s := range gt.Shape {
		if s == 0 {
			need = 0
			break
		}
		need += (s - 1) * gt.Strides[d]
	}
	flat, err := tensor.New(dt, max(need, 1))
	if err != nil {
		t.Fatal(err)
	}
	x, err := new(tensor.Tensor).AsStrided(flat, gt.Shape, gt.Strides, gt.Offset)
	if err != nil {
		t.Fatalf("golden tensor %d: %v", i, err)
	}
	if err := tensor.Copy(x, src); err != nil {
		t.Fatal(err)
	}
	return x
}

// genTensor computes a large input as gen_golden.py's gen() does.
func goldenGen(t testing.TB, dt tensor.DType, shape []int, seed uint64) *tensor.Tensor {
	n := tensor.Numel(shape)
	v := make([]float64, n)
	for i := range v {
		u := (uint64(i)*2654435761 + seed) % (1 << 32)
		v[i] = float64(u)/(1<<32)*2 - 1
	}
	f, err := tensor.FromSlice(v, shape...)
	if err != nil {
		t.Fatal(err)
	}
	x, err := tensor.New(dt, shape...)
	if err != nil {
		t.Fatal(err)
	}
	if err := tensor.Copy(x, f); err != nil {
		t.Fatal(err)
	}
	return x
}

func (g *golden) value(t testing.TB, a goldenArg) value.Value {
	switch {
	case a.T != nil:
		return value.FromTensor(g.tensor(t, *a.T))
	case a.None:
		return value.NoneValue()
	case a.B != nil:
		return value.FromBool(*a.B)
	case a.I != nil:
		return value.FromInt(*a.I)
	case a.F != nil:
		return value.FromDouble(parseNum(a.F))
	case a.S != nil:
		return value.FromString(*a.S)
	case a.DType != nil:
		dt, err := tensor.ParseDType(*a.DType)
		if err != nil {
			t.Fatal(err)
		}
		return value.FromScalarType(dt)
	case a.MF != nil:
		return value.FromMemoryFormat(*a.MF)
	case a.Ints != nil:
		return value.FromInts(a.Ints)
	case a.Floats != nil:
		fs := make([]float64, len(a.Floats))
		for i, f := range a.Floats {
			fs[i] = parseNum(f)
		}
		return value.FromDoubles(fs)
	case a.Bools != nil:
		return value.FromBools(a.Bools)
	case a.Tensors != nil:
		ts := make([]*tensor.Tensor, len(a.Tensors))
		opt := false
		for i, x := range a.Tensors {
			if x.None {
				opt = true
				continue
			}
			ts[i] = g.tensor(t, *x.T)
		}
		if opt {
			return value.FromOptTensors(ts)
		}
		return value.FromTensors(ts)
	}
	return value.FromInts([]int64{}) // an empty list
}

var (
	errNoSchema = errors.New("no schema")
	errNoKernel = errors.New("no kernel")
	errBind     = errors.New("bind")
)

// bind decodes a case's arguments in schema order.
func (g *golden) bind(t testing.TB, c *goldenCase) (*ops.Schema, []value.Value, error) {
	s, ok := ops.Lookup(c.Target)
	if !ok {
		return nil, nil, errNoSchema
	}
	var named []ops.NamedArg
	for _, a := range c.Args {
		named = append(named, ops.NamedArg{Value: g.value(t, a)})
	}
	names := make([]string, 0, len(c.Kwargs))
	for k := range c.Kwargs {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		named = append(named, ops.NamedArg{Name: k, Value: g.value(t, c.Kwargs[k])})
	}
	args, err := s.Bind(nil, named)
	if err != nil {
		return s, nil, fmt.Errorf("%w: %v", errBind, err)
	}
	return s, args, nil
}

func (g *golden) run(t testing.TB, c *goldenCase) (*ops.Schema, []value.Value, []value.Value, error) {
	s, args, err := g.bind(t, c)
	if err != nil {
		return s, nil, nil, err
	}
	k, ok := kernels.Lookup(c.Target)
	if !ok {
		return s, args, nil, errNoKernel
	}
	out := make([]value.Value, len(s.Returns))
	return s, args, out, k(kernels.NewContext(), args, out)
}

func tolerance(dt tensor.DType) (float64, float64) {
	switch dt {
	case tensor.Float16:
		return 1e-3, 1e-3
	case tensor.BFloat16:
		return 8e-3, 8e-3
	case tensor.Float64:
		return 1e-12, 1e-12
	}
	return 2e-6, 1e-6
}

// caseName is how failures name a case: its index in the file, target
// and dtype.
func caseName(i int, c *goldenCase) string {
	name := fmt.Sprintf("case %d %s %s", i, c.Target, c.DType)
	if c.Tag != "" {
		name += " #" + c.Tag
	}
	return name
}

// describe summarises a case's arguments for failure messages:
// "(f32[2, 3], 6, rounding_mode=floor)".
func (g *golden) describe(c *goldenCase) string {
	var parts []string
	var one func(a goldenArg) string
	one = func(a goldenArg) string {
		switch {
		case a.T != nil:
			gt := g.Tensors[*a.T]
			s := fmt.Sprintf("%s%v", gt.DType, gt.Shape)
			if gt.Gen != nil {
				s += "(gen)"
			}
			return s
		case a.Tensors != nil:
			var l []string
			for _, x := range a.Tensors {
				l = append(l, one(x))
			}
			return "[" + strings.Join(l, ", ") + "]"
		case a.None:
			return "None"
		case a.B != nil:
			return fmt.Sprint(*a.B)
		case a.I != nil:
			return fmt.Sprint(*a.I)
		case a.F != nil:
			return fmt.Sprint(a.F)
		case a.S != nil:
			return *a.S
		case a.DType != nil:
			return *a.DType
		case a.MF != nil:
			return fmt.Sprintf("memory_format(%d)", *a.MF)
		case a.Ints != nil:
			return fmt.Sprint(a.Ints)
		case a.Floats != nil:
			return fmt.Sprint(a.Floats)
		case a.Bools != nil:
			return fmt.Sprint(a.Bools)
		}
		return "[]"
	}
	for _, a := range c.Args {
		parts = append(parts, one(a))
	}
	names := make([]string, 0, len(c.Kwargs))
	for k := range c.Kwargs {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		parts = append(parts, k+"="+one(c.Kwargs[k]))
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func unclaimedKey(c *goldenCase) string {
	if c.Tag != "" {
		return c.Target + " #" + c.Tag
	}
	return c.Target + " " + c.DType
}

// goldenResult is what running one case showed.
type goldenResult int

const (
	provedOK    goldenResult = iota // PyTorch and seam agree on values
	provedError                     // both refuse
	refused                         // PyTorch computes, seam refuses (unclaimed)
	failed
)

func checkGoldenCase(t *testing.T, g *golden, i int, c *goldenCase) goldenResult {
	name := caseName(i, c) + g.describe(c)
	s, args, out, err := g.run(t, c)
	if errors.Is(err, errNoSchema) || errors.Is(err, errNoKernel) {
		t.Errorf("%s: %v: a case without a kernel proves nothing", name, err)
		return failed
	}
	if errors.Is(err, errBind) {
		t.Errorf("%s: the golden arguments do not fit the schema: %v", name, err)
		return failed
	}
	if c.Error != "" {
		if err == nil {
			t.Errorf("%s: PyTorch refuses (%s) but the kernel succeeded", name, c.Error)
			return failed
		}
		if strings.Contains(err.Error(), "internal error") {
			t.Errorf("%s: want a validation error, got %v", name, err)
			return failed
		}
		return provedError
	}
	if err != nil {
		if _, ok := unclaimed[unclaimedKey(c)]; ok && !strings.Contains(err.Error(), "internal error") {
			return refused
		}
		t.Errorf("%s: PyTorch computes this, the kernel says %v", name, err)
		return failed
	}
	ok := true
	n := len(c.Out)
	if c.Check > 0 {
		n = c.Check
	}
	for j := 0; j < n; j++ {
		want := c.Out[j]
		if want.None && j >= len(out) {
			continue
		}
		if j >= len(out) {
			t.Errorf("%s: %d results, PyTorch has %d", name, len(out), len(c.Out))
			return failed
		}
		what := fmt.Sprintf("%s out %d", name, j)
		switch {
		case want.Tensors != nil:
			if out[j].Kind() != value.TensorList {
				t.Errorf("%s: %s, want a tensor list", what, out[j].Kind())
				ok = false
				continue
			}
			got := out[j].Tensors()
			if len(got) != len(want.Tensors) {
				t.Errorf("%s: %d tensors, want %d", what, len(got), len(want.Tensors))
				ok = false
				continue
			}
			for k, w := range want.Tensors {
				ok = compareGolden(t, fmt.Sprintf("%s[%d]", what, k), s, c, got[k], g.tensor(t, *w.T)) && ok
			}
		case want.T != nil:
			got, err := out[j].AsTensor()
			if err != nil {
				t.Errorf("%s: %v", what, err)
				ok = false
				continue
			}
			ok = compareGolden(t, what, s, c, got, g.tensor(t, *want.T)) && ok
		default:
			ok = compareScalar(t, what, out[j], g.value(t, want)) && ok
		}
	}
	// Kernels never write their inputs unless the schema says so.
	if !s.Mutates() {
		_, fresh, err := g.bind(t, c)
		if err != nil {
			t.Fatal(err)
		}
		for j := range fresh {
			if a, b := args[j], fresh[j]; a.Kind() == value.Tensor && !tensor.Equal(a.Tensor(), b.Tensor()) {
				t.Errorf("%s: the kernel changed argument %d", name, j)
				ok = false
			}
		}
	}
	if !ok {
		return failed
	}
	return provedOK
}

func compareGolden(t *testing.T, name string, s *ops.Schema, c *goldenCase, got, want *tensor.Tensor) bool {
	t.Helper()
	if got == nil {
		t.Errorf("%s: no tensor", name)
		return false
	}
	if c.Meta != "" || s.IsView() {
		strides := c.Meta == "strides" || s.IsView()
		if got.DType() != want.DType() || !got.SameShape(want) || (strides && want.Numel() > 1 && !tensor.EqualInts(got.Strides(), want.Strides())) {
			t.Errorf("%s: %s strides %v, want %s strides %v", name, got.Type(), got.Strides(), want.Type(), want.Strides())
			return false
		}
		if c.Meta != "" {
			return true
		}
	}
	rtol, atol := tolerance(want.DType())
	if len(c.Tol) == 2 {
		rtol, atol = c.Tol[0], c.Tol[1]
	}
	if _, err := tensor.AllClose(got, want, rtol, atol); err != nil {
		t.Errorf("%s: %v\n got  %v\n want %v", name, err, got, want)
		return false
	}
	return true
}

func compareScalar(t *testing.T, name string, got, want value.Value) bool {
	t.Helper()
	if got.Kind() != want.Kind() {
		t.Errorf("%s: %s %v, want %s %v", name, got.Kind(), got, want.Kind(), want)
		return false
	}
	switch want.Kind() {
	case value.Double:
		a, b := got.Double(), want.Double()
		if a != b && !(math.IsNaN(a) && math.IsNaN(b)) && math.Abs(a-b) > 1e-6*math.Abs(b) {
			t.Errorf("%s: %v, want %v", name, a, b)
			return false
		}
	case value.Int:
		if got.Int() != want.Int() {
			t.Errorf("%s: %d, want %d", name, got.Int(), want.Int())
			return false
		}
	case value.Bool:
		if got.Bool() != want.Bool() {
			t.Errorf("%s: %v, want %v", name, got.Bool(), want.Bool())
			return false
		}
	}
	return true
}

// TestGoldenCases runs every case against PyTorch's result.
func TestGoldenCases(t *testing.T) {
	g := loadGolden(t)
	if len(g.Cases) < 3500 {
		t.Fatalf("only %d golden cases", len(g.Cases))
	}
	counts := map[goldenResult]int{}
	used := map[string]bool{}
	for i := range g.Cases {
		c := &g.Cases[i]
		r := checkGoldenCase(t, g, i, c)
		counts[r]++
		if r == refused {
			used[unclaimedKey(c)] = true
		}
	}
	for k := range unclaimed {
		if !used[k] {
			t.Errorf("unclaimed lists %q, which no case shows refused", k)
		}
	}
	if counts[provedOK]+counts[provedError]+counts[refused]+counts[failed] != len(g.Cases) {
		t.Errorf("%v do not add up to %d cases", counts, len(g.Cases))
	}
	t.Logf("%d cases: %d agree with PyTorch's values, %d refused by both, %d refused by seam by design",
		len(g.Cases), counts[provedOK], counts[provedError], counts[refused])
}

// TestGoldenCoverage: every registered kernel has a golden case for each
// dtype, so a kernel cannot be added, or claim a dtype, without proof; and
// every golden target is a registered kernel.
func TestGoldenCoverage(t *testing.T) {
	g := loadGolden(t)
	have := map[string]map[string]bool{}
	for i := range g.Cases {
		c := &g.Cases[i]
		if have[c.Target] == nil {
			have[c.Target] = map[string]bool{}
		}
		have[c.Target][c.DType] = true
		if _, ok := kernels.Lookup(c.Target); !ok {
			t.Errorf("%s: a golden case for a target without a kernel", caseName(i, c))
		}
	}
	targets := kernels.Targets()
	if len(targets) < 233 {
		t.Errorf("only %d kernels registered", len(targets))
	}
	for _, target := range targets {
		var missing []string
		for _, dt := range allDTypes {
			if !have[target][dt.String()] {
				missing = append(missing, dt.String())
			}
		}
		if len(missing) > 0 {
			t.Errorf("%s: no golden case for %s (add a sweep to testdata/gen_golden.py)", target, strings.Join(missing, ", "))
		}
	}
}

// TestGoldenClaims counts the dtypes each kernel claims: those where
// PyTorch computes a value and seam computes the same one.
func TestGoldenClaims(t *testing.T) {
	g := loadGolden(t)
	claims := map[string]map[string]bool{}
	for i := range g.Cases {
		c := &g.Cases[i]
		if c.Error != "" || c.Tag != "" {
			continue
		}
		if _, _, _, err := g.run(t, c); err != nil {
			continue // TestGoldenCases judges it
		}
		if claims[c.Target] == nil {
			claims[c.Target] = map[string]bool{}
		}
		claims[c.Target][c.DType] = true
	}
	pairs := 0
	for _, target := range kernels.Targets() {
		if len(claims[target]) == 0 {
			t.Errorf("%s claims no dtype: no case where PyTorch and seam both compute", target)
		}
		pairs += len(claims[target])
	}
	t.Logf("%d kernels claim %d (kernel, dtype) pairs, each proven against PyTorch", len(kernels.Targets()), pairs)
}
