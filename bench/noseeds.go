package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
)

// This file is -noseeds: the targets run without the seeds their fuzz
// tests add, as a fuzz test that adds none (or go-118-fuzz-build, which
// drops them) starts.

// withoutSeeds copies the target module at root into a temporary
// directory in which every f.Add call of the fuzz tests is made a no-op,
// and returns that copy's root and how many calls it changed. remove
// deletes the copy.
func withoutSeeds(root string) (copyRoot string, calls int, remove func(), err error) {
	tmp, err := os.MkdirTemp("", "fuzzbox-bench-noseeds-")
	if err != nil {
		return "", 0, nil, err
	}
	remove = func() { os.RemoveAll(tmp) }
	copyRoot = filepath.Join(tmp, filepath.Base(root))
	if err := os.CopyFS(copyRoot, os.DirFS(root)); err != nil {
		remove()
		return "", 0, nil, fmt.Errorf("-noseeds: copying %s: %w", root, err)
	}
	files, _ := filepath.Glob(filepath.Join(copyRoot, "*", "*_test.go"))
	for _, f := range files {
		n, err := dropSeedsFile(f)
		if err != nil {
			remove()
			return "", 0, nil, fmt.Errorf("-noseeds: %w", err)
		}
		calls += n
	}
	return copyRoot, calls, remove, nil
}

// dropSeedsFile rewrites one test file with dropSeeds.
func dropSeedsFile(path string) (int, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	out, n, err := dropSeeds(src)
	if err != nil || n == 0 {
		return 0, err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	return n, os.WriteFile(path, out, fi.Mode().Perm()|0o200)
}

// dropSeeds turns each call F.Add(args) in a function with a parameter
// F *testing.F into `_ = []any{args}` with the string and character
// literals of args emptied: every variable and import stays used, no seed
// is added, and fuzzbox's source-literal dictionary (the fuzz test's
// literals up to 64 bytes) does not get the seeds' text. A seed held in a
// constant or variable declared elsewhere keeps its literal there. It
// returns the new source and the number of calls changed.
func dropSeeds(src []byte) ([]byte, int, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "", src, parser.ParseComments)
	if err != nil {
		return nil, 0, err
	}
	type edit struct {
		from, to int
		text     string
	}
	var edits []edit
	calls := 0
	for _, d := range file.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		fs := testingFParams(fn.Type)
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			st, ok := n.(*ast.ExprStmt)
			if !ok {
				return true
			}
			call, ok := st.X.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Add" {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); !ok || !slices.Contains(fs, id.Name) {
				return true
			}
			off := func(p token.Pos) int { return fset.Position(p).Offset }
			edits = append(edits, edit{off(call.Fun.Pos()), off(call.Lparen) + 1, "_ = []any{"})
			for _, a := range call.Args {
				ast.Inspect(a, func(n ast.Node) bool {
					if lit, ok := n.(*ast.BasicLit); ok && (lit.Kind == token.STRING || lit.Kind == token.CHAR) {
						edits = append(edits, edit{off(lit.Pos()), off(lit.End()), emptyLit[lit.Kind]})
					}
					return true
				})
			}
			edits = append(edits, edit{off(call.Rparen), off(call.Rparen) + 1, "}"})
			calls++
			return false
		})
	}
	out := bytes.Clone(src)
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		out = slices.Concat(out[:e.from], []byte(e.text), out[e.to:])
	}
	return out, calls, nil
}

// emptyLit replaces a seed's string and character literals, which the
// source-literal dictionary would otherwise hand the engine.
var emptyLit = map[token.Token]string{token.STRING: `""`, token.CHAR: `' '`}

// testingFParams names the parameters of type *testing.F.
func testingFParams(ft *ast.FuncType) []string {
	var names []string
	for _, p := range ft.Params.List {
		star, ok := p.Type.(*ast.StarExpr)
		if !ok {
			continue
		}
		sel, ok := star.X.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "F" {
			continue
		}
		if pkg, ok := sel.X.(*ast.Ident); !ok || pkg.Name != "testing" {
			continue
		}
		for _, n := range p.Names {
			names = append(names, n.Name)
		}
	}
	return names
}
