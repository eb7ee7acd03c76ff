package main

import (
	"flag"
	"fmt"

	"github.com/fuzzbox/fuzzbox/analyzers/fuzzvet"
)

func init() {
	register(&command{name: "vet", short: "check fuzz tests with the fuzzvet analyzers", usage: vetUsage, flags: vetFlags})
}

const vetUsage = `usage: fuzzbox vet [-C dir] [packages]

Vet runs the fuzzvet checks (see docs/fuzzvet.md) on the packages (default
./...), including their test files, and prints one file:line:col: message
line per diagnostic. Packages that cannot be loaded (a build error, a missing
cgo library) are left out and their errors printed after the others'
diagnostics. It exits 2 if some packages could not be loaded, otherwise 1 if
there is a diagnostic. To apply the suggested fixes, run fuzzvet -fix.

Flags:
  -C dir   run in dir (as go -C)
`

// vetFlags adds the flags of "fuzzbox vet" (documented in vetUsage) to fs;
// the command runs fuzzvet.Check.
func vetFlags(fs *flag.FlagSet) func(*invocation) int {
	dir := fs.String("C", "", "")
	return func(inv *invocation) int {
		patterns := inv.Args()
		if len(patterns) == 0 {
			patterns = []string{"./..."}
		}
		diags, err := fuzzvet.Check(*dir, patterns)
		for _, d := range diags {
			fmt.Fprintln(inv.stdout, d)
		}
		switch {
		case err != nil:
			fmt.Fprintf(inv.stderr, "fuzzbox vet: %s\n", err)
			return exitUsage
		case len(diags) > 0:
			return exitFinding
		}
		return exitOK
	}
}
