//go:build ignore

// The fuzzadd command runs the fuzzadd analyzer alone.
package main

import (
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/fuzzbox/fuzzbox/analyzers/fuzzadd"
)

func main() { singlechecker.Main(fuzzadd.Analyzer) }
