package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/fuzzbox/fuzzbox/driver"
	"github.com/fuzzbox/fuzzbox/event"
)

// runTest fuzzes as a Bazel test action: hermetic, sharded, outputs saved.
func runTest(ctx context.Context, b *bazelFlags, f *fuzzFlags, stdout, stderr io.Writer) int {
	tmp := os.Getenv("TEST_TMPDIR")
	if tmp == "" {
		return usageError(stderr, errors.New("TEST_TMPDIR is not set: run this target with bazel test"))
	}
	if status := os.Getenv("TEST_SHARD_STATUS_FILE"); status != "" {
		if err := os.WriteFile(status, nil, 0o666); err != nil {
			return usageError(stderr, fmt.Errorf("touching TEST_SHARD_STATUS_FILE: %w", err))
		}
	}
	// Temporary files (the driver's, the engine's shared memory, the
	// fuzzing binary's) stay in the test's own directory too.
	os.Setenv("TMPDIR", tmp)
	outputs := os.Getenv("TEST_UNDECLARED_OUTPUTS_DIR")
	if outputs == "" {
		outputs = filepath.Join(tmp, "outputs")
	}
	cfg, err := config(b, f, stderr)
	if err != nil {
		return usageError(stderr, err)
	}
	dir := filepath.Join(tmp, "fuzzbox", "src", filepath.FromSlash(b.pkg))
	if err := copyTree(b.pkgDir, dir, cfg.Binary); err != nil {
		return usageError(stderr, fmt.Errorf("copying the package's runfiles to TEST_TMPDIR: %w", err))
	}
	if cfg.CacheDir == "" {
		cfg.CacheDir = filepath.Join(tmp, "fuzzbox", "cache")
	}
	// With -json, standard output is the event stream alone; what the runner
	// says itself goes to standard error.
	say := stdout
	if f.JSON {
		say = stderr
	}
	targets, err := driver.Resolve(ctx, cfg, []string{dir})
	if errors.Is(err, driver.ErrNoFuzzTests) {
		// As go test -fuzz: a go_fuzz_test of a package whose tests have
		// no fuzz test (gazelle's map_kind makes one of every go_test)
		// passes; the replay test ran its tests.
		fmt.Fprintf(say, "fuzzbox: testing: warning: no fuzz tests to fuzz in %s\n", b.pkg)
		return exitOK
	}
	if err != nil {
		return usageError(stderr, err)
	}
	if targets = shard(targets, say); len(targets) == 0 {
		return exitOK // nothing for this shard
	}
	files, err := corpusFiles(b.corpus)
	if err != nil {
		return usageError(stderr, err)
	}
	names := make([]string, len(targets))
	for i, t := range targets {
		names[i] = t.Name
	}
	seeded := seedTargets(files, names, dir, cfg.CacheDir, say, stderr)
	var fit string
	cfg.FuzzTime, fit = fitTimeout(cfg.FuzzTime, os.Getenv("TEST_TIMEOUT"))
	fmt.Fprint(say, fit)
	events, err := os.Create(filepath.Join(outputs, "events.json"))
	if err != nil {
		return usageError(stderr, err)
	}
	defer events.Close()
	w := bufio.NewWriter(events)
	p := driver.NewPrinter(stdout, f.JSON, targets)
	res := driver.Fuzz(ctx, cfg, targets, func(e event.Event) { // called one at a time
		event.Encode(w, e)
		p.Print(e)
	})
	w.Flush()
	if res.Err != nil {
		fmt.Fprintf(stderr, "fuzzbox: %s\n", oneLine(res.Err))
	}
	if err := saveOutputs(res, b, cfg.CacheDir, dir, outputs, seeded, say); err != nil {
		fmt.Fprintf(stderr, "fuzzbox: saving the test outputs: %v\n", err)
		if res.ExitCode == exitOK {
			return exitUsage
		}
	}
	return res.ExitCode
}

// shard returns this shard's fuzz tests of targets. Without sharding it is
// all of them. With N shards and at least N fuzz tests, shard i takes every
// N-th test (by name) from i on; with fewer fuzz tests than shards, shard i
// runs its own campaign of test i mod count (its own corpus cache and
// random seed in its own TEST_TMPDIR).
func shard(targets []driver.Target, say io.Writer) []driver.Target {
	total, _ := strconv.Atoi(os.Getenv("TEST_TOTAL_SHARDS"))
	index, _ := strconv.Atoi(os.Getenv("TEST_SHARD_INDEX"))
	if total <= 1 || len(targets) == 0 {
		return targets
	}
	targets = slices.Clone(targets)
	slices.SortFunc(targets, func(a, b driver.Target) int { return strings.Compare(a.Name, b.Name) })
	var mine []driver.Target
	if len(targets) >= total {
		for i := index; i < len(targets); i += total {
			mine = append(mine, targets[i])
		}
	} else {
		mine = []driver.Target{targets[index%len(targets)]}
	}
	names := make([]string, len(mine))
	for i, t := range mine {
		names[i] = t.Name
	}
	fmt.Fprintf(say, "fuzzbox: shard %d of %d: %s\n", index+1, total, strings.Join(names, ", "))
	return mine
}

// copyTree copies the directory src (runfiles: symlinks to read-only files)
// to dst as writable files, skipping skip (the fuzzing binary).
func copyTree(src, dst, skip string) error {
	skipInfo, _ := os.Stat(skip)
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		fi, err := os.Stat(path) // follows the runfiles symlink
		if err != nil {
			return err
		}
		switch {
		case fi.IsDir():
			return os.MkdirAll(target, 0o777)
		case skipInfo != nil && os.SameFile(fi, skipInfo):
			return nil
		}
		return copyFile(path, target, fi.Mode().Perm()|0o200)
	})
}

