package driver

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/fuzzbox/fuzzbox/corpus"
)

// Merging corpora (fuzzbox corpus merge): the corpora of several machines,
// shards or cloud runs go into one fuzz test's generated corpus with
// MergeCorpus; a pruning run of Fuzz (Config.PruneOnly) then keeps only the
// entries that add coverage.

// A MergeResult is what MergeCorpus did.
type MergeResult struct {
	Dest    string  // the generated-corpus directory merged into (absolute)
	Added   int     // entries copied into Dest
	Present int     // entries of the sources that Dest already had
	Errs    []error // one per source file that could not be read or converted
	// Prune is the configuration of the pruning run (Run over the package
	// directory) that keeps only the entries that add coverage: the merge's,
	// for exactly its fuzz test, with PruneOnly.
	Prune Config
}

// ErrNotOneFuzzTest is MergeCorpus's error when cfg.Fuzz does not name one
// fuzz test.
var ErrNotOneFuzzTest = errors.New("driver: -fuzz must name one fuzz test (FuzzX or ^FuzzX$)")

// MergeCorpus copies the corpus files under srcs (recursively) into the
// generated corpus of the fuzz test cfg.Fuzz names (FuzzX or ^FuzzX$, else
// ErrNotOneFuzzTest) of the package in pkgDir, in
// cfg.CacheDir ("" = DefaultCacheDir of the package), with corpus.Merge.
// With libFuzzer the sources are libFuzzer inputs, converted with the
// argument types typeList names or, if it is "", those read from the
// package source (corpus.ArgTypes); go test fuzz v1 sources carry their
// types, and are checked against them only when they can be read. Files
// that cannot be merged are in the result's Errs; the error is for a
// merge that cannot start.
func MergeCorpus(cfg Config, pkgDir string, srcs []string, typeList string, libFuzzer bool) (MergeResult, error) {
	name := strings.TrimSuffix(strings.TrimPrefix(cfg.Fuzz, "^"), "$")
	if !corpus.IsFuzzTestName(name) {
		return MergeResult{}, ErrNotOneFuzzTest
	}
	dest, err := corpusCacheDir(cfg.CacheDir, pkgDir, name)
	if err != nil {
		return MergeResult{}, err
	}
	if _, err := corpus.FuzzArgTypes(pkgDir, name); errors.Is(err, corpus.ErrNoFuzzTest) {
		// Before anything is copied into a cache directory of that name.
		return MergeResult{}, err
	}
	types, err := corpus.ArgTypes(typeList, pkgDir, name)
	if err != nil && !libFuzzer && typeList == "" {
		types, err = nil, nil // v1 files carry their types; the pruning run checks them
	}
	if err != nil {
		return MergeResult{}, err
	}
	r := MergeResult{Dest: dest, Prune: cfg}
	r.Prune.Fuzz, r.Prune.PruneOnly = "^"+regexp.QuoteMeta(name)+"$", true
	r.Added, r.Present, r.Errs = corpus.Merge(dest, srcs, types, libFuzzer)
	return r, nil
}

// Entries returns the number of entries now in r.Dest (after the pruning
// run, those that add coverage).
func (r MergeResult) Entries() int {
	ents, _ := os.ReadDir(r.Dest)
	n := 0
	for _, e := range ents {
		if e.Type().IsRegular() {
			n++
		}
	}
	return n
}

// corpusCacheDir returns the absolute generated-corpus directory of the
// fuzz test name of the package in pkgDir, <cacheDir>/<name>, where cacheDir
// "" means DefaultCacheDir of the package.
func corpusCacheDir(cacheDir, pkgDir, name string) (string, error) {
	if cacheDir == "" {
		cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}", ".")
		cmd.Dir = pkgDir
		out, err := cmd.Output()
		if err != nil {
			return "", fmt.Errorf("finding the package in %s: %w", pkgDir, err)
		}
		if cacheDir, err = DefaultCacheDir(strings.TrimSpace(string(out))); err != nil {
			return "", err
		}
	}
	return filepath.Abs(filepath.Join(cacheDir, name))
}
