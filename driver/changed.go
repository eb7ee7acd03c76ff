package driver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// Changed returns the import paths of the packages matched by patterns (in
// dir) that are affected by the files changed since the git revision base:
// a package whose directory holds a changed file (or whose testdata
// directory does, or that embeds one), or whose module's requirement or
// replacement a changed go.mod moved (a dependency update), or every
// package of a module whose go.mod changed its go, toolchain or godebug
// lines (a go.mod or go.sum change touches nothing else); and every
// package whose test binary holds one of those whose code changed (its
// code's imports and its tests', transitively). A change to a package's
// tests or testdata alone affects that package only. The changed files are git's diff of the working tree
// against where the checked-out branch left base (their merge base), so
// uncommitted changes count and base's own later commits do not.
func Changed(ctx context.Context, dir, base string, patterns []string) ([]string, error) {
	pkgs, _, err := changed(ctx, dir, base, patterns)
	return pkgs, err
}

// changed is Changed, which also returns the repository's top directory.
func changed(ctx context.Context, dir, base string, patterns []string) (pkgs []string, root string, err error) {
	base = forkPoint(ctx, dir, base)
	files, root, err := changedFiles(ctx, dir, base)
	if err != nil {
		return nil, "", err
	}
	// dirs holds the directories of packages whose code changed, which
	// affects their importers too; testDirs those whose tests or testdata
	// changed, which affects no other package; otherDirs those with a
	// changed file the go command does not build (a README, a Makefile),
	// which only the package's tests may read, unless cgo's C code
	// includes it.
	dirs, testDirs, otherDirs, changedFile := map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, f := range files {
		changedFile[f] = true
		d := packageDir(root, f)
		name := filepath.Base(f)
		switch {
		case d == filepath.Dir(f) && (name == "go.mod" || name == "go.sum"):
			// changedModules reads what changed in them
		case d != filepath.Dir(f) || strings.HasSuffix(name, "_test.go"):
			testDirs[d] = true
		case !buildFile(name):
			otherDirs[d] = true // embedded ones: changedIn below
		default:
			dirs[d] = true
		}
	}
	mods, err := changedModules(ctx, dir, root, base, files)
	if err != nil {
		return nil, "", err
	}
	// One go list: every package the build can reach ("all"), each
	// marked with the patterns it matches.
	all, err := listDeps(ctx, dir, append([]string{"all"}, patterns...))
	if err != nil {
		return nil, "", err
	}
	changedIn := func(dir string, names []string) bool {
		return slices.ContainsFunc(names, func(f string) bool { return changedFile[filepath.Join(dir, f)] })
	}
	touched, byPath := map[string]bool{}, map[string]*listedPackage{}
	for i, p := range all {
		byPath[p.ImportPath] = &all[i]
		if dirs[p.Dir] || otherDirs[p.Dir] && len(p.CgoFiles) > 0 || p.Module != nil && mods[p.Module.Path] || changedIn(p.Dir, p.EmbedFiles) {
			touched[p.ImportPath] = true
		}
	}
	for _, p := range all {
		if !slices.ContainsFunc(p.Match, func(m string) bool { return m != "all" }) {
			continue
		}
		if testDirs[p.Dir] || otherDirs[p.Dir] || changedIn(p.Dir, slices.Concat(p.TestEmbedFiles, p.XTestEmbedFiles)) ||
			slices.ContainsFunc(testDeps(p, byPath), func(d string) bool { return touched[d] }) {
			pkgs = append(pkgs, p.ImportPath)
		}
	}
	return pkgs, root, nil
}

// testDeps returns the packages p's test binary holds: p, its code's
// dependencies, and its tests' imports with theirs (byPath: the listing,
// which holds every package the build can reach).
func testDeps(p listedPackage, byPath map[string]*listedPackage) []string {
	deps := slices.Concat([]string{p.ImportPath}, p.Deps)
	for _, imp := range slices.Concat(p.TestImports, p.XTestImports) {
		deps = append(deps, imp)
		if q := byPath[imp]; q != nil {
			deps = append(deps, q.Deps...)
		}
	}
	return deps
}

