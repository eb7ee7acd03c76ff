package build

import (
	"archive/zip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/fuzzbox/fuzzbox/corpus"
)

// The libFuzzer mode: "fuzzbox build -libfuzzer" (and the build.sh that
// "fuzzbox oss-fuzz init" writes) builds each fuzz test of a package into a
// binary that libFuzzer, AFL++'s libFuzzer driver or honggfuzz runs, with the
// files OSS-Fuzz and ClusterFuzzLite expect beside it. The test package is
// built once, as a c-archive, by the same go test -c, -overlay, -modfile and
// toolexec machinery as a fuzzing binary, except that the overlay's test main
// hook calls engine/libfuzzer, the build tags are "libfuzzer" (the runtime's
// sanitizer coverage callbacks) instead of "fuzzbox", and cgo is on. Each fuzz
// test is then linked from the archive with a one-line C file naming it.

// libFuzzerPath is the runtime package linked into libFuzzer binaries.
const libFuzzerPath = runtimeModule + "/engine/libfuzzer"

// LibFuzzerOptions configures BuildLibFuzzer. Zero values are the defaults
// OSS-Fuzz's environment implies.
type LibFuzzerOptions struct {
	// Dir is the directory the go command runs in; "" means the current one.
	Dir string
	// Package names exactly one package, as the go command takes it; "" is ".".
	Package string
	// OutDir receives the binaries and their files. Required.
	OutDir string
	// Fuzz is a regexp selecting fuzz tests by name; "" selects all.
	Fuzz string
	// Tags are extra build tags (comma-separated); "" means none.
	Tags string
	// Toolexec runs "fuzzbox toolexec", as Options.Toolexec; nil means
	// ToolexecCommand(""), this executable (fuzzbox build -libfuzzer).
	Toolexec []string
	// Linker is the C/C++ compiler that links; "" means $CXX, else clang,
	// else clang-16 (whichever is found first).
	Linker string
	// EngineFlags link the fuzzing engine; nil means the fields of
	// $LIB_FUZZING_ENGINE, else -fsanitize=fuzzer.
	EngineFlags []string
	// LinkFlags are added to each link; nil means the fields of $CXXFLAGS
	// when $CXX is the linker, else none.
	LinkFlags []string
	// CacheDir, when set, returns the generated-corpus directory of a
	// package's fuzz tests, given its import path (driver.DefaultCacheDir):
	// the automatic dictionary "fuzzbox fuzz" saved there, <dir>/FuzzX.dict,
	// joins the fuzz test's dictionary when it exists and parses. nil means
	// none; the source literals are always in the dictionary.
	CacheDir func(importPath string) (string, error)
	// Stderr receives the go command's and the linker's output on failure;
	// nil discards it.
	Stderr io.Writer
}

// LibFuzzerTarget describes one built fuzz test.
type LibFuzzerTarget struct {
	Name    string // the fuzz test, FuzzX
	Binary  string // OutDir/FuzzX
	SeedZip string // OutDir/FuzzX_seed_corpus.zip: every f.Add seed and testdata/fuzz/FuzzX file, encoded
	Seeds   int    // entries in SeedZip
	Dict    string // OutDir/FuzzX.dict
	Options string // OutDir/FuzzX.options
	// Warning says that the binary does not start outside its package's
	// directory (startsAway); "" when it does.
	Warning string
}

// String returns the line fuzzbox build prints of t: the binary, the number
// of seeds and the files beside it.
func (t LibFuzzerTarget) String() string {
	return fmt.Sprintf("%s: %d seeds in %s, %s, %s", t.Binary, t.Seeds, filepath.Base(t.SeedZip), filepath.Base(t.Dict), filepath.Base(t.Options))
}

