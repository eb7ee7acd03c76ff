package build

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fuzzbox/fuzzbox/corpus"
)

func TestFuzzTestNamesAndLiterals(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a_test.go": `package u

import "testing"

func FuzzA(f *testing.F)          { f.Fuzz(func(t *testing.T, s string) { _ = s == "magic" }) }
func Fuzzlower(f *testing.F)      {}
func FuzzB(t *testing.T)          {}
func Fuzz(f *testing.F)           {}
func helperFuzz(f *testing.F)     {}
func FuzzTwo(a, b *testing.F)     {}
func (x T) FuzzMethod(f *testing.F) {}

type T int
`})
	names, err := fuzzTestNames(dir, []string{"a_test.go"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"FuzzA", "Fuzz"}; !slices.Equal(names, want) {
		t.Errorf("fuzz tests = %v, want %v", names, want)
	}
	toks := SourceLiterals(dir, []string{"a_test.go", "missing.go"})
	if len(toks) != 1 || string(toks[0]) != "magic" {
		t.Errorf("source literals = %q, want only magic (not the import path)", toks)
	}
}

// TestListFuzzTestsTags: a fuzz test in a file with a build constraint is
// listed with its tag, and an error that finds none says which test files
// the constraints exclude.
func TestListFuzzTestsTags(t *testing.T) {
	opts := setup(t, map[string]string{"go.mod": goMod, "u.go": libSrc,
		"a_test.go": "package u\n\nimport \"testing\"\n\nfunc FuzzPlain(f *testing.F) { f.Fuzz(func(t *testing.T, b []byte) {}) }\n",
		"b_test.go": "//go:build mytag\n\npackage u\n\nimport \"testing\"\n\nfunc FuzzTagged(f *testing.F) { f.Fuzz(func(t *testing.T, b []byte) {}) }\n"})
	g := goCmd{dir: opts.Dir, env: append(os.Environ(), "GOWORK=off")}
	ctx := context.Background()
	if _, names, err := g.listFuzzTests(ctx, ".", withTags("libfuzzer", "mytag"), ""); err != nil || !slices.Equal(names, []string{"FuzzPlain", "FuzzTagged"}) {
		t.Errorf("with -tags=mytag: %v, %v; want FuzzPlain and FuzzTagged", names, err)
	}
	_, _, err := g.listFuzzTests(ctx, ".", "libfuzzer", "^FuzzTagged$")
	if err == nil || !strings.Contains(err.Error(), "(fuzz tests: FuzzPlain); build constraints exclude b_test.go: does a fuzz test need -tags?") {
		t.Errorf("without the tag: err = %v, want one naming b_test.go", err)
	}
}

func TestLibFuzzerXtestSource(t *testing.T) {
	src := string(libFuzzerXtestSource("u"))
	if !strings.Contains(src, `"`+libFuzzerPath+`"`) || !strings.Contains(src, "libfuzzer.MainStart(") || strings.Contains(src, "fuzzmain") {
		t.Errorf("libFuzzer test main hook does not call engine/libfuzzer:\n%s", src)
	}
}

// libFuzzerTests is a fuzz test with a multi-argument planted bug, two
// f.Add seeds and (below) one testdata seed, and one that reads a file of
// its package before fuzzing.
const libFuzzerTests = `package u

import (
	"os"
	"testing"
)

func FuzzPair(f *testing.F) {
	f.Add("key", 7, []byte("value"))
	f.Add("other", -1, []byte{})
	f.Fuzz(func(t *testing.T, s string, n int, b []byte) {
		if s == "boom" && n == 3 && len(b) == 2 {
			t.Fatalf("planted: %q %d %q", s, n, b)
		}
	})
}

func FuzzOther(f *testing.F) {
	if _, err := os.ReadFile("testdata/words.txt"); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, b []byte) {})
}
`

// TestBuildLibFuzzer builds a real libFuzzer binary with clang and the real
// runtime, checks the files beside it, runs the seeds and lets libFuzzer
// find the planted bug.
func TestBuildLibFuzzer(t *testing.T) {
	needClang(t)
	opts := setup(t, map[string]string{"go.mod": goMod, "u.go": libSrc, "u_test.go": libFuzzerTests,
		"testdata/fuzz/FuzzPair/one": "go test fuzz v1\nstring(\"x\")\nint(1)\n[]byte(\"y\")\n",
		"testdata/words.txt":         "boom\n"})
	runtimeDirOverride = "" // the real, embedded runtime
	lo := LibFuzzerOptions{Dir: opts.Dir, OutDir: t.TempDir(), Fuzz: "^FuzzPair$", Toolexec: opts.Toolexec}
	var stderr strings.Builder
	lo.Stderr = &stderr
	bad := lo
	bad.Fuzz = "^Nope$"
	if _, err := BuildLibFuzzer(context.Background(), bad); err == nil || !strings.Contains(err.Error(), "fuzz tests: FuzzPair, FuzzOther") {
		t.Errorf("-fuzz matching nothing: err = %v, want one listing the fuzz tests", err)
	}
	targets, err := BuildLibFuzzer(context.Background(), lo)
	if err != nil {
		t.Fatalf("BuildLibFuzzer: %v\n%s", err, stderr.String())
	}
	if len(targets) != 1 || targets[0].Name != "FuzzPair" || targets[0].Seeds != 3 {
		t.Fatalf("targets = %+v, want FuzzPair with 3 seeds", targets)
	}
	tg := targets[0]
	if tg.Warning != "" {
		t.Errorf("FuzzPair: warning %q, want none", tg.Warning)
	}
	other := lo
	other.Fuzz = "^FuzzOther$"
	if targets, err := BuildLibFuzzer(context.Background(), other); err != nil || len(targets) != 1 || !strings.Contains(targets[0].Warning, "outside its package directory") || !strings.Contains(targets[0].Warning, "open testdata/words.txt: no such file") {
		t.Errorf("FuzzOther, which reads testdata/words.txt: %+v, %v; want a warning that names the file", targets, err)
	}
	checkZip(t, tg.SeedZip, []string{"seed-0", "seed-1", "testdata-one"})
	checkFileHas(t, tg.Dict, `"boom"`)
	checkFileHas(t, tg.Options, "dict = FuzzPair.dict")
	if opts, _ := os.ReadFile(tg.Options); bytes.Contains(opts, []byte("use_value_profile")) {
		t.Errorf("%s turns value profiling on (it found the text parsers' bugs later):\n%s", tg.Options, opts)
	}
	seeds := filepath.Join(t.TempDir(), "seeds")
	unzip(t, tg.SeedZip, seeds)
	for name, vals := range map[string][]any{"seed-1": {"other", -1, []byte{}}, "testdata-one": {"x", 1, []byte("y")}} {
		want, err := corpus.EncodeLibFuzzer(vals)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(filepath.Join(seeds, name)); !bytes.Equal(got, want) {
			t.Errorf("seed %s holds %q, want %q (the encoding of %v)", name, got, want, vals)
		}
	}
	if out, code := runBinary(t, tg.Binary, t.TempDir(), filepath.Join(seeds, "seed-0"), filepath.Join(seeds, "seed-1"), filepath.Join(seeds, "testdata-one")); code != 0 {
		t.Fatalf("seeds do not run cleanly (exit %d):\n%s", code, out)
	}
	work := t.TempDir()
	out, code := runBinary(t, tg.Binary, work, "-runs=2000000", "-seed=1", "-use_value_profile=1", "-dict="+tg.Dict, seeds)
	crashes, _ := filepath.Glob(filepath.Join(work, "crash-*"))
	if code == 0 || len(crashes) != 1 || !strings.Contains(out, "planted: \"boom\" 3") {
		t.Fatalf("libFuzzer did not find the planted bug (exit %d, crashes %v):\n%s", code, crashes, tail(out))
	}
}

// handOffTests has inputs of two speeds: the even-length ones outlast the
// engine thread's spin (engine/libfuzzer/handoff.go), so that it sleeps for
// their verdict, the others are verdicts it spins for. The fuzzing run is
// kept to inputs of at most 4 bytes, which cannot fail or hang ("hangs").
const handOffTests = `package u

