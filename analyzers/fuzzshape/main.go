//go:build ignore

// The fuzzshape command runs the fuzzshape analyzer alone.
package main

import (
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/fuzzbox/fuzzbox/analyzers/fuzzshape"
)

func main() { singlechecker.Main(fuzzshape.Analyzer) }
