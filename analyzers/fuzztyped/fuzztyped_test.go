package fuzztyped_test

import (
	"bytes"
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
