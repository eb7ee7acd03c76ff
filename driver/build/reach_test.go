package build

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestUnreached: of a test binary's packages, those that only testing and
// fuzzbox's runtime import are left uninstrumented; those the package, its
// test files or a test helper import are not, nor the test packages
// themselves or packages skipped anyway. In fuzzbox's own builds what testing
// imports is reached as well.
func TestUnreached(t *testing.T) {
	deps := []listedDep{
		{ImportPath: "strconv"},
		{ImportPath: "os"},
		{ImportPath: "fmt", Imports: []string{"strconv", "os"}},
		{ImportPath: "regexp/syntax", Imports: []string{"strconv"}},
		{ImportPath: "regexp", Imports: []string{"regexp/syntax", "strings"}},
		{ImportPath: "strings"},
		{ImportPath: "flag", Imports: []string{"strconv"}},
		{ImportPath: "sync"},
		{ImportPath: "testing", Imports: []string{"flag", "fmt", "sync"}},
		{ImportPath: "runtime/debug"},
		{ImportPath: "github.com/fuzzbox/fuzzbox/engine/libfuzzer", Imports: []string{"os", "regexp", "runtime/debug"}},
		{ImportPath: "example.com/helper", Imports: []string{"testing", "encoding/hex"}},
		{ImportPath: "encoding/hex"},
		{ImportPath: "example.com/u [example.com/u.test]", Imports: []string{"fmt", "testing"}},
		{ImportPath: "example.com/u_test [example.com/u.test]", Imports: []string{"example.com/u [example.com/u.test]", "example.com/helper", "github.com/fuzzbox/fuzzbox/engine/libfuzzer", "strings", "testing"}},
		{ImportPath: "example.com/u.test", Imports: []string{"example.com/u_test [example.com/u.test]", "os", "testing"}},
	}
	want := []string{"flag", "regexp", "regexp/syntax", "runtime/debug"}
	if got := unreached(deps, "example.com/u", false); !slices.Equal(got, want) {
		t.Errorf("unreached = %q, want %q", got, want)
	}
	// fuzzbox's own builds: what testing imports is reached too.
	want = []string{"regexp", "regexp/syntax", "runtime/debug"}
	if got := unreached(deps, "example.com/u", true); !slices.Equal(got, want) {
		t.Errorf("unreached with testing's imports = %q, want %q", got, want)
	}
}

const reachTests = `package u

import (
	"strconv"
	"testing"
)

func FuzzAtoi(f *testing.F) {
	f.Add("76")
	f.Fuzz(func(t *testing.T, s string) {
		if n, err := strconv.Atoi(s); err == nil && n == 77 {
			t.Error("seventy-seven")
		}
	})
}
`

// TestLibFuzzerInstrumentsReachedOnly: in a libFuzzer binary, a package
// the code under test imports (strconv) calls the comparison hooks, one
// that only testing imports (fmt) calls none; the binary still finds the
// fuzz test's failure.
func TestLibFuzzerInstrumentsReachedOnly(t *testing.T) {
	needClang(t)
	bin := buildLibFuzzerTest(t, reachTests, "FuzzAtoi")
	if n := hookCalls(t, bin, `^strconv\.`); n == 0 {
		t.Errorf("strconv, which the fuzz test imports, calls no comparison hook: it is not instrumented")
	}
	if n := hookCalls(t, bin, `^fmt\.`); n != 0 {
		t.Errorf("fmt, which only testing imports, calls comparison hooks %d times: it is instrumented", n)
	}
	work := t.TempDir()
	in := filepath.Join(work, "in-77")
	if err := os.WriteFile(in, []byte("77"), 0o666); err != nil {
		t.Fatal(err)
	}
	if out, code := runBinary(t, bin, work, in); code == 0 || !strings.Contains(out, "seventy-seven") {
		t.Errorf("input 77: exit %d, want the fuzz test's failure:\n%s", code, tail(out))
	}
}

// hookCalls returns the number of calls of the runtime's comparison hooks
// in bin's functions that match the regexp sym.
func hookCalls(t *testing.T, bin, sym string) int {
	t.Helper()
	out, err := exec.Command("go", "tool", "objdump", "-s", sym, bin).Output()
	if err != nil {
		t.Fatalf("go tool objdump: %v", err)
	}
	if len(out) == 0 {
		t.Fatalf("go tool objdump -s %s: no such function in the binary", sym)
	}
	return strings.Count(string(out), "CALL runtime.libfuzzerTrace")
}

