package driver

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fuzzbox/fuzzbox/driver/build"
)

// TestSourceDictListsImports: the driver lists what build.PackageLiterals
// needs (the imports), so a fuzz test's dictionary holds the literals of the
// package it imports (build's TestPackageLiterals checks the rest).
func TestSourceDictListsImports(t *testing.T) {
	dir := t.TempDir()
	mod := "module example.com/m\n\ngo 1.26\n"
	dep := "package dep\n\nconst K = \"zebra-keyword\"\n"
	test := "package p\n\nimport (\n\t\"testing\"\n\n\t\"example.com/m/dep\"\n)\n\nfunc FuzzX(f *testing.F) { f.Fuzz(func(t *testing.T, s string) { _ = s == dep.K }) }\n"
	for name, text := range map[string]string{"go.mod": mod, "dep/dep.go": dep, "p/p_test.go": test} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pkgs, err := listPackages(context.Background(), filepath.Join(dir, "p"), []string{"."}, "")
	if err != nil || len(pkgs) != 1 {
		t.Fatalf("listPackages: %v %v", pkgs, err)
	}
	toks := build.PackageLiterals(context.Background(), pkgs[0].LiteralSource)
	if !slices.ContainsFunc(toks, func(b []byte) bool { return string(b) == "zebra-keyword" }) {
		t.Errorf("dictionary %q lacks the imported package's literal", toks)
	}
}

// TestResolve: patterns sharing a directory are listed together, -fuzz
// selects among the declared fuzz tests, and a selection that matches
// nothing says why.
func TestResolve(t *testing.T) {
	dir := t.TempDir()
	mod := "module example.com/m\n\ngo 1.26\n"
	a := "package a\n\nimport \"testing\"\n\nfunc FuzzA(f *testing.F) {}\n\nfunc FuzzB(f *testing.F) {}\n\nfunc Fuzzy(f *testing.F) {}\n"
	b := "package b_test\n\nimport \"testing\"\n\nfunc FuzzC(f *testing.F) {}\n"
	tagged := "//go:build fuzz\n\npackage d\n\nimport \"testing\"\n\nfunc FuzzD(f *testing.F) {}\n"
	writeTestFiles(t, dir, map[string]string{"go.mod": mod, "a/a_test.go": a, "b/b_test.go": b, "c/c.go": "package c\n",
		"d/d.go": "package d\n", "d/fuzz_test.go": tagged})
	ctx := context.Background()
	for _, tc := range []struct {
		fuzz     string
		patterns []string
		want     []string // Package.Name, or the error
	}{
		{"^Fuzz[AC]$", []string{"example.com/m/a", "example.com/m/b"}, []string{"example.com/m/a.FuzzA", "example.com/m/b.FuzzC"}},
		{".", []string{"./..."}, []string{"example.com/m/a.FuzzA", "example.com/m/a.FuzzB", "example.com/m/b.FuzzC"}},
		{"B", []string{"./a"}, []string{"example.com/m/a.FuzzB"}},
		// overlapping patterns: each package once, as go list lists it
		{"^Fuzz[AC]$", []string{"./...", "./a", "example.com/m/b", "./b/"}, []string{"example.com/m/a.FuzzA", "example.com/m/b.FuzzC"}},
		{".", []string{"./c"}, []string{"error: example.com/m/c has no fuzz tests"}},
		// a fuzz test behind a build tag: the error names the file
		{".", []string{"./d"}, []string{"error: example.com/m/d has no fuzz tests; build constraints exclude fuzz_test.go: does a fuzz test need -tags?"}},
		{"^FuzzZ$", []string{"./a", "./b"}, []string{"error: -fuzz=^FuzzZ$ matches no fuzz test in ./a ./b (fuzz tests: FuzzA, FuzzB, FuzzC)"}},
	} {
		ts, err := Resolve(ctx, Config{Fuzz: tc.fuzz, Dir: dir}, tc.patterns)
		var got []string
		for _, tg := range ts {
			got = append(got, tg.String())
			if tg.pkg == nil || tg.Dir != tg.pkg.Dir || tg.Dir != filepath.Join(dir, strings.TrimPrefix(tg.Package, "example.com/m/")) {
				t.Errorf("%s: directory %q, package record %v", tg, tg.Dir, tg.pkg)
			}
		}
		if err != nil {
			got = []string{"error: " + err.Error()}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("Resolve(-fuzz=%s, %q) = %q, want %q", tc.fuzz, tc.patterns, got, tc.want)
		}
	}
}

