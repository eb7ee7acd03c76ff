package driver

import (
	"bytes"
	"fmt"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"strconv"

	"github.com/fuzzbox/fuzzbox/corpus"
)

// The automatic source dictionary: the string and character literals of the
// package under test (its Go files and test files), given to the mutator as
// dictionary tokens. Comparison guidance finds an operand only once the
// comparison runs; a literal such as "proto=" behind a length check
// (strings.HasPrefix) is never compared until the input already has room
// for it. AFL++ builds the same kind of dictionary from a program's
// constants at link time.

const (
	maxSourceTokens = 1024
	minTokenLen     = 2
	maxTokenLen     = 64
)

// sourceTokens returns the distinct literals of the named files in dir.
func sourceTokens(dir string, files []string) [][]byte {
	seen := map[string]bool{}
	var toks [][]byte
	for _, name := range files {
		src, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		fset := token.NewFileSet()
		var s scanner.Scanner
		s.Init(fset.AddFile(name, -1, len(src)), src, nil, 0)
		for len(toks) < maxSourceTokens {
			_, tok, lit := s.Scan()
			if tok == token.EOF {
				break
			}
			if tok != token.STRING && tok != token.CHAR {
				continue
			}
			v, err := strconv.Unquote(lit)
			if err != nil || len(v) < minTokenLen || len(v) > maxTokenLen || seen[v] {
				continue
			}
			seen[v] = true
			toks = append(toks, []byte(v))
		}
	}
	return toks
}

// writeDict writes the user's dictionary file (if any) followed by toks,
// in the AFL/libFuzzer format, to path.
func writeDict(path, userDict string, toks [][]byte) error {
	var b bytes.Buffer
	if userDict != "" {
		data, err := os.ReadFile(userDict)
		if err != nil {
			return fmt.Errorf("-dict: %w", err)
		}
		b.Write(data)
		b.WriteString("\n")
	}
	b.WriteString("# fuzzbox: literals of the package under test\n")
	for _, t := range toks {
		b.WriteString(corpus.QuoteToken(t))
		b.WriteByte('\n')
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}