import (
	"testing"
	"time"
)

func FuzzMixed(f *testing.F) {
	f.Add([]byte("seed"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b)%2 == 0 {
			time.Sleep(300 * time.Microsecond)
		}
		if len(b) == 5 && string(b[:3]) == "bug" {
			t.Fatalf("planted %q", b)
		}
		if string(b) == "hangs" {
			hangHere()
		}
	})
}

func hangHere() { time.Sleep(time.Hour) }
`

// TestLibFuzzerHandOff: inputs that the engine's thread spins for and inputs
// it sleeps for, interleaved, all get their verdict (a lost wake-up would be
// a libFuzzer timeout), and a failing input fails as itself.
func TestLibFuzzerHandOff(t *testing.T) {
	needClang(t)
	bin := buildLibFuzzerTest(t, handOffTests, "FuzzMixed")
	work := t.TempDir()
	out, code := runBinary(t, bin, work, "-runs=4000", "-seed=7", "-max_len=4", "-timeout=5")
	if code != 0 || !strings.Contains(out, "Done 4000 runs") {
		t.Fatalf("4000 runs of fast and slow inputs: exit %d:\n%s", code, tail(out))
	}
	for _, tc := range []struct {
		in   string
		fail bool
	}{{"bugXY", true}, {"bugX", false}, {"bugXYZ", false}, {"bugZZ", true}} {
		data, err := corpus.EncodeLibFuzzer([]any{[]byte(tc.in)})
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(work, "in-"+tc.in)
		if err := os.WriteFile(file, data, 0o666); err != nil {
			t.Fatal(err)
		}
		out, code := runBinary(t, bin, work, file)
		if failed := code != 0 && strings.Contains(out, "planted \""+tc.in+"\""); failed != tc.fail || (!tc.fail && code != 0) {
			t.Errorf("input %q: exit %d, want failure %v:\n%s", tc.in, code, tc.fail, tail(out))
		}
	}
	// A hang: the Go stacks come before libFuzzer's timeout report.
	hang := filepath.Join(work, "in-hangs")
	if err := os.WriteFile(hang, []byte("hangs"), 0o666); err != nil {
		t.Fatal(err)
	}
	out, code = runBinary(t, bin, work, "-timeout=2", hang)
	stacks, report := strings.Index(out, "--- fuzzbox: the input has run for"), strings.Index(out, "ERROR: libFuzzer: timeout")
	if code == 0 || stacks < 0 || report < stacks || !strings.Contains(out[stacks:report], "u.hangHere(") {
		t.Errorf("a hanging input: exit %d, want every goroutine's stack (with u.hangHere) before libFuzzer's timeout report:\n%s", code, tail(out))
	}
}

// buildLibFuzzerTest builds fuzz test fuzz of package u (libSrc and the test
// file tests) with the real runtime into a libFuzzer binary and returns its
// path.
func buildLibFuzzerTest(t *testing.T, tests, fuzz string) string {
	t.Helper()
	opts := setup(t, map[string]string{"go.mod": goMod, "u.go": libSrc, "u_test.go": tests})
	runtimeDirOverride = ""
	lo := LibFuzzerOptions{Dir: opts.Dir, OutDir: t.TempDir(), Fuzz: "^" + fuzz + "$", Toolexec: opts.Toolexec}
	var stderr strings.Builder
	lo.Stderr = &stderr
	targets, err := BuildLibFuzzer(context.Background(), lo)
	if err != nil {
		t.Fatalf("BuildLibFuzzer: %v\n%s", err, stderr.String())
	}
	return targets[0].Binary
}

// needClang skips a test that links a libFuzzer binary when -short is set or
// no clang is installed.
func needClang(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds with clang (-short)")
	}
	if _, err := exec.LookPath("clang-16"); err != nil {
		if _, err := exec.LookPath("clang"); err != nil {
			t.Skip("no clang (CI installs clang-16 and libclang-rt-16-dev)")
		}
	}
}

func checkZip(t *testing.T, path string, want []string) {
	t.Helper()
	r, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var names []string
	for _, f := range r.File {
		names = append(names, f.Name)
	}
	if !slices.Equal(names, want) {
		t.Errorf("%s holds %v, want %v", filepath.Base(path), names, want)
	}
}

func unzip(t *testing.T, path, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	r, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, f := range r.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data := make([]byte, f.UncompressedSize64)
		if _, err := rc.Read(data); err != nil && len(data) > 0 && err.Error() != "EOF" {
			t.Fatal(err)
		}
		rc.Close()
		if err := os.WriteFile(filepath.Join(dir, f.Name), data, 0o666); err != nil {
			t.Fatal(err)
		}
	}
}

func checkFileHas(t *testing.T, path, want string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(data), want) {
		t.Errorf("%s does not contain %q (err %v):\n%s", filepath.Base(path), want, err, data)
	}
}

func tail(s string) string {
	if len(s) > 3000 {
		return "..." + s[len(s)-3000:]
	}
	return s
}

// TestLibFuzzerLinkOrder: the link asks for the entry points and names the
// Go archive before the engine's flags, so that neither an engine's weak
// reference (AFL++'s driver) nor its weak stand-in (honggfuzz's libhfuzz)
// leaves the archive out. The linker here records its arguments.
func TestLibFuzzerLinkOrder(t *testing.T) {
	dir := t.TempDir()
	argsFile := filepath.Join(dir, "args")
	linker := filepath.Join(dir, "cc")
	script := "#!/bin/sh\nfor a in \"$@\"; do echo \"$a\"; done > " + argsFile + "\n"
	if err := os.WriteFile(linker, []byte(script), 0o777); err != nil {
		t.Fatal(err)
	}
	o := &LibFuzzerOptions{Linker: linker, LinkFlags: []string{"-O1"}, EngineFlags: []string{"engine.a", "-lrt"}}
	if err := o.link(context.Background(), "FuzzX", "go.a", filepath.Join(dir, "FuzzX"), dir); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(argsFile)
	if err != nil {
		t.Fatal(err)
	}
	args := strings.Fields(string(data))
	pos := func(a string) int {
		i := slices.Index(args, a)
		if i < 0 {
			t.Fatalf("link arguments %q lack %q", args, a)
		}
		return i
	}
	if !(pos("-O1") < pos("-Wl,-u,LLVMFuzzerTestOneInput") && pos("-Wl,-u,LLVMFuzzerInitialize") < pos("go.a") && pos("go.a") < pos("engine.a") && pos("engine.a") < pos("-lrt")) {
		t.Errorf("link arguments %q: want flags, -u entry points, the archive, then the engine", args)
	}
}

// TestSavedDict: the automatic dictionary saved in the package's cache
// directory joins a fuzz test's dictionary; anything unusable adds nothing.
func TestSavedDict(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"FuzzA.dict": "# auto\n\"ab\"\nkw=\"\\x00c\"\n", "FuzzBad.dict": "not a token\n"})
	var asked string
	o := LibFuzzerOptions{CacheDir: func(importPath string) (string, error) { asked = importPath; return dir, nil }}
	if toks := o.savedDict("example.com/p", "FuzzA"); len(toks) != 2 || string(toks[0]) != "ab" || string(toks[1]) != "\x00c" || asked != "example.com/p" {
		t.Errorf("saved dictionary = %q (asked for %q), want [ab \\x00c] for example.com/p", toks, asked)
	}
	for _, name := range []string{"FuzzBad", "FuzzMissing"} {
		if toks := o.savedDict("example.com/p", name); toks != nil {
			t.Errorf("%s: %q, want none", name, toks)
		}
	}
	o.CacheDir = func(string) (string, error) { return "", os.ErrNotExist }
	if toks := o.savedDict("example.com/p", "FuzzA"); toks != nil {
		t.Errorf("CacheDir failing: %q, want none", toks)
	}
	if toks := (&LibFuzzerOptions{}).savedDict("example.com/p", "FuzzA"); toks != nil {
		t.Errorf("no CacheDir: %q, want none", toks)
	}
}

// TestBuildLibFuzzerTyped: a typed fuzz test (package typed), in a module
// that requires fuzzbox itself, builds as a libFuzzer binary, and the
// binary crashes on a typed reproducer's bytes with the test's panic.
func TestBuildLibFuzzerTyped(t *testing.T) {
	needClang(t)
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	opts := setup(t, map[string]string{
		"go.mod": "module example.com/typedmod\n\ngo 1.26\n\nrequire github.com/fuzzbox/fuzzbox v0.0.0\n\nreplace github.com/fuzzbox/fuzzbox => " + root + "\n",
		"cfg_test.go": `package typedmod

