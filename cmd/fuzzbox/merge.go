package main

import (
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"

	"github.com/fuzzbox/fuzzbox/corpus"
	"github.com/fuzzbox/fuzzbox/driver"
)

// fuzzbox corpus merge: the corpora of several machines, shards or cloud
// runs go into one package's generated corpus, then the cache is pruned to
// a smallest set of entries with the same coverage (corpus minimize), so
// only entries that add coverage stay.
func init() {
	corpusSubcommands["merge"] = corpusMerge
}

// corpusMerge implements
// fuzzbox corpus merge -fuzz=FuzzX [-pkg DIR] [-cachedir DIR] [-from-libfuzzer [-types LIST]] DIR...
func corpusMerge(fs *flag.FlagSet, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	var cfg driver.Config
	fs.StringVar(&cfg.Fuzz, "fuzz", "", "the fuzz test `FuzzX` (required)")
	fs.StringVar(&cfg.CacheDir, "cachedir", "", "directory of the generated corpus (default: the user cache dir, fuzzbox/fuzz/<import path>)")
	fs.StringVar(&cfg.Tags, "tags", "", "comma-separated build tags")
	asJSON := fs.Bool("json", false, "print the pruning run's JSON event stream")
	pkg := fs.String("pkg", ".", "package `DIR` of the fuzz test")
	fromLibFuzzer := fs.Bool("from-libfuzzer", false, "the DIRs hold libFuzzer inputs (fuzzbox-libfuzzer-v1), not go test fuzz v1 files")
	typeList := fs.String("types", "", "argument `types` for -from-libfuzzer (default: read from the package source)")
	if code, ok := parseFlags(fs, args, 1, stdout, stderr); !ok {
		return code
	}
	name, ok := fuzzTestName(cfg.Fuzz)
	if !ok {
		return corpusUsageError(stderr, "merge: -fuzz must name one fuzz test (FuzzX or ^FuzzX$)")
	}
	dest, err := mergeCacheDir(cfg.CacheDir, *pkg, name)
	if err != nil {
		fmt.Fprintf(stderr, "fuzzbox corpus merge: %v\n", err)
		return exitUsage
	}
	types, err := resolveTypes(*typeList, *pkg, name)
	if err != nil && !*fromLibFuzzer && *typeList == "" {
		types, err = nil, nil // v1 files carry their types; the pruning run checks them
	}
	if err != nil {
		fmt.Fprintf(stderr, "fuzzbox corpus merge: %v\n", err)
		return exitUsage
	}
	m := merger{dest: dest, types: types, fromLibFuzzer: *fromLibFuzzer, stderr: stderr}
	code := m.copyAll(fs.Args())
	fmt.Fprintf(stdout, "merge: %d new entries in %s (%d already there); pruning to the entries that add coverage\n", m.added, dest, m.present)
	cfg.Fuzz, cfg.PruneOnly = "^"+regexp.QuoteMeta(name)+"$", true
	if c := fuzzMain(cfg, []string{*pkg}, *asJSON, stdout, stderr); c != exitOK {
		return c
	}
	fmt.Fprintf(stdout, "merge: %d entries in %s\n", countFiles(dest), dest)
	return code
}

// fuzzTestName returns the fuzz test a -fuzz value names exactly.
func fuzzTestName(pat string) (string, bool) {
	name := strings.TrimSuffix(strings.TrimPrefix(pat, "^"), "$")
	return name, corpus.IsFuzzTestName(name)
}

// mergeCacheDir returns the generated-corpus directory of the fuzz test:
// <cachedir>/<name>, cachedir defaulting as fuzzbox fuzz's.
func mergeCacheDir(cacheDir, pkgDir, name string) (string, error) {
	if cacheDir == "" {
		cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}", ".")
		cmd.Dir = pkgDir
		out, err := cmd.Output()
		if err != nil {
			return "", fmt.Errorf("finding the package in %s: %w", pkgDir, err)
		}
		if cacheDir, err = driver.DefaultCacheDir(strings.TrimSpace(string(out))); err != nil {
			return "", err
		}
	}
	return filepath.Abs(filepath.Join(cacheDir, name))
}

// A merger copies corpus files into dest.
type merger struct {
	dest           string
	types          []reflect.Type
	fromLibFuzzer  bool
	stderr         io.Writer
	added, present int
}

// copyAll copies every regular file under dirs (recursively) and returns the
// exit code: exitFinding if a file could not be read or converted.
func (m *merger) copyAll(dirs []string) int {
	code := exitOK
	for _, root := range dirs {
		err := filepath.WalkDir(root, func(p string, d iofs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			if err := m.copyFile(p); err != nil {
				fmt.Fprintf(m.stderr, "fuzzbox corpus merge: %s: %v\n", p, err)
				code = exitFinding
			}
			return nil
		})
		if err != nil {
			fmt.Fprintf(m.stderr, "fuzzbox corpus merge: %v\n", err)
			code = exitFinding
		}
	}
	return code
}

func (m *merger) copyFile(p string) error {
	data, err := m.entryData(p)
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(m.dest, corpus.Name(data))); err == nil {
		m.present++
		return nil
	}
	if _, err := corpus.Write(m.dest, data); err != nil {
		return err
	}
	m.added++
	return nil
}

// entryData returns the v1 file for the corpus file p, checked against the
// fuzz test's types.
func (m *merger) entryData(p string) ([]byte, error) {
	if m.fromLibFuzzer {
		raw, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		vals, err := corpus.DecodeLibFuzzer(raw, m.types)
		if err != nil {
			return nil, err
		}
		return corpus.Marshal(vals...)
	}
	e, err := corpus.ReadFile(p, m.types)
	if err != nil {
		return nil, err
	}
	return e.Data, nil
}

func countFiles(dir string) int {
	ents, _ := os.ReadDir(dir)
	n := 0
	for _, e := range ents {
		if e.Type().IsRegular() {
			n++
		}
	}
	return n
}
