// Package fuzzvet lists the fuzzvet analyzers, the go/analysis checks for Go
// fuzz tests. The drivers use the list: cmd/fuzzvet (go vet -vettool and
// standalone), the pre-commit hooks and the LSP sidecar; "fuzzbox vet" runs
// them through Check (check.go), which loads packages with go/packages; Bazel
// nogo loads the analyzer packages themselves.
package fuzzvet

import (
	"golang.org/x/tools/go/analysis"

	"github.com/fuzzbox/fuzzbox/analyzers/fuzzadd"
	"github.com/fuzzbox/fuzzbox/analyzers/fuzzbytes"
	"github.com/fuzzbox/fuzzbox/analyzers/fuzzcall"
	"github.com/fuzzbox/fuzzbox/analyzers/fuzzcorpus"
	"github.com/fuzzbox/fuzzbox/analyzers/fuzzfmethods"
	"github.com/fuzzbox/fuzzbox/analyzers/fuzzname"
	"github.com/fuzzbox/fuzzbox/analyzers/fuzzshape"
	"github.com/fuzzbox/fuzzbox/analyzers/fuzztyped"
	"github.com/fuzzbox/fuzzbox/analyzers/internal/fuzzutil"
)

// Analyzers are all fuzzvet checks, in the order of docs/fuzzvet.md.
var Analyzers = []*analysis.Analyzer{
	fuzzadd.Analyzer,
	fuzzshape.Analyzer,
	fuzzcall.Analyzer,
	fuzzfmethods.Analyzer,
	fuzzbytes.Analyzer,
	fuzzcorpus.Analyzer,
	fuzzname.Analyzer,
	fuzztyped.Analyzer,
}

// CountFuzzTests returns the number of Fuzz tests go test would run in the
// package of pass; drivers print it for debugging (FUZZVET_DEBUG).
func CountFuzzTests(pass *analysis.Pass) int {
	return len(fuzzutil.NewIndex(pass).FuzzTests())
}
