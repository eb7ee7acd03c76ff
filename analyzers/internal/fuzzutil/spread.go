package fuzzutil

import (
	"go/ast"
	"go/types"
)

// Spread returns the statically known value lists passed through
// f.Add(e...) or typed.Add(f, e...): e is a []any literal, a local variable
// initialized from one and used only in calls x... and range statements, or
// the value variable of a range over a literal of such lists. It returns nil
// when the values are not known.
func (ix *Index) Spread(e ast.Expr) []*ast.CompositeLit {
	switch e := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		if plain(e) {
			return []*ast.CompositeLit{e}
		}
	case *ast.Ident:
		def, parent := ix.definition(e)
		switch p := parent.(type) {
		case *ast.RangeStmt:
			if p.Value == def {
				return ix.lists(p.X)
			}
		case ast.Expr:
			return ix.Spread(p)
		}
	}
	return nil
}

// lists resolves the range expression of a loop over seeds: a literal (or a
// local variable holding one) whose elements are all value lists.
func (ix *Index) lists(e ast.Expr) []*ast.CompositeLit {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		if _, init := ix.definition(id); init != nil {
			if x, ok := init.(ast.Expr); ok {
				e = x
			}
		}
	}
	outer, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok || !plain(outer) {
		return nil
	}
	var out []*ast.CompositeLit
	for _, el := range outer.Elts {
		lit, ok := ast.Unparen(el).(*ast.CompositeLit)
		if !ok || !plain(lit) {
			return nil
		}
		out = append(out, lit)
	}
	return out
}

// plain reports whether lit is a slice literal without keys.
func plain(lit *ast.CompositeLit) bool {
	for _, el := range lit.Elts {
		if _, kv := el.(*ast.KeyValueExpr); kv {
			return false
		}
	}
	return true
}

// definition finds the local variable that id uses. It returns the defining
// identifier and either its initializer (an ast.Expr) or the RangeStmt that
// defines it; it returns nils if the variable is used in any other way than
// calls x... and "range x", so that its value cannot have changed.
func (ix *Index) definition(id *ast.Ident) (*ast.Ident, ast.Node) {
	obj, ok := ix.Pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || obj.Parent() == nil || obj.Parent() == obj.Pkg().Scope() {
		return nil, nil
	}
	body := ix.enclosingBody(id)
	if body == nil {
		return nil, nil
	}
	var def *ast.Ident
	var init ast.Node
	clean := true
	var stack []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		parent := ast.Node(nil)
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		stack = append(stack, n)
		x, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		switch {
		case ix.Pass.TypesInfo.Defs[x] == obj:
			def, init = x, initOf(parent, x)
		case ix.Pass.TypesInfo.Uses[x] == obj && !readOnlyUse(parent, x):
			clean = false
		}
		return true
	})
	if !clean || def == nil || init == nil {
		return nil, nil
	}
	return def, init
}

// initOf returns the initializer of the variable x defined in parent, or the
// RangeStmt, or nil.
func initOf(parent ast.Node, x *ast.Ident) ast.Node {
	switch p := parent.(type) {
	case *ast.AssignStmt:
		for i, l := range p.Lhs {
			if l == x && len(p.Rhs) == len(p.Lhs) {
				return p.Rhs[i]
			}
		}
	case *ast.ValueSpec:
		for i, n := range p.Names {
			if n == x && len(p.Values) == len(p.Names) {
				return p.Values[i]
			}
		}
	case *ast.RangeStmt:
		return p
	}
	return nil
}

// readOnlyUse reports whether the use x under parent cannot change x.
func readOnlyUse(parent ast.Node, x *ast.Ident) bool {
	switch p := parent.(type) {
	case *ast.CallExpr:
		return p.Ellipsis.IsValid() && len(p.Args) > 0 && p.Args[len(p.Args)-1] == x
	case *ast.RangeStmt:
		return p.X == x
	}
	return false
}

// enclosingBody returns the body of the function declaration containing n.
func (ix *Index) enclosingBody(n ast.Node) *ast.BlockStmt {
	for _, f := range ix.Pass.Files {
		if f.Pos() > n.Pos() || n.Pos() > f.End() {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && fd.Pos() <= n.Pos() && n.Pos() < fd.End() {
				return fd.Body
			}
		}
	}
	return nil
}
