package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fuzzbox/fuzzbox/corpus"
	"github.com/fuzzbox/fuzzbox/driver"
	"golang.org/x/tools/cover"
	"golang.org/x/tools/txtar"
)

// coverModule extracts testdata/cover/module.txtar into a temporary
// directory, makes it the working directory and returns it.
func coverModule(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds test binaries with the go command")
	}
	ar, err := txtar.ParseFile("testdata/cover/module.txtar")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range ar.Files {
		path := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, f.Data, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	return dir
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

var coverageRE = regexp.MustCompile(`(?m)^coverage: ([0-9.]+)% of statements in example.com/cov/kind$`)

// runCoverOK runs fuzzbox cover and returns stdout and the total coverage.
func runCoverOK(t *testing.T, wantCode int, args ...string) (string, float64) {
	t.Helper()
	var out, errb bytes.Buffer
	code := runCover(args, &out, &errb)
	if code != wantCode {
		t.Fatalf("fuzzbox cover %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, wantCode, &out, &errb)
	}
	m := coverageRE.FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no total coverage in stdout:\n%s", &out)
	}
	total, _ := strconv.ParseFloat(m[1], 64)
	return out.String(), total
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

	out := t.TempDir()
	html, prof := filepath.Join(out, "with.html"), filepath.Join(out, "with.out")
	stdout, with := runCoverOK(t, exitOK, "-fuzz=FuzzKind", "-o", html, "-coverprofile", prof, "-func", "./kind")
	for _, want := range []string{
		"FuzzKind: replayed 3 corpus entries (2 seeds, 1 from the generated corpus): 3 passed, 0 failed",
		"report: " + html, "kind.go:6:", // the -func table
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if n := lineCount(t, prof, "kind/kind.go", "cache-only"); n != 1 {
		t.Errorf("with the generated corpus, the cache-only line ran %d times, want 1", n)
	}
	if data, err := os.ReadFile(html); err != nil || !bytes.Contains(data, []byte("cache-only")) {
		t.Errorf("HTML report without the source: %v", err)
	}

	prof = filepath.Join(out, "without.out")
	_, without := runCoverOK(t, exitOK, "-fuzz=FuzzK", "-cachedir", t.TempDir(), "-o", filepath.Join(out, "without.html"), "-coverprofile", prof, "./kind")
	if n := lineCount(t, prof, "kind/kind.go", "cache-only"); n != 0 {
		t.Errorf("without the generated corpus, the cache-only line ran %d times, want 0", n)
	}
	if without >= with {
		t.Errorf("coverage without the generated corpus %.1f%%, with %.1f%%: want lower", without, with)
	}
	after := snapshot(t, mod)
	if len(after) != len(before) {
		t.Errorf("module has %d files after fuzzbox cover, %d before", len(after), len(before))
	}
	for path, data := range before {
		if after[path] != data {
			t.Errorf("fuzzbox cover changed %s", path)
		}
	}
}

// TestCoverBadEntries: entries that panic, exit, fail or cannot be read do
// not stop the report; the others are counted, the bad ones are listed.
func TestCoverBadEntries(t *testing.T) {
	coverModule(t)
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
	stdout, _ := runCoverOK(t, exitFinding, "-fuzz=^FuzzKind$", "-cachedir", cache, "-o", filepath.Join(t.TempDir(), "r.html"), "-coverprofile", prof, "./kind")
	for _, want := range []string{
		"FuzzKind: replayed 4 corpus entries (2 seeds, 2 from the generated corpus): 3 passed, 1 failed",
		"failing entries (coverage counted): " + failing,
		"unreadable generated-corpus entry (skipped): garbage: ",
		"unreadable generated-corpus entry (skipped): " + wrongType + ": ",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	crashed := regexp.MustCompile(`crashed entries \(2 from the generated corpus; coverage not counted\): (\S+) (\S+)\n`).FindStringSubmatch(stdout)
	if crashed == nil || !(crashed[1] == panicking && crashed[2] == exiting || crashed[1] == exiting && crashed[2] == panicking) {
		t.Errorf("crashed entries not listed as %s and %s:\n%s", panicking, exiting, stdout)
	}
	for marker, want := range map[string]int{"cache-only": 1, "fail-only": 1} {
		if n := lineCount(t, prof, "kind/kind.go", marker); n != want {
			t.Errorf("%s line ran %d times, want %d", marker, n, want)
		}
	}
}

func TestCoverUsage(t *testing.T) {
	coverModule(t)
	for _, tc := range []struct {
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{args: []string{"-h"}, code: exitOK, stdout: "usage: fuzzbox cover -fuzz=FuzzX"},
		{args: []string{"./kind"}, code: exitUsage, stderr: "fuzzbox cover: -fuzz is required\nusage:"},
		{args: []string{"-fuzz=(", "./kind"}, code: exitUsage, stderr: "fuzzbox cover: -fuzz: error parsing regexp"},
		{args: []string{"-fuzz=F", "./kind", "./nofuzz"}, code: exitUsage, stderr: "one package at a time\nusage:"},
		{args: []string{"-fuzz=F", "-timeout=0s", "./kind"}, code: exitUsage, stderr: "-timeout must be > 0\nusage:"},
		{args: []string{"-bogus"}, code: exitUsage, stderr: "flag provided but not defined: -bogus\nusage:"},
		{args: []string{"-fuzz=F", "./nofuzz"}, code: exitUsage, stderr: "fuzzbox cover: example.com/cov/nofuzz has no fuzz tests\n"},
		{args: []string{"-fuzz=FuzzNone", "./kind"}, code: exitUsage,
			stderr: "-fuzz=FuzzNone matches no fuzz test in example.com/cov/kind (fuzz tests: FuzzKind, FuzzOther)"},
		{args: []string{"-fuzz=Fuzz", "./kind"}, code: exitUsage, stderr: "-fuzz matches more than one fuzz test: [FuzzKind FuzzOther]"},
		{args: []string{"-fuzz=F", "./missing"}, code: exitUsage, stderr: "fuzzbox cover: go list ./missing: "},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out, errb bytes.Buffer
			code := runCover(tc.args, &out, &errb)
			if code != tc.code || !strings.Contains(out.String(), tc.stdout) || !strings.Contains(errb.String(), tc.stderr) {
				t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s\nwant exit %d, stdout with %q, stderr with %q",
					code, &out, &errb, tc.code, tc.stdout, tc.stderr)
			}
		})
	}
}

