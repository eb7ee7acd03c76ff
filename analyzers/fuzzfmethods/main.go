//go:build ignore

// The fuzzfmethods command runs the fuzzfmethods analyzer alone.
package main

import (
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/fuzzbox/fuzzbox/analyzers/fuzzfmethods"
)

func main() { singlechecker.Main(fuzzfmethods.Analyzer) }
