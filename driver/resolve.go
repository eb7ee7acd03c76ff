package driver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/fuzzbox/fuzzbox/corpus"
	"github.com/fuzzbox/fuzzbox/driver/build"
	"github.com/fuzzbox/fuzzbox/engine/ipc"
)

// A Target is one fuzz test of one package: what Fuzz fuzzes, Cover
// measures and Replay replays. Resolve makes targets; Replay needs only Name
// and Dir, so a front end that knows them (an editor) may make one itself.
type Target struct {
	Package string // import path
	Name    string // FuzzX
	Dir     string // the package directory, where its test binaries run
	pkg     *pkgInfo
}

func (t Target) String() string { return t.Package + "." + t.Name }

// pkgInfo is what Resolve learned of a target's package, shared by the
// package's targets: go list's record, or the prebuilt binary.
type pkgInfo struct {
	build.LiteralSource                       // the source-literal dictionary's inputs (and ImportPath, Dir)
	Module              *struct{ Dir string } // the module, for Cover's mirror of it
	Error               *struct{ Err string }
	IgnoredGoFiles      []string // the files build constraints exclude
	binary              string   // Config.Binary, absolute: nothing to build
}

// moduleDir returns the package's module root, or its directory.
func (p *pkgInfo) moduleDir() string {
	if p != nil && p.Module != nil && p.Module.Dir != "" {
		return p.Module.Dir
	}
	return ""
}

// Resolve returns the fuzz tests cfg.Fuzz matches in the packages patterns
// match (none means "."), reading their test files: go list runs once per
// directory the patterns name, and nothing is built. With cfg.Binary, the
// binary lists its fuzz tests instead, and patterns is the one package
// directory it belongs to. An error says why nothing matches.
func Resolve(ctx context.Context, cfg Config, patterns []string) ([]Target, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	fuzzRE := regexp.MustCompile(cfg.Fuzz)
	if cfg.Binary != "" {
		return resolveBinary(ctx, cfg, patterns, fuzzRE)
	}
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	pkgs, err := listAll(ctx, cfg, patterns)
	if err != nil {
		return nil, err
	}
	var targets []Target
	var all []string
	for _, p := range pkgs {
		for _, name := range declaredFuzzTests(p) {
			all = append(all, name)
			if fuzzRE.MatchString(name) {
				targets = append(targets, Target{Package: p.ImportPath, Name: name, Dir: p.Dir, pkg: p})
			}
		}
	}
	where := strings.Join(patterns, " ")
	if len(pkgs) == 1 {
		where = pkgs[0].ImportPath
	}
	err = matchError(fuzzRE, where, all, len(targets))
	if len(all) == 0 && err != nil {
		err = noMatch(err.Error() + excludedTests(pkgs))
	}
	return targets, err
}

// excludedTests is build.ExcludedTests of pkgs' files. go test -fuzz says
// only "no fuzz tests to fuzz" when a fuzz test's file needs a tag
// (gosnmp's "marshal", udecimal's "fuzz").
func excludedTests(pkgs []*pkgInfo) string {
	var ignored []string
	for _, p := range pkgs {
		ignored = append(ignored, p.IgnoredGoFiles...)
	}
	return build.ExcludedTests(ignored)
}

// ResolveOne is Resolve for a front end that works on one fuzz test (fuzzbox
// cover): pkg is the one package pattern ("" = the current directory), and
// cfg.Fuzz matching more than one fuzz test is an error.
func ResolveOne(ctx context.Context, cfg Config, pkg string) (Target, error) {
	var pkgs []string
	if pkg != "" {
		pkgs = []string{pkg}
	}
	ts, err := Resolve(ctx, cfg, pkgs)
	switch {
	case err != nil:
		return Target{}, err
	case len(ts) > 1:
		names := make([]string, len(ts))
		for i, t := range ts {
			names[i] = t.Name
		}
		return Target{}, fmt.Errorf("-fuzz matches more than one fuzz test: [%s]", strings.Join(names, " "))
	}
	return ts[0], nil
}

