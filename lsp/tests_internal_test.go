package lsp

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"testing"

	"github.com/fuzzbox/fuzzbox/lsp/command"
)

// fuzzbox.tests parses only the test files that can declare a fuzz test:
// it answers in order with lenses and hovers, and a large workspace has
// thousands of test files without one.
func TestTestsParseOnlyFuzzFiles(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a_test.go": "package p\n\nimport \"testing\"\n\nfunc FuzzA(f *testing.F) { f.Fuzz(func(t *testing.T, b []byte) {}) }\n",
		"b_test.go": "package p\n\nimport \"testing\"\n\nfunc TestB(t *testing.T) {}\n",
	}
	writeFiles(t, dir, files)
	var parsed []string
	old := parseFile
	parseFile = func(fset *token.FileSet, name string, src any, mode parser.Mode) (*ast.File, error) {
		parsed = append(parsed, filepath.Base(name))
		return old(fset, name, src, mode)
	}
	defer func() { parseFile = old }()
	s := New(Options{})
	res, err := s.tests(dir)
	if err != nil {
		t.Fatal(err)
	}
	list := res.(command.TestList)
	if len(list.Tests) != 1 || list.Tests[0].Name != "FuzzA" {
		t.Errorf("tests = %+v, want FuzzA", list.Tests)
	}
	if len(parsed) != 1 || parsed[0] != "a_test.go" {
		t.Errorf("parsed %v, want only a_test.go", parsed)
	}
}
