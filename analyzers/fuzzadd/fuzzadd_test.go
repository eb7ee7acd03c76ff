package fuzzadd_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/fuzzbox/fuzzbox/analyzers/fuzzadd"
)

func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), fuzzadd.Analyzer, "a")
}

func TestFix(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), fuzzadd.Analyzer, "fix")
}
