package main

import (
	"archive/zip"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/fuzzbox/fuzzbox/corpus"
	"github.com/fuzzbox/fuzzbox/driver"
)

// Merge mode (bazel run //pkg:x_merge): the new inputs the shards of the
// fuzzing test x_fuzz saved in their outputs (corpus/FuzzX/ in each
// bazel-testlogs/<pkg>/x_fuzz[/shard_N_of_M]/test.outputs/outputs.zip) go
// into a corpus directory of the source tree, <dir>/FuzzX/, as fuzzbox
// corpus merge does (driver.MergeCorpus, then a pruning run): only the
// inputs that add coverage to the seeds, the corpus attribute's files and
// the directory's entries are written, under content-addressed names.
// Everything else happens in a temporary directory: the pruning run fuzzes
// a copy of the package's runfiles, so nothing is written outside <dir>,
// and existing entries are never deleted.

// mergeFlags are the merge mode's own flags.
type mergeFlags struct {
	into     string // the corpus directory; "" means <package>/testdata/corpus
	testlogs string // Bazel's test logs; "" means <workspace>/bazel-testlogs
}

func (m *mergeFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&m.into, "into", "", "merge mode: the corpus `DIR` (inputs go to DIR/FuzzX/); default <package>/testdata/corpus")
	fs.StringVar(&m.testlogs, "testlogs", "", "merge mode: Bazel's test logs `DIR` (bazel info bazel-testlogs); default <workspace>/bazel-testlogs")
}

func (m *mergeFlags) set() bool { return m.into != "" || m.testlogs != "" }

// runMerge merges the fuzzing test's shard outputs into the corpus directory.
func runMerge(ctx context.Context, b *bazelFlags, f *fuzzFlags, m *mergeFlags, stdout, stderr io.Writer) int {
	ws := os.Getenv("BUILD_WORKSPACE_DIRECTORY")
	if ws == "" {
		return usageError(stderr, errors.New("BUILD_WORKSPACE_DIRECTORY is not set: start this target with bazel run"))
	}
	if b.test == "" {
		return usageError(stderr, errors.New("-bazel.test is required (run the rules' targets, not the runner)"))
	}
	wd := os.Getenv("BUILD_WORKING_DIRECTORY")
	f.relativeTo(wd)
	into := absIn(wd, m.into, filepath.Join(ws, filepath.FromSlash(b.pkg), "testdata", "corpus"))
	testlogs := absIn(wd, m.testlogs, filepath.Join(ws, "bazel-testlogs"))
	cfg, err := config(b, f, stderr)
	if err != nil {
		return usageError(stderr, err)
	}
	test := label(b.pkg, b.test)
	outs := shardOutputs(filepath.Join(testlogs, filepath.FromSlash(b.pkg), b.test))
	if len(outs) == 0 {
		return usageError(stderr, fmt.Errorf("merge: no outputs of %s in %s: run bazel test %s first (or give -testlogs=$(bazel info bazel-testlogs))", test, testlogs, test))
	}
	tmp, err := os.MkdirTemp("", "fuzzbox-merge-")
	if err != nil {
		return usageError(stderr, fmt.Errorf("merge: %w", err))
	}
	defer os.RemoveAll(tmp)
	return mergeAll(ctx, b, cfg, test, outs, into, tmp, stdout, stderr)
}

// mergeAll merges the outputs outs of the fuzzing test label into the
// directory into, for each fuzz test cfg.Fuzz matches, working in tmp.
func mergeAll(ctx context.Context, b *bazelFlags, cfg driver.Config, label string, outs []string, into, tmp string, stdout, stderr io.Writer) int {
	inputs, err := extractInputs(outs, filepath.Join(tmp, "shards"), stderr)
	if err != nil {
		return usageError(stderr, fmt.Errorf("merge: %w", err))
	}
	fuzzRE, err := regexp.Compile(cfg.Fuzz)
	if err != nil {
		return usageError(stderr, fmt.Errorf("-fuzz: %w", err))
	}
	for name := range inputs {
		if !fuzzRE.MatchString(name) {
			delete(inputs, name)
		}
	}
	if len(inputs) == 0 {
		fmt.Fprintf(stdout, "merge: the %d outputs of %s hold no new inputs of fuzz tests matching %q: nothing to merge\n", len(outs), label, cfg.Fuzz)
		return exitOK
	}
	fmt.Fprintf(stdout, "merge: %d outputs of %s: new inputs of %d fuzz tests\n", len(outs), label, len(inputs))
	pkgDir := filepath.Join(tmp, "src", filepath.FromSlash(b.pkg))
	if err := copyTree(b.pkgDir, pkgDir, cfg.Binary); err != nil {
		return usageError(stderr, fmt.Errorf("merge: copying the package's runfiles: %w", err))
	}
	files, err := corpusFiles(b.corpus)
	if err != nil {
		return usageError(stderr, err)
	}
	names := make([]string, 0, len(inputs))
	for name := range inputs {
		names = append(names, name)
	}
	slices.Sort(names)
	code := exitOK
	for _, name := range names {
		mc := cfg
		mc.Fuzz, mc.CacheDir = name, filepath.Join(tmp, "cache")
		if c := mergeOne(ctx, mc, pkgDir, filepath.Join(into, name), inputs[name], files, stdout, stderr); c != exitOK {
			code = c
		}
	}
	return code
}