import (
	"testing"

	"github.com/fuzzbox/fuzzbox/typed"
)

type Config struct {
	Name  string
	Magic uint32
}

func FuzzCheck(f *testing.F) {
	typed.Add(f, Config{Name: "guest"})
	typed.Fuzz(f, func(t *testing.T, c Config) {
		if c.Name == "admin" && c.Magic == 0x5eed {
			panic("admin with the magic")
		}
	})
}
`})
	runtimeDirOverride = "" // the real, embedded runtime
	var stderr strings.Builder
	lo := LibFuzzerOptions{Dir: opts.Dir, OutDir: t.TempDir(), Fuzz: "^FuzzCheck$", Toolexec: opts.Toolexec, Stderr: &stderr}
	targets, err := BuildLibFuzzer(context.Background(), lo)
	if err != nil || len(targets) != 1 {
		t.Fatalf("BuildLibFuzzer: %v %+v\n%s", err, targets, stderr.String())
	}
	seeds := filepath.Join(t.TempDir(), "seeds")
	unzip(t, targets[0].SeedZip, seeds)
	files, _ := filepath.Glob(filepath.Join(seeds, "*"))
	if len(files) != 1 {
		t.Fatalf("seed files %v, want the one typed.Add seed", files)
	}
	if out, code := runBinary(t, targets[0].Binary, t.TempDir(), files...); code != 0 {
		t.Fatalf("the typed seed does not run cleanly (exit %d):\n%s", code, tail(out))
	}
	// typed.Encode(Config{Name: "admin", Magic: 0x5eed}): the version, the
	// name's length and bytes, the magic (docs/typed.md).
	crash := filepath.Join(t.TempDir(), "crash")
	if err := os.WriteFile(crash, []byte("\x01\x05admin\xed\x5e\x00\x00"), 0o666); err != nil {
		t.Fatal(err)
	}
	out, code := runBinary(t, targets[0].Binary, t.TempDir(), crash)
	if code == 0 || !strings.Contains(out, "admin with the magic") {
		t.Fatalf("the typed reproducer did not crash the libFuzzer binary (exit %d):\n%s", code, tail(out))
	}
}

// TestLibFuzzerTargetString: the line fuzzbox build prints of a target.
func TestLibFuzzerTargetString(t *testing.T) {
	tg := LibFuzzerTarget{Name: "FuzzX", Binary: "/out/FuzzX", SeedZip: "/out/FuzzX_seed_corpus.zip", Seeds: 3, Dict: "/out/FuzzX.dict", Options: "/out/FuzzX.options"}
	if got, want := tg.String(), "/out/FuzzX: 3 seeds in FuzzX_seed_corpus.zip, FuzzX.dict, FuzzX.options"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

// TestListWhileDownloading: the go command prints "go: downloading ..." on
// its standard error while it fills the module cache, as on a fresh machine;
// the listings still parse (their standard output alone is read). A module
// proxy in a directory and an empty module cache make the go command
// download for real, offline.
func TestListWhileDownloading(t *testing.T) {
	proxy := filepath.Join(t.TempDir(), "proxy")
	writeModuleProxy(t, proxy, "example.com/dep", "v1.0.0", map[string]string{
		"go.mod": "module example.com/dep\n\ngo 1.21\n",
		"dep.go": "package dep\n\n// Yes reports whether s is yes.\nfunc Yes(s string) bool { return s == \"yes\" }\n",
	})
	opts := setup(t, map[string]string{
		"go.mod":    "module example.com/u\n\ngo 1.21\n\nrequire example.com/dep v1.0.0\n",
		"u.go":      "package u\n\nimport \"example.com/dep\"\n\n// Check is the code under test.\nfunc Check(s string) bool { return dep.Yes(s) }\n",
		"u_test.go": "package u\n\nimport \"testing\"\n\nfunc FuzzCheck(f *testing.F) { f.Fuzz(func(t *testing.T, s string) { Check(s) }) }\n",
	})
	env := append(os.Environ(), "GOWORK=off", "GOPROXY=file://"+filepath.ToSlash(proxy), "GOSUMDB=off",
		"GOFLAGS=-mod=mod -modcacherw", "GOMODCACHE="+filepath.Join(t.TempDir(), "modcache"))
	ctx := context.Background()
	var stderr bytes.Buffer
	probe := goCmd{dir: opts.Dir, env: env}
	if err := probe.command(ctx, io.Discard, &stderr, "list", "-deps", ".").Run(); err != nil || !strings.Contains(stderr.String(), "go: downloading example.com/dep v1.0.0") {
		t.Fatalf("the go command did not download the dependency (%v): %s", err, stderr.String())
	}
	env[len(env)-1] = "GOMODCACHE=" + filepath.Join(t.TempDir(), "modcache") // empty again
	g := goCmd{dir: opts.Dir, env: env}
	if _, err := g.readEnv(ctx); err != nil {
		t.Errorf("go env: %v", err)
	}
	if p, err := g.listPackage(ctx, ".", "libfuzzer"); err != nil || p.ImportPath != "example.com/u" {
		t.Errorf("listPackage while downloading: %+v, %v", p, err)
	}
	env[len(env)-1] = "GOMODCACHE=" + filepath.Join(t.TempDir(), "modcache")
	g = goCmd{dir: opts.Dir, env: env}
	if _, names, err := g.listFuzzTests(ctx, ".", "libfuzzer", ""); err != nil || !slices.Equal(names, []string{"FuzzCheck"}) {
		t.Errorf("listFuzzTests while downloading: %v, %v", names, err)
	}
}

// writeModuleProxy writes module path at version, of files, into dir as a
// GOPROXY=file:// module proxy serves it.
func writeModuleProxy(t *testing.T, dir, path, version string, files map[string]string) {
	t.Helper()
	v := filepath.Join(dir, filepath.FromSlash(path), "@v")
	var zbuf bytes.Buffer
	zw := zip.NewWriter(&zbuf)
	for name, data := range files {
		w, err := zw.Create(path + "@" + version + "/" + name)
		if err == nil {
			_, err = w.Write([]byte(data))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, v, map[string]string{
		"list":            version + "\n",
		version + ".info": `{"Version":"` + version + `","Time":"2024-01-01T00:00:00Z"}`,
		version + ".mod":  files["go.mod"],
		version + ".zip":  zbuf.String(),
	})
}

// TestSummarySkipsDownloads: a failure's summary is its error, not the
// modules the go command fetched before it.
func TestSummarySkipsDownloads(t *testing.T) {
	out := "go: downloading example.com/dep v1.0.0\n# example.com/u\n./u.go:3:8: undefined: nope\n./u.go:4:8: undefined: nah\n"
	if got := Summary([]byte(out), errors.New("exit status 1")); got != "./u.go:3:8: undefined: nope" {
		t.Errorf("summary = %q", got)
	}
	// An import error's first line names the package, its next what is wrong.
	out = "# example.com/u\npackage example.com/u (test)\n\timports example.com/u/internal/c: build constraints exclude all Go files in /m/internal/c\nFAIL\texample.com/u [setup failed]\n"
	want := "package example.com/u (test) imports example.com/u/internal/c: build constraints exclude all Go files in /m/internal/c"
	if got := Summary([]byte(out), errors.New("exit status 1")); got != want {
		t.Errorf("summary = %q, want %q", got, want)
	}
	// A C compiler's error (cgo) comes after where it is.
	out = "# example.com/u/c\nc/c.go: In function 'f':\nc/c.go:83:5: error: unknown type name 'T'\n   83 |     T *pd =\n"
	if got := Summary([]byte(out), errors.New("exit status 1")); got != "c/c.go:83:5: error: unknown type name 'T'" {
		t.Errorf("summary = %q", got)
	}
}

// TestFailureReason: the reason a setup failed takes the message's later
// lines, which testing indents deeper (testify's "Error:" lines said which
// file was missing, and the warning ended at "calendar_fuzz_test.go:16:").
func TestFailureReason(t *testing.T) {
	out := "--- FAIL: FuzzF (0.00s)\n    m_test.go:16: \n        \tError Trace:\tm_test.go:16\n        \tError:      \tReceived unexpected error:\n        \t            \topen testdata/seed.txt: no such file or directory\nFAIL\n"
	got := failureReason([]byte(out), errors.New("exit status 1"))
	if !strings.HasPrefix(got, "m_test.go:16:") || !strings.Contains(got, "open testdata/seed.txt: no such file or directory") || strings.Contains(got, "FAIL") {
		t.Errorf("failureReason = %q, want the message with its later lines", got)
	}
	if got := failureReason([]byte("    a_test.go:3: one\n    a_test.go:4: two\n"), nil); got != "a_test.go:3: one" {
		t.Errorf("failureReason = %q, want the first message alone", got)
	}
}

// setupOnceTests are fuzz tests whose code before f.Fuzz must run once in
// a process: FuzzToggle turns a feature off until it returns and skips when
// it finds it off (klauspost/compress's FuzzDecAllNoBMI2), FuzzHandler
// registers an HTTP handler, which panics the second time.
const setupOnceTests = `package u

