//go:build ignore

// The fuzzcorpus command runs the fuzzcorpus analyzer alone.
package main

import (
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/fuzzbox/fuzzbox/analyzers/fuzzcorpus"
)

func main() { singlechecker.Main(fuzzcorpus.Analyzer) }