// BuildLibFuzzer builds the selected fuzz tests of opts.Package into
// libFuzzer binaries in opts.OutDir, with their seed corpus zip, dictionary
// and options files. It fails if no fuzz test is selected.
func BuildLibFuzzer(ctx context.Context, opts LibFuzzerOptions) ([]LibFuzzerTarget, error) {
	if err := opts.defaults(); err != nil {
		return nil, err
	}
	g := goCmd{dir: opts.Dir, env: append(os.Environ(), "CGO_ENABLED=1")}
	if _, err := g.readEnv(ctx); err != nil {
		return nil, err
	}
	opts.Tags = g.userTags(opts.Tags)
	pkg, names, err := g.listFuzzTests(ctx, opts.Package, withTags("libfuzzer", opts.Tags), opts.Fuzz)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "fuzzbox-libfuzzer-")
	if err != nil {
		return nil, fmt.Errorf("build: %w", err)
	}
	defer os.RemoveAll(tmp)
	archive := filepath.Join(tmp, "fuzz.a")
	if err := g.buildArchive(ctx, opts, pkg, archive, tmp); err != nil {
		return nil, err
	}
	var targets []LibFuzzerTarget
	for _, name := range names {
		t, err := opts.target(ctx, pkg, name, archive, tmp)
		if err != nil {
			return nil, err
		}
		targets = append(targets, t)
	}
	return targets, nil
}

func (o *LibFuzzerOptions) defaults() error {
	if o.OutDir == "" {
		return errors.New("build: LibFuzzerOptions.OutDir is required")
	}
	if len(o.Toolexec) == 0 {
		var err error
		if o.Toolexec, err = ToolexecCommand(""); err != nil {
			return err
		}
	}
	if o.Package == "" {
		o.Package = "."
	}
	if o.Stderr == nil {
		o.Stderr = io.Discard
	}
	if o.EngineFlags == nil {
		o.EngineFlags = strings.Fields(os.Getenv("LIB_FUZZING_ENGINE"))
		if len(o.EngineFlags) == 0 {
			o.EngineFlags = []string{"-fsanitize=fuzzer"}
		}
	}
	if o.Linker == "" {
		o.Linker = os.Getenv("CXX")
		if o.Linker != "" && o.LinkFlags == nil {
			o.LinkFlags = strings.Fields(os.Getenv("CXXFLAGS"))
		}
	}
	if o.Linker == "" {
		for _, cc := range []string{"clang", "clang-16"} {
			if p, err := exec.LookPath(cc); err == nil {
				o.Linker = p
				break
			}
		}
	}
	if o.Linker == "" {
		return errors.New("build: no clang found to link libFuzzer binaries (set $CXX, or install clang-16 and libclang-rt-16-dev)")
	}
	out, err := filepath.Abs(o.OutDir)
	if err != nil {
		return fmt.Errorf("build: %w", err)
	}
	o.OutDir = out
	return os.MkdirAll(out, 0o777)
}

// fuzzPackage is the part of "go list -json" the libFuzzer mode uses.
type fuzzPackage struct {
	listedPackage
	TestGoFiles, XTestGoFiles, GoFiles []string
	IgnoredGoFiles                     []string // excluded by build constraints
	Imports, TestImports, XTestImports []string
}

