package build

import (
	"bufio"
	"context"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The tests build real binaries with Build. The test binary itself plays
// "fuzzbox toolexec" (see TestMain), and the runtime module is the fake in
// testdata/fakeruntime, which does not depend on the engine being complete.
//
// The first run compiles the standard library with -d=libfuzzer; later runs
// (and later builds in the same run) come from the go build cache.

const (
	toolexecEnv    = "FUZZBOX_BUILD_TEST_TOOLEXEC"     // "1": act as fuzzbox toolexec
	toolexecLogEnv = "FUZZBOX_BUILD_TEST_TOOLEXEC_LOG" // file to log compiler runs to
	echoExitEnv    = "FUZZBOX_BUILD_TEST_ECHO_EXIT"    // act as a tool: echo stdin, exit with this code
	groupChildEnv  = "FUZZBOX_BUILD_TEST_GROUP_CHILD"  // start a command in a group of its own, write its pid to this file, wait
)

func TestMain(m *testing.M) {
	if code := os.Getenv(echoExitEnv); code != "" {
		// A stand-in tool: copy stdin to stdout, exit with the given code.
		io.Copy(os.Stdout, os.Stdin)
		n, _ := strconv.Atoi(code)
		os.Exit(n)
	}
	if pidFile := os.Getenv(groupChildEnv); pidFile != "" {
		// Starts a long command as builds are started, then waits to be
		// killed (TestBuildDiesWithFuzzbox).
		cmd := exec.Command("sleep", "120")
		cmd.SysProcAttr = newGroup()
		if err := cmd.Start(); err != nil {
			os.Exit(3)
		}
		os.WriteFile(pidFile, []byte(strconv.Itoa(cmd.Process.Pid)), 0o644)
		select {}
	}
	if os.Getenv(toolexecEnv) == "1" {
		args := os.Args[1:]
		logCompile(args)
		os.Exit(Toolexec(args, os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// logCompile appends "<-p value> <final args>" for a compiler run to the log
// file named by toolexecLogEnv, so tests can see what was compiled and how.
func logCompile(args []string) {
	name := os.Getenv(toolexecLogEnv)
	if name == "" || len(args) < 2 || toolName(args[0]) != "compile" || args[1] == "-V=full" {
		return
	}
	final, err := compileArgs(args)
	if err != nil {
		return // Toolexec reports it
	}
	final, _, _ = expandResponseFiles(final)
	f, err := os.OpenFile(name, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o666)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "%s\t%s\n", flagValue(final, "-p"), strings.Join(final[1:], " "))
}

// setup points Build at the fake runtime and this binary as toolexec, and
// returns the options for building pkg in a module made of files.
func setup(t *testing.T, files map[string]string) Options {
	t.Helper()
	fake, err := filepath.Abs(filepath.Join("testdata", "fakeruntime"))
	if err != nil {
		t.Fatal(err)
	}
	old := runtimeDirOverride
	runtimeDirOverride = fake
	t.Cleanup(func() { runtimeDirOverride = old })
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(toolexecEnv, "1")
	dir := t.TempDir()
	writeFiles(t, dir, files)
	return Options{Dir: dir, Out: filepath.Join(t.TempDir(), "pkg.test"), Toolexec: []string{self}}
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o666); err != nil {
			t.Fatal(err)
		}
	}
}

// runBinary runs the built test binary in dir and returns its combined
// output and exit code.
func runBinary(t *testing.T, bin, dir string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return string(out), exit.ExitCode()
	}
	if err != nil {
		t.Fatalf("running %s: %v", bin, err)
	}
	return string(out), 0
}

// goMod is an old go line on purpose: the runtime module's newer language
// version must not leak into the user's module (see runtimeGoMod).
const goMod = "module example.com/u\n\ngo 1.21\n"

const libSrc = `package u

// Check is the code under test.
func Check(s string) bool { return s == "tomatos" }
`

const internalTests = `package u

import "testing"

func TestCheck(t *testing.T) {
	if Check("x") {
		t.Fatal("Check(x)")
	}
}

func FuzzCheck(f *testing.F) {
	f.Add("seed")
	f.Fuzz(func(t *testing.T, s string) { Check(s) })
}
`

func TestBuildTestsAndFuzzTargets(t *testing.T) {
	opts := setup(t, map[string]string{"go.mod": goMod, "u.go": libSrc, "u_test.go": internalTests})
	res, err := Build(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.ImportPath != "example.com/u" || res.PkgDir != opts.Dir || res.Binary != opts.Out {
		t.Errorf("Result = %+v, want example.com/u in %s at %s", res, opts.Dir, opts.Out)
	}
	out, code := runBinary(t, res.Binary, opts.Dir, "-test.run=.", "-test.v")
	for _, want := range []string{
		"fakefuzzmain: importPath=example.com/u modulePath=example.com/u",
		"--- PASS: TestCheck",
		"--- PASS: FuzzCheck",
		"--- PASS: FuzzCheck/seed#0",
	} {
		if !strings.Contains(out, want) || code != 0 {
			t.Errorf("binary exit %d, output lacks %q:\n%s", code, want, out)
		}
	}
	if n := counterCount(t, out); n == 0 {
		t.Errorf("binary has no edge counters: nothing was compiled with -d=libfuzzer")
	}
	// The user's module is untouched.
	checkSymbols(t, res.Binary)
	checkNoDWARF(t, res.Binary)
	if data, _ := os.ReadFile(filepath.Join(opts.Dir, "go.mod")); string(data) != goMod {
		t.Errorf("go.mod changed:\n%s", data)
	}
	if _, err := os.Stat(filepath.Join(opts.Dir, xtestFile)); err == nil {
		t.Errorf("%s was written to the package directory", xtestFile)
	}
}

var countersRE = regexp.MustCompile(`fakefuzzmain: .* counters=(\d+)`)

func counterCount(t *testing.T, out string) int {
	t.Helper()
	m := countersRE.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("fake fuzzmain did not run:\n%s", out)
	}
	var n int
	fmt.Sscan(m[1], &n)
	return n
}

// checkSymbols checks what bin links: nothing of testing/internal/testdeps
// or internal/fuzz except the counter bounds the linker defines
// (internal/fuzz._counters, _ecounters), whatever links.
func checkSymbols(t *testing.T, bin string) {
	t.Helper()
	out, err := exec.Command("go", "tool", "nm", bin).CombinedOutput()
	if err != nil {
		t.Fatalf("go tool nm: %v\n%s", err, out)
	}
	allowed := map[string]bool{"internal/fuzz._counters": true, "internal/fuzz._ecounters": true}
	sawCounters, sawUser := false, false
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 3 {
			continue
		}
		sym := f[len(f)-1]
		switch {
		case allowed[sym]:
			sawCounters = true
		case strings.Contains(sym, "testing/internal/testdeps"), strings.HasPrefix(sym, "internal/fuzz."):
			t.Errorf("binary links %s", sym)
		case sym == "example.com/u.TestCheck":
			sawUser = true
		}
	}
	if !sawCounters || !sawUser {
		t.Errorf("nm shows counters %v, example.com/u.TestCheck %v; want both", sawCounters, sawUser)
	}
}

