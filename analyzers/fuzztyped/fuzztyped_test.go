package fuzztyped_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/fuzzbox/fuzzbox/analyzers/fuzztyped"
)

// The tests load a stub of the typed package from
// testdata/src/github.com/fuzzbox/fuzzbox/typed.

func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), fuzztyped.Analyzer, "a")
}

func TestFix(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), fuzztyped.Analyzer, "fix")
}
