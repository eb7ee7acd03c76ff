package fuzztyped

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/types"
	"strconv"

	"golang.org/x/tools/go/analysis"

	"github.com/fuzzbox/fuzzbox/analyzers/internal/fuzzutil"
)

//go:embed doc.go
var doc string

// Analyzer checks typed.Fuzz functions and typed.Add seeds.
var Analyzer = &analysis.Analyzer{
	Name: "fuzztyped",
	Doc:  fuzzutil.Doc(doc, "fuzztyped"),
	URL:  "https://github.com/fuzzbox/fuzzbox/blob/main/docs/fuzzvet.md#fuzztyped",
	Run:  run,
}

// checker holds the state of one pass; reported de-duplicates diagnostics of
// helpers shared by several Fuzz tests.
type checker struct {
	pass     *analysis.Pass
	ix       *fuzzutil.Index
	reported map[string]bool
}

func run(pass *analysis.Pass) (any, error) {
	c := &checker{pass: pass, ix: fuzzutil.NewIndex(pass), reported: map[string]bool{}}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && fuzzutil.TypedFunc(pass.TypesInfo, call) == "Fuzz" {
				if tg := c.ix.TargetOf(call); tg != nil {
					c.checkTarget(tg)
				}
			}
			return true
		})
	}
	for _, fd := range c.ix.FuzzTests() {
		c.checkTest(fd)
	}
	return nil, nil
}

// checkTest checks the typed.Add calls of the Fuzz test fd against its
// typed.Fuzz function, and its raw f.Add and f.Fuzz calls if it has one.
func (c *checker) checkTest(fd *ast.FuncDecl) {
	var typed *fuzzutil.Target
	for _, tg := range c.ix.Targets(fd) {
		if tg.Typed {
			typed = tg
			break
		}
	}
	params := fuzzedParams(typed) // nil when unknown or malformed
	c.ix.WalkF(fd, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		switch {
		case fuzzutil.TypedFunc(c.pass.TypesInfo, call) == "Add":
			c.checkAdd(call, params)
		case typed == nil:
		case fuzzutil.FMethod(c.pass.TypesInfo, call) == "Add":
			c.reportf(call, "use typed.Add: typed.Fuzz fuzzes one []byte that encodes the arguments")
		case fuzzutil.FMethod(c.pass.TypesInfo, call) == "Fuzz":
			c.reportf(call, "f.Fuzz and typed.Fuzz on the same *testing.F: typed.Fuzz calls f.Fuzz, which can be called only once")
		}
		return true
	})
}

// fuzzedParams returns the fuzzed parameters of a well-formed typed.Fuzz
// function, or nil.
func fuzzedParams(tg *fuzzutil.Target) []*types.Var {
	if tg == nil || tg.Sig == nil || tg.Sig.Results().Len() > 0 || tg.Sig.Variadic() || tg.Sig.Params().Len() < 2 ||
		!fuzzutil.IsTesting(tg.Sig.Params().At(0).Type(), "T") {
		return nil
	}
	var out []*types.Var
	for i := 1; i < tg.Sig.Params().Len(); i++ {
		out = append(out, tg.Sig.Params().At(i))
	}
	return out
}

func (c *checker) report(d analysis.Diagnostic) {
	key := fmt.Sprint(d.Pos, d.Message)
	if !c.reported[key] {
		c.reported[key] = true
		c.pass.Report(d)
	}
}

func (c *checker) reportf(at ast.Node, format string, args ...any) {
	c.report(analysis.Diagnostic{Pos: at.Pos(), End: at.End(), Message: fmt.Sprintf(format, args...)})
}

// reportConv reports at v with a fix that replaces v with text, a conversion
// to type t written with the names the file imports; when a package of t is
// not imported there, the fix is left out.
func (c *checker) reportConv(v ast.Expr, t types.Type, text func(typ string) string, format string, args ...any) {
	d := analysis.Diagnostic{Pos: v.Pos(), End: v.End(), Message: fmt.Sprintf(format, args...)}
	if typ, ok := c.typeIn(t, v); ok {
		d.SuggestedFixes = []analysis.SuggestedFix{{
			Message:   "convert to " + typ,
			TextEdits: []analysis.TextEdit{{Pos: v.Pos(), End: v.End(), NewText: []byte(text(typ))}},
		}}
	}
	c.report(d)
}

// typeIn writes t as the file containing at names it, and reports whether
// that file imports every package t needs.
func (c *checker) typeIn(t types.Type, at ast.Node) (string, bool) {
	var file *ast.File
	for _, f := range c.pass.Files {
		if f.FileStart <= at.Pos() && at.Pos() < f.FileEnd {
			file = f
		}
	}
	ok := file != nil
	s := types.TypeString(t, func(p *types.Package) string {
		if p == c.pass.Pkg {
			return ""
		}
		if name, imported := importName(file, p); imported {
			return name
		}
		ok = false
		return p.Name()
	})
	return s, ok
}

// importName returns the name under which file imports p.
func importName(file *ast.File, p *types.Package) (string, bool) {
	if file == nil {
		return "", false
	}
	for _, imp := range file.Imports {
		if path, err := strconv.Unquote(imp.Path.Value); err != nil || path != p.Path() {
			continue
		}
		switch {
		case imp.Name == nil:
			return p.Name(), true
		case imp.Name.Name == ".":
			return "", true
		case imp.Name.Name != "_":
			return imp.Name.Name, true
		}
	}
	return "", false
}

func (c *checker) str(t types.Type) string { return types.TypeString(t, c.qf) }

// qf names the packages of types in messages by their names.
func (c *checker) qf(p *types.Package) string {
	if p == c.pass.Pkg {
		return ""
	}
	return p.Name()
}

func (c *checker) typeList(params []*types.Var) string {
	s := ""
	for i, p := range params {
		if i > 0 {
			s += ", "
		}
		s += c.str(p.Type())
	}
	return s
}

// paramName is the parameter's name, or "_" if it has none.
func paramName(p *types.Var) string {
	if p.Name() == "" {
		return "_"
	}
	return p.Name()
}