// matchError explains why no target was found in where, or returns nil.
func matchError(fuzzRE *regexp.Regexp, where string, all []string, n int) error {
	switch {
	case len(all) == 0:
		return noMatch(fmt.Sprintf("%s has no fuzz tests", where))
	case n == 0:
		return noMatch(fmt.Sprintf("-fuzz=%s matches no fuzz test in %s (fuzz tests: %s)", fuzzRE, where, strings.Join(all, ", ")))
	}
	return nil
}

// noMatch is Resolve's error when the packages hold no fuzz test that
// -fuzz selects (CI passes then: nothing affected is fuzzable).
type noMatch string

func (e noMatch) Error() string { return string(e) }

// listAll runs go list over patterns: once for each run of patterns that
// share the directory to run it in (splitPattern), each package once.
func listAll(ctx context.Context, cfg Config, patterns []string) ([]*pkgInfo, error) {
	var pkgs []*pkgInfo
	for i := 0; i < len(patterns); {
		dir, rel := splitPattern(cfg.Dir, patterns[i])
		group, given := []string{rel}, []string{patterns[i]}
		for i++; i < len(patterns); i++ {
			d, r := splitPattern(cfg.Dir, patterns[i])
			if d != dir {
				break
			}
			group, given = append(group, r), append(given, patterns[i])
		}
		ps, err := listPackages(ctx, dir, group, cfg.Tags)
		if err != nil {
			return nil, fmt.Errorf("go list %s: %w", strings.Join(given, " "), err)
		}
		for _, p := range ps {
			if !slices.ContainsFunc(pkgs, func(q *pkgInfo) bool { return q.Dir == p.Dir && q.ImportPath == p.ImportPath }) {
				pkgs = append(pkgs, p) // once, as go list lists a package that several patterns match
			}
		}
	}
	return pkgs, nil
}

// resolveBinary returns the targets of a prebuilt fuzzing binary.
func resolveBinary(ctx context.Context, cfg Config, patterns []string, fuzzRE *regexp.Regexp) ([]Target, error) {
	dir, err := binaryPackageDir(cfg, patterns)
	if err != nil {
		return nil, err
	}
	bin, err := filepath.Abs(cfg.Binary)
	if err != nil {
		return nil, err
	}
	p := &pkgInfo{binary: bin}
	p.Dir, p.GoFiles, p.ImportPath = dir, goFilesIn(dir), cfg.ImportPath
	if p.ImportPath == "" {
		p.ImportPath = guessImportPath(ctx, dir)
	}
	names, err := listFuzzTests(ctx, bin, bin, dir, cfg.userArgs())
	if err != nil {
		return nil, err
	}
	var ts []Target
	for _, name := range names {
		if fuzzRE.MatchString(name) {
			ts = append(ts, Target{Package: p.ImportPath, Name: name, Dir: dir, pkg: p})
		}
	}
	switch {
	case len(names) == 0:
		return nil, fmt.Errorf("%s: %w", cfg.Binary, ErrNoFuzzTests)
	case len(ts) == 0:
		return nil, fmt.Errorf("-fuzz=%s matches no fuzz test of %s", fuzzRE, cfg.Binary)
	}
	return ts, nil
}

// ErrNoFuzzTests is Resolve's error for a prebuilt binary (Config.Binary)
// whose package has no fuzz test at all: go test -fuzz passes it ("testing:
// warning: no fuzz tests to fuzz"), and the Bazel runner does too, where a
// -fuzz that matches none of the fuzz tests there is (a typo) is an error.
var ErrNoFuzzTests = errors.New("the package has no fuzz tests")

