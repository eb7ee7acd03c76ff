package fuzzvet_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/analysis/passes/tests"
	"golang.org/x/tools/go/packages"

	"github.com/fuzzbox/fuzzbox/analyzers/fuzzvet"
)

// fuzzRelated selects the passes/tests diagnostics about fuzz tests.
var fuzzRelated = regexp.MustCompile(`(?i)fuzz|testing\.F`)

// TestSupersetOfPassesTests runs x/tools' passes/tests and every fuzzvet
// analyzer on the same packages and checks that each fuzz diagnostic of
// passes/tests has a fuzzvet diagnostic on the same line.
func TestSupersetOfPassesTests(t *testing.T) {
	// passes/tests' own fuzz cases plus extra ones. The analyzers' own
	// testdata is not used: there passes/tests wrongly reports correct
	// f.Add(seeds...) calls (it counts the slice as one value).
	cases := []struct{ gopath, pkg string }{
		{"testdata", "xtests"},
	}
	total := 0
	for _, c := range cases {
		theirs, ours := run(t, c.gopath, c.pkg)
		for line, msg := range theirs {
			total++
			if len(ours[line]) == 0 {
				t.Errorf("%s: passes/tests reports %q; fuzzvet reports nothing there", line, msg)
			}
		}
	}
	if total < 15 {
		t.Errorf("passes/tests reported only %d fuzz diagnostics; the inputs lost their cases", total)
	}
}

// run returns the fuzz diagnostics of passes/tests and of fuzzvet by "file:line".
func run(t *testing.T, gopath, pkg string) (theirs map[string]string, ours map[string][]string) {
	t.Helper()
	abs, err := filepath.Abs(gopath)
	if err != nil {
		t.Fatal(err)
	}
	cfg := &packages.Config{
		Mode:  packages.LoadAllSyntax | packages.NeedModule,
		Dir:   abs,
		Tests: true,
		Env:   append(os.Environ(), "GOPATH="+abs, "GO111MODULE=off", "GOWORK=off"),
	}
	pkgs, err := packages.Load(cfg, pkg)
	if err != nil {
		t.Fatal(err)
	}
	all := append([]*analysis.Analyzer{tests.Analyzer}, fuzzvet.Analyzers...)
	g, err := checker.Analyze(all, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	theirs, ours = map[string]string{}, map[string][]string{}
	for act := range g.All() {
		for _, d := range act.Diagnostics {
			posn := act.Package.Fset.Position(d.Pos)
			key := fmt.Sprintf("%s:%d", filepath.Base(posn.Filename), posn.Line)
			if act.Analyzer == tests.Analyzer {
				if fuzzRelated.MatchString(d.Message) {
					theirs[key] = d.Message
				}
			} else {
				ours[key] = append(ours[key], d.Message)
			}
		}
	}
	return theirs, ours
}
