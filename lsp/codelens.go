package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/fuzzbox/fuzzbox/corpus"
	"github.com/fuzzbox/fuzzbox/driver"
	"github.com/fuzzbox/fuzzbox/lsp/command"
	"github.com/fuzzbox/fuzzbox/lsp/protocol"
)

// Code lenses: on each fuzz test fuzz (or stop, with the live state of its
// run), run seeds and, after a failure, open reproducer; on each corpus file
// rerun this input and its decoded values. Lens sources are best-effort: a
// file that does not parse gets no lenses, and the error is logged.

func (s *Server) codeLens(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	var p protocol.CodeLensParams
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	return s.lenses(p.TextDocument.URI), nil
}

// lenses returns the lenses of a document (never nil, so the answer is []).
func (s *Server) lenses(uri protocol.DocumentURI) []protocol.CodeLens {
	lenses := []protocol.CodeLens{}
	path, err := uriPath(uri)
	if err != nil {
		return lenses
	}
	var more []protocol.CodeLens
	switch {
	case strings.HasSuffix(path, "_test.go"):
		more, err = s.fuzzTestLenses(uri, path)
	case isCorpusFile(path):
		more, err = s.corpusLenses(uri, path)
	}
	if err != nil {
		s.logf("code lenses of %s: %v", path, err)
	}
	return append(lenses, more...)
}

// A fuzzTest is one func FuzzX(f *testing.F) of a test file.
type fuzzTest struct {
	Name string
	Line int // 1-based line of the func keyword
	Col  int // 1-based byte column of the name
}

// parseFile is parser.ParseFile; tests count its calls.
var parseFile = parser.ParseFile

// fuzzTests parses a test file and lists its fuzz tests. A file without
// "Fuzz" declares none and is not parsed: fuzzbox.tests reads every test
// file of the workspace, and parsing them all took it (and the lenses and
// hovers behind it) about 1 s on GOROOT/src's 1,753 test files, 0.3 s on
// go-ethereum's 471.
func fuzzTests(path, text string) ([]fuzzTest, error) {
	if !strings.Contains(text, "Fuzz") {
		return nil, nil
	}
	fset := token.NewFileSet()
	f, err := parseFile(fset, path, text, parser.SkipObjectResolution)
	if f == nil {
		return nil, err
	}
	var tests []fuzzTest
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || !corpus.IsFuzzTestDecl(fd) {
			continue
		}
		pos := fset.Position(fd.Name.Pos())
		tests = append(tests, fuzzTest{fd.Name.Name, fset.Position(fd.Pos()).Line, pos.Column})
	}
	return tests, nil // a partly broken file still shows the tests it has
}

func (s *Server) fuzzTestLenses(uri protocol.DocumentURI, path string) ([]protocol.CodeLens, error) {
	text, err := s.readFile(path)
	if err != nil {
		return nil, err
	}
	tests, err := fuzzTests(path, text)
	var lenses []protocol.CodeLens
	for _, t := range tests {
		rng := protocol.Range{Start: position(text, t.Line, 1), End: position(text, t.Line, 1)}
		args := command.FuzzArgs{URI: string(uri), Name: t.Name}
		key := testKey{filepath.Dir(path), t.Name}
		s.mu.Lock()
		r, fail := s.runs[key], s.failures[key]
		s.mu.Unlock()
		if r != nil && r.kind == runFuzz {
			lenses = append(lenses, lens(rng, "stop "+r.status(), command.Stop, args))
		} else if r != nil {
			lenses = append(lenses, lens(rng, r.status(), command.Stop, args))
		} else {
			lenses = append(lenses, lens(rng, "fuzz", command.Fuzz, args), lens(rng, "run seeds", command.RunSeeds, args))
		}
		switch {
		case fail != nil && fail.reproducer == "": // an f.Add seed's: go test runs it with the seeds
			lenses = append(lenses, lens(rng, "seed failed ("+fail.title()+"): run seeds", command.RunSeeds, args))
		case fail != nil:
			lenses = append(lenses, lens(rng, "open reproducer ("+fail.title()+")", command.OpenReproducer, args))
			if s.clientHandles(command.Debug) {
				lenses = append(lenses, lens(rng, "debug reproducer", command.Debug, command.EntryArgs{URI: string(pathURI(fail.reproducer))}))
			}
		}
	}
	return lenses, err
}

func lens(rng protocol.Range, title, name string, args any) protocol.CodeLens {
	b, _ := json.Marshal(args)
	return protocol.CodeLens{Range: rng, Command: &protocol.Command{Title: title, Command: name, Arguments: []json.RawMessage{b}}}
}

// isCorpusFile reports whether path is a file of testdata/fuzz/FuzzX/.
func isCorpusFile(path string) bool {
	_, ok := driver.CorpusTarget(path)
	return ok
}

// corpusTest returns the package directory and fuzz test of a corpus file.
func corpusTest(path string) (dir, name string) {
	t, _ := driver.CorpusTarget(path)
	return t.Dir, t.Name
}

func (s *Server) corpusLenses(uri protocol.DocumentURI, path string) ([]protocol.CodeLens, error) {
	text, err := s.readFile(path)
	if err != nil {
		return nil, err
	}
	args := command.EntryArgs{URI: string(uri)}
	rng := protocol.Range{}
	dir, name := corpusTest(path)
	s.mu.Lock()
	r := s.runs[testKey{dir, name}]
	s.mu.Unlock()
	var lenses []protocol.CodeLens
	if r != nil && r.kind == runEntry && r.entry == filepath.Base(path) {
		lenses = append(lenses, lens(rng, r.status(), command.Stop, command.FuzzArgs{URI: string(pathURI(path)), Name: name}))
	} else {
		lenses = append(lenses, lens(rng, "rerun this input", command.RerunEntry, args))
	}
	if s.clientHandles(command.Debug) {
		lenses = append(lenses, lens(rng, "debug", command.Debug, args))
	}
	vals, err := corpus.Unmarshal([]byte(text))
	if err != nil {
		return lenses, nil // fuzzvet reports the file at its line
	}
	title := valuesTitle(vals)
	if typed, ok := s.entryTypedValues(path, text, vals); ok {
		title = "values: " + strings.Join(typed, ", ")
	}
	return append(lenses, lens(rng, clip(title, 120), command.ShowEntry, args)), nil
}

// valuesTitle renders decoded values on one line: "values: "boom", 42".
func valuesTitle(vals []any) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = readable(v)
	}
	return "values: " + strings.Join(parts, ", ")
}

// readable renders one value as Go-like text a person can read.
func readable(v any) string {
	switch v := v.(type) {
	case string:
		return fmt.Sprintf("%q", v)
	case []byte:
		return fmt.Sprintf("[]byte(%q)", v)
	case byte:
		return fmt.Sprintf("byte(%d)", v)
	case rune:
		return fmt.Sprintf("rune(%q)", v)
	}
	return fmt.Sprintf("%T(%v)", v, v)
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