// checkNoDWARF checks that bin was linked without DWARF (-w), as go test
// links a binary it runs and removes; its symbol table stays
// (checkSymbols).
func checkNoDWARF(t *testing.T, bin string) {
	t.Helper()
	f, err := elf.Open(bin)
	if err != nil {
		t.Skipf("not an ELF binary: %v", err)
	}
	defer f.Close()
	for _, s := range f.Sections {
		if strings.HasPrefix(s.Name, ".debug_") || strings.HasPrefix(s.Name, ".zdebug_") {
			t.Errorf("binary has DWARF section %s: the link was not told -w", s.Name)
		}
	}
}

// TestBuildInstrumentation checks which packages get -d=libfuzzer, from the
// compiler command lines Toolexec produced, and that a second build of the
// same package compiles nothing (the build cache).
func TestBuildInstrumentation(t *testing.T) {
	opts := setup(t, map[string]string{"go.mod": goMod, "u.go": libSrc, "u_test.go": internalTests})
	log := filepath.Join(t.TempDir(), "compile.log")
	t.Setenv(toolexecLogEnv, log)
	// Make the package's own compile results new to the cache.
	writeFiles(t, opts.Dir, map[string]string{"salt.go": fmt.Sprintf("package u\n\nconst salt = %q\n", t.Name()+opts.Dir)})
	if _, err := Build(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	compiled := readLog(t, log)
	for pkg, wantInstrumented := range map[string]bool{
		"example.com/u":      true,
		"example.com/u_test": true,
	} {
		args, ok := compiled[pkg]
		if !ok {
			t.Errorf("%s was not compiled; compiled: %v", pkg, keys(compiled))
			continue
		}
		if got := strings.Contains(args, instrumentFlag); got != wantInstrumented {
			t.Errorf("%s compiled with %s: %v, want %v\n%s", pkg, instrumentFlag, got, wantInstrumented, args)
		}
	}
	for pkg, args := range compiled {
		if (IsRuntimePackage(pkg) || skipInstrumentation[pkg]) && strings.Contains(args, instrumentFlag) {
			t.Errorf("%s is instrumented: %s", pkg, args)
		}
		if IsRuntimePackage(pkg) && !strings.Contains(args, "-lang="+runtimeLang) {
			t.Errorf("runtime package %s not compiled with -lang=%s: %s", pkg, runtimeLang, args)
		}
		if pkg == "example.com/u" && !strings.Contains(args, "-lang=go1.21") {
			t.Errorf("user package not compiled with its own -lang=go1.21: %s", args)
		}
	}
	if err := os.Remove(log); err != nil {
		t.Fatal(err)
	}
	if _, err := Build(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if again := readLog(t, log); len(again) != 0 {
		t.Errorf("second build compiled %v; want everything from the build cache", keys(again))
	}
}

// readLog returns the logged compiler command lines by package.
func readLog(t *testing.T, name string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(name)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if pkg, args, ok := strings.Cut(line, "\t"); ok {
			m[pkg] = args
		}
	}
	return m
}

func keys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

func TestBuildPackageShapes(t *testing.T) {
	tests := []struct {
		desc     string
		files    map[string]string
		tags     string
		wantCode int
		want     []string
	}{{
		desc: "TestMain returning without os.Exit keeps the exit code",
		files: map[string]string{"u.go": libSrc, "u_test.go": `package u

import (
	"fmt"
	"testing"
)

func TestMain(m *testing.M) {
	fmt.Println("custom TestMain ran")
	m.Run()
}

func TestFails(t *testing.T) { t.Fatal("failing on purpose") }
`},
		wantCode: 1,
		want:     []string{"custom TestMain ran", "--- FAIL: TestFails", "fakefuzzmain: importPath=example.com/u "},
	}, {
		desc: "external tests only",
		files: map[string]string{"u.go": libSrc, "x_test.go": `package u_test

import (
	"testing"

	"example.com/u"
)

func FuzzExternal(f *testing.F) {
	f.Add("a")
	f.Fuzz(func(t *testing.T, s string) { u.Check(s) })
}
`},
		want: []string{"--- PASS: FuzzExternal", "fakefuzzmain: importPath=example.com/u "},
	}, {
		desc:  "no test files",
		files: map[string]string{"u.go": libSrc},
		want:  []string{"testing: warning: no tests to run", "fakefuzzmain: importPath=example.com/u "},
	}, {
		desc: "package main",
		files: map[string]string{"main.go": "package main\n\nfunc main() {}\n\nfunc double(n int) int { return 2 * n }\n",
			"main_test.go": `package main

import "testing"

func TestDouble(t *testing.T) {
	if double(2) != 4 {
		t.Fatal("double")
	}
}
`},
		want: []string{"--- PASS: TestDouble", "fakefuzzmain: importPath=example.com/u "},
	}, {
		desc: "build tags",
		files: map[string]string{"u.go": libSrc,
			"tag_test.go": "//go:build fuzzboxtag\n\npackage u\n\nimport \"testing\"\n\nfunc TestTagged(t *testing.T) {}\n"},
		tags: "fuzzboxtag",
		want: []string{"--- PASS: TestTagged"},
	}, {
		// The go command would use -mod=vendor, and vendor/modules.txt does
		// not list the runtime module.
		desc:  "vendor directory",
		files: map[string]string{"u.go": libSrc, "u_test.go": internalTests, "vendor/modules.txt": ""},
		want:  []string{"--- PASS: TestCheck"},
	}, {
		// -modfile does not work in workspace mode; Build turns GOWORK off.
		desc:  "workspace",
		files: map[string]string{"u.go": libSrc, "u_test.go": internalTests, "go.work": "go 1.21\n\nuse .\n"},
		want:  []string{"--- PASS: TestCheck"},
	}}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			tt.files["go.mod"] = goMod
			opts := setup(t, tt.files)
			opts.Tags = tt.tags
			res, err := Build(context.Background(), opts)
			if err != nil {
				t.Fatal(err)
			}
			out, code := runBinary(t, res.Binary, opts.Dir, "-test.v")
			if code != tt.wantCode {
				t.Errorf("exit code %d, want %d\n%s", code, tt.wantCode, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestBuildStandardPackage: go test -fuzz fuzzes standard library packages
// from anywhere, with or without a module; so does fuzzbox, from a scratch
// module (there is no go.mod of theirs to add the runtime to).
func TestBuildStandardPackage(t *testing.T) {
	for _, inModule := range []bool{false, true} {
		files := map[string]string{}
		if inModule {
			files = map[string]string{"go.mod": goMod, "u.go": libSrc}
		}
		opts := setup(t, files)
		opts.Package = "encoding/csv"
		res, err := Build(context.Background(), opts)
		if err != nil {
			t.Fatalf("in a module: %v: %v", inModule, err)
		}
		if res.ImportPath != "encoding/csv" || !strings.HasSuffix(res.PkgDir, filepath.Join("src", "encoding", "csv")) {
			t.Errorf("Result = %+v, want encoding/csv in GOROOT", res)
		}
		out, code := runBinary(t, res.Binary, res.PkgDir, "-test.run=^FuzzRoundtrip$", "-test.v")
		if code != 0 || !strings.Contains(out, "--- PASS: FuzzRoundtrip") || !strings.Contains(out, "fakefuzzmain: importPath=encoding/csv ") {
			t.Errorf("in a module: %v: binary exit %d:\n%s", inModule, code, out)
		}
		if counterCount(t, out) == 0 {
			t.Errorf("encoding/csv has no edge counters: it was not compiled with -d=libfuzzer")
		}
	}
}

// TestBuildInternalFuzz: the tests of internal/fuzz link it, and with it
// its own comparison hooks and its declaration of the counters' bounds,
// which clashed with fuzzbox's real runtime (duplicated definition of
// runtime.libfuzzerTraceCmp1; invalid reference to internal/fuzz._counters).
func TestBuildInternalFuzz(t *testing.T) {
	if testing.Short() {
		t.Skip("builds internal/fuzz's tests with the real runtime (-short)")
	}
	opts := setup(t, nil)
	runtimeDirOverride = "" // the real, embedded runtime
	opts.Package = "internal/fuzz"
	res, err := Build(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	out, code := runBinary(t, res.Binary, res.PkgDir, "-test.run=^FuzzStringRoundTrip$", "-test.v")
	if code != 0 || !strings.Contains(out, "--- PASS: FuzzStringRoundTrip") {
		t.Errorf("binary exit %d:\n%s", code, out)
	}
}

// TestBuildInterrupted: a build stopped while the go command runs a tool is
// "interrupted", not "package does not build" (the user's code is fine),
// and returns once the go command exits (SIGINT, then a kill after
// cancelWait).
func TestBuildInterrupted(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses sh")
	}
	opts := setup(t, map[string]string{"go.mod": goMod, "u.go": libSrc, "u_test.go": internalTests})
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // where the go command's work directory would go
	t.Setenv("GOTMPDIR", "")
	started, toolPID := filepath.Join(t.TempDir(), "started"), filepath.Join(t.TempDir(), "pid")
	// The go command asks every tool for its version through toolexec
	// first: this one says it started, then takes its time.
	opts.Toolexec = []string{"sh", "-c", "echo $$ > " + toolPID + "; touch " + started + "; exec sleep 60", "toolexec"}
	defer func(d time.Duration) { cancelWait = d }(cancelWait)
	cancelWait = 200 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for {
			if _, err := os.Stat(started); err == nil {
				cancel()
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	_, err := Build(ctx, opts)
	if !errors.Is(err, context.Canceled) || errors.Is(err, ErrNotBuilt) || strings.Contains(fmt.Sprint(err), "does not build") {
		t.Errorf("Build stopped while the go command ran a tool: %v, want an interruption, not \"package does not build\"", err)
	}
	// It names the package's directory, not "." (the soak's "build of . interrupted").
	if want := "build of " + opts.Dir + " interrupted"; !strings.Contains(fmt.Sprint(err), want) {
		t.Errorf("error %q does not say %q", err, want)
	}
	// The tool got the interrupt too, and nothing of the build is left.
	pid, err := os.ReadFile(toolPID)
	if err != nil {
		t.Fatal(err)
	}
	for tries := 0; hasProc() && processAlive(strings.TrimSpace(string(pid))); tries++ {
		if tries == 100 {
			t.Fatalf("the tool the go command ran (pid %s) still runs after the build was stopped", pid)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("the stopped build left %v in the temporary directory", left)
	}
}

// hasProc reports whether the system has /proc, where processAlive looks.
func hasProc() bool {
	_, err := os.Stat("/proc/self/stat")
	return err == nil
}

// processAlive reports whether the process pid is there and not a zombie.
func processAlive(pid string) bool {
	stat, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return false
	}
	_, rest, _ := strings.Cut(string(stat), ") ")
	return !strings.HasPrefix(rest, "Z")
}

func TestBuildErrors(t *testing.T) {
	tests := []struct {
		desc       string
		files      map[string]string
		pkg        string
		wantErr    string // regexp
		wantStderr string // substring of the go command's output
		setup      bool   // the error is ErrSetupFailed: the output has go test's FAIL line, and no bare FAIL
	}{{
		desc:       "compile error",
		files:      map[string]string{"u.go": "package u\n\nfunc F() int { return undefinedThing }\n"},
		wantErr:    `^package does not build: .*undefined: undefinedThing$`,
		wantStderr: "undefined: undefinedThing",
	}, {
		desc:    "no such package",
		files:   map[string]string{"u.go": libSrc},
		pkg:     "./nope",
		wantErr: `^package does not build: .*nope`,
	}, {
		desc: "an import no file of which builds",
		files: map[string]string{"u.go": libSrc, "c/c.go": "//go:build never\n\npackage c\n",
			"u_test.go": "package u\n\nimport (\n\t\"testing\"\n\n\t_ \"example.com/u/c\"\n)\n\nfunc TestU(t *testing.T) {}\n"},
		wantErr:    `^package does not build: package example\.com/u \(test\) imports example\.com/u/c: build constraints exclude all Go files in \S+$`,
		wantStderr: "FAIL\texample.com/u [setup failed]",
		setup:      true,
	}, {
		desc:    "several packages",
		files:   map[string]string{"u.go": libSrc, "v/v.go": "package v\n"},
		pkg:     "./...",
		wantErr: `matches 2 packages`,
	}}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			tt.files["go.mod"] = goMod
			opts := setup(t, tt.files)
			opts.Package = tt.pkg
			var stderr strings.Builder
			opts.Stderr = &stderr
			_, err := Build(context.Background(), opts)
			if err == nil {
				t.Fatal("Build succeeded")
			}
			t.Logf("error: %v", err)
			if !regexp.MustCompile(tt.wantErr).MatchString(err.Error()) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q, want one line matching %q", err, tt.wantErr)
			}
			if !strings.Contains(stderr.String(), tt.wantStderr) {
				t.Errorf("stderr lacks %q:\n%s", tt.wantStderr, stderr.String())
			}
			if errors.Is(err, ErrSetupFailed) != tt.setup || strings.Contains(stderr.String(), "\nFAIL\n") {
				t.Errorf("ErrSetupFailed %v, want %v; a bare FAIL line is left out:\n%s", errors.Is(err, ErrSetupFailed), tt.setup, stderr.String())
			}
		})
	}
}

// TestBuildTagsFromGOFLAGS: without Options.Tags the build uses the -tags of
// GOFLAGS, as go test does (its own -tags=fuzzbox overrode them); given
// Options.Tags, those alone, as go test -tags, in either of its forms.
func TestBuildTagsFromGOFLAGS(t *testing.T) {
	opts := setup(t, map[string]string{
		"go.mod":      goMod,
		"u.go":        libSrc,
		"tag_test.go": "//go:build special\n\npackage u\n\nimport \"testing\"\n\nfunc TestSpecial(t *testing.T) {}\n",
	})
	for _, c := range []struct {
		goflags, tags string
		want          bool
	}{
		{"-buildvcs=false -tags=special", "", true},
		{"", "", false},
		{"-tags=special", "other", false},
		{"", "other special", true}, // the deprecated space-separated form, as go test takes it
	} {
		t.Setenv("GOFLAGS", c.goflags)
		opts.Tags = c.tags
		res, err := Build(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		out, _ := runBinary(t, res.Binary, opts.Dir, "-test.run=TestSpecial", "-test.v")
		if got := strings.Contains(out, "--- PASS: TestSpecial"); got != c.want {
			t.Errorf("GOFLAGS=%q, Tags=%q: TestSpecial ran: %v, want %v:\n%s", c.goflags, c.tags, got, c.want, out)
		}
	}
}

// TestBuildModFileFromGOFLAGS: GOFLAGS's -modfile picks the go.mod the
// build copies, as go test reads it (the build's own -modfile overrode it:
// the package was built and fuzzed against the main go.mod's requirements).
func TestBuildModFileFromGOFLAGS(t *testing.T) {
	mod := func(dep string) string {
		return "module example.com/u\n\ngo 1.21\n\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => ./" + dep + "\n"
	}
	dep := func(v string) string { return "package dep\n\nconst V = \"" + v + "\"\n" }
	opts := setup(t, map[string]string{
		"go.mod":      mod("dep0"),
		"alt.go.mod":  mod("dep1"),
		"u.go":        libSrc,
		"dep0/go.mod": "module example.com/dep\n\ngo 1.21\n", "dep0/dep.go": dep("zero"),
		"dep1/go.mod": "module example.com/dep\n\ngo 1.21\n", "dep1/dep.go": dep("one"),
		"dep_test.go": "package u\n\nimport (\n\t\"testing\"\n\n\t\"example.com/dep\"\n)\n\nfunc TestDep(t *testing.T) { t.Log(\"dep is \" + dep.V) }\n",
	})
	for goflags, want := range map[string]string{"": "dep is zero", "-modfile=alt.go.mod": "dep is one"} {
		t.Setenv("GOFLAGS", goflags)
		res, err := Build(context.Background(), opts)
		if err != nil {
			t.Fatalf("GOFLAGS=%q: %v", goflags, err)
		}
		if out, _ := runBinary(t, res.Binary, opts.Dir, "-test.run=TestDep", "-test.v"); !strings.Contains(out, want) {
			t.Errorf("GOFLAGS=%q: want %q:\n%s", goflags, want, out)
		}
	}
}

// TestBuildVet: the build runs the vet checks go test runs, so a package go
// test refuses for them is refused (it had been fuzzed, and its reproducers'
// "go test -run=…" then failed to build); Vet "off", or GOFLAGS=-vet=off, as
// go test, builds it. The runtime's packages, vetted for facts at their
// module's old go line, must not fail (vetArgs).
func TestBuildVet(t *testing.T) {
	opts := setup(t, map[string]string{
		"go.mod":       goMod,
		"u.go":         libSrc,
		"vet_test.go":  "package u\n\nimport \"testing\"\n\nfunc TestLog(t *testing.T) { t.Logf(\"%d\", \"not a number\") }\n",
		"fuzz_test.go": "package u\n\nimport \"testing\"\n\nfunc FuzzU(f *testing.F) { f.Fuzz(func(t *testing.T, b []byte) {}) }\n",
	})
	runtimeDirOverride = "" // the real, embedded runtime, with its old go line
	var stderr strings.Builder
	opts.Stderr = &stderr
	_, err := Build(context.Background(), opts)
	if err == nil || !strings.Contains(err.Error(), "wrong type string") {
		t.Errorf("Build = %v, want vet's printf report", err)
	}
	if strings.Contains(stderr.String(), "fuzzbox/fuzzbox") {
		t.Errorf("vet reported on the runtime's packages:\n%s", stderr.String())
	}
	opts.Vet = "off"
	if _, err := Build(context.Background(), opts); err != nil {
		t.Errorf("Build with Vet off: %v", err)
	}
	opts.Vet = ""
	t.Setenv("GOFLAGS", "-vet=off")
	if _, err := Build(context.Background(), opts); err != nil {
		t.Errorf("Build with GOFLAGS=-vet=off: %v", err)
	}
	t.Setenv("GOFLAGS", "")
	opts.Vet = "atomic" // checks chosen without printf
	if _, err := Build(context.Background(), opts); err != nil {
		t.Errorf("Build with Vet atomic: %v", err)
	}
}

// TestFromCwd: the go command's output, run in a package's directory,
// names its files from the current directory, as go test's does.
func TestFromCwd(t *testing.T) {
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	out := "# example.com/be/p [example.com/be/p.test]\n./c.go:3:13: cannot use \"s\"\n\t./d.go:1:1: more\nFAIL\n"
	want := "# example.com/be/p [example.com/be/p.test]\ntestdata/p/c.go:3:13: cannot use \"s\"\n\ttestdata/p/d.go:1:1: more\nFAIL\n"
	if got := string(fromCwd([]byte(out), filepath.Join(cwd, "testdata", "p"))); got != want {
		t.Errorf("fromCwd:\n%s\nwant:\n%s", got, want)
	}
	if got := string(fromCwd([]byte(out), cwd)); got != out {
		t.Errorf("fromCwd in the current directory changed the output:\n%s", got)
	}
}
