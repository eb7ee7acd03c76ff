package fuzzutil

import (
	"go/ast"
	"go/types"
)

// TypedPath is the import path of fuzzbox's typed package, whose Fuzz and Add
// functions (typed.Fuzz(f, fn), typed.Add(f, args...)) fuzz arguments of any
// fuzzable type through one []byte that f.Fuzz fuzzes (issue 25).
const TypedPath = "github.com/fuzzbox/fuzzbox/typed"

// TypedFunc returns the name of the package-level function of package typed
// that call invokes with a *testing.F as its first argument ("Fuzz" or
// "Add"), or "".
func TypedFunc(info *types.Info, call *ast.CallExpr) string {
	var id *ast.Ident
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.Ident: // dot import
		id = fun
	case *ast.SelectorExpr:
		id = fun.Sel
	default:
		return ""
	}
	fn, ok := info.Uses[id].(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != TypedPath || fn.Signature().Recv() != nil {
		return ""
	}
	if len(call.Args) == 0 || !IsTesting(info.TypeOf(call.Args[0]), "F") {
		return ""
	}
	return fn.Name()
}

// IsFuzzCall reports whether call gives a Fuzz test its fuzz function: it is
// f.Fuzz(fn) or typed.Fuzz(f, fn).
func IsFuzzCall(info *types.Info, call *ast.CallExpr) bool {
	return FMethod(info, call) == "Fuzz" || TypedFunc(info, call) == "Fuzz"
}

// IsAddCall reports whether call adds a seed: it is f.Add(...) or
// typed.Add(f, ...).
func IsAddCall(info *types.Info, call *ast.CallExpr) bool {
	return FMethod(info, call) == "Add" || TypedFunc(info, call) == "Add"
}
