// Command fuzzvet runs the fuzzvet checks for Go fuzz tests.
//
// As a vet tool (go vet speaks the unitchecker protocol to it):
//
//	go install github.com/fuzzbox/fuzzbox/cmd/fuzzvet@latest
//	go vet -vettool=$(go env GOPATH)/bin/fuzzvet ./...
//
// Standalone, which can also apply the suggested fixes:
//
//	fuzzvet [-fix] [-diff] ./...
//
// Setting FUZZVET_DEBUG=1 prints, for every package, how many Fuzz tests were
// checked, so that a silent run can be told apart from one that saw nothing.
// The pre-commit hooks in .pre-commit-hooks.yaml run this command.
package main

import (
	"fmt"
	"os"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/fuzzbox/fuzzbox/analyzers/fuzzvet"
)

// buildNonce is set with -ldflags=-X by the real-module test, so that each of
// its builds is a different vet tool to the go command and vet results are
// not replayed from its cache (which would replay no FUZZVET_DEBUG output).
var buildNonce string

func main() {
	_ = buildNonce
	analyzers := fuzzvet.Analyzers
	if os.Getenv("FUZZVET_DEBUG") != "" {
		analyzers = append(analyzers[:len(analyzers):len(analyzers)], countAnalyzer)
	}
	multichecker.Main(analyzers...) // also handles go vet's unitchecker protocol
}

// countAnalyzer prints the number of Fuzz tests of each package to stderr.
var countAnalyzer = &analysis.Analyzer{
	Name: "fuzzcount",
	Doc:  "fuzzcount: print how many Fuzz tests each package has (FUZZVET_DEBUG)",
	Run: func(pass *analysis.Pass) (any, error) {
		if n := fuzzvet.CountFuzzTests(pass); n > 0 {
			fmt.Fprintf(os.Stderr, "fuzzvet: checked %d fuzz tests in %s\n", n, pass.Pkg.Path())
		}
		return nil, nil
	},
}
