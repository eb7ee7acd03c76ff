package fuzzcall_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/fuzzbox/fuzzbox/analyzers/fuzzcall"
)

func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), fuzzcall.Analyzer, "a")
}
