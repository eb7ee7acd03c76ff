package build

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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

// Limits of the source-literal dictionary (as the driver's, driver/dict.go).
const (
	maxLiteralTokens = 1024
	minLiteralLen    = 2
	maxLiteralLen    = 64
)

// sourceLiterals returns the distinct string and character literals of the
// named files in dir: the dictionary that lets the engine insert a keyword
// the code compares against before any comparison of it has run.
func sourceLiterals(dir string, files []string) [][]byte {
	seen := map[string]bool{}
	var toks [][]byte
	for _, name := range files {
		src, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		var s scanner.Scanner
		s.Init(token.NewFileSet().AddFile(name, -1, len(src)), src, nil, 0)
		for len(toks) < maxLiteralTokens {
			_, tok, lit := s.Scan()
			if tok == token.EOF {
				break
			}
			v, err := strconv.Unquote(lit)
			if (tok != token.STRING && tok != token.CHAR) || err != nil || len(v) < minLiteralLen || len(v) > maxLiteralLen || seen[v] {
				continue
			}
			seen[v] = true
			toks = append(toks, []byte(v))
		}
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
		b.WriteString(quoteDictToken(t))
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o666); err != nil {
		return fmt.Errorf("build: %w", err)
	}
	return nil
}

// quoteDictToken quotes t in the dictionary syntax: printable ASCII as is,
// backslash and double quote escaped, everything else as \xNN.
func quoteDictToken(t []byte) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range t {
		switch {
		case c == '\\' || c == '"':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c >= 0x20 && c < 0x7f:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "\\x%02x", c)
		}
	}
	b.WriteByte('"')
	return b.String()
}
