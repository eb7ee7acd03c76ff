package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/fuzzbox/fuzzbox/analyzers/fuzzvet"
)

func init() {
	register(&command{name: "vet", short: "check fuzz tests with the fuzzvet analyzers", run: runVet})
}

const vetUsage = `usage: fuzzbox vet [-C dir] [packages]

Vet runs the fuzzvet checks (see docs/fuzzvet.md) on the packages (default
./...), including their test files, and prints one file:line:col: message
line per diagnostic. It exits 1 if there is a diagnostic and 2 if the
packages cannot be loaded. To apply the suggested fixes, run fuzzvet -fix.

Flags:
  -C dir   run in dir (as go -C)
`

// runVet implements "fuzzbox vet" over fuzzvet.Check.
func runVet(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fuzzbox vet", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dir := fs.String("C", "", "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, vetUsage)
			return exitOK
		}
		fmt.Fprintf(stderr, "fuzzbox vet: %v\n%s", err, vetUsage)
		return exitUsage
	}
	patterns := fs.Args()
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	diags, err := fuzzvet.Check(*dir, patterns)
	if err != nil {
		fmt.Fprintf(stderr, "fuzzbox vet: %s\n", oneLine(err))
		return exitUsage
	}
	for _, d := range diags {
		fmt.Fprintln(stdout, d)
	}
	if len(diags) > 0 {
		return exitFinding
	}
	return exitOK
}