// buildFile reports whether the go command may build a file of this name
// into a package: Go, assembly, cgo's C, C++, Objective-C and Fortran
// sources and headers, SWIG and .syso files (go help filetype), and
// go.work. A change to any other file beside a package's sources (a
// README.md beside the root package changed go-ethereum's two importers'
// binaries, rlp/NOTES.md its sixteen) cannot change its importers' code.
func buildFile(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".go", ".s", ".sx", ".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp", ".hxx", ".m",
		".f", ".for", ".f90", ".syso", ".swig", ".swigcxx":
		return true
	}
	return name == "go.work" || filepath.Ext(name) == ".S" || filepath.Ext(name) == ".F"
}

// packageDir returns the directory of the package a changed file of the
// repository at root belongs to: its own, or for a file under a testdata
// directory (seeds, reproducers, golden files), the one that holds the
// outermost testdata directory.
func packageDir(root, file string) string {
	rel, err := filepath.Rel(root, file)
	if err != nil {
		return filepath.Dir(file)
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	if i := slices.Index(parts[:len(parts)-1], "testdata"); i >= 0 {
		return filepath.Join(root, filepath.FromSlash(strings.Join(parts[:i], "/")))
	}
	return filepath.Dir(file)
}

// listedPackage is what Changed reads of go list -json.
type listedPackage struct {
	ImportPath      string
	Dir             string
	Module          *struct{ Path string }
	Deps            []string
	TestImports     []string
	XTestImports    []string
	EmbedFiles      []string
	CgoFiles        []string
	TestEmbedFiles  []string
	XTestEmbedFiles []string
	Match           []string // the patterns that matched it
}

func listDeps(ctx context.Context, dir string, patterns []string) ([]listedPackage, error) {
	args := append([]string{"list", "-e", "-json=ImportPath,Dir,Module,Deps,TestImports,XTestImports,EmbedFiles,CgoFiles,TestEmbedFiles,XTestEmbedFiles,Match"}, patterns...)
	out, err := goOutput(ctx, dir, args...)
	if err != nil {
		return nil, fmt.Errorf("go list: %w", err)
	}
	var pkgs []listedPackage
	for d := json.NewDecoder(bytes.NewReader(out)); ; {
		var p listedPackage
		if err := d.Decode(&p); errors.Is(err, io.EOF) {
			return pkgs, nil
		} else if err != nil {
			return nil, fmt.Errorf("go list: %w", err)
		}
		pkgs = append(pkgs, p)
	}
}

// forkPoint returns the revision a change is compared with: where the
// checked-out branch left base (git merge-base), so that what base gained
// since is not taken for the change (a merge request's branch pipeline,
// its target branch moved on); base itself when git finds no such commit
// (a shallow clone, unrelated histories, no such revision: git diff then
// says so).
func forkPoint(ctx context.Context, dir, base string) string {
	out, err := gitOutput(ctx, dir, "merge-base", base, "HEAD")
	if mb := strings.TrimSpace(out); err == nil && mb != "" {
		return mb
	}
	return base
}

// changedFiles returns the absolute paths of the files that differ between
// base and the working tree of dir's git repository, and its top directory.
func changedFiles(ctx context.Context, dir, base string) (files []string, root string, err error) {
	git := func(args ...string) (string, error) { return gitOutput(ctx, dir, args...) }
	out, err := git("rev-parse", "--show-toplevel")
	if err != nil {
		return nil, "", err
	}
	root = strings.TrimSpace(out)
	// -z: names as they are, NUL-terminated (not quoted, whatever
	// characters they hold, spaces included).
	diff, err := git("diff", "--name-only", "-z", "--no-renames", base, "--")
	if err != nil {
		return nil, "", fmt.Errorf("-base %s: %w", base, err)
	}
	untracked, err := git("ls-files", "-z", "--others", "--exclude-standard", "--full-name", ":/")
	if err != nil {
		return nil, "", err
	}
	for _, f := range strings.Split(diff+untracked, "\x00") {
		if f != "" {
			files = append(files, filepath.Join(root, filepath.FromSlash(f)))
		}
	}
	return files, root, nil
}

// gitOutput runs git in dir and returns its standard output.
func gitOutput(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	out, err := output(cmd)
	if err != nil {
		return "", fmt.Errorf("git %s: %w", args[0], err)
	}
	return string(out), nil
}
