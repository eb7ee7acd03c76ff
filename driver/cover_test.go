package driver_test

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fuzzbox/fuzzbox/corpus"
	"github.com/fuzzbox/fuzzbox/driver"
	"golang.org/x/tools/cover"
	"golang.org/x/tools/txtar"
)

// The coverage expectations of fuzzbox cover that are the driver's: what
// Cover replays, counts and reports. cmd/fuzzbox/cover_test.go keeps the
// command's own (flags, exit codes, what it prints).

// coverModule extracts testdata/cover/module.txtar into a temporary
// directory and returns it.
func coverModule(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds test binaries with the go command")
	}
	ar, err := txtar.ParseFile("testdata/cover/module.txtar")
	if err != nil {
		t.Fatal(err)
	}
	fsys, err := txtar.FS(ar)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, fsys); err != nil {
		t.Fatal(err)
	}
	return dir
}

// coverKind resolves FuzzKind in the module and covers it.
func coverKind(t *testing.T, mod string, cfg driver.Config, opts driver.CoverOptions) *driver.CoverReport {
	t.Helper()
	cfg.Fuzz, cfg.Dir = "^FuzzKind$", mod
	targets, err := driver.Resolve(context.Background(), cfg, []string{"./kind"})
	if err != nil || len(targets) != 1 {
		t.Fatalf("Resolve: %v, %v", targets, err)
	}
	rep, err := driver.Cover(context.Background(), cfg, targets[0], opts)
	if err != nil {
		t.Fatalf("Cover: %v", err)
	}
	return rep
}

// cacheEntry writes the values into dir with corpus.Write and returns the
// entry's name.
func cacheEntry(t *testing.T, dir string, vals ...any) string {
	t.Helper()
	data, err := corpus.Marshal(vals...)
	if err != nil {
		t.Fatal(err)
	}
	path, err := corpus.Write(dir, data)
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Base(path)
}

// lineCount returns the count of the profile block holding the line of
// file marked with the comment "// marker".
func lineCount(t *testing.T, profile, file, marker string) int {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	line := 0
	for i, l := range strings.Split(string(src), "\n") {
		if strings.HasSuffix(l, "// "+marker) {
			line = i + 1
		}
	}
	profiles, err := cover.ParseProfiles(profile)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range profiles {
		if !strings.HasSuffix(p.FileName, "/"+filepath.Base(file)) {
			continue
		}
		for _, b := range p.Blocks {
			if b.StartLine <= line && line <= b.EndLine {
				return b.Count
			}
		}
	}
	t.Fatalf("no block of %s covers line %d (%s) in %s", file, line, marker, profile)
	return 0
}

// snapshot returns every file of dir with its contents.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		files[path] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestCoverReachesGeneratedCorpus: the line only a generated-corpus entry
// reaches is covered when the entry is in the default cache dir, and not
// without it; the module is left as it was.
func TestCoverReachesGeneratedCorpus(t *testing.T) {
	mod := coverModule(t)
	before := snapshot(t, mod)
	gocache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOCACHE", strings.TrimSpace(string(gocache))) // keep the build cache warm
	xdg := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", xdg) // os.UserCacheDir on Unix
	cacheEntry(t, filepath.Join(xdg, "fuzzbox", "fuzz", "example.com/cov/kind", "FuzzKind"), "magic:abc")

	prof := filepath.Join(t.TempDir(), "with.out")
	with := coverKind(t, mod, driver.Config{}, driver.CoverOptions{Profile: prof})
	if e := with.Entries; e.Seeds != 2 || e.Generated != 1 || len(e.Passed) != 3 || len(e.Failed) != 0 {
		t.Errorf("entries %+v: want 2 seeds and 1 generated, 3 passed", e)
	}
	if with.Profile != prof || with.HTML != "" || !strings.Contains(with.FuncTable, "kind.go:6:") {
		t.Errorf("profile %q, HTML %q, func table:\n%s", with.Profile, with.HTML, with.FuncTable)
	}
	if n := lineCount(t, prof, filepath.Join(mod, "kind", "kind.go"), "cache-only"); n != 1 {
		t.Errorf("with the generated corpus, the cache-only line ran %d times, want 1", n)
	}

	prof = filepath.Join(t.TempDir(), "without.out")
	without := coverKind(t, mod, driver.Config{CacheDir: t.TempDir()}, driver.CoverOptions{Profile: prof})
	if n := lineCount(t, prof, filepath.Join(mod, "kind", "kind.go"), "cache-only"); n != 0 {
		t.Errorf("without the generated corpus, the cache-only line ran %d times, want 0", n)
	}
	if without.Percent >= with.Percent || without.Entries.Generated != 0 {
		t.Errorf("coverage without the generated corpus %.1f%% (%d generated entries), with %.1f%%: want lower", without.Percent, without.Entries.Generated, with.Percent)
	}
	after := snapshot(t, mod)
	if len(after) != len(before) {
		t.Errorf("module has %d files after Cover, %d before", len(after), len(before))
	}
	for path, data := range before {
		if after[path] != data {
			t.Errorf("Cover changed %s", path)
		}
	}
}

