//go:build ignore

// The fuzzname command runs the fuzzname analyzer alone.
package main

import (
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/fuzzbox/fuzzbox/analyzers/fuzzname"
)

func main() { singlechecker.Main(fuzzname.Analyzer) }
