//go:build ignore

// The fuzztyped command runs the fuzztyped analyzer alone.
package main

import (
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/fuzzbox/fuzzbox/analyzers/fuzztyped"
)

func main() { singlechecker.Main(fuzztyped.Analyzer) }
