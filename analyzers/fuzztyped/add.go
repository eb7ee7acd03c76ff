package fuzztyped

import (
	"go/ast"
	"go/types"

	"github.com/fuzzbox/fuzzbox/analyzers/internal/fuzzutil"
)

// checkAdd checks one typed.Add call; params are the fuzzed parameters of the
// Fuzz test's typed.Fuzz function, or nil.
func (c *checker) checkAdd(call *ast.CallExpr, params []*types.Var) {
	if !call.Ellipsis.IsValid() {
		c.checkValues(call, call.Args[1:], params, false)
		return
	}
	for _, lit := range c.ix.Spread(call.Args[len(call.Args)-1]) {
		c.checkValues(lit, lit.Elts, params, true)
	}
}

func (c *checker) checkValues(at ast.Node, vals []ast.Expr, params []*types.Var, spread bool) {
	if params != nil && len(vals) != len(params) {
		what := "typed.Add has"
		if spread {
			what = "this seed passed to typed.Add has"
		}
		c.reportf(at, "%s %d values, but the typed.Fuzz function takes %d fuzzed arguments (%s)", what, len(vals), len(params), c.typeList(params))
		params = nil
	}
	for i, v := range vals {
		var p *types.Var
		if params != nil {
			p = params[i]
		}
		c.checkValue(v, p)
	}
}

// checkValue checks one value against the fuzzed parameter p, or, if p is
// nil, checks that its type can be fuzzed. A value of interface type is not
// checked: typed.Add encodes its dynamic type.
func (c *checker) checkValue(v ast.Expr, p *types.Var) {
	tv, ok := c.pass.TypesInfo.Types[v]
	if !ok || tv.Type == nil {
		return
	}
	if c.isNil(v) {
		c.checkNil(v, p)
		return
	}
	if types.IsInterface(tv.Type) {
		return
	}
	src := types.ExprString(v)
	if p == nil {
		if why := unfuzzable(tv.Type, c.qf); why != "" {
			c.reportf(v, "typed.Add value %s has type %s, which cannot be fuzzed: %s", src, c.str(tv.Type), why)
		}
		return
	}
	want := p.Type()
	switch {
	case types.Identical(tv.Type, want):
	case tv.Value != nil && fuzzutil.Untyped(c.pass.TypesInfo, v) && fuzzutil.Representable(c.pass, tv, want.Underlying()):
		c.reportConv(v, want, func(typ string) string { return typ + "(" + src + ")" },
			"untyped constant %s in typed.Add has default type %s, but parameter %s is %s", src, c.str(tv.Type), paramName(p), c.str(want))
	default:
		c.reportf(v, "typed.Add value %s has type %s, but parameter %s is %s", src, c.str(tv.Type), paramName(p), c.str(want))
	}
}

// isNil reports whether v is the untyped nil.
func (c *checker) isNil(v ast.Expr) bool {
	id, ok := ast.Unparen(v).(*ast.Ident)
	if !ok {
		return false
	}
	_, isNil := c.pass.TypesInfo.Uses[id].(*types.Nil)
	return isNil
}

// checkNil reports an untyped nil passed for parameter p (nil if unknown),
// with a fix to a typed nil when p's type has one.
func (c *checker) checkNil(v ast.Expr, p *types.Var) {
	if p == nil {
		c.reportf(v, "untyped nil in typed.Add has no type to encode: use a typed nil such as (*T)(nil)")
		return
	}
	want := p.Type()
	switch want.Underlying().(type) {
	case *types.Pointer, *types.Slice, *types.Map:
		_, named := types.Unalias(want).(*types.Named)
		typedNil := func(typ string) string {
			if named {
				return typ + "(nil)"
			}
			return "(" + typ + ")(nil)"
		}
		c.reportConv(v, want, typedNil,
			"untyped nil in typed.Add has no type to encode: use a typed nil such as %s for parameter %s of type %s", typedNil(c.str(want)), paramName(p), c.str(want))
	default:
		c.reportf(v, "untyped nil in typed.Add has no type to encode, but parameter %s is %s", paramName(p), c.str(want))
	}
}