import (
	"net/http"
	"testing"
)

var featureOn = true

func FuzzToggle(f *testing.F) {
	if !featureOn {
		f.Skip("the feature is off")
	}
	featureOn = false
	defer func() { featureOn = true }()
	f.Add([]byte("x"))
	f.Fuzz(func(t *testing.T, b []byte) {})
}

func FuzzHandler(f *testing.F) {
	http.HandleFunc("/fuzz", func(http.ResponseWriter, *http.Request) {})
	f.Add("x")
	f.Fuzz(func(t *testing.T, s string) {})
}
`

// TestLibFuzzerSetupOnce: a binary runs its fuzz test's setup once, as go
// test -fuzz's processes each do (it ran it twice, the first run never
// returning: FuzzToggle skipped, "stopped before fuzzing", and FuzzHandler
// panicked on the second registration), and both build and fuzz.
func TestLibFuzzerSetupOnce(t *testing.T) {
	needClang(t)
	for _, fuzz := range []string{"FuzzToggle", "FuzzHandler"} {
		bin := buildLibFuzzerTest(t, setupOnceTests, fuzz)
		out, code := runBinary(t, bin, t.TempDir(), "-runs=500", "-seed=3")
		if code != 0 || !strings.Contains(out, "Done 500 runs") {
			t.Errorf("%s: exit %d:\n%s", fuzz, code, tail(out))
		}
	}
}

// TestBuildSeedFailure: a fuzz test whose seeds fail is a build error that
// says why (it said "--- FAIL: FuzzBad (0.00s)") and leaves no binary
// without its seed corpus, dictionary and options in the output directory.
func TestBuildSeedFailure(t *testing.T) {
	needClang(t)
	opts := setup(t, map[string]string{"go.mod": goMod, "u.go": libSrc, "u_test.go": `package u

import "testing"

func FuzzBad(f *testing.F) {
	f.Add(5)
	f.Fuzz(func(t *testing.T, s string) {})
}
`})
	runtimeDirOverride = ""
	out := t.TempDir()
	_, err := BuildLibFuzzer(context.Background(), LibFuzzerOptions{Dir: opts.Dir, OutDir: out, Toolexec: opts.Toolexec})
	if err == nil || !strings.Contains(err.Error(), "mismatched types") {
		t.Errorf("BuildLibFuzzer: %v, want the seed's failure", err)
	}
	if ents, _ := os.ReadDir(out); len(ents) != 0 {
		t.Errorf("the output directory holds %d files, want none", len(ents))
	}
}
