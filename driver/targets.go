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
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/fuzzbox/fuzzbox/corpus"
	"github.com/fuzzbox/fuzzbox/driver/build"
	"github.com/fuzzbox/fuzzbox/engine/ipc"
)

// A Target is one fuzz test of one fuzzing binary.
type Target struct {
	Package string // import path
	Name    string // FuzzX
	Binary  string // the fuzzing binary
	Dir     string // the package directory, where the binary runs
	dict    string // dictionary file for the run: Config.Dict plus the package's literals
}

func (t Target) String() string { return t.Package + "." + t.Name }

// listedPkg is what Resolve needs of go list: the fields the source-literal
// dictionary needs (build.LiteralSource) and the error.
type listedPkg struct {
	build.LiteralSource
	Error *struct{ Err string }
}

// Resolve returns the fuzz tests matching cfg.Fuzz in the packages matched
// by patterns, building each package that declares one into a fuzzing
// binary in workDir (which the caller removes when done). With cfg.Binary,
// nothing is built: patterns is the one package directory the binary
// belongs to ("." when empty).
func Resolve(ctx context.Context, cfg Config, patterns []string, workDir string) ([]Target, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	fuzzRE := regexp.MustCompile(cfg.Fuzz)
	if cfg.Binary != "" {
		return resolveBinary(ctx, cfg, patterns, fuzzRE, workDir)
	}
	var pkgs []listedPkg
	for _, pat := range patterns {
		goDir, rel := splitPattern(cfg.Dir, pat)
		ps, err := listPackages(ctx, goDir, rel, cfg.Tags)
		if err != nil {
			return nil, err
		}
		pkgs = append(pkgs, ps...)
	}
	var targets []Target
	var all []string
	for i, p := range pkgs {
		names := declaredFuzzTests(p)
		all = append(all, names...)
		if !anyMatch(fuzzRE, names) {
			continue
		}
		ts, err := buildTargets(ctx, cfg, p, fuzzRE, workDir, i)
		if err != nil {
			return nil, err
		}
		if len(ts) == 0 {
			// The source declares a match the binary does not list.
			return nil, fmt.Errorf("the test binary of %s lists no fuzz test matching -fuzz=%s, though its source declares %s: does a TestMain return without calling m.Run?",
				p.ImportPath, fuzzRE, strings.Join(names, ", "))
		}
		targets = append(targets, ts...)
	}
	return targets, matchError(fuzzRE, patterns, all, len(targets))
}

// matchError explains why no target was found, or returns nil.
func matchError(fuzzRE *regexp.Regexp, patterns, all []string, n int) error {
	switch {
	case len(all) == 0:
		return fmt.Errorf("%s: no fuzz tests", strings.Join(patterns, " "))
	case n == 0:
		return fmt.Errorf("-fuzz=%s matches no fuzz test in %s (fuzz tests: %s)", fuzzRE, strings.Join(patterns, " "), strings.Join(all, ", "))
	}
	return nil
}

// buildTargets builds package p (the i-th resolved) and returns its fuzz
// tests matching fuzzRE.
func buildTargets(ctx context.Context, cfg Config, p listedPkg, fuzzRE *regexp.Regexp, workDir string, i int) ([]Target, error) {
	toolexec, err := toolexecCommand(cfg)
	if err != nil {
		return nil, err
	}
	res, err := build.Build(ctx, build.Options{
		Dir: p.Dir, Package: ".", Out: filepath.Join(workDir, fmt.Sprintf("pkg%d.test", i)),
		Race: cfg.Race, Tags: cfg.Tags, Toolexec: toolexec, Stderr: cfg.stderr(),
	})
	if err != nil {
		return nil, err
	}
	dict, err := packageDict(cfg, func() [][]byte { return build.PackageLiterals(ctx, p.LiteralSource) }, filepath.Join(workDir, fmt.Sprintf("pkg%d.dict", i)))
	if err != nil {
		return nil, err
	}
	return listedTargets(ctx, res.Binary, res.PkgDir, res.ImportPath, dict, fuzzRE)
}

// listedTargets asks the binary for its fuzz tests and returns those
// matching fuzzRE.
func listedTargets(ctx context.Context, bin, dir, importPath, dict string, fuzzRE *regexp.Regexp) ([]Target, error) {
	names, err := listFuzzTests(ctx, bin, dir)
	if err != nil {
		return nil, err
	}
	var ts []Target
	for _, name := range names {
		if fuzzRE.MatchString(name) {
			ts = append(ts, Target{Package: importPath, Name: name, Binary: bin, Dir: dir, dict: dict})
		}
	}
	return ts, nil
}