// TestCoverJSON: -json reports per-file and per-function statements, and
// which entries reach each function, consistently with the text report.
func TestCoverJSON(t *testing.T) {
	coverModule(t)
	cache := t.TempDir()
	magic := cacheEntry(t, filepath.Join(cache, "FuzzKind"), "magic:abc")
	_, total := runCoverOK(t, exitOK, "-fuzz=^FuzzKind$", "-cachedir", cache, "-o", filepath.Join(t.TempDir(), "r.html"), "./kind")

	var out, errb bytes.Buffer
	if code := runCover([]string{"-json", "-fuzz=^FuzzKind$", "-cachedir", cache, "./kind"}, &out, &errb); code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, &out, &errb)
	}
	var rep driver.CoverReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("not a JSON report: %v\n%s", err, &out)
	}
	if rep.Target != "FuzzKind" || rep.Package != "example.com/cov/kind" || rep.HTML != "" {
		t.Errorf("report header %+v", rep)
	}
	if math.Abs(rep.Percent-total) > 0.05 {
		t.Errorf("JSON coverage %.2f%%, text report %.1f%%", rep.Percent, total)
	}
	sum := 0
	var kind *driver.FuncCover
	for _, f := range rep.Files {
		sum += f.Statements
		for i, fn := range f.Funcs {
			if fn.Name == "Kind" && strings.HasSuffix(f.Path, filepath.Join("kind", "kind.go")) {
				kind = &f.Funcs[i]
			}
		}
	}
	if sum != rep.Statements || rep.Covered > rep.Statements || rep.Statements == 0 {
		t.Errorf("statements: files add up to %d, report says %d covered of %d", sum, rep.Covered, rep.Statements)
	}
	if kind == nil {
		t.Fatalf("no function Kind in kind/kind.go:\n%s", &out)
	}
	// Every statement but the fail-only one: the cache entry reaches the magic branch, no entry fails.
	if kind.Statements != 5 || kind.Covered != 4 || kind.Line != 6 {
		t.Errorf("Kind: %+v, want line 6 and 4 of its 5 statements covered", *kind)
	}
	if rep.Entries.PerEntry != 3 || !slices.Contains(kind.Entries, magic) || len(kind.Entries) != 3 {
		t.Errorf("Kind reached by %v (%d entries replayed alone), want all 3 entries including %s", kind.Entries, rep.Entries.PerEntry, magic)
	}
}
