package build

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"

	"github.com/fuzzbox/fuzzbox/corpus"
)

// fuzzTestNames returns the names of the fuzz tests (func FuzzX(*testing.F))
// declared in the named test files of dir, in file order.
func fuzzTestNames(dir string, files []string) ([]string, error) {
	var names []string
	for _, name := range files {
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("package does not build: %w", err)
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && isFuzzTest(fn) {
				names = append(names, fn.Name.Name)
			}
		}
	}
	return names, nil
}

// isFuzzTest reports whether fn is a top-level FuzzX(f *testing.F), by the
// go command's rule: the name is Fuzz or Fuzz followed by a non-lowercase
// character.
func isFuzzTest(fn *ast.FuncDecl) bool {
	rest, ok := strings.CutPrefix(fn.Name.Name, "Fuzz")
	if !ok || fn.Recv != nil || (rest != "" && 'a' <= rest[0] && rest[0] <= 'z') {
		return false
	}
	params := fn.Type.Params.List
	if len(params) != 1 || len(params[0].Names) > 1 {
		return false
	}
	star, ok := params[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "F"
}

// writeDict writes toks as a libFuzzer/AFL dictionary, one quoted token a
// line, duplicates dropped.
func writeDict(path string, toks [][]byte) error {
	var b strings.Builder
	seen := map[string]bool{}
	for _, t := range toks {
		if len(t) == 0 || seen[string(t)] {
			continue
		}
		seen[string(t)] = true
		b.WriteString(corpus.QuoteToken(t))
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o666); err != nil {
		return fmt.Errorf("build: %w", err)
	}
	return nil
}
