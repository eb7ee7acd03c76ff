package fuzzcall

import (
	_ "embed"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/cfg"

	"github.com/fuzzbox/fuzzbox/analyzers/internal/fuzzutil"
)

//go:embed doc.go
var doc string

// Analyzer checks the number and order of f.Fuzz and f.Add calls.
var Analyzer = &analysis.Analyzer{
	Name: "fuzzcall",
	Doc:  fuzzutil.Doc(doc, "fuzzcall"),
	URL:  "https://github.com/fuzzbox/fuzzbox/blob/main/docs/fuzzvet.md#fuzzcall",
	Run:  run,
}

func run(pass *analysis.Pass) (any, error) {
	ix := fuzzutil.NewIndex(pass)
	for _, fd := range ix.FuzzTests() {
		c := &checker{ix: ix, helpers: map[*ast.FuncDecl]calls{}}
		if c.checkable(fd) {
			c.check(fd)
		}
	}
	return nil, nil
}

// A checker analyzes one Fuzz test.
type checker struct {
	ix      *fuzzutil.Index
	helpers map[*ast.FuncDecl]calls // what each helper calls, transitively
	twice   bool                    // some f.Fuzz call can follow another
}

// checkable reports whether every use of the *testing.F in fd and its helpers
// is visible: f is only a method receiver or an argument of package helpers,
// and f.Fuzz is not called from a function literal. It records which helpers
// call f.Fuzz and f.Add.
func (c *checker) checkable(fd *ast.FuncDecl) bool {
	ok := true
	visited := map[*ast.FuncDecl]bool{}
	var walk func(d *ast.FuncDecl) calls
	walk = func(d *ast.FuncDecl) calls {
		visited[d] = true
		var got calls
		ast.Inspect(d.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				if !isTargetLit(c.ix.Pass.TypesInfo, d.Body, n) && c.callsFuzz(n) {
					ok = false
				}
				return false
			case *ast.CallExpr:
				got.add(method(c.ix.Pass.TypesInfo, n))
				if c.ix.PassesF(n) && !isTyped(c.ix.Pass.TypesInfo, n) {
					h := c.ix.Callee(n)
					switch {
					case h == nil:
						ok = false
					case !visited[h]:
						c.helpers[h] = walk(h)
					}
					got.fuzz = got.fuzz || c.helpers[h].fuzz
					got.adds = got.adds || c.helpers[h].adds
				}
			case *ast.Ident:
				if fuzzutil.IsTesting(c.ix.Pass.TypesInfo.TypeOf(n), "F") && !c.knownUse(d, n) {
					ok = false
				}
			}
			return true
		})
		return got
	}
	walk(fd)
	return ok
}

// calls records whether a helper calls f.Fuzz and f.Add.
type calls struct{ fuzz, adds bool }

func (k *calls) add(method string) {
	k.fuzz = k.fuzz || method == "Fuzz"
	k.adds = k.adds || method == "Add"
}

// method returns the *testing.F method call invokes, with typed.Fuzz(f, fn)
// and typed.Add(f, ...) counting as f.Fuzz and f.Add (they call them).
func method(info *types.Info, call *ast.CallExpr) string {
	if isTyped(info, call) {
		return fuzzutil.TypedFunc(info, call)
	}
	return fuzzutil.FMethod(info, call)
}

// isTyped reports whether call is typed.Fuzz or typed.Add.
func isTyped(info *types.Info, call *ast.CallExpr) bool {
	m := fuzzutil.TypedFunc(info, call)
	return m == "Fuzz" || m == "Add"
}

// callsFuzz reports whether lit contains an f.Fuzz or typed.Fuzz call.
func (c *checker) callsFuzz(lit *ast.FuncLit) bool {
	found := false
	ast.Inspect(lit.Body, func(m ast.Node) bool {
		if call, isCall := m.(*ast.CallExpr); isCall && fuzzutil.IsFuzzCall(c.ix.Pass.TypesInfo, call) {
			found = true
		}
		return !found
	})
	return found
}

// isTargetLit reports whether lit is the fuzz function of an f.Fuzz or
// typed.Fuzz call in body.
func isTargetLit(info *types.Info, body *ast.BlockStmt, lit *ast.FuncLit) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && len(call.Args) > 0 && ast.Unparen(call.Args[len(call.Args)-1]) == lit &&
			fuzzutil.IsFuzzCall(info, call) {
			found = true
		}
		return !found
	})
	return found
}

// knownUse reports whether the identifier id of type *testing.F in d is a
// method receiver, a helper argument, or the parameter declaration.
func (c *checker) knownUse(d *ast.FuncDecl, id *ast.Ident) bool {
	if c.ix.Pass.TypesInfo.Defs[id] != nil {
		return true
	}
	known := false
	ast.Inspect(d.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			known = known || n.X == id
		case *ast.CallExpr:
			for _, a := range n.Args {
				known = known || a == id
			}
		}
		return !known
	})
	return known
}

// A state is a set of facts about one path: the number of f.Fuzz calls so
// far (0, 1 or 2 meaning "more") and whether the test already failed or was
// skipped (which excuses a missing f.Fuzz).
type state struct {
	fuzz    int
	excused bool
}

// states is a bit set of the 6 states.
type states uint8

func bit(s state) states {
	i := s.fuzz * 2
	if s.excused {
		i++
	}
	return 1 << i
}

func (ss states) each(fn func(state)) {
	for i := range 6 {
		if ss&(1<<i) != 0 {
			fn(state{fuzz: i / 2, excused: i%2 == 1})
		}
	}
}

