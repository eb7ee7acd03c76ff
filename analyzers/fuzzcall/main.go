//go:build ignore

// The fuzzcall command runs the fuzzcall analyzer alone.
package main

import (
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/fuzzbox/fuzzbox/analyzers/fuzzcall"
)

func main() { singlechecker.Main(fuzzcall.Analyzer) }
