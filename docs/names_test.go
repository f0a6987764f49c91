package docs

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// exported is every exported identifier of one package: its top-level
// names, and Type.Member for methods, struct fields and interface methods.
type exported map[string]bool

// seamPackage is one package as the names test reads it.
type seamPackage struct {
	rel   string // path below the module
	name  string // its package clause
	names exported
	// idents holds every identifier its files (tests too) spell: what a
	// comment may name in lower camel case (emitterFor, excludedReports).
	idents map[string]bool
	doc    string   // the package doc comment
	notes  []string // every other comment
}

func readPackages(t *testing.T) []*seamPackage {
	t.Helper()
	var out []*seamPackage
	for _, p := range listPackages(t) {
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		dir := filepath.Join("..", rel)
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		sp := &seamPackage{rel: rel, names: exported{}, idents: map[string]bool{}}
		fset := token.NewFileSet()
		for _, path := range files {
			f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					sp.idents[id.Name] = true
				}
				return true
			})
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			sp.name = f.Name.Name
			if f.Doc != nil {
				sp.doc += f.Doc.Text()
			}
			for _, c := range f.Comments {
				if c != f.Doc {
					sp.notes = append(sp.notes, c.Text())
				}
			}
			collect(f, sp.names)
		}
		out = append(out, sp)
	}
	return out
}

func collect(f *ast.File, names exported) {
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				names[d.Name.Name] = true
				continue
			}
			recv := d.Recv.List[0].Type
			if s, ok := recv.(*ast.StarExpr); ok {
				recv = s.X
			}
			if ix, ok := recv.(*ast.IndexExpr); ok {
				recv = ix.X
			}
			if id, ok := recv.(*ast.Ident); ok {
				names[id.Name+"."+d.Name.Name] = true
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					names[s.Name.Name] = true
					var fields *ast.FieldList
					switch tt := s.Type.(type) {
					case *ast.StructType:
						fields = tt.Fields
					case *ast.InterfaceType:
						fields = tt.Methods
					}
					if fields == nil {
						continue
					}
					for _, fl := range fields.List {
						for _, n := range fl.Names {
							names[s.Name.Name+"."+n.Name] = true
						}
						if len(fl.Names) == 0 { // embedded: promoted by its type's name
							typ := fl.Type
							if st, ok := typ.(*ast.StarExpr); ok {
								typ = st.X
							}
							if sel, ok := typ.(*ast.SelectorExpr); ok {
								names[s.Name.Name+"."+sel.Sel.Name] = true
							} else if id, ok := typ.(*ast.Ident); ok {
								names[s.Name.Name+"."+id.Name] = true
							}
						}
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						names[n.Name] = true
					}
				}
			}
		}
	}
}

var (
	// qualified is pkg.Name or pkg.Type.Member.
	qualified = regexp.MustCompile(`\b([a-z][a-z0-9]*)\.([A-Z][A-Za-z0-9_]*)(?:\.([A-Z][A-Za-z0-9_]*))?`)
	// lowerCamel is a Go-looking unexported name (emitterFor).
	lowerCamel = regexp.MustCompile(`\b[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*\b`)
	// camel is a Go-looking exported name: capitalised, with a capital
	// inside (ProposeGraph, FullGraphError), or Type.Member.
	camel = regexp.MustCompile(`\b[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*(?:\.[A-Z][A-Za-z0-9]*)?\b|\b[A-Z][A-Za-z0-9]*\.[A-Z][A-Za-z0-9]*\b`)
)

