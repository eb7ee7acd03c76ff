package fuzzvet

import (
	"errors"
	"fmt"
	"runtime/debug"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// Check loads the packages matching patterns in dir ("" is the current
// directory), with their tests, runs the Analyzers on those that load and
// returns the diagnostics as sorted, de-duplicated "file:line:col: message"
// lines (a package and its test variant share files). "fuzzbox vet" prints
// them. Packages that do not load with their dependencies (a build error,
// a cgo library the machine lacks, a go:embed pattern whose files a module
// zip left out) are left out, and their errors are the error returned
// beside the others' diagnostics, worded for the common cause when the go
// command is newer than the export data this build of fuzzvet reads.
func Check(dir string, patterns []string) ([]string, error) {
	cfg := &packages.Config{Mode: packages.LoadSyntax, Dir: dir, Tests: true}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, fmt.Errorf("loading packages: %w", err)
	}
	ok, broken := loadable(pkgs)
	var out []string
	if len(ok) > 0 {
		if out, err = analyze(ok); err != nil {
			return nil, err
		}
	}
	return out, loadErrors(broken)
}

// loadable splits pkgs into those that loaded with all their dependencies
// and the others.
func loadable(pkgs []*packages.Package) (ok, broken []*packages.Package) {
	for _, p := range pkgs {
		bad := false
		packages.Visit([]*packages.Package{p}, nil, func(q *packages.Package) { bad = bad || len(q.Errors) > 0 })
		if bad {
			broken = append(broken, p)
		} else {
			ok = append(ok, p)
		}
	}
	return ok, broken
}

// analyze runs the Analyzers on pkgs and returns Check's lines.
func analyze(pkgs []*packages.Package) ([]string, error) {
	g, err := checker.Analyze(Analyzers, pkgs, nil)
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

// loadErrors returns the errors of pkgs and their dependencies, joined,
// each once (a package and its test variant share most).
func loadErrors(pkgs []*packages.Package) error {
	var errs []error
	seen := map[string]bool{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			if !seen[e.Error()] {
				seen[e.Error()] = true
				errs = append(errs, e)
			}
		}
	})
	if len(errs) == 0 {
		return nil
	}
	err := errors.Join(errs...)
	if strings.Contains(err.Error(), "export data version") {
		// The go command is newer than the export data reader of the
		// golang.org/x/tools release fuzzvet is built with.
		return fmt.Errorf("the go command compiles for a newer Go than fuzzvet reads (it is built with golang.org/x/tools %s, which reads up to Go 1.26's export data); run it with GOTOOLCHAIN=go1.26.8: %w", xtoolsVersion(), errs[0])
	}
	return fmt.Errorf("loading packages: %w", err)
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
