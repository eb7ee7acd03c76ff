package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/fuzzbox/fuzzbox/corpus"
)

// The go_fuzz_test corpus attribute: files (go test fuzz v1) the fuzzing
// starts from, besides testdata/fuzz/FuzzX. The rules list them, one
// runfiles path per line, in the file -bazel.corpus names. Before fuzzing,
// the runner copies each fuzz test's files into its generated corpus
// (Config.CacheDir/FuzzX, content-addressed names), where the engine's
// baseline runs them and keeps those that add coverage. A file that is not
// an entry of the fuzz test's types is skipped with a warning.

// corpusFiles returns the paths listed in the manifest file ("" = none).
func corpusFiles(manifest string) ([]string, error) {
	if manifest == "" {
		return nil, nil
	}
	f, err := os.Open(manifest)
	if err != nil {
		return nil, fmt.Errorf("reading the corpus list: %w", err)
	}
	defer f.Close()
	var files []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" {
			files = append(files, expandDir(line)...)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading the corpus list %s: %w", manifest, err)
	}
	return files, nil
}

// expandDir returns the files under p if it is a directory (a directory
// output of a rule), else p. A directory that cannot be read is returned
// as is, to be reported as the file that does not parse.
func expandDir(p string) []string {
	if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
		return []string{p}
	}
	var files []string
	// The trailing slash makes WalkDir enter p when it is a runfiles symlink.
	err := filepath.WalkDir(p+string(filepath.Separator), func(q string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, filepath.Clean(q))
		}
		return err
	})
	if err != nil {
		return []string{p}
	}
	return files
}

// corpusFor returns the files of the corpus for fuzz test name: those with
// a directory named name in their path (testdata/corpus/FuzzX/...), and
// those with no directory named after any fuzz test (they are for every one).
func corpusFor(files []string, name string) []string {
	var mine []string
	for _, f := range files {
		owner := ""
		dirs := strings.Split(filepath.ToSlash(filepath.Dir(f)), "/")
		for i := len(dirs) - 1; i >= 0; i-- {
			if corpus.IsFuzzTestName(dirs[i]) {
				owner = dirs[i]
				break
			}
		}
		if owner == "" || owner == name {
			mine = append(mine, f)
		}
	}
	return mine
}

// seedStats is what seedCorpus did for one fuzz test.
type seedStats struct {
	Files   int             // corpus files for the fuzz test
	Added   int             // entries new to the generated corpus
	Skipped int             // files that are not entries of the fuzz test
	Names   map[string]bool // the entries' names (corpus.Name), added or present
}

// seedCorpus copies the corpus files for the fuzz test name of the package
// in pkgDir into its generated corpus dest, printing a warning to warn for
// each file that is not a go test fuzz v1 entry of the fuzz test's argument
// types (read from the package source when it can be: else any entry).
func seedCorpus(files []string, name, pkgDir, dest string, warn io.Writer) seedStats {
	types, err := corpus.ArgTypes("", pkgDir, name)
	if err != nil {
		types = nil // the engine's baseline checks the types and skips the others
	}
	st := seedStats{Names: map[string]bool{}}
	for _, f := range corpusFor(files, name) {
		st.Files++
		data, err := readEntry(f, types)
		if err != nil {
			st.Skipped++
			fmt.Fprintf(warn, "fuzzbox: warning: corpus: skipping %s for %s: %v\n", f, name, err)
			continue
		}
		if _, err := os.Stat(filepath.Join(dest, corpus.Name(data))); err != nil {
			if _, err := corpus.Write(dest, data); err != nil {
				st.Skipped++
				fmt.Fprintf(warn, "fuzzbox: warning: corpus: %s for %s: %v\n", f, name, err)
				continue
			}
			st.Added++
		}
		st.Names[corpus.Name(data)] = true
	}
	return st
}

// readEntry reads the corpus file f (a runfiles symlink) and returns its
// data if it is a go test fuzz v1 entry of types (any types if nil).
func readEntry(f string, types []reflect.Type) ([]byte, error) {
	e, err := corpus.ReadFile(f, types)
	if err != nil {
		if fe := (*corpus.FileError)(nil); errors.As(err, &fe) {
			return nil, lineOf(fe) // the path is the caller's
		}
		return nil, err
	}
	return e.Data, nil
}

// seedTargets seeds the generated corpus of every fuzz test in names from
// the corpus files and prints one line per fuzz test to say.
func seedTargets(files []string, names []string, pkgDir, cacheDir string, say, warn io.Writer) map[string]seedStats {
	stats := map[string]seedStats{}
	if len(files) == 0 {
		return stats
	}
	for _, name := range names {
		st := seedCorpus(files, name, pkgDir, filepath.Join(cacheDir, name), warn)
		stats[name] = st
		fmt.Fprintf(say, "fuzzbox: corpus: %s: %d of %d files of the corpus attribute loaded (%d new to the generated corpus, %d skipped)\n",
			name, st.Files-st.Skipped, st.Files, st.Added, st.Skipped)
	}
	return stats
}

// saveNewInputs copies the entries of the generated corpus dir (after the
// run: those that add coverage) that did not come from the corpus
// attribute (known) to outputs/corpus/<name>/, for the merge target, and
// returns how many.
func saveNewInputs(dir, name, outputs string, known map[string]bool) (int, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		if os.IsNotExist(err) {
			return 0, nil
		}
		return 0, err
	}
	n := 0
	for _, e := range ents {
		if !e.Type().IsRegular() || known[e.Name()] {
			continue
		}
		if err := copyFile(filepath.Join(dir, e.Name()), filepath.Join(outputs, "corpus", name, e.Name()), 0o666); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// lineOf is fe's reason with its line, without its path.
func lineOf(fe *corpus.FileError) error {
	if fe.Line > 0 {
		return fmt.Errorf("line %d: %s", fe.Line, strings.TrimPrefix(fe.Error(), fmt.Sprintf("%s:%d: ", fe.Path, fe.Line)))
	}
	return fe.Err
}

// entryList returns the names of the regular files of dir.
func entryList(dir string) []string {
	ents, _ := os.ReadDir(dir)
	var names []string
	for _, e := range ents {
		if e.Type().IsRegular() {
			names = append(names, e.Name())
		}
	}
	return names
}