// notIdentifiers are words that look like identifiers but are not seam's:
// PyTorch's, ExecuTorch's, ONNX's, SymPy's and the browser's names, units,
// and placeholders in names (caseK, sdotAVX512M<ma>).
var notIdentifiers = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`
		PyTorch ExecuTorch SymPy TorchBind GraphModule ExportedProgram FakeTensor ShapeEnv
		SymInt SymFloat SymBool SymIntArgument SymFloatArgument SymBoolArgument SymExprHint
		CapabilityBasedPartitioner OperatorSupport ExecuTorchTags OpenBLAS GitHub JavaScript
		ONNXRuntime OnnxRuntime FastGelu LayerNormalization MatMul ConstantOfShape ReduceSum
		BatchNorm MobileNet ViT CoreML XNNPACK QNN TensorRT ArmNN HuggingFace NumPy MacOS
		FloatTrueDiv ToFloat IntTrueDiv FloorDiv PythonMod CeilToInt FloorToInt TruncToInt
		CleanDiv ModularIndexing Mod Max Min Pow Abs Piecewise BooleanAtom
		InputSpec OutputSpec TensorArgument TokenArgument CustomObjArgument
		SymInts SymFloats SymBools ValueError GiB MiB KiB
		CoreMLBackend XnnpackBackend DelegationSpec SeamPartitioner
		kFieldAlignment computeStride inferExpandGeometry textContent caseK sdotAVX512M
	`) {
		notIdentifiers[w] = true
	}
}

// TestDocNames: every exported identifier the package docs, the comments
// of the code and docs/*.md name exists. A name qualified by a seam
// package (lower.Judge, partition.Plan.Boundaries) must be that
// package's; a bare Go-looking name in a package doc must be one of its
// package's, or of another seam package; in the documents, of any seam
// package.
func TestDocNames(t *testing.T) {
	pkgs := readPackages(t)
	byName := map[string]*seamPackage{}
	all := exported{}
	idents := map[string]bool{}
	for _, p := range pkgs {
		for n := range p.idents {
			idents[n] = true
		}
		if p.name != "main" {
			byName[p.name] = p
		}
		for n := range p.names {
			all[n] = true
			if i := strings.IndexByte(n, '.'); i > 0 {
				all[n[i+1:]] = true
			}
		}
	}
	var missing []string
	check := func(where, text string, home *seamPackage) {
		for _, m := range qualified.FindAllStringSubmatch(text, -1) {
			p, ok := byName[m[1]]
			if !ok {
				continue
			}
			name := m[2]
			if m[3] != "" && p.names[m[2]] && !p.names[m[2]+"."+m[3]] {
				// pkg.Type.Member, unless the member is a field of an
				// embedded type or the last part is prose.
				if !all[m[3]] {
					missing = append(missing, where+": "+m[0])
				}
				continue
			}
			if !p.names[name] {
				missing = append(missing, where+": "+m[0])
			}
		}
		for _, w := range camel.FindAllString(qualified.ReplaceAllString(text, ""), -1) {
			base := strings.SplitN(w, ".", 2)[0]
			switch {
			case notIdentifiers[w], notIdentifiers[base]:
			case home != nil && (home.names[w] || home.names[base]):
			case idents[w] && (strings.HasPrefix(w, "Test") || strings.HasPrefix(w, "Benchmark") || strings.HasPrefix(w, "Fuzz")):
			case all[w] || all[base]:
			default:
				missing = append(missing, where+": "+w)
			}
		}
	}
	// A comment in the code may also name unexported identifiers; those
	// in lower camel case must still be spelled somewhere.
	checkComment := func(where, text string, home *seamPackage) {
		for _, m := range qualified.FindAllStringSubmatch(text, -1) {
			if p, ok := byName[m[1]]; ok && !p.names[m[2]] {
				missing = append(missing, where+": "+m[0])
			}
		}
		for _, w := range lowerCamel.FindAllString(text, -1) {
			if !home.idents[w] && !idents[w] && !notIdentifiers[w] {
				missing = append(missing, where+": "+w)
			}
		}
	}
	for _, p := range pkgs {
		check(p.rel+" (package doc)", p.doc, p)
		for _, c := range p.notes {
			checkComment(p.rel, c, p)
		}
	}
	docs, _ := filepath.Glob("*.md")
	docs = append(docs, "../README.md")
	for _, path := range docs {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		check(filepath.Base(path), string(b), nil)
	}
	sort.Strings(missing)
	missing = slices.Compact(missing)
	for _, m := range missing {
		t.Errorf("names what no package exports: %s", m)
	}
}
