package fuzzshape_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/fuzzbox/fuzzbox/analyzers/fuzzshape"
)

func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), fuzzshape.Analyzer, "a")
}
