package fuzzfmethods_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/fuzzbox/fuzzbox/analyzers/fuzzfmethods"
)

func Test(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), fuzzfmethods.Analyzer, "a")
}
