//go:build ignore

// The fuzzbytes command runs the fuzzbytes analyzer alone.
package main

import (
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/fuzzbox/fuzzbox/analyzers/fuzzbytes"
)

func main() { singlechecker.Main(fuzzbytes.Analyzer) }
