package fuzztyped

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/fuzzbox/fuzzbox/analyzers/internal/fuzzutil"
)

// checkTarget checks the function passed to one typed.Fuzz call: its shape
// and the types of its fuzzed parameters. A function literal is reported at
// its parameters; a function value (or a declared function, which other calls
// may share) at the argument.
func (c *checker) checkTarget(tg *fuzzutil.Target) {
	if tg.Sig == nil {
		// An interface value is checked by typed.Fuzz at run time.
		if t := c.pass.TypesInfo.TypeOf(tg.Expr); t != nil && !types.IsInterface(t) {
			c.reportf(tg.Expr, "typed.Fuzz: the fuzz function must be a func(*testing.T, ...) with fuzzed parameters, not %s", c.str(t))
		}
		return
	}
	var params *ast.FieldList
	if tg.Type != nil && tg.Decl == nil {
		params = tg.Type.Params
	}
	if tg.Sig.Results().Len() > 0 {
		at := ast.Node(tg.Expr)
		if params != nil && tg.Type.Results != nil {
			at = tg.Type.Results
		}
		c.reportf(at, "typed.Fuzz: the fuzz function must not return a value")
	}
	ps := tg.Sig.Params()
	switch {
	case ps.Len() == 0:
		c.reportf(tg.Expr, "typed.Fuzz: the fuzz function must take a *testing.T and at least one fuzzed parameter")
		return
	case !fuzzutil.IsTesting(ps.At(0).Type(), "T"):
		c.reportf(paramAt(params, 0, tg.Expr), "typed.Fuzz: the first parameter of the fuzz function must be *testing.T, not %s", c.str(ps.At(0).Type()))
	case ps.Len() == 1:
		c.reportf(tg.Expr, "typed.Fuzz: the fuzz function must take at least one fuzzed parameter after *testing.T")
	}
	if tg.Sig.Variadic() {
		c.reportf(paramAt(params, ps.Len()-1, tg.Expr), "typed.Fuzz: the fuzz function must not be variadic")
	}
	for i := 1; i < ps.Len(); i++ {
		p := ps.At(i)
		if why := unfuzzable(p.Type(), c.qf); why != "" {
			c.reportf(paramAt(params, i, tg.Expr), "typed.Fuzz: parameter %s of type %s cannot be fuzzed: %s", paramName(p), c.str(p.Type()), why)
		}
	}
}

// paramAt returns the syntax of the i-th parameter in fields (its name and
// type), or fallback.
func paramAt(fields *ast.FieldList, i int, fallback ast.Expr) ast.Node {
	if fields == nil {
		return fallback
	}
	n := 0
	for _, f := range fields.List {
		if len(f.Names) == 0 {
			if n == i {
				return f.Type
			}
			n++
			continue
		}
		for _, name := range f.Names {
			if n == i {
				return &span{name.Pos(), f.Type.End()}
			}
			n++
		}
	}
	return fallback
}

// A span is a source range reported as a node.
type span struct{ pos, end token.Pos }

func (s *span) Pos() token.Pos { return s.pos }
func (s *span) End() token.Pos { return s.end }
