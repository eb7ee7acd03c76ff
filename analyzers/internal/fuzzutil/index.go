package fuzzutil

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/fuzzbox/fuzzbox/corpus"
)

// An Index maps the functions declared in a package to their syntax, so that
// checks can follow a *testing.F into the helpers it is passed to.
type Index struct {
	Pass  *analysis.Pass
	decls map[*types.Func]*ast.FuncDecl
}

// NewIndex indexes the function declarations of pass.
func NewIndex(pass *analysis.Pass) *Index {
	ix := &Index{Pass: pass, decls: map[*types.Func]*ast.FuncDecl{}}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					ix.decls[fn] = fd
				}
			}
		}
	}
	return ix
}

// FuzzTests returns the Fuzz tests of the package: functions in _test.go
// files that go test runs as fuzz tests.
func (ix *Index) FuzzTests() []*ast.FuncDecl {
	var out []*ast.FuncDecl
	for _, f := range ix.Pass.Files {
		if !IsTestFile(ix.Pass, f) {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if ok && fd.Recv == nil && fd.Body != nil && corpus.IsTestName(fd.Name.Name, "Fuzz") && TakesF(ix.Pass.TypesInfo, fd) {
				out = append(out, fd)
			}
		}
	}
	return out
}

// Callee returns the declaration of the package-level function or method
// that call invokes statically, or nil.
func (ix *Index) Callee(call *ast.CallExpr) *ast.FuncDecl {
	var id *ast.Ident
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = fun
	case *ast.SelectorExpr:
		id = fun.Sel
	case *ast.IndexExpr: // generic instantiation
		if x, ok := fun.X.(*ast.Ident); ok {
			id = x
		}
	}
	if id == nil {
		return nil
	}
	fn, ok := ix.Pass.TypesInfo.Uses[id].(*types.Func)
	if !ok {
		return nil
	}
	return ix.decls[fn.Origin()]
}

// FuncDecl returns the declaration of fn if it is declared in the package.
func (ix *Index) FuncDecl(fn *types.Func) *ast.FuncDecl { return ix.decls[fn] }

// PassesF reports whether one of call's arguments is a *testing.F.
func (ix *Index) PassesF(call *ast.CallExpr) bool {
	for _, a := range call.Args {
		if IsTesting(ix.Pass.TypesInfo.TypeOf(a), "F") {
			return true
		}
	}
	return false
}

// Helper returns the declaration of the package function that call passes a
// *testing.F to, or nil.
func (ix *Index) Helper(call *ast.CallExpr) *ast.FuncDecl {
	if !ix.PassesF(call) {
		return nil
	}
	return ix.Callee(call)
}

// WalkF calls visit for every node of decl's body and, transitively, of the
// bodies of the package helpers that receive its *testing.F, in each body's
// source order. It does not enter the function literals passed to f.Fuzz or
// typed.Fuzz (the fuzz functions themselves); visit returning false prunes a
// subtree. Each helper is walked once.
func (ix *Index) WalkF(decl *ast.FuncDecl, visit func(n ast.Node) bool) {
	seen := map[*ast.FuncDecl]bool{}
	var walk func(d *ast.FuncDecl)
	walk = func(d *ast.FuncDecl) {
		if seen[d] {
			return
		}
		seen[d] = true
		ast.Inspect(d.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if ok && IsFuzzCall(ix.Pass.TypesInfo, call) {
				if !visit(n) {
					return false
				}
				for _, a := range call.Args {
					if _, lit := ast.Unparen(a).(*ast.FuncLit); !lit {
						ast.Inspect(a, visit)
					}
				}
				return false
			}
			if n != nil && !visit(n) {
				return false
			}
			if ok {
				if h := ix.Helper(call); h != nil {
					walk(h)
				}
			}
			return true
		})
	}
	walk(decl)
}

// A Target is the fuzz function passed to one f.Fuzz or typed.Fuzz call.
type Target struct {
	Call  *ast.CallExpr    // the f.Fuzz or typed.Fuzz call
	Typed bool             // the call is typed.Fuzz(f, fn): fn's arguments are decoded from one fuzzed []byte
	Expr  ast.Expr         // the fuzz function: the argument of f.Fuzz, the second of typed.Fuzz
	Sig   *types.Signature // the argument's signature, nil if it is not a function
	Type  *ast.FuncType    // the syntax of the signature, if Lit or Decl is set
	Body  *ast.BlockStmt   // the body, if the argument is a literal or a package function
	Decl  *ast.FuncDecl    // set if the argument names a package function
}

// TargetOf describes the fuzz function of the f.Fuzz or typed.Fuzz call, or
// returns nil if the call does not pass exactly one.
func (ix *Index) TargetOf(call *ast.CallExpr) *Target {
	n := 1
	typed := TypedFunc(ix.Pass.TypesInfo, call) == "Fuzz"
	if typed {
		n = 2
	}
	if len(call.Args) != n || call.Ellipsis.IsValid() {
		return nil
	}
	tg := &Target{Call: call, Typed: typed, Expr: call.Args[n-1]}
	if t := ix.Pass.TypesInfo.TypeOf(tg.Expr); t != nil {
		tg.Sig, _ = t.Underlying().(*types.Signature)
	}
	switch e := ast.Unparen(tg.Expr).(type) {
	case *ast.FuncLit:
		tg.Type, tg.Body = e.Type, e.Body
	case *ast.Ident, *ast.SelectorExpr:
		id, _ := e.(*ast.Ident)
		if sel, ok := e.(*ast.SelectorExpr); ok {
			id = sel.Sel
		}
		if fn, ok := ix.Pass.TypesInfo.Uses[id].(*types.Func); ok && fn.Signature().Recv() == nil {
			if d := ix.decls[fn]; d != nil {
				tg.Decl, tg.Type, tg.Body = d, d.Type, d.Body
			}
		}
	}
	return tg
}

// Targets returns the fuzz functions passed to f.Fuzz or typed.Fuzz by decl
// or its helpers, outside fuzz function bodies, in source order.
func (ix *Index) Targets(decl *ast.FuncDecl) []*Target {
	var out []*Target
	ix.WalkF(decl, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && IsFuzzCall(ix.Pass.TypesInfo, call) {
			if tg := ix.TargetOf(call); tg != nil {
				out = append(out, tg)
			}
		}
		return true
	})
	return out
}

// ValidTarget reports whether sig is a fuzz function the testing package
// accepts: func(*testing.T, args...) with supported args and no results.
func ValidTarget(sig *types.Signature) bool {
	if sig == nil || sig.Results().Len() > 0 || sig.Params().Len() < 2 {
		return false
	}
	if !IsTesting(sig.Params().At(0).Type(), "T") {
		return false
	}
	for i := 1; i < sig.Params().Len(); i++ {
		if !Supported(sig.Params().At(i).Type()) {
			return false
		}
	}
	return true
}