// listFuzzTests lists the package with the build tags tags and the names
// of its fuzz tests that match the regexp fuzz ("" matches all).
func (g goCmd) listFuzzTests(ctx context.Context, pattern, tags, fuzz string) (*fuzzPackage, []string, error) {
	re, err := regexp.Compile(fuzz)
	if err != nil {
		return nil, nil, fmt.Errorf("build: -fuzz: %w", err)
	}
	lp, err := g.listPackage(ctx, pattern, tags)
	if err != nil {
		return nil, nil, err
	}
	out, err := g.output(ctx, "list", "-tags="+tags, "-json=TestGoFiles,XTestGoFiles,GoFiles,IgnoredGoFiles,Imports,TestImports,XTestImports", pattern)
	if err != nil {
		return nil, nil, fmt.Errorf("package does not build: %w", err)
	}
	pkg := &fuzzPackage{listedPackage: *lp}
	if err := json.Unmarshal(out, pkg); err != nil {
		return nil, nil, fmt.Errorf("build: decoding go list output: %w", err)
	}
	all, err := fuzzTestNames(pkg.Dir, append(pkg.TestGoFiles, pkg.XTestGoFiles...))
	if err != nil {
		return nil, nil, err
	}
	var names []string
	for _, n := range all {
		if re.MatchString(n) {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return nil, nil, fmt.Errorf("build: no fuzz test of %s matches -fuzz=%q (fuzz tests: %s)%s", pkg.ImportPath, fuzz, orNone(all), pkg.excludedTests())
	}
	return pkg, names, nil
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// excludedTests names the package's test files that build constraints
// exclude, for an error that found no fuzz test: "" when there are none.
func (p *fuzzPackage) excludedTests() string {
	return ExcludedTests(p.IgnoredGoFiles)
}

// ExcludedTests names the test files among ignored (a package's files that
// build constraints exclude, go list's IgnoredGoFiles) for an error that
// found no fuzz test, asking whether -tags is needed; "" when there are
// none. fuzzbox fuzz and fuzzbox build -libfuzzer both say it.
func ExcludedTests(ignored []string) string {
	var tests []string
	for _, f := range ignored {
		if strings.HasSuffix(f, "_test.go") {
			tests = append(tests, f)
		}
	}
	if len(tests) == 0 {
		return ""
	}
	return fmt.Sprintf("; build constraints exclude %s: does a fuzz test need -tags?", strings.Join(tests, ", "))
}

// buildArchive runs go test -c -buildmode=c-archive on the package; the
// packages its code under test does not reach (unreachedFlags), and a
// package whose go:nosplit code leaves the comparison hooks no stack
// (linkNosplit, as fuzzbox fuzz does), are compiled without
// instrumentation.
func (g goCmd) buildArchive(ctx context.Context, opts LibFuzzerOptions, pkg *fuzzPackage, archive, tmp string) error {
	toolexec, err := joinCommand(opts.Toolexec)
	if err != nil {
		return fmt.Errorf("build: toolexec command: %w", err)
	}
	more, err := g.prepareLibFuzzer(ctx, &pkg.listedPackage, tmp)
	if err != nil {
		return err
	}
	more = append([]string{"-tags=" + withTags("libfuzzer", opts.Tags)}, more...)
	unreached := g.unreachedFlags(ctx, pkg.ImportPath, more, false)
	args := append([]string{"test", "-c", NoGoFuzz, "-buildmode=c-archive", "-o", archive, "-vet=off", "-toolexec=" + toolexec}, more...)
	args = append(append(args, unreached...), opts.Package)
	if output, err := g.linkNosplit(ctx, args, opts.Stderr); err != nil {
		opts.Stderr.Write(output)
		return fmt.Errorf("package does not build: %s", Summary(output, err))
	}
	return nil
}

// prepareLibFuzzer is prepare with the libFuzzer test main hook.
func (g *goCmd) prepareLibFuzzer(ctx context.Context, pkg *listedPackage, tmp string) ([]string, error) {
	overlay, err := writeOverlaySource(pkg, tmp, libFuzzerXtestSource(pkg.Name), g.goflag("overlay"))
	if err != nil {
		return nil, err
	}
	flags := []string{"-overlay=" + overlay}
	if pkg.Module.Main && pkg.Module.Path == runtimeModule {
		return flags, nil
	}
	modFlags, err := g.addRuntime(ctx, tmp)
	if err != nil {
		return nil, err
	}
	return append(flags, modFlags...), nil
}

// writeOverlaySource writes src as the injected external test file and the
// overlay that adds it, and returns the overlay's path. The build's
// -overlay overrides the user's (user, GOFLAGS's or the command line's,
// made absolute by the driver), so the user's replacements are copied into
// it: go test -overlay's are built, and fuzzed.
func writeOverlaySource(pkg *listedPackage, tmp string, src []byte, user string) (string, error) {
	target := filepath.Join(pkg.Dir, xtestFile)
	if _, err := os.Stat(target); err == nil {
		return "", fmt.Errorf("build: %s exists; fuzzbox needs that name for its test main file", target)
	}
	file := filepath.Join(tmp, xtestFile)
	if err := os.WriteFile(file, src, 0o666); err != nil {
		return "", fmt.Errorf("build: %w", err)
	}
	replace, err := ReadOverlay(user)
	if err != nil {
		return "", err
	}
	replace[target] = file
	if testsInternalFuzz(pkg) {
		src := strings.TrimSuffix(pkg.Dir, filepath.FromSlash(pkg.ImportPath))
		replace[filepath.Join(src, "internal", "fuzz", "trace.go")] = ""
	}
	data, err := json.Marshal(map[string]map[string]string{"Replace": replace})
	if err != nil {
		return "", fmt.Errorf("build: %w", err)
	}
	overlay := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(overlay, data, 0o666); err != nil {
		return "", fmt.Errorf("build: %w", err)
	}
	return overlay, nil
}

// testsInternalFuzz reports whether pkg is the standard library's
// internal/fuzz, whose own tests link it beside fuzzbox's runtime. Two of its
// files then clash with that runtime: trace.go defines the comparison hooks
// fuzzbox's runtime defines (empty, unless built with the libfuzzer tag), and
// is left out by the overlay (writeOverlaySource); its declaration of the
// coverage counters' bounds, which the linker defines and engine/instrument
// reaches by go:linkname, is a reference the linker refuses once the package
// is in the binary, so the link runs with -checklinkname=0 (Build).
func testsInternalFuzz(pkg *listedPackage) bool {
	return pkg.Standard && pkg.ImportPath == "internal/fuzz"
}

// libFuzzerXtestSource is xtestSource for the libFuzzer runtime.
func libFuzzerXtestSource(name string) []byte {
	src := string(xtestSource(name))
	src = strings.Replace(src, `"`+fuzzmainPath+`"`, `"`+libFuzzerPath+`"`, 1)
	return []byte(strings.Replace(src, "return fuzzmain.MainStart(", "return libfuzzer.MainStart(", 1))
}

// target links one fuzz test and writes its seed corpus, dictionary and
// options.
func (o *LibFuzzerOptions) target(ctx context.Context, pkg *fuzzPackage, name, archive, tmp string) (LibFuzzerTarget, error) {
	t := LibFuzzerTarget{
		Name:    name,
		Binary:  filepath.Join(o.OutDir, name),
		SeedZip: filepath.Join(o.OutDir, name+"_seed_corpus.zip"),
		Dict:    filepath.Join(o.OutDir, name+".dict"),
		Options: filepath.Join(o.OutDir, name+".options"),
	}
	if err := o.link(ctx, name, archive, t.Binary, tmp); err != nil {
		return t, err
	}
	n, err := writeSeedZip(ctx, t.Binary, pkg.Dir, t.SeedZip, filepath.Join(tmp, "seeds-"+name))
	if err != nil {
		os.Remove(t.Binary) // not a target without its seeds, dictionary and options
		return t, err
	}
	t.Seeds = n
	t.Warning = startsAway(ctx, t.Binary, tmp)
	toks := PackageLiterals(ctx, LiteralSource{
		ImportPath: pkg.ImportPath, Dir: pkg.Dir,
		GoFiles: pkg.GoFiles, TestGoFiles: pkg.TestGoFiles, XTestGoFiles: pkg.XTestGoFiles,
		Imports: pkg.Imports, TestImports: pkg.TestImports, XTestImports: pkg.XTestImports,
	})
	toks = append(toks, o.savedDict(pkg.ImportPath, name)...)
	if err := writeDict(t.Dict, toks); err != nil {
		return t, err
	}
	return t, writeOptions(t.Options, name)
}

// libFuzzerEntryPoints makes the linker take the entry points from the
// archive even when the engine only refers to them weakly, as AFL++'s
// driver (libAFLDriver.a) does: an archive member is not linked for a weak
// reference, and the driver would call a null LLVMFuzzerTestOneInput.
var libFuzzerEntryPoints = []string{"-Wl,-u,LLVMFuzzerTestOneInput", "-Wl,-u,LLVMFuzzerInitialize"}

// link links the archive and a C file naming the fuzz test into out.
func (o *LibFuzzerOptions) link(ctx context.Context, name, archive, out, tmp string) error {
	csrc := filepath.Join(tmp, name+"_target.c")
	c := "#ifdef __cplusplus\nextern \"C\"\n#endif\nconst char fuzzbox_libfuzzer_target[] = \"" + name + "\";\n"
	if err := os.WriteFile(csrc, []byte(c), 0o666); err != nil {
		return fmt.Errorf("build: %w", err)
	}
	// The engine after the archive: the archive's entry points are then
	// linked before an engine library's weak stand-ins (honggfuzz's libhfuzz
	// defines a weak LLVMFuzzerTestOneInput) could satisfy -u.
	args := slices.Concat(o.LinkFlags, libFuzzerEntryPoints, []string{"-x", "c", csrc, "-x", "none", archive}, o.EngineFlags, []string{"-o", out, "-lpthread", "-ldl"})
	cmd := exec.CommandContext(ctx, o.Linker, args...)
	output, err := cmd.CombinedOutput()
	if err != nil {
		o.Stderr.Write(output)
		return fmt.Errorf("build: linking %s with %s: %s", name, o.Linker, Summary(output, err))
	}
	return nil
}

// writeSeedZip runs the binary in its seed corpus mode (in the package
// directory, where testdata/fuzz is) and zips what it writes. It returns the
// number of seeds.
func writeSeedZip(ctx context.Context, bin, pkgDir, zipPath, seedDir string) (int, error) {
	cmd := exec.CommandContext(ctx, bin)
	cmd.Dir = pkgDir
	cmd.Env = append(os.Environ(), "FUZZBOX_LIBFUZZER_SEEDS="+seedDir)
	if output, err := cmd.CombinedOutput(); err != nil {
		return 0, fmt.Errorf("build: collecting the seeds of %s: %s", filepath.Base(bin), failureReason(output, err))
	}
	entries, err := os.ReadDir(seedDir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return 0, fmt.Errorf("build: %w", err)
	}
	if err := zipFiles(zipPath, seedDir, entries); err != nil {
		return 0, fmt.Errorf("build: writing %s: %w", zipPath, err)
	}
	return len(entries), nil
}

// startsAway sets the binary up (the test files' init, the fuzz test up to
// f.Fuzz) in an empty directory, as OSS-Fuzz runs it from $OUT, and returns
// why it does not start there: a test that opens files relative to its
// package, where go test always runs it. "" when it starts, or when it
// has not set up within a minute (nothing is known then).
func startsAway(ctx context.Context, bin, tmp string) string {
	dir, err := os.MkdirTemp(tmp, "away-")
	if err != nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "FUZZBOX_LIBFUZZER_SETUP_ONLY=1")
	output, err := cmd.CombinedOutput()
	if err == nil || ctx.Err() != nil {
		return ""
	}
	return fmt.Sprintf("%s stops before fuzzing when run outside its package directory, as OSS-Fuzz runs it from $OUT (go test runs it in the package directory): %s",
		filepath.Base(bin), failureReason(output, err))
}

// failureReason returns the first line of a failed setup's output that
// says why: not testing's FAIL lines, libFuzzer's INFO lines or the
// binary's own "fuzzbox:" line that the setup stopped.
func failureReason(output []byte, err error) string {
	return firstLine(output, err, func(line string) bool {
		return line == "FAIL" || strings.HasPrefix(line, "--- FAIL") || strings.HasPrefix(line, "INFO:") || strings.HasPrefix(line, "#") ||
			strings.HasPrefix(line, "fuzzbox: libfuzzer: fuzz test ")
	})
}

func zipFiles(zipPath, dir string, entries []os.DirEntry) error {
	f, err := os.Create(zipPath)
	if err != nil {
		return err
	}
	zw := zip.NewWriter(f)
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			f.Close()
			return err
		}
		w, err := zw.Create(e.Name())
		if err == nil {
			_, err = w.Write(data)
		}
		if err != nil {
			f.Close()
			return err
		}
	}
	if err := zw.Close(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeOptions writes the libFuzzer options file OSS-Fuzz reads: the
// dictionary, and no value profiling, which on these binaries found the
// text parsers' bugs later (bench/README.md, "Value profiling off").
func writeOptions(path, name string) error {
	s := "# fuzzbox: inputs use the " + corpus.LibFuzzerEncoding + " encoding (docs/oss-fuzz.md);\n" +
		"# fuzzbox corpus import -from-libfuzzer -fuzz=" + name + " FILE turns one into a go test reproducer.\n" +
		"[libfuzzer]\ndict = " + name + ".dict\n"
	if err := os.WriteFile(path, []byte(s), 0o666); err != nil {
		return fmt.Errorf("build: %w", err)
	}
	return nil
}

// ReadOverlay returns the replacements of the user's overlay file path ("":
// none), with relative paths made absolute: the go command reads them
// relative to the directory it runs in, the user's. The driver writes such
// a copy for the go commands it runs elsewhere (driver.UseBuildFlags).
func ReadOverlay(path string) (map[string]string, error) {
	replace := map[string]string{}
	if path == "" {
		return replace, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("build: -overlay: %w", err)
	}
	var o struct{ Replace map[string]string }
	if err := json.Unmarshal(data, &o); err != nil {
		return nil, fmt.Errorf("build: -overlay %s: %w", path, err)
	}
	abs := func(p string) string {
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		a, err := filepath.Abs(p)
		if err != nil {
			return p
		}
		return a
	}
	for from, to := range o.Replace {
		replace[abs(from)] = abs(to)
	}
	return replace, nil
}