// TestResolveOne: one fuzz test, or an error naming all that -fuzz matches.
func TestResolveOne(t *testing.T) {
	dir := t.TempDir()
	a := "package a\n\nimport \"testing\"\n\nfunc FuzzA(f *testing.F) {}\n\nfunc FuzzB(f *testing.F) {}\n"
	for name, text := range map[string]string{"go.mod": "module example.com/m\n\ngo 1.26\n", "a_test.go": a} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	if tg, err := ResolveOne(ctx, Config{Fuzz: "B", Dir: dir}, ""); err != nil || tg.String() != "example.com/m.FuzzB" {
		t.Errorf("ResolveOne(-fuzz=B) = %v, %v; want example.com/m.FuzzB", tg, err)
	}
	want := "-fuzz matches more than one fuzz test: [FuzzA FuzzB]"
	if _, err := ResolveOne(ctx, Config{Fuzz: "Fuzz", Dir: dir}, "."); err == nil || err.Error() != want {
		t.Errorf("ResolveOne(-fuzz=Fuzz) error = %v, want %q", err, want)
	}
	cache, err := corpusCacheDir("", dir, "FuzzA")
	if def, _ := DefaultCacheDir("example.com/m"); err != nil || cache != filepath.Join(def, "FuzzA") {
		t.Errorf("corpusCacheDir = %q, %v; want %q", cache, err, filepath.Join(def, "FuzzA"))
	}
}

// TestResolveStockBinary: a prebuilt test binary linked with the stock test
// main is refused with that reason, not a flag error from deep inside.
func TestResolveStockBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a test binary")
	}
	dir := targetsModule(t)
	bin := filepath.Join(t.TempDir(), "stock.test")
	cmd := exec.Command("go", "test", "-c", "-o", bin, ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test -c: %v\n%s", err, out)
	}
	_, err := Resolve(context.Background(), Config{Fuzz: "^FuzzPanic$", Binary: bin}, []string{dir})
	if err == nil || !strings.Contains(err.Error(), "is not a fuzzbox fuzzing binary") {
		t.Errorf("Resolve of a stock test binary: %v, want it refused as not a fuzzbox fuzzing binary", err)
	}
}

// TestListTagsFromGOFLAGS: without -tags, the -tags of GOFLAGS select the
// files, as for go test (an empty -tags flag overrode them).
func TestListTagsFromGOFLAGS(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":      "module example.com/m\n\ngo 1.26\n",
		"p/p.go":      "package p\n",
		"p/x_test.go": "//go:build special\n\npackage p\n\nimport \"testing\"\n\nfunc FuzzSpecial(f *testing.F) {}\n",
	}
	writeTestFiles(t, dir, files)
	for _, c := range []struct {
		goflags, tags string
		want          int
	}{
		{"-tags=special", "", 1},
		{"", "", 0},
		{"-tags=special", "other", 0},
	} {
		t.Setenv("GOFLAGS", c.goflags)
		pkgs, err := listPackages(context.Background(), filepath.Join(dir, "p"), []string{"."}, c.tags)
		if err != nil || len(pkgs) != 1 {
			t.Fatalf("listPackages: %v %v", pkgs, err)
		}
		if got := len(pkgs[0].XTestGoFiles) + len(pkgs[0].TestGoFiles); got != c.want {
			t.Errorf("GOFLAGS=%q -tags=%q: %d test files, want %d", c.goflags, c.tags, got, c.want)
		}
	}
}

// TestListingOutput: a listing that failed shows a crash whole (cut after
// listingLines), other output's first line, and the hint about a TestMain's
// arguments only for the latter, when none were given.
func TestListingOutput(t *testing.T) {
	long := "panic: boom\n\ngoroutine 1 [running]:\n" + strings.Repeat("main.f()\n\t/src/f.go:1\n", listingLines)
	for _, c := range []struct {
		stderr string
		hint   bool
		want   string
	}{
		{"need -config\nusage: ...\n", true, ": need -config (does a TestMain want flags or arguments? pass them after -args, as to go test)"},
		{"need -config\n", false, ": need -config"},
		{"panic: boom\n\ngoroutine 1 [running]:\nexample.com/p.init()\n\t/src/p.go:5 +0x1\n", true,
			":\npanic: boom\n\ngoroutine 1 [running]:\nexample.com/p.init()\n\t/src/p.go:5 +0x1"},
		{"fatal error: all goroutines are asleep - deadlock!\n", true, ":\nfatal error: all goroutines are asleep - deadlock!"},
		{long, true, ":\n" + strings.Join(strings.Split(strings.TrimSpace(long), "\n")[:listingLines], "\n") +
			fmt.Sprintf("\n[%d more lines]", 3+2*listingLines-listingLines)},
	} {
		if got := listingOutput(c.stderr, c.hint); got != c.want {
			t.Errorf("listingOutput(%q, %v) =\n%q, want\n%q", c.stderr, c.hint, got, c.want)
		}
	}
}
