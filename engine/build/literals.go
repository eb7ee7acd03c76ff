package build

import (
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
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
// dictionary from a program's constants at link time. The driver gives it to
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
		for len(toks) < maxLiteralTokens {
			_, tok, lit := s.Scan()
			if tok == token.EOF {
				break
			}
			if imp.skip(tok) {
				continue // an import path: no input is compared with it
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