// binaryPackageDir returns the one package directory patterns names for a
// prebuilt binary, absolute.
func binaryPackageDir(cfg Config, patterns []string) (string, error) {
	if len(patterns) > 1 {
		return "", errors.New("-bin: give the one package directory the binary was built from")
	}
	dir := "."
	if len(patterns) == 1 {
		dir = patterns[0]
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(cfg.Dir, dir)
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("-bin: package directory %s does not exist", dir)
	}
	return dir, nil
}

// guessImportPath asks the go command for dir's import path, and falls back
// to the directory itself (a Bazel sandbox may have no go command).
func guessImportPath(ctx context.Context, dir string) string {
	if out, err := goOutput(ctx, dir, "list", "-f", "{{.ImportPath}}", "."); err == nil {
		if p := strings.TrimSpace(string(out)); p != "" && !strings.HasPrefix(p, "_") {
			return p
		}
	}
	return strings.TrimPrefix(filepath.ToSlash(dir), "/")
}

func goFilesIn(dir string) []string {
	ents, _ := os.ReadDir(dir)
	var files []string
	for _, e := range ents {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".go") {
			files = append(files, e.Name())
		}
	}
	return files
}

// splitPattern turns a package pattern into the directory to run the go
// command in and the pattern to give it there. A directory pattern
// (./x, ../x/..., /abs/x) runs in its directory, so that it may lie in
// another module than the current one (a nested examples or benchmark
// module); an import path pattern runs in base.
func splitPattern(base, pat string) (dir, rel string) {
	if !isLocalPattern(pat) {
		return base, pat
	}
	if !filepath.IsAbs(pat) && base != "" {
		pat = filepath.Join(base, pat)
	}
	if b, ok := strings.CutSuffix(filepath.ToSlash(pat), "/..."); ok {
		return filepath.FromSlash(b), "./..."
	}
	return pat, "."
}

func isLocalPattern(pat string) bool {
	return pat == "." || pat == ".." || strings.HasPrefix(pat, "./") || strings.HasPrefix(pat, "../") || filepath.IsAbs(pat)
}

// listFields are the go list fields Resolve reads.
const listFields = "ImportPath,Dir,GoFiles,TestGoFiles,XTestGoFiles,IgnoredGoFiles,Imports,TestImports,XTestImports,Module,Error"

