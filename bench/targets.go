package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
)

// targetsDir is the planted-bug module, relative to the repository root.
var targetsDir = filepath.Join("bench", "targets")

// A target is one package of bench/targets with one Fuzz function.
type target struct {
	name string // directory name, e.g. "magic32"
	dir  string // package directory
	fuzz string // name of its Fuzz function, e.g. "FuzzDecode"
}

var fuzzFuncRE = regexp.MustCompile(`(?m)^func (Fuzz\w*)\(\w+ \*testing\.F\)`)

// findTargets lists the targets under root, restricted to names if not empty.
func findTargets(root string, names []string) ([]target, error) {
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		return nil, fmt.Errorf("no %s/go.mod; run from the repository root: %w", root, err)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, fmt.Errorf("listing targets: %w", err)
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	all := map[string]target{}
	for _, e := range entries {
		if !e.IsDir() || len(want) > 0 && !want[e.Name()] {
			continue
		}
		dir := filepath.Join(root, e.Name())
		fn, err := fuzzFunc(dir)
		if err != nil {
			return nil, err
		}
		if fn != "" {
			all[e.Name()] = target{name: e.Name(), dir: dir, fuzz: fn}
		}
	}
	if len(names) == 0 {
		for n := range all {
			names = append(names, n)
		}
		sort.Strings(names)
	}
	var out []target
	for _, n := range names {
		t, ok := all[n]
		if !ok {
			return nil, fmt.Errorf("no target %q in %s", n, root)
		}
		out = append(out, t)
	}
	return out, nil
}

// fuzzFunc returns the one Fuzz function declared in dir's _test.go files,
// or "" if there is none.
func fuzzFunc(dir string) (string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return "", err
	}
	var found []string
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return "", fmt.Errorf("reading target: %w", err)
		}
		for _, m := range fuzzFuncRE.FindAllSubmatch(src, -1) {
			found = append(found, string(m[1]))
		}
	}
	if len(found) > 1 {
		return "", fmt.Errorf("target %s has %d Fuzz functions %v, want one", dir, len(found), found)
	}
	if len(found) == 0 {
		return "", nil
	}
	return found[0], nil
}
