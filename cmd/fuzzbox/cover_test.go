package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/fuzzbox/fuzzbox/corpus"
	"github.com/fuzzbox/fuzzbox/driver"
	"golang.org/x/tools/txtar"
)

// coverModule extracts ../../driver/testdata/cover/module.txtar (the
// driver's coverage fixture) into a temporary directory, makes it the
// working directory and returns it.
func coverModule(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds test binaries with the go command")
	}
	ar, err := txtar.ParseFile("../../driver/testdata/cover/module.txtar")
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

var coverageRE = regexp.MustCompile(`(?m)^coverage: ([0-9.]+)% of statements in example.com/cov/kind$`)

// runCoverOK runs fuzzbox cover and returns stdout and the total coverage.
func runCoverOK(t *testing.T, wantCode int, args ...string) (string, float64) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append([]string{"cover"}, args...), &out, &errb)
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

// The command's side of fuzzbox cover: its flags, exit codes and output.
// What Cover replays, counts and reports is the driver's
// (driver/cover_test.go).

// TestCoverOutputs: -o writes the HTML report, -coverprofile the profile,
// -func prints the function table; the summary and the report's path are
// printed.
func TestCoverOutputs(t *testing.T) {
	coverModule(t)
	cache := t.TempDir()
	cacheEntry(t, filepath.Join(cache, "FuzzKind"), "magic:abc")
	out := t.TempDir()
	html, prof := filepath.Join(out, "with.html"), filepath.Join(out, "with.out")
	stdout, _ := runCoverOK(t, exitOK, "-fuzz=FuzzKind", "-cachedir", cache, "-o", html, "-coverprofile", prof, "-func", "./kind")
	for _, want := range []string{
		"FuzzKind: replayed 3 corpus entries (2 seeds, 1 from the generated corpus): 3 passed, 0 failed",
		"report: " + html, "kind.go:6:", // the -func table
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if data, err := os.ReadFile(prof); err != nil || !bytes.HasPrefix(data, []byte("mode: count\n")) {
		t.Errorf("-coverprofile: %v\n%s", err, data)
	}
	if data, err := os.ReadFile(html); err != nil || !bytes.Contains(data, []byte("cache-only")) {
		t.Errorf("HTML report without the source: %v", err)
	}
}

// TestCoverBadEntries: a report with entries that failed, crashed or could
// not be read exits 1 and prints them.
func TestCoverBadEntries(t *testing.T) {
	coverModule(t)
	cache := t.TempDir()
	dir := filepath.Join(cache, "FuzzKind")
	failing := cacheEntry(t, dir, "fail:z")
	crashing := cacheEntry(t, dir, "panic:x")
	stdout, _ := runCoverOK(t, exitFinding, "-fuzz=^FuzzKind$", "-cachedir", cache, "-o", filepath.Join(t.TempDir(), "r.html"), "./kind")
	for _, want := range []string{
		"failing entries (coverage counted): " + failing,
		"crashed entries (1 from the generated corpus; coverage not counted): " + crashing,
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
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
		{args: []string{"-fuzz=F", "-timeout=-1s", "./kind"}, code: exitUsage, stderr: "-timeout must be >= 0\nusage:"},
		{args: []string{"-fuzz=F", "-count=3", "./kind"}, code: exitUsage, stderr: "-count=3 is go test's; fuzzbox takes only -count=1\nusage:"},
		{args: []string{"-fuzz=F", "./nofuzz"}, code: exitUsage, stderr: "fuzzbox cover: example.com/cov/nofuzz has no fuzz tests\n"},
		{args: []string{"-fuzz=FuzzNone", "./kind"}, code: exitUsage,
			stderr: "-fuzz=FuzzNone matches no fuzz test in example.com/cov/kind (fuzz tests: FuzzKind, FuzzOther)"},
		{args: []string{"-fuzz=Fuzz", "./kind"}, code: exitUsage, stderr: "-fuzz matches more than one fuzz test: [FuzzKind FuzzOther]"},
		{args: []string{"-fuzz=F", "./missing"}, code: exitUsage, stderr: "fuzzbox cover: go list ./missing: "},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(append([]string{"cover"}, tc.args...), &out, &errb)
			if code != tc.code || !strings.Contains(out.String(), tc.stdout) || !strings.Contains(errb.String(), tc.stderr) {
				t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s\nwant exit %d, stdout with %q, stderr with %q",
					code, &out, &errb, tc.code, tc.stdout, tc.stderr)
			}
		})
	}
}

// TestCoverJSON: -json prints the report as JSON (with the per-entry
// replays, and no HTML), the same report as the text's.
func TestCoverJSON(t *testing.T) {
	coverModule(t)
	cache := t.TempDir()
	cacheEntry(t, filepath.Join(cache, "FuzzKind"), "magic:abc")
	_, total := runCoverOK(t, exitOK, "-fuzz=^FuzzKind$", "-cachedir", cache, "-o", filepath.Join(t.TempDir(), "r.html"), "./kind")

	var out, errb bytes.Buffer
	if code := run([]string{"cover", "-json", "-fuzz=^FuzzKind$", "-cachedir", cache, "./kind"}, &out, &errb); code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, &out, &errb)
	}
	var rep driver.CoverReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("not a JSON report: %v\n%s", err, &out)
	}
	if rep.Target != "FuzzKind" || rep.Package != "example.com/cov/kind" || rep.HTML != "" || len(rep.Files) == 0 {
		t.Errorf("report %+v", rep)
	}
	if math.Abs(rep.Percent-total) > 0.05 {
		t.Errorf("JSON coverage %.2f%%, text report %.1f%%", rep.Percent, total)
	}
	if rep.Entries.PerEntry != 3 {
		t.Errorf("-json replayed %d entries alone, want all 3", rep.Entries.PerEntry)
	}
}
