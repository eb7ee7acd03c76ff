package fuzzfmethods

import (
	_ "embed"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/fuzzbox/fuzzbox/analyzers/internal/fuzzutil"
)

//go:embed doc.go
var doc string

// Analyzer reports *testing.F methods used inside fuzz functions.
var Analyzer = &analysis.Analyzer{
	Name: "fuzzfmethods",
	Doc:  fuzzutil.Doc(doc, "fuzzfmethods"),
	URL:  "https://github.com/fuzzbox/fuzzbox/blob/main/docs/fuzzvet.md#fuzzfmethods",
	Run:  run,
}

// allowed are the *testing.F methods the fuzz function may call.
var allowed = map[string]bool{"Name": true, "Failed": true}

func run(pass *analysis.Pass) (any, error) {
	ix := fuzzutil.NewIndex(pass)
	seen := map[*ast.BlockStmt]bool{}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && fuzzutil.IsFuzzCall(pass.TypesInfo, call) {
				if tg := ix.TargetOf(call); tg != nil && tg.Body != nil && !seen[tg.Body] {
					seen[tg.Body] = true
					check(ix, tg)
				}
			}
			return true
		})
	}
	return nil, nil
}

// check reports the F method calls in the body of tg.
func check(ix *fuzzutil.Index, tg *fuzzutil.Target) {
	pass := ix.Pass
	tName, tType := "", types.Type(nil)
	if tg.Sig != nil && tg.Sig.Params().Len() > 0 && fuzzutil.IsTesting(tg.Sig.Params().At(0).Type(), "T") {
		tName, tType = tg.Sig.Params().At(0).Name(), tg.Sig.Params().At(0).Type()
	}
	depth := 0 // function literals entered below the body
	var stack []ast.Node
	ast.Inspect(tg.Body, func(n ast.Node) bool {
		if n == nil {
			if _, ok := stack[len(stack)-1].(*ast.FuncLit); ok {
				depth--
			}
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		switch n := n.(type) {
		case *ast.FuncLit:
			depth++
		case *ast.CallExpr:
			if m := fuzzutil.FMethod(pass.TypesInfo, n); m != "" && !allowed[m] {
				report(pass, n, m, tName, tType, depth == 0)
			} else if h := ix.Helper(n); h != nil {
				if m := firstFCall(ix, h); m != "" {
					pass.ReportRangef(n, "the fuzz function must not call f.%s: %s calls it through the *testing.F it is passed", m, h.Name.Name)
				}
			}
		}
		return true
	})
}

// report reports the call f.m inside the fuzz function, with a fix to t.m when
// *testing.T has the method and the fuzz function's t is in scope.
func report(pass *analysis.Pass, call *ast.CallExpr, m, tName string, tType types.Type, direct bool) {
	d := analysis.Diagnostic{Pos: call.Pos(), End: call.End()}
	d.Message = "the fuzz function must not call f." + m + ": only f.Name and f.Failed are allowed there"
	if hasMethod(tType, m) {
		d.Message = "the fuzz function must not call f." + m + ": use t." + m
		sel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if direct && tName != "" && tName != "_" {
			d.SuggestedFixes = []analysis.SuggestedFix{{
				Message:   "call " + tName + "." + m,
				TextEdits: []analysis.TextEdit{{Pos: sel.X.Pos(), End: sel.X.End(), NewText: []byte(tName)}},
			}}
		}
	}
	pass.Report(d)
}

// hasMethod reports whether t (the fuzz function's *testing.T) has method m.
func hasMethod(t types.Type, m string) bool {
	if t == nil {
		return false
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, m)
	_, ok := obj.(*types.Func)
	return ok
}

// firstFCall returns the first *testing.F method other than Name and Failed
// that helper h calls, directly or through further helpers, or "".
func firstFCall(ix *fuzzutil.Index, h *ast.FuncDecl) string {
	found := ""
	ix.WalkF(h, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && found == "" {
			if m := fuzzutil.FMethod(ix.Pass.TypesInfo, call); m != "" && !allowed[m] {
				found = m
			}
		}
		return found == ""
	})
	return found
}