func copyFile(src, dst string, perm fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(dst), 0o777); err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// saveOutputs copies each reproducer to outputs/testdata/fuzz/FuzzX/ (so
// that unzipping the outputs into the package puts it in place), writes
// outputs/summary.txt and prints where they are and how to use them.
func saveOutputs(res driver.Result, b *bazelFlags, cacheDir, dir, outputs string, seeded map[string]seedStats, say io.Writer) error {
	var sum strings.Builder
	var firstErr error
	keep := func(err error) {
		if firstErr == nil {
			firstErr = err
		}
	}
	zip := testOutputsZip(b.pkg)
	res.WriteSummary(&sum) // a line per fuzz test, as fuzzbox fuzz prints it
	for _, r := range res.Targets {
		for _, e := range r.Failures {
			if e.Seed != "" { // in the source tree already: nothing to copy
				fmt.Fprintf(&sum, "\n%s: failure (%s): %s\n  %s\n  replay: %s, or bazel test with --test_filter=%s/%s\n",
					r.Target.Name, e.Kind, e.Headline(), event.SeedEntry(r.Target.Name, e.Seed), goTestIn(b.pkg, r.Target.Name, e.Seed), r.Target.Name, e.Seed)
				continue
			}
			repro := e.Reproducer
			if !filepath.IsAbs(repro) {
				repro = filepath.Join(dir, repro) // relative to the package directory
			}
			rel, err := filepath.Rel(dir, repro)
			if err != nil || strings.HasPrefix(rel, "..") {
				keep(fmt.Errorf("reproducer %s is not in the package directory", e.Reproducer))
				continue
			}
			if err := copyFile(repro, filepath.Join(outputs, rel), 0o666); err != nil {
				keep(err)
				continue
			}
			name := filepath.Base(rel)
			fmt.Fprintf(&sum, "\n%s: failure (%s): %s (minimized: %s)\n", r.Target.Name, e.Kind, e.Headline(), orDash(e.Minimized))
			if len(e.Values) > 0 { // a typed fuzz test's (package typed) arguments, as Go syntax
				fmt.Fprintf(&sum, "  failing arguments: %s\n", strings.Join(e.Values, ", "))
			}
			fmt.Fprintf(&sum, "  reproducer: %s (in the test outputs)\n", filepath.ToSlash(rel))
			fmt.Fprintf(&sum, "  into the source tree: unzip -o %s '%s' -d %s\n", zip, filepath.ToSlash(rel), b.pkg)
			fmt.Fprintf(&sum, "  replay: %s, or bazel test with --test_filter=%s/%s\n", goTestIn(b.pkg, r.Target.Name, name), r.Target.Name, name)
		}
	}
	for _, r := range res.Targets {
		n, err := saveNewInputs(filepath.Join(cacheDir, r.Target.Name), r.Target.Name, outputs, seeded[r.Target.Name].Names)
		if err != nil {
			keep(fmt.Errorf("saving the new inputs of %s: %w", r.Target.Name, err))
		}
		if n > 0 {
			fmt.Fprintf(&sum, "\n%s: %d new inputs that add coverage: corpus/%s/ (in the test outputs); into the source tree: bazel run %s\n",
				r.Target.Name, n, r.Target.Name, mergeTarget(b.pkg))
		}
	}
	if res.Err != nil {
		fmt.Fprintf(&sum, "error: %s\n", oneLine(res.Err))
	}
	fmt.Fprintf(&sum, "\nexit code: %d\n", res.ExitCode)
	if err := os.WriteFile(filepath.Join(outputs, "summary.txt"), []byte(sum.String()), 0o666); err != nil {
		keep(err)
	}
	fmt.Fprintf(say, "%s(also in the test outputs: summary.txt, events.json)\n", sum.String())
	return firstErr
}

// goTestIn is the command that replays input name of fuzz test target
// from the workspace's root: go test in the package's directory pkg.
func goTestIn(pkg, target, name string) string {
	if pkg == "." || pkg == "" {
		return fmt.Sprintf("go test -run=%s/%s", target, name)
	}
	return fmt.Sprintf("(cd %s && go test -run=%s/%s)", pkg, target, name)
}

// testOutputsZip returns where bazel test puts this test's outputs.zip,
// relative to the workspace.
func testOutputsZip(pkg string) string {
	target := os.Getenv("TEST_TARGET") // //pkg:name or @repo//pkg:name
	name := target[strings.LastIndexByte(target, ':')+1:]
	if name == "" {
		name = "<target>"
	}
	p := path.Join("bazel-testlogs", pkg, name) // the root package's is bazel-testlogs/<name>
	if total, _ := strconv.Atoi(os.Getenv("TEST_TOTAL_SHARDS")); total > 1 {
		index, _ := strconv.Atoi(os.Getenv("TEST_SHARD_INDEX"))
		p += fmt.Sprintf("/shard_%d_of_%d", index+1, total)
	}
	return p + "/test.outputs/outputs.zip"
}

// mergeTarget returns the label of the merge target of this test (//pkg:x_merge).
func mergeTarget(pkg string) string {
	target := os.Getenv("TEST_TARGET") // //pkg:x_fuzz or @repo//pkg:x_fuzz
	if strings.Contains(target, ":") && strings.HasSuffix(target, "_fuzz") {
		return strings.TrimSuffix(target, "_fuzz") + "_merge"
	}
	return label(pkg, "<name>_merge")
}

// label returns the label of target name of the workspace's package pkg
// (its directory: "." is the root, //:name).
func label(pkg, name string) string {
	if pkg == "." {
		pkg = ""
	}
	return "//" + pkg + ":" + name
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
