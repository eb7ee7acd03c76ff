package driver

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"slices"

	"github.com/fuzzbox/fuzzbox/engine/build"
)

// maxImportLiterals bounds the literals taken from imported packages, so
// that they do not crowd out the package's own in the mutator's uniform
// choice of a token.
const maxImportLiterals = 512

// sourceDict returns the source-literal dictionary of package p: its own
// string and character literals, then up to maxImportLiterals of those of
// the packages outside the standard library that p and its tests import
// directly. The code a fuzz test exercises often lives there: an external
// test package's own package is p's directory, but a fuzz test of a parser
// from another module (a vendored format, a client library) compares its
// input with that module's keywords, which no comparison reveals before
// the branch that makes it runs.
func sourceDict(ctx context.Context, p listedPkg) [][]byte {
	files := slices.Concat(p.GoFiles, p.TestGoFiles, p.XTestGoFiles)
	toks := build.SourceLiterals(p.Dir, files)
	seen := map[string]bool{}
	for _, t := range toks {
		seen[string(t)] = true
	}
	n := 0
	for _, dep := range importedPackages(ctx, p) {
		for _, t := range build.SourceLiterals(dep.Dir, dep.GoFiles) {
			if n == maxImportLiterals {
				return toks
			}
			if !seen[string(t)] {
				seen[string(t)] = true
				toks = append(toks, t)
				n++
			}
		}
	}
	return toks
}

// importedPackages lists the packages outside the standard library that p
// and its tests import, other than p itself, in import order. It returns
// nil when go list fails: the dictionary only helps.
func importedPackages(ctx context.Context, p listedPkg) []listedPkg {
	var paths []string
	for _, path := range slices.Concat(p.Imports, p.TestImports, p.XTestImports) {
		if path != p.ImportPath && path != "C" && !slices.Contains(paths, path) {
			paths = append(paths, path)
		}
	}
	if len(paths) == 0 {
		return nil
	}
	cmd := exec.CommandContext(ctx, "go", append([]string{"list", "-e", "-json=ImportPath,Dir,GoFiles,Standard", "--"}, paths...)...)
	cmd.Dir = p.Dir
	out, err := cmd.Output()
	if err != nil {
		return nil
	}
	var deps []listedPkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var d listedPkg
		if dec.Decode(&d) != nil {
			return deps
		}
		if !d.Standard && d.Dir != "" {
			deps = append(deps, d)
		}
	}
	return deps
}
