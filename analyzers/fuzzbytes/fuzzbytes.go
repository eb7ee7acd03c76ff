package fuzzbytes

import (
	_ "embed"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/fuzzbox/fuzzbox/analyzers/internal/fuzzutil"
)

//go:embed doc.go
var doc string

// Analyzer reports fuzz functions that modify or retain a []byte argument.
var Analyzer = &analysis.Analyzer{
	Name: "fuzzbytes",
	Doc:  fuzzutil.Doc(doc, "fuzzbytes"),
	URL:  "https://github.com/fuzzbox/fuzzbox/blob/main/docs/fuzzvet.md#fuzzbytes",
	Run:  run,
}

func run(pass *analysis.Pass) (any, error) {
	ix := fuzzutil.NewIndex(pass)
	seen := map[*ast.BlockStmt]bool{}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && fuzzutil.FMethod(pass.TypesInfo, call) == "Fuzz" {
				if tg := ix.TargetOf(call); tg != nil && tg.Body != nil && tg.Sig != nil && !seen[tg.Body] {
					seen[tg.Body] = true
					checkTarget(pass, tg)
				}
			}
			return true
		})
	}
	return nil, nil
}

// fn is the analysis of one fuzz function body.
type fn struct {
	pass    *analysis.Pass
	scope   ast.Node                // the fuzz function: its parameters and body
	tainted map[types.Object]string // the []byte arguments and local aliases -> argument name
}

func checkTarget(pass *analysis.Pass, tg *fuzzutil.Target) {
	var scope ast.Node = tg.Body
	if tg.Type != nil {
		scope = &ast.FuncLit{Type: tg.Type, Body: tg.Body} // its range: from the parameters to the body's end
	}
	c := &fn{pass: pass, scope: scope, tainted: map[types.Object]string{}}
	byteSlice := types.NewSlice(types.Typ[types.Byte])
	for i := 1; i < tg.Sig.Params().Len(); i++ {
		if p := tg.Sig.Params().At(i); types.Identical(p.Type(), byteSlice) && p.Name() != "" && p.Name() != "_" {
			c.tainted[p] = p.Name()
		}
	}
	if len(c.tainted) == 0 {
		return
	}
	ast.Inspect(tg.Body, c.visit)
}

func (c *fn) visit(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.AssignStmt:
		c.assign(n)
	case *ast.IncDecStmt:
		if name := c.indexed(n.X); name != "" {
			c.reportWrite(n, name)
		}
	case *ast.CallExpr:
		c.call(n)
	}
	return true
}

func (c *fn) assign(as *ast.AssignStmt) {
	for i, lhs := range as.Lhs {
		if name := c.indexed(lhs); name != "" {
			c.reportWrite(lhs, name)
			continue
		}
		if len(as.Rhs) != len(as.Lhs) {
			continue
		}
		name := c.retained(as.Rhs[i])
		if name == "" {
			continue
		}
		if id, ok := lhs.(*ast.Ident); ok && as.Tok == token.DEFINE {
			if obj := c.pass.TypesInfo.Defs[id]; obj != nil {
				c.tainted[obj] = name // a local alias: follow it
				continue
			}
		}
		if c.outer(lhs) {
			c.pass.ReportRangef(as, "the fuzz function must not retain its []byte argument %s after it returns: the engine reuses its memory; copy it (bytes.Clone)", name)
		} else if id, ok := ast.Unparen(lhs).(*ast.Ident); ok {
			if obj := c.pass.TypesInfo.Uses[id]; obj != nil {
				c.tainted[obj] = name // a local now aliases the argument
			}
		}
	}
}

func (c *fn) call(call *ast.CallExpr) {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok || len(call.Args) == 0 {
		return
	}
	if _, builtin := c.pass.TypesInfo.Uses[id].(*types.Builtin); !builtin {
		return
	}
	switch id.Name {
	case "copy":
		if name := c.alias(call.Args[0]); name != "" {
			c.reportWrite(call, name)
		}
	case "append":
		if s, ok := ast.Unparen(call.Args[0]).(*ast.SliceExpr); ok && len(call.Args) > 1 && !fullCap(s) {
			if name := c.alias(s.X); name != "" {
				c.reportWrite(call, name)
			}
		}
	}
}

// fullCap reports whether s is x[i:j:j] (the same j twice): its capacity is
// its length, so append copies it to a new array and never writes into x.
func fullCap(s *ast.SliceExpr) bool {
	return s.Slice3 && s.High != nil && s.Max != nil && types.ExprString(s.High) == types.ExprString(s.Max)
}

func (c *fn) reportWrite(at ast.Node, name string) {
	c.pass.ReportRangef(at, "the fuzz function must not modify its []byte argument %s: the engine reuses its memory; copy it first (bytes.Clone)", name)
}

// alias returns the argument name if e is a tainted variable or a slice of one.
func (c *fn) alias(e ast.Expr) string {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return c.tainted[c.pass.TypesInfo.Uses[e]]
	case *ast.SliceExpr:
		return c.alias(e.X)
	}
	return ""
}

// indexed returns the argument name if e is an element of a tainted slice.
func (c *fn) indexed(e ast.Expr) string {
	if ix, ok := ast.Unparen(e).(*ast.IndexExpr); ok {
		return c.alias(ix.X)
	}
	return ""
}

// retained returns the argument name if storing e keeps the argument's memory:
// e is an alias, or append(x, alias) with the alias as an element.
func (c *fn) retained(e ast.Expr) string {
	if name := c.alias(e); name != "" {
		return name
	}
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || call.Ellipsis.IsValid() {
		return ""
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && id.Name == "append" {
		if _, builtin := c.pass.TypesInfo.Uses[id].(*types.Builtin); builtin {
			for _, a := range call.Args[1:] {
				if name := c.alias(a); name != "" {
					return name
				}
			}
		}
	}
	return ""
}

// outer reports whether the variable at the root of lhs (x in x.f[i].g) is
// declared outside the fuzz function (its parameters are its own: b = b[:n]
// keeps nothing).
func (c *fn) outer(lhs ast.Expr) bool {
	for {
		switch e := ast.Unparen(lhs).(type) {
		case *ast.SelectorExpr:
			if v, ok := c.pass.TypesInfo.Uses[e.Sel].(*types.Var); ok && !v.IsField() {
				return c.declaredOutside(v) // pkg.Var
			}
			lhs = e.X
		case *ast.IndexExpr:
			lhs = e.X
		case *ast.StarExpr:
			lhs = e.X
		case *ast.Ident:
			v, ok := c.pass.TypesInfo.Uses[e].(*types.Var)
			return ok && c.declaredOutside(v)
		default:
			return false
		}
	}
}

func (c *fn) declaredOutside(v *types.Var) bool {
	return v.Pos() < c.scope.Pos() || v.Pos() >= c.scope.End()
}
