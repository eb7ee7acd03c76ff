package fuzzbytes_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/fuzzbox/fuzzbox/analyzers/fuzzbytes"
)

func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), fuzzbytes.Analyzer, "a")
}