// listPackages runs go list on patterns in dir; its errors do not say
// which patterns (the caller does).
func listPackages(ctx context.Context, dir string, patterns []string, tags string) ([]*pkgInfo, error) {
	// With the build's tags: a fuzz test in a file behind a tag (gosnmp's
	// "marshal", udecimal's "fuzz") is there only with it. Without -tags,
	// those of GOFLAGS apply, as to go test.
	args := []string{"list", "-e"}
	if tags != "" {
		args = append(args, "-tags="+tags)
	}
	args = append(append(args, "-json="+listFields, "--"), patterns...)
	out, err := goOutput(ctx, dir, args...)
	if err != nil {
		return nil, err
	}
	var pkgs []*pkgInfo
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		p := new(pkgInfo)
		if err := dec.Decode(p); err != nil {
			return nil, fmt.Errorf("decoding its output: %w", err)
		}
		if p.Error != nil {
			return nil, fmt.Errorf("package %s: %s", p.ImportPath, p.Error.Err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}

// fuzzboxMain reports whether the binary bin was linked with fuzzbox's test
// main: it holds the name of one of its flags (ipc.FlagEventsFD). Its
// flags come in the environment (ipc.FlagsEnv), which a stock test main
// ignores, where an unknown flag on the command line said so.
func fuzzboxMain(bin string) (bool, error) {
	f, err := os.Open(bin)
	if err != nil {
		return false, fmt.Errorf("reading the fuzzing binary: %w", err)
	}
	defer f.Close()
	mark := []byte(ipc.FlagEventsFD)
	buf := make([]byte, 1<<20+len(mark))
	kept := 0 // the end of the previous read, for a mark across reads
	for {
		n, err := io.ReadFull(f, buf[kept:])
		if bytes.Contains(buf[:kept+n], mark) {
			return true, nil
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return false, nil
		}
		if err != nil {
			return false, fmt.Errorf("reading the fuzzing binary: %w", err)
		}
		kept = copy(buf, buf[kept+n-len(mark)+1:kept+n])
	}
}

// declaredFuzzTests returns the fuzz tests declared in p's test files, by
// the go command's rule (corpus.IsFuzzTestDecl).
func declaredFuzzTests(p *pkgInfo) []string {
	var names []string
	for _, f := range append(append([]string(nil), p.TestGoFiles...), p.XTestGoFiles...) {
		file, err := parser.ParseFile(token.NewFileSet(), filepath.Join(p.Dir, f), nil, parser.SkipObjectResolution)
		if file == nil {
			continue // unreadable: the build says why
		}
		_ = err // a partly broken file still lists what it declares
		for _, d := range file.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && corpus.IsFuzzTestDecl(fn) {
				names = append(names, fn.Name.Name)
			}
		}
	}
	return names
}

// listFuzzTests asks a fuzzing binary for its fuzz tests. A test binary
// built without fuzzbox's test main does not know fuzzbox's flags: that is
// reported as such rather than failing later. user are Config.userArgs: a
// TestMain may insist on its flags. what names the binary in errors.
func listFuzzTests(ctx context.Context, bin, what, dir string, user []string) ([]string, error) {
	if ok, err := fuzzboxMain(bin); err != nil {
		return nil, err
	} else if !ok {
		return nil, fmt.Errorf("%s is not a fuzzbox fuzzing binary: it was linked with the stock test main (build it with fuzzbox's test main: fuzzbox testmain, or the Bazel rules)", bin)
	}
	cmd := testCmd(dir, bin, user, "-test.list=^Fuzz", flagArg(ipc.FlagEventsFD, "-1"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := runChild(ctx, cmd)
	var names []string
	sc := bufio.NewScanner(&stdout)
	for sc.Scan() {
		if name := strings.TrimSpace(sc.Text()); corpus.IsFuzzTestName(name) {
			names = append(names, name)
		}
	}
	ee := (*exec.ExitError)(nil)
	if err != nil && !(errors.As(err, &ee) && len(names) > 0) {
		// A binary that listed its tests and then exited non-zero (a
		// TestMain's check after m.Run) is fuzzed, as go test -fuzz fuzzes
		// it and reports that exit after.
		return nil, fmt.Errorf("listing the fuzz tests of %s: %v%s", what, err, listingOutput(stderr.String(), ee != nil && len(user) == 0))
	}
	return names, nil
}

// listingLines is how much of a failed listing's output its error keeps.
const listingLines = 60

// listingOutput is what a fuzzing binary that failed to list its fuzz tests
// printed, for the error: a panic or fatal error whole (a package's init
// that panics: its stack says where, as go test shows it), up to
// listingLines lines, else its first line, with a hint when the binary may
// have wanted arguments (askHint: it exited, and none were given).
func listingOutput(stderr string, askHint bool) string {
	stderr = strings.TrimSpace(stderr)
	if !crashOutput(stderr) {
		hint := ""
		if askHint {
			hint = " (does a TestMain want flags or arguments? pass them after -args, as to go test)"
		}
		return ": " + firstLineOf(stderr) + hint
	}
	lines := strings.Split(stderr, "\n")
	if len(lines) > listingLines {
		lines = append(lines[:listingLines], fmt.Sprintf("[%d more lines]", len(lines)-listingLines))
	}
	return ":\n" + strings.Join(lines, "\n")
}

// crashOutput reports whether a process's output is the Go runtime's report
// of a panic or a fatal error.
func crashOutput(s string) bool {
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "panic: ") || strings.HasPrefix(l, "fatal error: ") || strings.HasPrefix(l, "fatal: ") {
			return true
		}
	}
	return false
}
