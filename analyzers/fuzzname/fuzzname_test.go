package fuzzname_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/fuzzbox/fuzzbox/analyzers/fuzzname"
)

func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), fuzzname.Analyzer, "a")
}

// TestRejectedByGoList covers signatures that make go list fail, so
// analysistest cannot load them: the file is parsed and type-checked here and
// the analyzer runs on a hand-made Pass, as gopls would run it.
func TestRejectedByGoList(t *testing.T) {
	fset := token.NewFileSet()
	name := filepath.Join(analysistest.TestData(), "src", "badsig", "badsig_test.go")
	f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Types: map[ast.Expr]types.TypeAndValue{}}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("badsig", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	got := map[int]string{}
	pass := &analysis.Pass{
		Analyzer: fuzzname.Analyzer, Fset: fset, Files: []*ast.File{f}, Pkg: pkg, TypesInfo: info,
		Report: func(d analysis.Diagnostic) { got[fset.Position(d.Pos).Line] += d.Message },
	}
	if _, err := fuzzname.Analyzer.Run(pass); err != nil {
		t.Fatal(err)
	}
	want := wants(fset, f)
	for line, re := range want {
		if !re.MatchString(got[line]) {
			t.Errorf("line %d: got %q, want match for %q", line, got[line], re)
		}
	}
	for line, msg := range got {
		if want[line] == nil {
			t.Errorf("line %d: unexpected diagnostic %q", line, msg)
		}
	}
}

// wants returns the `// want` expectations of f by line.
func wants(fset *token.FileSet, f *ast.File) map[int]*regexp.Regexp {
	out := map[int]*regexp.Regexp{}
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			if rest, ok := strings.CutPrefix(c.Text, "// want `"); ok {
				out[fset.Position(c.Pos()).Line] = regexp.MustCompile(strings.TrimSuffix(rest, "`"))
			}
		}
	}
	return out
}
