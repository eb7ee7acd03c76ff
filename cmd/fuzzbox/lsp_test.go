package main

import (
	"flag"
	"strings"
	"testing"
)

// TestLspSynopsis: the synopsis of fuzzbox lsp (what a usage error prints,
// and docs/editors.md copies) names every flag the command defines.
func TestLspSynopsis(t *testing.T) {
	fs := flag.NewFlagSet("lsp", flag.ContinueOnError)
	lspFlags(fs)
	synopsis, _, _ := strings.Cut(lspUsage, "\n\n")
	fs.VisitAll(func(f *flag.Flag) {
		if !strings.Contains(synopsis, "[-"+f.Name+"=") && !strings.Contains(synopsis, "[-"+f.Name+"]") {
			t.Errorf("the synopsis lacks -%s:\n%s", f.Name, synopsis)
		}
	})
}
