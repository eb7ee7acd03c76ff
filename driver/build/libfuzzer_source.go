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
			if fn, ok := d.(*ast.FuncDecl); ok && corpus.IsFuzzTestDecl(fn) {
				names = append(names, fn.Name.Name)
			}
		}
	}
	return names, nil
}

// savedDict returns the tokens of the automatic dictionary saved for the
// fuzz test in the CacheDir of its package; none if there is none, or it
// cannot be read or parsed (it only ever adds tokens).
func (o *LibFuzzerOptions) savedDict(importPath, fuzzTest string) [][]byte {
	if o.CacheDir == nil {
		return nil
	}
	dir, err := o.CacheDir(importPath)
	if err != nil {
		return nil
	}
	data, err := os.ReadFile(filepath.Join(dir, fuzzTest+".dict"))
	if err != nil {
		return nil
	}
	toks, err := corpus.ParseDict(data)
	if err != nil {
		return nil
	}
	return toks
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
