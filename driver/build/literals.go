package build

import (
	"bytes"
	"context"
	"encoding/json"
	"go/scanner"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
)

// Limits of the source-literal dictionary.
const (
	maxLiteralTokens = 1024
	minLiteralLen    = 2
	maxLiteralLen    = 64
)

// SourceLiterals returns the distinct string and character literals of the
// named files in dir: the source-literal dictionary of a package, which lets
// a fuzzer insert a keyword the code compares against before any comparison
// of it has run (comparison guidance finds an operand only once the
// comparison runs; a literal such as "proto=" behind a length check is never
// compared until the input has room for it). AFL++ builds the same kind of
// dictionary from a program's constants at link time. A pattern given to
// regexp.MustCompile and its kin adds its literal pieces (regexpCall). The
// driver gives it to
// fuzzbox's engine, fuzzbox build -libfuzzer writes it as FuzzX.dict.
func SourceLiterals(dir string, files []string) [][]byte {
	seen := map[string]bool{}
	var toks [][]byte
	for _, name := range files {
		src, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		var s scanner.Scanner
		s.Init(token.NewFileSet().AddFile(name, -1, len(src)), src, nil, 0)
		var imp importSkipper
		var re regexpCall
		add := func(v string) {
			if len(v) >= minLiteralLen && len(v) <= maxLiteralLen && !seen[v] && len(toks) < maxLiteralTokens {
				seen[v] = true
				toks = append(toks, []byte(v))
			}
		}
		for len(toks) < maxLiteralTokens {
			_, tok, lit := s.Scan()
			if tok == token.EOF {
				break
			}
			if imp.skip(tok) {
				continue // an import path: no input is compared with it
			}
			pattern := re.next(tok, lit)
			v, err := strconv.Unquote(lit)
			if (tok != token.STRING && tok != token.CHAR) || err != nil {
				continue
			}
			add(v)
			if pattern {
				for _, piece := range regexpLiterals(v) {
					add(piece)
				}
			}
		}
	}
	return toks
}

// maxImportLiterals bounds the literals PackageLiterals takes from imported
// packages, so that they do not crowd out the package's own in the
// mutator's uniform choice of a token.
const maxImportLiterals = 512

// LiteralSource is what PackageLiterals needs of a package: fields of go
// list's output.
type LiteralSource struct {
	ImportPath, Dir                    string
	GoFiles, TestGoFiles, XTestGoFiles []string
	Imports, TestImports, XTestImports []string
}

// PackageLiterals returns the source-literal dictionary of package p: its
// own string and character literals (SourceLiterals of its files), then up
// to maxImportLiterals of those of the packages outside the standard
// library that p and its tests import directly. The code a fuzz test
// exercises often lives there: a fuzz test of a parser from another module
// compares its input with that module's keywords, which no comparison
// reveals before the branch that makes it runs (a map lookup of a keyword is
// no comparison the hooks see). fuzzbox fuzz and fuzzbox build -libfuzzer
// both use it.
func PackageLiterals(ctx context.Context, p LiteralSource) [][]byte {
	toks := SourceLiterals(p.Dir, slices.Concat(p.GoFiles, p.TestGoFiles, p.XTestGoFiles))
	seen := map[string]bool{}
	for _, t := range toks {
		seen[string(t)] = true
	}
	n := 0
	for _, dep := range importedPackages(ctx, p) {
		for _, t := range SourceLiterals(dep.Dir, dep.GoFiles) {
			if n == maxImportLiterals {
				return toks
			}
			if !seen[string(t)] {
				seen[string(t)] = true
				toks = append(toks, t)
				n++
			}
		}
	}
	return toks
}

// importedPackages lists the packages outside the standard library that p
// and its tests import, other than p itself, in import order. It returns
// nil when go list fails: the dictionary only helps.
func importedPackages(ctx context.Context, p LiteralSource) []LiteralSource {
	var paths []string
	for _, path := range slices.Concat(p.Imports, p.TestImports, p.XTestImports) {
		if path != p.ImportPath && path != "C" && !slices.Contains(paths, path) {
			paths = append(paths, path)
		}
	}
	if len(paths) == 0 {
		return nil
	}
	cmd := exec.CommandContext(ctx, "go", append([]string{"list", "-e", "-json=ImportPath,Dir,GoFiles,Standard", "--"}, paths...)...)
	cmd.Dir = p.Dir
	out, err := cmd.Output()
	if err != nil {
		return nil
	}
	var deps []LiteralSource
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var d struct {
			LiteralSource
			Standard bool
		}
		if dec.Decode(&d) != nil {
			return deps
		}
		if !d.Standard && d.Dir != "" {
			deps = append(deps, d.LiteralSource)
		}
	}
	return deps
}

// importSkipper follows the tokens of import declarations, whose strings
// are import paths, not literals the code compares with.
type importSkipper struct {
	inDecl  bool // after "import"
	inGroup bool // inside "import ( ... )"
}

// skip reports whether tok belongs to an import declaration.
func (s *importSkipper) skip(tok token.Token) bool {
	switch {
	case tok == token.IMPORT:
		s.inDecl = true
	case s.inGroup:
		s.inGroup, s.inDecl = tok != token.RPAREN, tok != token.RPAREN
	case s.inDecl && tok == token.LPAREN:
		s.inGroup = true
	case s.inDecl:
		// import "p", import name "p", import . "p": the spec ends at its
		// string.
		s.inDecl = tok != token.STRING
	default:
		return false
	}
	return true
}

// regexpCall follows tokens for a call regexp.MustCompile("…") (or
// Compile, MatchString and their POSIX forms), whose string is a pattern:
// the input is matched against the pattern's literal pieces, which the
// regexp package finds with strings.Index (no comparison hook sees them) —
// gopkg.in/ini.v1's `%\(([^\)]+)\)s` asks for "%(" and ")s".
type regexpCall struct{ state int }

// next takes the next token and reports whether it is the pattern string
// of such a call.
func (r *regexpCall) next(tok token.Token, lit string) bool {
	switch {
	case r.state == 0 && tok == token.IDENT && lit == "regexp",
		r.state == 1 && tok == token.PERIOD,
		r.state == 2 && tok == token.IDENT && strings.Contains(lit, "Compile") || r.state == 2 && lit == "MatchString",
		r.state == 3 && tok == token.LPAREN:
		r.state++
		return false
	case r.state == 4 && tok == token.STRING:
		r.state = 0
		return true
	}
	r.state = 0
	if tok == token.IDENT && lit == "regexp" {
		r.state = 1
	}
	return false
}

// regexpLiterals returns the literal strings of a regular expression's
// parse: "%(" and ")s" for `%\(([^\)]+)\)s`.
func regexpLiterals(pattern string) []string {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil
	}
	var out []string
	var walk func(*syntax.Regexp)
	walk = func(re *syntax.Regexp) {
		if re.Op == syntax.OpLiteral && re.Flags&syntax.FoldCase == 0 {
			out = append(out, string(re.Rune))
		}
		for _, sub := range re.Sub {
			walk(sub)
		}
	}
	walk(re.Simplify())
	return out
}