// resolveBinary returns the targets of a prebuilt fuzzing binary.
func resolveBinary(ctx context.Context, cfg Config, patterns []string, fuzzRE *regexp.Regexp, workDir string) ([]Target, error) {
	if len(patterns) > 1 {
		return nil, errors.New("-bin: give the one package directory the binary was built from")
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
		return nil, err
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("-bin: package directory %s does not exist", dir)
	}
	bin, err := filepath.Abs(cfg.Binary)
	if err != nil {
		return nil, err
	}
	importPath := cfg.ImportPath
	if importPath == "" {
		importPath = guessImportPath(ctx, dir)
	}
	dict, err := packageDict(cfg, func() [][]byte { return build.SourceLiterals(dir, goFilesIn(dir)) }, filepath.Join(workDir, "bin.dict"))
	if err != nil {
		return nil, err
	}
	ts, err := listedTargets(ctx, bin, dir, importPath, dict, fuzzRE)
	if err == nil && len(ts) == 0 {
		err = fmt.Errorf("-fuzz=%s matches no fuzz test of %s", fuzzRE, cfg.Binary)
	}
	return ts, err
}

// guessImportPath asks the go command for dir's import path, and falls back
// to the directory itself (a Bazel sandbox may have no go command).
func guessImportPath(ctx context.Context, dir string) string {
	cmd := exec.CommandContext(ctx, "go", "list", "-f", "{{.ImportPath}}", ".")
	cmd.Dir = dir
	if out, err := cmd.Output(); err == nil {
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

// packageDict writes the run's dictionary for a package to path: the
// user's file plus the source literals (unless cfg.NoSourceDict), and
// returns path.
func packageDict(cfg Config, literals func() [][]byte, path string) (string, error) {
	var toks [][]byte
	if !cfg.NoSourceDict {
		toks = literals()
	}
	return path, writeDict(path, cfg.Dict, toks)
}

func toolexecCommand(cfg Config) ([]string, error) {
	if cfg.Fuzzbox != "" {
		return []string{cfg.Fuzzbox, "toolexec"}, nil
	}
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding fuzzbox for -toolexec: %w", err)
	}
	return []string{self, "toolexec"}, nil
}

func anyMatch(re *regexp.Regexp, names []string) bool {
	for _, n := range names {
		if re.MatchString(n) {
			return true
		}
	}
	return false
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

// listPackages runs go list on pattern in dir.
func listPackages(ctx context.Context, dir, pattern, tags string) ([]listedPkg, error) {
	// With the build's tags: a fuzz test in a file behind a tag (gosnmp's
	// "marshal", udecimal's "fuzz") is there only with it.
	cmd := exec.CommandContext(ctx, "go", "list", "-e", "-tags="+tags, "-json=ImportPath,Dir,GoFiles,TestGoFiles,XTestGoFiles,Imports,TestImports,XTestImports,Error", pattern)
	cmd.Dir = dir
	out, err := goOutput(cmd)
	if err != nil {
		return nil, fmt.Errorf("go list %s: %w", filepath.Join(dir, pattern), err)
	}
	var pkgs []listedPkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p listedPkg
		if err := dec.Decode(&p); err != nil {
			return nil, fmt.Errorf("go list: %w", err)
		}
		if p.Error != nil {
			return nil, fmt.Errorf("package %s: %s", p.ImportPath, p.Error.Err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}

// declaredFuzzTests returns the Fuzz functions declared in p's test files,
// a cheap filter before the (instrumented, so costly) build.
func declaredFuzzTests(p listedPkg) []string {
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
// reported as such rather than failing later.
func listFuzzTests(ctx context.Context, bin, dir string) ([]string, error) {
	cmd := exec.CommandContext(ctx, bin, "-test.list=^Fuzz", flagArg(ipc.FlagEventsFD, "-1"))
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if strings.Contains(stderr.String(), "flag provided but not defined: -fuzzbox.") {
		return nil, fmt.Errorf("%s is not a fuzzbox fuzzing binary: it was linked with the stock test main (build it with fuzzbox's test main: fuzzbox testmain, or the Bazel rules)", bin)
	}
	if err != nil {
		return nil, fmt.Errorf("listing the fuzz tests of %s: %v: %s", bin, err, firstLineOf(stderr.String()))
	}
	var names []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if name := strings.TrimSpace(sc.Text()); corpus.IsFuzzTestName(name) {
			names = append(names, name)
		}
	}
	return names, nil
}
