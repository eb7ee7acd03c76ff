package fuzzadd

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/fuzzbox/fuzzbox/analyzers/internal/fuzzutil"
)

//go:embed doc.go
var doc string

// Analyzer checks f.Add values against the fuzz function's parameters.
var Analyzer = &analysis.Analyzer{
	Name: "fuzzadd",
	Doc:  fuzzutil.Doc(doc, "fuzzadd"),
	URL:  "https://github.com/fuzzbox/fuzzbox/blob/main/docs/fuzzvet.md#fuzzadd",
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
	for _, fd := range c.ix.FuzzTests() {
		var params []*types.Var // nil when the fuzz function is unknown or invalid
		tgs := c.ix.Targets(fd)
		if len(tgs) > 0 && tgs[0].Typed {
			continue // fuzztyped checks the seeds of typed.Fuzz
		}
		if len(tgs) > 0 && fuzzutil.ValidTarget(tgs[0].Sig) {
			for i := 1; i < tgs[0].Sig.Params().Len(); i++ {
				params = append(params, tgs[0].Sig.Params().At(i))
			}
		}
		c.ix.WalkF(fd, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && fuzzutil.FMethod(pass.TypesInfo, call) == "Add" {
				c.checkAdd(call, params)
			}
			return true
		})
	}
	return nil, nil
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

// checkAdd checks one f.Add call; params are the fuzzed parameters, or nil.
func (c *checker) checkAdd(call *ast.CallExpr, params []*types.Var) {
	if !call.Ellipsis.IsValid() {
		c.checkValues(call, call.Args, params, false)
		return
	}
	for _, lit := range c.ix.Spread(call.Args[len(call.Args)-1]) {
		c.checkValues(lit, lit.Elts, params, true)
	}
}

func (c *checker) checkValues(at ast.Node, vals []ast.Expr, params []*types.Var, spread bool) {
	if params != nil && len(vals) != len(params) {
		what := "f.Add has"
		if spread {
			what = "this seed passed to f.Add has"
		}
		c.reportf(at, "%s %d values, but the fuzz function takes %d fuzzed arguments (%s)", what, len(vals), len(params), c.typeList(params))
		params = nil
	}
	for i, v := range vals {
		if params != nil {
			c.checkValue(v, params[i])
		} else if t := c.pass.TypesInfo.TypeOf(v); t != nil && !types.IsInterface(t) && !fuzzutil.Supported(t) {
			c.reportf(v, "f.Add value %s has type %s, which the testing package rejects", types.ExprString(v), c.str(t))
		}
	}
}

// checkValue checks one value against the fuzzed parameter p. A value of
// an interface type is not checked: the testing package sees its dynamic
// type, known only at run time (goldmark's fuzz test adds c["markdown"],
// an any from decoded JSON, for a string argument).
func (c *checker) checkValue(v ast.Expr, p *types.Var) {
	tv, ok := c.pass.TypesInfo.Types[v]
	want := p.Type()
	if !ok || tv.Type == nil || types.Identical(tv.Type, want) || types.IsInterface(tv.Type) {
		return
	}
	src, arg := types.ExprString(v), paramName(p)
	switch {
	case tv.Value != nil && fuzzutil.Untyped(c.pass.TypesInfo, v) && fuzzutil.Representable(c.pass, tv, want):
		c.reportFix(v, want, "untyped constant %s in f.Add has default type %s, but fuzz argument %s is %s",
			src, c.str(tv.Type), arg, c.str(want))
	case types.Identical(tv.Type.Underlying(), want):
		c.reportFix(v, want, "f.Add value %s has named type %s, which the testing package rejects: fuzz argument %s is %s",
			src, c.str(tv.Type), arg, c.str(want))
	default:
		c.reportf(v, "f.Add value %s has type %s, but fuzz argument %s is %s", src, c.str(tv.Type), arg, c.str(want))
	}
}

// reportFix reports at v with a fix that converts v to type want.
func (c *checker) reportFix(v ast.Expr, want types.Type, format string, args ...any) {
	conv := c.str(want)
	if _, isSlice := want.(*types.Slice); isSlice {
		conv = "(" + conv + ")"
	}
	text := fmt.Sprintf("%s(%s)", conv, types.ExprString(v))
	c.report(analysis.Diagnostic{
		Pos: v.Pos(), End: v.End(), Message: fmt.Sprintf(format, args...),
		SuggestedFixes: []analysis.SuggestedFix{{
			Message:   "convert to " + c.str(want),
			TextEdits: []analysis.TextEdit{{Pos: v.Pos(), End: v.End(), NewText: []byte(text)}},
		}},
	})
}

func (c *checker) str(t types.Type) string { return types.TypeString(t, types.RelativeTo(c.pass.Pkg)) }

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

func paramName(p *types.Var) string {
	if p.Name() == "" || p.Name() == "_" {
		return "of type " + types.TypeString(p.Type(), nil)
	}
	return p.Name()
}