func (c *checker) check(fd *ast.FuncDecl) {
	g := cfg.New(fd.Body, c.mayReturn)
	in := make([]states, len(g.Blocks))
	in[0] = bit(state{})
	for changed := true; changed; {
		changed = false
		for _, b := range g.Blocks {
			out := c.transfer(b, in[b.Index], nil)
			for _, s := range b.Succs {
				if in[s.Index]|out != in[s.Index] {
					in[s.Index] |= out
					changed = true
				}
			}
		}
	}
	seen := map[token.Pos]bool{}
	report := func(at ast.Node, format string, args ...any) {
		if !seen[at.Pos()] {
			seen[at.Pos()] = true
			c.ix.Pass.ReportRangef(at, format, args...)
		}
	}
	for _, b := range g.Blocks {
		if !b.Live || in[b.Index] == 0 {
			continue
		}
		out := c.transfer(b, in[b.Index], report)
		// A loop around f.Fuzz is reported as a second call; its zero-trip
		// path would only add noise.
		if len(b.Succs) == 0 && !c.twice && !c.endsInNoReturn(b) && hasUnfuzzed(out) {
			c.reportReturn(fd, b, report)
		}
	}
}

func hasUnfuzzed(ss states) bool {
	missing := false
	ss.each(func(s state) { missing = missing || (s.fuzz == 0 && !s.excused) })
	return missing
}

func (c *checker) reportReturn(fd *ast.FuncDecl, b *cfg.Block, report func(ast.Node, string, ...any)) {
	if ret := b.Return(); ret != nil && ret.Pos() != fd.Body.Rbrace { // cfg adds a ReturnStmt at the closing brace
		report(ret, "%s returns without calling f.Fuzz, f.Skip or f.Fail on this path", fd.Name.Name)
		return
	}
	at := &ast.Ident{NamePos: fd.Body.Rbrace, Name: "}"}
	report(at, "%s can reach its end without calling f.Fuzz, f.Skip or f.Fail", fd.Name.Name)
}

// transfer applies the calls of block b to the states ss; with report set, it
// reports the calls that break the rules.
func (c *checker) transfer(b *cfg.Block, ss states, report func(ast.Node, string, ...any)) states {
	for _, n := range b.Nodes {
		ast.Inspect(n, func(m ast.Node) bool {
			if _, lit := m.(*ast.FuncLit); lit {
				return false
			}
			if call, ok := m.(*ast.CallExpr); ok {
				ss = c.apply(call, ss, report)
			}
			return true
		})
	}
	return ss
}

func (c *checker) apply(call *ast.CallExpr, ss states, report func(ast.Node, string, ...any)) states {
	m := method(c.ix.Pass.TypesInfo, call)
	isFuzz, isAdd := m == "Fuzz", m == "Add"
	add, fuzz := "f.Add", "f.Fuzz"
	if isTyped(c.ix.Pass.TypesInfo, call) {
		add, fuzz = "typed.Add", "typed.Fuzz"
	}
	if h := c.ix.Helper(call); h != nil {
		isFuzz = isFuzz || c.helpers[h].fuzz
		isAdd = isAdd || c.helpers[h].adds
	}
	var out states
	ss.each(func(s state) {
		switch {
		case isAdd && s.fuzz > 0:
			if report != nil {
				report(call, "%s after %s is ignored: add seeds before calling %s", add, fuzz, fuzz)
			}
		case isFuzz:
			if s.fuzz > 0 {
				c.twice = true
				if report != nil {
					report(call, "%s must be called only once: this call can follow another f.Fuzz call", fuzz)
				}
			}
			s.fuzz = min(s.fuzz+1, 2)
		case excuses[m]:
			s.excused = true
		}
		out |= bit(s)
	})
	return out
}

// excuses are the F methods after which returning without f.Fuzz is fine.
var excuses = map[string]bool{"Fail": true, "Error": true, "Errorf": true, "Skip": true, "Skipf": true, "SkipNow": true}

// noReturn are the F methods that end the test.
var noReturn = map[string]bool{"Fatal": true, "Fatalf": true, "FailNow": true, "Skip": true, "Skipf": true, "SkipNow": true}

// mayReturn reports whether call can return: panic, os.Exit, log.Fatal* and
// the ending F methods do not.
func (c *checker) mayReturn(call *ast.CallExpr) bool {
	info := c.ix.Pass.TypesInfo
	if noReturn[fuzzutil.FMethod(info, call)] {
		return false
	}
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		_, builtin := info.Uses[fun].(*types.Builtin)
		return !(builtin && fun.Name == "panic")
	case *ast.SelectorExpr:
		fn, ok := info.Uses[fun.Sel].(*types.Func)
		if !ok || fn.Pkg() == nil {
			return true
		}
		switch fn.Pkg().Path() + "." + fn.Name() {
		case "os.Exit", "log.Fatal", "log.Fatalf", "log.Fatalln", "log.Panic", "log.Panicf", "log.Panicln", "runtime.Goexit":
			return false
		}
	}
	return true
}

// endsInNoReturn reports whether b ends with a call that does not return.
func (c *checker) endsInNoReturn(b *cfg.Block) bool {
	if len(b.Nodes) == 0 {
		return false
	}
	es, ok := b.Nodes[len(b.Nodes)-1].(*ast.ExprStmt)
	if !ok {
		return false
	}
	call, ok := es.X.(*ast.CallExpr)
	return ok && !c.mayReturn(call)
}
