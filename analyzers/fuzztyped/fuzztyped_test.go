package fuzztyped_test

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/fuzzbox/fuzzbox/analyzers/fuzztyped"
)

// The tests load a stub of the typed package (its two signatures) from
// testdata/src/github.com/fuzzbox/fuzzbox/typed.
const stub = "testdata/src/github.com/fuzzbox/fuzzbox/typed/typed.go"

func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), fuzztyped.Analyzer, "a")
}

func TestFix(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), fuzztyped.Analyzer, "fix")
}

// TestStubsInSync: the other analyzers' tests that follow typed.Fuzz carry
// copies of the stub; they must stay identical to this one.
func TestStubsInSync(t *testing.T) {
	want, err := os.ReadFile(stub)
	if err != nil {
		t.Fatal(err)
	}
	copies, _ := filepath.Glob(filepath.Join("..", "*", stub))
	if len(copies) < 6 {
		t.Errorf("found %d copies of the typed stub (%q), want this one and 5 others", len(copies), copies)
	}
	for _, c := range copies {
		if got, err := os.ReadFile(c); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s differs from %s (copy it again): %v", c, stub, err)
		}
	}
}

// TestStubMatchesTyped: the stub's Add and Fuzz have the real package's
// signatures (../../typed).
func TestStubMatchesTyped(t *testing.T) {
	sigs := func(path string) map[string]string {
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && (fd.Name.Name == "Add" || fd.Name.Name == "Fuzz") {
				var b bytes.Buffer
				printer.Fprint(&b, token.NewFileSet(), fd.Type)
				out[fd.Name.Name] = b.String()
			}
		}
		return out
	}
	got, want := sigs(stub), sigs(filepath.Join("..", "..", "typed", "typed.go"))
	if len(want) != 2 || got["Add"] != want["Add"] || got["Fuzz"] != want["Fuzz"] {
		t.Errorf("stub signatures %q, package typed's %q", got, want)
	}
}