// TestCoverBadEntries: entries that panic, exit, fail or cannot be read do
// not stop the report; the others are counted, the bad ones are listed.
func TestCoverBadEntries(t *testing.T) {
	mod := coverModule(t)
	cache := t.TempDir()
	dir := filepath.Join(cache, "FuzzKind")
	cacheEntry(t, dir, "magic:abc")
	panicking := cacheEntry(t, dir, "panic:x")
	exiting := cacheEntry(t, dir, "exit:y")
	failing := cacheEntry(t, dir, "fail:z")
	wrongType := cacheEntry(t, dir, 42)
	if err := os.WriteFile(filepath.Join(dir, "garbage"), []byte("not a corpus file\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	prof := filepath.Join(t.TempDir(), "cover.out")
	rep := coverKind(t, mod, driver.Config{CacheDir: cache}, driver.CoverOptions{Profile: prof})
	e := rep.Entries
	if e.Seeds != 2 || e.Generated != 2 || len(e.Passed) != 3 || !slices.Equal(e.Failed, []string{failing}) {
		t.Errorf("entries %+v: want 2 seeds and 2 generated replayed, 3 passed, %s failed", e, failing)
	}
	if c := slices.Sorted(slices.Values(e.Crashed)); !slices.Equal(c, slices.Sorted(slices.Values([]string{panicking, exiting}))) {
		t.Errorf("crashed %v, want %s and %s", e.Crashed, panicking, exiting)
	}
	var unreadable []string
	for _, u := range e.Unreadable {
		unreadable = append(unreadable, u.Name)
		if u.Error == "" {
			t.Errorf("unreadable %s without its error", u.Name)
		}
	}
	if slices.Sort(unreadable); !slices.Equal(unreadable, slices.Sorted(slices.Values([]string{"garbage", wrongType}))) {
		t.Errorf("unreadable %v, want garbage and %s", unreadable, wrongType)
	}
	if s := rep.Summary(); !strings.Contains(s, "crashed entries (2 from the generated corpus; coverage not counted)") {
		t.Errorf("summary does not count the crashed generated entries:\n%s", s)
	}
	for marker, want := range map[string]int{"cache-only": 1, "fail-only": 1} {
		if n := lineCount(t, prof, filepath.Join(mod, "kind", "kind.go"), marker); n != want {
			t.Errorf("%s line ran %d times, want %d", marker, n, want)
		}
	}
}

// TestCoverReport: per-file and per-function statements add up, and
// PerEntry names the entries that reach each function.
func TestCoverReport(t *testing.T) {
	mod := coverModule(t)
	cache := t.TempDir()
	magic := cacheEntry(t, filepath.Join(cache, "FuzzKind"), "magic:abc")
	rep := coverKind(t, mod, driver.Config{CacheDir: cache}, driver.CoverOptions{PerEntry: true})
	if rep.Target != "FuzzKind" || rep.Package != "example.com/cov/kind" || rep.CoverPkg != "example.com/cov/kind" || rep.HTML != "" {
		t.Errorf("report header %+v", rep)
	}
	sum, blockSum, blockCovered := 0, 0, 0
	var kind *driver.FuncCover
	for _, f := range rep.Files {
		sum += f.Statements
		for _, b := range f.Blocks {
			blockSum += b.Statements
			if b.Count > 0 {
				blockCovered += b.Statements
			}
			if b.StartLine < 1 || b.EndLine < b.StartLine {
				t.Errorf("%s: block %+v", f.File, b)
			}
		}
		for i, fn := range f.Funcs {
			if fn.Name == "Kind" && f.Path == filepath.Join(mod, "kind", "kind.go") {
				kind = &f.Funcs[i]
			}
		}
	}
	if sum != rep.Statements || rep.Covered > rep.Statements || rep.Statements == 0 {
		t.Errorf("statements: files add up to %d, report says %d covered of %d", sum, rep.Covered, rep.Statements)
	}
	if blockSum != rep.Statements || blockCovered != rep.Covered {
		t.Errorf("blocks add up to %d covered of %d, report says %d of %d", blockCovered, blockSum, rep.Covered, rep.Statements)
	}
	if want := 100 * float64(rep.Covered) / float64(rep.Statements); rep.Percent != want {
		t.Errorf("percent %.2f, want %.2f", rep.Percent, want)
	}
	if kind == nil {
		t.Fatalf("no function Kind in kind/kind.go: %+v", rep.Files)
	}
	// Every statement but the fail-only one: the cache entry reaches the magic branch, no entry fails.
	if kind.Statements != 5 || kind.Covered != 4 || kind.Line != 6 {
		t.Errorf("Kind: %+v, want line 6 and 4 of its 5 statements covered", *kind)
	}
	if rep.Entries.PerEntry != 3 || !slices.Contains(kind.Entries, magic) || len(kind.Entries) != 3 {
		t.Errorf("Kind reached by %v (%d entries replayed alone), want all 3 entries including %s", kind.Entries, rep.Entries.PerEntry, magic)
	}
}

// TestCoverTestFilesOnly: a package whose code is all in _test.go files has
// no statements to count, and its coverage binary writes no counters; its
// corpus is still replayed (the run is complete) and the report says so.
func TestCoverTestFilesOnly(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries with the go command")
	}
	dir := t.TempDir()
	for name, text := range map[string]string{
		"go.mod": "module example.com/onlytests\n\ngo 1.24\n",
		"x_test.go": `package onlytests

import "testing"

func FuzzLen(f *testing.F) {
	f.Add("abc")
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 1<<20 {
			t.Skip()
		}
	})
}
`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := driver.Config{Fuzz: "^FuzzLen$", Dir: dir, CacheDir: t.TempDir()}
	targets, err := driver.Resolve(context.Background(), cfg, []string{"."})
	if err != nil || len(targets) != 1 {
		t.Fatalf("Resolve: %v, %v", targets, err)
	}
	rep, err := driver.Cover(context.Background(), cfg, targets[0], driver.CoverOptions{})
	if err != nil {
		t.Fatalf("Cover: %v", err)
	}
	if !slices.Equal(rep.Entries.Passed, []string{"seed#0"}) || rep.Statements != 0 || rep.Files == nil {
		t.Errorf("want seed#0 passed, no statements, files [], have %+v", rep)
	}
}

// TestCoverEntryNamesWithSpaces: seed files whose names hold a space, which
// testing prints as they are ("FuzzKind/seed one"), are counted, and one
// that crashes the binary is skipped by name (the results' pattern took a
// name up to its first space: such entries were missing, a crashing one
// ended the replay, a failing one was "failed before replaying its corpus").
func TestCoverEntryNamesWithSpaces(t *testing.T) {
	mod := coverModule(t)
	seeds := filepath.Join(mod, "kind", "testdata", "fuzz", "FuzzKind")
	for name, val := range map[string]string{"seed one": "magic:abc", "crash one": "panic:x", "fail one": "fail:z"} {
		data, err := corpus.Marshal(val)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(seeds, 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(seeds, name), data, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	rep := coverKind(t, mod, driver.Config{CacheDir: t.TempDir()}, driver.CoverOptions{})
	e := rep.Entries
	if !slices.Contains(e.Passed, "seed one") || !slices.Equal(e.Failed, []string{"fail one"}) || !slices.Equal(e.Crashed, []string{"crash one"}) {
		t.Errorf("entries %+v: want seed one passed, fail one failed, crash one crashed", e)
	}
}

// TestCoverNestedModule: a package of a nested module, named by its path
// from the outer module as fuzzbox fuzz takes it, is covered (its binary was
// built in the outer module, where go reported the package missing).
func TestCoverNestedModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries with the go command")
	}
	outer := t.TempDir()
	for name, src := range map[string]string{
		"go.mod":                 "module example.com/outer\n\ngo 1.26\n",
		"nested/inner/go.mod":    "module example.com/inner\n\ngo 1.26\n",
		"nested/inner/i.go":      "package inner\n\nfunc I(b []byte) bool { return len(b) > 0 && b[0] == 'q' }\n",
		"nested/inner/i_test.go": "package inner\n\nimport \"testing\"\n\nfunc FuzzI(f *testing.F) {\n\tf.Add([]byte(\"q\"))\n\tf.Fuzz(func(t *testing.T, b []byte) { I(b) })\n}\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(outer, name)), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(outer, name), []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	cfg := driver.Config{Fuzz: "^FuzzI$", Dir: outer, CacheDir: t.TempDir()}
	targets, err := driver.Resolve(context.Background(), cfg, []string{"./nested/inner"})
	if err != nil || len(targets) != 1 {
		t.Fatalf("Resolve: %v, %v", targets, err)
	}
	rep, err := driver.Cover(context.Background(), cfg, targets[0], driver.CoverOptions{})
	if err != nil {
		t.Fatalf("Cover: %v", err)
	}
	if rep.Entries.Seeds != 1 || len(rep.Entries.Passed) != 1 {
		t.Errorf("entries %+v, want the one seed replayed", rep.Entries)
	}
}

// TestCoverRelativeFiles: relative -coverprofile and -o name files in the
// directory the command runs in, as go test's do, for a package elsewhere
// (the profile was written there but read in the package: no report; the
// HTML landed in the package, inside the module).
func TestCoverRelativeFiles(t *testing.T) {
	mod := coverModule(t)
	rep := coverKind(t, mod, driver.Config{CacheDir: t.TempDir()}, driver.CoverOptions{Profile: "rel.out", HTML: "rel.html"})
	for _, f := range []string{"rel.out", "rel.html"} {
		if _, err := os.Stat(filepath.Join(mod, f)); err != nil {
			t.Errorf("%s not where the command runs: %v", f, err)
		}
		if _, err := os.Stat(filepath.Join(mod, "kind", f)); err == nil {
			t.Errorf("%s written into the package directory", f)
		}
	}
	if rep.HTML != "rel.html" || rep.Profile != "rel.out" {
		t.Errorf("report names %q and %q, want them as given", rep.HTML, rep.Profile)
	}
}