// TestBuildFlagsFile checks the build that starts with the flags a build
// before kept (Options.FlagsFile): a guess the listing confirms is built
// once; one it contradicts (here, the code under test left uninstrumented)
// is built again with the listed flags, which the file then keeps.
func TestBuildFlagsFile(t *testing.T) {
	opts := setup(t, map[string]string{"go.mod": goMod, "u.go": libSrc, "u_test.go": internalTests})
	opts.FlagsFile = filepath.Join(t.TempDir(), "flags")
	log := filepath.Join(t.TempDir(), "compile.log")
	t.Setenv(toolexecLogEnv, log)
	build := func(salt string) []string {
		t.Helper()
		// A new constant makes the package's compile results new to the cache.
		writeFiles(t, opts.Dir, map[string]string{"salt.go": fmt.Sprintf("package u\n\nconst salt = %q\n", salt+opts.Dir)})
		os.Remove(log)
		if _, err := Build(context.Background(), opts); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		var compiles []string // example.com/u's compiler command lines
		for _, line := range strings.Split(string(data), "\n") {
			if pkg, args, ok := strings.Cut(line, "\t"); ok && pkg == "example.com/u" {
				compiles = append(compiles, args)
			}
		}
		return compiles
	}
	readFlags := func() string {
		t.Helper()
		data, err := os.ReadFile(opts.FlagsFile)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}

	if got := build(t.Name() + "1"); len(got) != 1 || !strings.Contains(got[0], instrumentFlag) {
		t.Fatalf("first build compiled example.com/u %d times, want once, instrumented: %q", len(got), got)
	}
	listed := readFlags()
	if !strings.Contains(listed, "-gcflags=regexp="+noInstrumentMark+"\n") {
		t.Fatalf("flags file lacks regexp, which only testing's own dependencies import:\n%s", listed)
	}

	if got := build(t.Name() + "2"); len(got) != 1 {
		t.Errorf("build with the right flags kept compiled example.com/u %d times, want once", len(got))
	}

	wrong := "-gcflags=example.com/u=" + noInstrumentMark + "\n"
	if err := os.WriteFile(opts.FlagsFile, []byte(wrong), 0o666); err != nil {
		t.Fatal(err)
	}
	got := build(t.Name() + "3")
	if len(got) != 2 || strings.Contains(got[0], instrumentFlag) || !strings.Contains(got[1], instrumentFlag) {
		t.Errorf("build with a wrong guess: want example.com/u compiled uninstrumented, then again instrumented; got %q", got)
	}
	if again := readFlags(); again != listed {
		t.Errorf("after a wrong guess the flags file holds\n%s\nwant the listed\n%s", again, listed)
	}
}

// TestReachSharesTheStandardLibrary: fuzzbox's own builds of two fuzz tests
// whose code reaches different low-level packages (strings and not
// strconv, then strconv and not strings) compile the standard library with
// the same flags, so that the second finds all of it in the build cache.
// With the reach rule alone the second recompiled every package above the
// first difference (sync, io, reflect, fmt, os, testing, ...).
func TestReachSharesTheStandardLibrary(t *testing.T) {
	const fuzzTest = "package u\n\nimport \"testing\"\n\nfunc FuzzCheck(f *testing.F) { f.Fuzz(func(t *testing.T, s string) { Check(s) }) }\n"
	var flags []string
	for _, use := range []string{`"strings"` + "\n\nfunc Check(s string) string { return strings.ToUpper(s) }",
		`"strconv"` + "\n\nfunc Check(s string) string { return strconv.Quote(s) }"} {
		opts := setup(t, map[string]string{"go.mod": goMod, "u.go": "package u\n\nimport " + use + "\n", "u_test.go": fuzzTest})
		opts.FlagsFile = filepath.Join(t.TempDir(), "flags")
		if _, err := Build(context.Background(), opts); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(opts.FlagsFile)
		if err != nil {
			t.Fatal(err)
		}
		flags = append(flags, string(data))
	}
	if flags[0] != flags[1] {
		t.Errorf("the standard library compiled two ways:\nstrings:\n%s\nstrconv:\n%s", flags[0], flags[1])
	}
	if !strings.Contains(flags[0], "-gcflags=regexp="+noInstrumentMark+"\n") {
		t.Errorf("regexp, which only testing's own dependencies import, is instrumented:\n%s", flags[0])
	}
}
