package fuzzname

import (
	_ "embed"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/fuzzbox/fuzzbox/analyzers/internal/fuzzutil"
	"github.com/fuzzbox/fuzzbox/corpus"
)

//go:embed doc.go
var doc string

// Analyzer reports Fuzz functions go test rejects or skips.
var Analyzer = &analysis.Analyzer{
	Name: "fuzzname",
	Doc:  fuzzutil.Doc(doc, "fuzzname"),
	URL:  "https://github.com/fuzzbox/fuzzbox/blob/main/docs/fuzzvet.md#fuzzname",
	Run:  run,
}

func run(pass *analysis.Pass) (any, error) {
	for _, f := range pass.Files {
		if !fuzzutil.IsTestFile(pass, f) {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && strings.HasPrefix(fd.Name.Name, "Fuzz") {
				check(pass, fd)
			}
		}
	}
	return nil, nil
}

func check(pass *analysis.Pass, fd *ast.FuncDecl) {
	name := fd.Name.Name
	fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if !ok {
		return
	}
	sig := fn.Signature()
	takesF := sig.Params().Len() == 1 && fuzzutil.IsTesting(sig.Params().At(0).Type(), "F")
	if !corpus.IsTestName(name, "Fuzz") {
		if takesF {
			pass.ReportRangef(fd.Name, "%s is not run by go test: the first letter after Fuzz must not be lowercase", name)
		}
		return
	}
	if tp := fd.Type.TypeParams; tp != nil && len(tp.List) > 0 {
		pass.ReportRangef(tp, "%s has type parameters: go test rejects fuzz tests with type parameters", name)
		return
	}
	if !takesF || sig.Results().Len() > 0 {
		pass.ReportRangef(fd.Name, "wrong signature for %s: go test requires func %s(f *testing.F)", name, name)
	}
}
