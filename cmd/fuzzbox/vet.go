package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

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

// runVet implements "fuzzbox vet".
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
	diags, err := vet(*dir, patterns)
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

// vet loads the packages matching patterns in dir, with their tests, runs the
// fuzzvet analyzers and returns the diagnostics as sorted, de-duplicated
// "file:line:col: message" lines (a package and its test variant share files).
func vet(dir string, patterns []string) ([]string, error) {
	cfg := &packages.Config{Mode: packages.LoadSyntax, Dir: dir, Tests: true}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, fmt.Errorf("loading packages: %w", err)
	}
	var loadErrs []error
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			loadErrs = append(loadErrs, e)
		}
	})
	if len(loadErrs) > 0 {
		err := errors.Join(loadErrs...)
		if strings.Contains(err.Error(), "export data version") {
			// The go command is newer than the export data reader of the
			// golang.org/x/tools release fuzzvet is built with.
			return nil, fmt.Errorf("the go command compiles for a newer Go than fuzzvet reads (it is built with golang.org/x/tools %s, which reads up to Go 1.26's export data); run it with GOTOOLCHAIN=go1.26.8: %w", xtoolsVersion(), loadErrs[0])
		}
		return nil, fmt.Errorf("loading packages: %w", err)
	}
	g, err := checker.Analyze(fuzzvet.Analyzers, pkgs, nil)
	if err != nil {
		return nil, fmt.Errorf("running analyzers: %w", err)
	}
	seen := map[string]bool{}
	var out []string
	for act := range g.All() {
		if act.Err != nil {
			return nil, fmt.Errorf("%s: %w", act, act.Err)
		}
		for _, d := range act.Diagnostics {
			line := fmt.Sprintf("%s: %s", act.Package.Fset.Position(d.Pos), d.Message)
			if !seen[line] {
				seen[line] = true
				out = append(out, line)
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

// xtoolsVersion is the golang.org/x/tools version this binary is built with.
func xtoolsVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, m := range bi.Deps {
			if m.Path == "golang.org/x/tools" {
				return m.Version
			}
		}
	}
	return "(unknown version)"
}