// mergeOne merges the input directories srcs of fuzz test cfg.Fuzz into
// dest, through the generated corpus cfg.CacheDir/FuzzX of the package copy
// pkgDir.
func mergeOne(ctx context.Context, cfg driver.Config, pkgDir, dest string, srcs, files []string, stdout, stderr io.Writer) int {
	name := cfg.Fuzz
	cache := filepath.Join(cfg.CacheDir, name)
	// What a new input must add coverage to: the directory's entries and the corpus attribute's.
	if _, err := os.Stat(dest); err == nil {
		corpus.Merge(cache, []string{dest}, nil, false)
	}
	seedCorpus(files, name, pkgDir, cache, io.Discard)
	before := entryNames(cache)
	m, err := driver.MergeCorpus(cfg, pkgDir, srcs, "", false)
	if err != nil {
		return usageError(stderr, fmt.Errorf("merge %s: %w", name, err))
	}
	for _, err := range m.Errs {
		fmt.Fprintf(stderr, "fuzzbox: warning: merge: skipping %s\n", shortPath(err, filepath.Dir(filepath.Dir(srcs[0]))))
	}
	fmt.Fprintf(stdout, "merge: %s: %d new inputs from %d outputs (%d already known); pruning to those that add coverage\n", name, m.Added, len(srcs), m.Present)
	out := driver.Output{Stdout: stdout, Stderr: stderr, Prefix: "fuzzbox"}
	if res := driver.Run(ctx, m.Prune, []string{pkgDir}, out); res.ExitCode != exitOK {
		fmt.Fprintf(stderr, "fuzzbox: merge %s: the pruning run failed (exit code %d): nothing written to %s\n", name, res.ExitCode, dest)
		return res.ExitCode
	}
	written := 0
	for _, e := range entryList(cache) {
		if before[e] {
			continue
		}
		data, err := os.ReadFile(filepath.Join(cache, e))
		if err == nil {
			_, err = corpus.Write(dest, data)
		}
		if err != nil {
			fmt.Fprintf(stderr, "fuzzbox: merge %s: %v\n", name, err)
			return exitUsage
		}
		written++
	}
	fmt.Fprintf(stdout, "merge: %s: %d inputs add coverage: written to %s (%d entries there now)\n", name, written, dest, len(entryList(dest)))
	return exitOK
}

// shardOutputs returns the test outputs of a test's logs directory base: an
// outputs.zip, or a directory when outputs are not zipped
// (--nozip_undeclared_test_outputs), of the unsharded run and of each shard.
func shardOutputs(base string) []string {
	dirs := []string{filepath.Join(base, "test.outputs")}
	shards, _ := filepath.Glob(filepath.Join(base, "shard_*_of_*", "test.outputs"))
	slices.Sort(shards)
	var outs []string
	for _, d := range append(dirs, shards...) {
		if _, err := os.Stat(filepath.Join(d, "outputs.zip")); err == nil {
			outs = append(outs, filepath.Join(d, "outputs.zip"))
		} else if _, err := os.Stat(filepath.Join(d, "corpus")); err == nil {
			outs = append(outs, d)
		}
	}
	return outs
}

// extractInputs copies the corpus/FuzzX/<file> entries of each output (a
// zip or a directory) to dir/<i>/FuzzX/ and returns, per fuzz test, those
// directories. Other entries are ignored; an entry with an unexpected path
// is skipped with a warning.
func extractInputs(outs []string, dir string, warn io.Writer) (map[string][]string, error) {
	inputs := map[string][]string{}
	for i, o := range outs {
		root := filepath.Join(dir, fmt.Sprint(i))
		var err error
		if strings.HasSuffix(o, ".zip") {
			err = extractZip(o, root, warn)
		} else {
			err = copyTree(filepath.Join(o, "corpus"), root, "")
		}
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", o, err)
		}
		ents, _ := os.ReadDir(root)
		for _, e := range ents {
			if e.IsDir() && corpus.IsFuzzTestName(e.Name()) {
				inputs[e.Name()] = append(inputs[e.Name()], filepath.Join(root, e.Name()))
			}
		}
	}
	return inputs, nil
}

// extractZip writes the corpus/FuzzX/<name> files of the zip file z under root/FuzzX/.
func extractZip(z, root string, warn io.Writer) error {
	r, err := zip.OpenReader(z)
	if err != nil {
		return err
	}
	defer r.Close()
	for _, f := range r.File {
		parts := strings.Split(f.Name, "/")
		if len(parts) == 0 || parts[0] != "corpus" || strings.HasSuffix(f.Name, "/") {
			continue
		}
		if len(parts) != 3 || !corpus.IsFuzzTestName(parts[1]) || parts[2] == "" || parts[2] != path.Clean(parts[2]) || strings.HasPrefix(parts[2], ".") {
			fmt.Fprintf(warn, "fuzzbox: warning: merge: skipping %s in %s: not corpus/FuzzX/<name>\n", f.Name, z)
			continue
		}
		if err := extractFile(f, filepath.Join(root, parts[1], parts[2])); err != nil {
			return fmt.Errorf("%s: %w", f.Name, err)
		}
	}
	return nil
}

func extractFile(f *zip.File, dst string) error {
	if f.UncompressedSize64 > corpus.MaxFileSize {
		return fmt.Errorf("larger than %d bytes", corpus.MaxFileSize)
	}
	rc, err := f.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, corpus.MaxFileSize+1))
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o777); err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o666)
}

func entryNames(dir string) map[string]bool {
	m := map[string]bool{}
	for _, n := range entryList(dir) {
		m[n] = true
	}
	return m
}

// absIn returns p made absolute against dir, or def if p is "".
func absIn(dir, p, def string) string {
	switch {
	case p == "":
		return def
	case filepath.IsAbs(p) || dir == "":
		return p
	}
	return filepath.Join(dir, p)
}

// shortPath is err's message with the temporary directory root taken out.
func shortPath(err error, root string) string {
	return strings.ReplaceAll(err.Error(), root+string(filepath.Separator), "")
}
