package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/fuzzbox/fuzzbox/engine/build"
)

// A fuzzTarget is one fuzz test of one built package.
type fuzzTarget struct {
	pkg  *build.Result
	name string
	dict string // dictionary file for the run: -dict plus the package's literals
}

func (t fuzzTarget) String() string { return t.pkg.ImportPath + "." + t.name }

// listedPkg is what resolveTargets needs of go list.
type listedPkg struct {
	ImportPath   string
	Dir          string
	GoFiles      []string
	TestGoFiles  []string
	XTestGoFiles []string
	Error        *struct{ Err string }
}

var fuzzFuncRE = regexp.MustCompile(`(?m)^func (Fuzz\w*)\(`)

// resolveTargets builds every package matched by patterns that declares a
// fuzz test matching fuzzRE, into dir, and returns the matching targets.
// Packages whose test files declare no matching Fuzz function are not built.
//
// Each target gets a dictionary file in dir: userDict (the -dict file, if
// any) plus the literals of its package's sources.
func resolveTargets(ctx context.Context, patterns []string, fuzzRE *regexp.Regexp, opts build.Options, dir, userDict string) ([]fuzzTarget, error) {
	var pkgs []listedPkg
	for _, pat := range patterns {
		goDir, rel := splitPattern(pat)
		ps, err := listPackages(ctx, goDir, rel)
		if err != nil {
			return nil, err
		}
		pkgs = append(pkgs, ps...)
	}
	var targets []fuzzTarget
	var all []string
	for i, p := range pkgs {
		names := declaredFuzzTests(p)
		all = append(all, names...)
		if !anyMatch(fuzzRE, names) {
			continue
		}
		o := opts
		o.Dir, o.Package, o.Out = p.Dir, ".", filepath.Join(dir, fmt.Sprintf("pkg%d.test", i))
		res, err := build.Build(ctx, o)
		if err != nil {
			return nil, err
		}
		listed, err := listFuzzTests(res)
		if err != nil {
			return nil, err
		}
		dict := filepath.Join(dir, fmt.Sprintf("pkg%d.dict", i))
		files := append(append(append([]string(nil), p.GoFiles...), p.TestGoFiles...), p.XTestGoFiles...)
		var toks [][]byte
		if os.Getenv("FUZZBOX_NOAUTODICT") == "" { // ablation knob (docs/engine.md)
			toks = sourceTokens(p.Dir, files)
		}
		if err := writeDict(dict, userDict, toks); err != nil {
			return nil, err
		}
		for _, name := range listed {
			if fuzzRE.MatchString(name) {
				targets = append(targets, fuzzTarget{pkg: res, name: name, dict: dict})
			}
		}
	}
	switch {
	case len(all) == 0:
		return nil, fmt.Errorf("%s: no fuzz tests", strings.Join(patterns, " "))
	case len(targets) == 0:
		return nil, fmt.Errorf("-fuzz=%s matches no fuzz test in %s (fuzz tests: %s)", fuzzRE, strings.Join(patterns, " "), strings.Join(all, ", "))
	}
	return targets, nil
}

func anyMatch(re *regexp.Regexp, names []string) bool {
	for _, n := range names {
		if re.MatchString(n) {
			return true
		}
	}
	return false
}

// splitPattern turns a package pattern into the directory to run the go
// command in and the pattern to give it there. A directory pattern
// (./x, ../x/..., /abs/x) runs in its directory, so that it may lie in
// another module than the current one (a nested examples or benchmark
// module); an import path pattern runs in the current directory.
func splitPattern(pat string) (dir, rel string) {
	if !isLocalPattern(pat) {
		return "", pat
	}
	if base, ok := strings.CutSuffix(pat, "/..."); ok {
		return base, "./..."
	}
	return pat, "."
}

func isLocalPattern(pat string) bool {
	return pat == "." || pat == ".." || strings.HasPrefix(pat, "./") || strings.HasPrefix(pat, "../") || filepath.IsAbs(pat)
}

// listPackages runs go list on pattern in dir.
func listPackages(ctx context.Context, dir, pattern string) ([]listedPkg, error) {
	patterns := []string{pattern}
	args := append([]string{"list", "-e", "-json=ImportPath,Dir,GoFiles,TestGoFiles,XTestGoFiles,Error"}, patterns...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list %s: %s", filepath.Join(dir, pattern), strings.TrimSpace(firstOf(stderr.String(), err.Error())))
	}
	var pkgs []listedPkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p listedPkg
		if err := dec.Decode(&p); err != nil {
			return nil, fmt.Errorf("go list: %w", err)
		}
		if p.Error != nil {
			return nil, fmt.Errorf("package %s: %s", p.ImportPath, p.Error.Err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}

func firstOf(a, b string) string {
	if strings.TrimSpace(a) != "" {
		return strings.Split(strings.TrimSpace(a), "\n")[0]
	}
	return b
}

// declaredFuzzTests returns the Fuzz functions declared in p's test files,
// a cheap filter before the (instrumented, so costly) build.
func declaredFuzzTests(p listedPkg) []string {
	var names []string
	for _, f := range append(append([]string(nil), p.TestGoFiles...), p.XTestGoFiles...) {
		src, err := os.ReadFile(filepath.Join(p.Dir, f))
		if err != nil {
			continue
		}
		for _, m := range fuzzFuncRE.FindAllSubmatch(src, -1) {
			names = append(names, string(m[1]))
		}
	}
	return names
}

// listFuzzTests asks the built binary for its fuzz tests.
func listFuzzTests(res *build.Result) ([]string, error) {
	cmd := exec.Command(res.Binary, "-test.list=^Fuzz")
	cmd.Dir = res.PkgDir
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("listing the fuzz tests of %s: %w", res.ImportPath, err)
	}
	var names []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if name := strings.TrimSpace(sc.Text()); strings.HasPrefix(name, "Fuzz") {
			names = append(names, name)
		}
	}
	return names, nil
}
