package fuzzshape

import (
	_ "embed"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/fuzzbox/fuzzbox/analyzers/internal/fuzzutil"
)

//go:embed doc.go
var doc string

// Analyzer checks the signature of fuzz functions.
var Analyzer = &analysis.Analyzer{
	Name: "fuzzshape",
	Doc:  fuzzutil.Doc(doc, "fuzzshape"),
	URL:  "https://github.com/fuzzbox/fuzzbox/blob/main/docs/fuzzvet.md#fuzzshape",
	Run:  run,
}

func run(pass *analysis.Pass) (any, error) {
	ix := fuzzutil.NewIndex(pass)
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && fuzzutil.FMethod(pass.TypesInfo, call) == "Fuzz" {
				if tg := ix.TargetOf(call); tg != nil {
					check(pass, tg)
				}
			}
			return true
		})
	}
	return nil, nil
}

func check(pass *analysis.Pass, tg *fuzzutil.Target) {
	if tg.Sig == nil {
		// An interface value is reported too, as passes/tests does: its
		// signature cannot be checked before run time.
		if t := pass.TypesInfo.TypeOf(tg.Expr); t != nil {
			pass.ReportRangef(tg.Expr, "the argument to f.Fuzz must be a function, not %s", typeString(pass, t))
		}
		return
	}
	var params *ast.FieldList
	if tg.Type != nil && tg.Decl == nil { // point into a literal; a declared function is reported at the call
		params = tg.Type.Params
		if res := tg.Type.Results; tg.Sig.Results().Len() > 0 && res != nil {
			pass.ReportRangef(res, "the fuzz function must not return a value")
		}
	} else if tg.Sig.Results().Len() > 0 {
		pass.ReportRangef(tg.Expr, "the fuzz function must not return a value")
	}
	ps := tg.Sig.Params()
	if ps.Len() == 0 {
		pass.ReportRangef(tg.Expr, "the fuzz function must take a *testing.T and at least one fuzzed argument")
		return
	}
	if !fuzzutil.IsTesting(ps.At(0).Type(), "T") {
		at := orExpr(fuzzutil.ParamType(params, 0), tg.Expr)
		pass.ReportRangef(at, "the first parameter of the fuzz function must be *testing.T, not %s", typeString(pass, ps.At(0).Type()))
	} else if ps.Len() == 1 {
		pass.ReportRangef(tg.Expr, "the fuzz function must take at least one fuzzed argument after *testing.T")
	}
	for i := 1; i < ps.Len(); i++ {
		checkParam(pass, ps.At(i), orExpr(fuzzutil.ParamType(params, i), tg.Expr), tg.Sig.Variadic() && i == ps.Len()-1)
	}
}

func checkParam(pass *analysis.Pass, p *types.Var, at ast.Node, variadic bool) {
	t := p.Type()
	if fuzzutil.Supported(t) {
		return
	}
	name := p.Name()
	if name == "" || name == "_" {
		name = "of type " + typeString(pass, t)
	}
	if variadic {
		pass.ReportRangef(at, "fuzz function parameter %s must not be variadic: fuzzed arguments can only be %s", name, fuzzutil.SupportedList)
		return
	}
	if u := t.Underlying(); fuzzutil.Supported(u) {
		pass.ReportRangef(at, "fuzz function parameter %s has named type %s, which the testing package rejects: use %s",
			name, typeString(pass, t), typeString(pass, u))
		return
	}
	pass.ReportRangef(at, "fuzz function parameter %s has unsupported type %s: fuzzed arguments can only be %s",
		name, typeString(pass, t), fuzzutil.SupportedList)
}

func orExpr(e ast.Expr, fallback ast.Expr) ast.Node {
	if e != nil {
		return e
	}
	return fallback
}

func typeString(pass *analysis.Pass, t types.Type) string {
	return types.TypeString(t, types.RelativeTo(pass.Pkg))
}
