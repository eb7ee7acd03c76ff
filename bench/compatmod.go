package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// This file finds where a compat package's commands run: a writable copy of
// a module out of the module proxy, or, for a standard library package, a
// scratch directory (and GOROOT for go test -fuzz).

// A compatLoc says where one package's commands run.
type compatLoc struct {
	dir    string // where go test (tests, replays) and fuzzbox run
	target string // their package argument: "." or a standard library import path
	// pkgDir is the package's own directory: fuzzbox and go test -fuzz write
	// reproducers to its testdata/fuzz, and go test -fuzz runs there with
	// "." (it fuzzes a package of the main module only; for the standard
	// library that is GOROOT/src).
	pkgDir string
	// env is added to every command's environment: GOWORK=off for a
	// module copy (a go.work file in a module zip names nested modules the
	// zip leaves out), GOFLAGS=-mod=mod when its go.sum lacks sums its tests
	// need, and the list's settings of the package (GOEXPERIMENT).
	env []string
}

// locate returns where p's commands run, copying its module first if this
// run has not yet.
func (env *compatEnv) locate(ctx context.Context, p compatPkg) (compatLoc, error) {
	if p.std() {
		scratch := filepath.Join(env.work, "std-scratch")
		if err := os.MkdirAll(scratch, 0o777); err != nil {
			return compatLoc{}, fmt.Errorf("scratch directory: %w", err)
		}
		// Both take a standard library package by import path from
		// anywhere, as users run them; go test -fuzz does not (below).
		return compatLoc{dir: scratch, target: p.pkg, pkgDir: filepath.Join(goEnv("GOROOT"), "src", filepath.FromSlash(p.pkg)), env: p.env}, nil
	}
	root := filepath.Join(env.work, fileName(p.module))
	if _, err := os.Stat(root); err != nil {
		if err := copyModule(ctx, p.module, root); err != nil {
			return compatLoc{}, err
		}
		if env.cfg.compatVendor {
			if err := vendorModule(ctx, root); err != nil {
				return compatLoc{}, err
			}
		}
	}
	dir := filepath.Join(root, filepath.FromSlash(p.pkg))
	loc := compatLoc{dir: dir, target: ".", pkgDir: dir, env: append([]string{"GOWORK=off"}, p.env...)}
	if env.cfg.compatVendor {
		// Offline: the vendor directory is all there is.
		loc.env = append(loc.env, "GOPROXY=off", "GOMODCACHE="+filepath.Join(env.work, "empty-modcache"), "GOFLAGS=-modcacherw")
	}
	return loc, nil
}

// vendorModule runs go mod vendor in the module copy root, after go mod
// download when its go.sum lacks sums that needs.
func vendorModule(ctx context.Context, root string) error {
	run := func(args ...string) ([]byte, error) {
		cmd := exec.CommandContext(ctx, "go", args...)
		cmd.Dir, cmd.Env = root, append(os.Environ(), "GOWORK=off")
		return cmd.CombinedOutput()
	}
	out, err := run("mod", "vendor")
	if err != nil && missingSum(string(out)) {
		if out, err = run("mod", "download"); err == nil {
			out, err = run("mod", "vendor")
		}
	}
	if err != nil {
		return fmt.Errorf("go mod vendor: %v: %s", err, firstLine(string(out)))
	}
	return nil
}

// copyModule downloads module@version through the module proxy and copies
// it to root, writable.
func copyModule(ctx context.Context, module, root string) error {
	out, err := exec.CommandContext(ctx, "go", "mod", "download", "-json", module).Output()
	var info struct{ Dir, Error string }
	if jerr := json.Unmarshal(out, &info); info.Dir == "" {
		return fmt.Errorf("go mod download %s: %s", module, firstNonEmpty(info.Error, errText(err, jerr)))
	}
	if err := os.CopyFS(root, os.DirFS(info.Dir)); err != nil {
		return fmt.Errorf("copying %s: %w", module, err)
	}
	return filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if d.IsDir() {
			mode = 0o755
		}
		return os.Chmod(p, mode)
	})
}

func errText(errs ...error) string {
	for _, err := range errs {
		if err != nil {
			return err.Error()
		}
	}
	return "no module directory"
}

// missingSum reports whether go command output says the module's go.sum
// lacks an entry its tests need.
func missingSum(out string) bool {
	return strings.Contains(out, "missing go.sum entry")
}

// fetchSums runs go mod download in the module copy that holds dir, which
// records the sums of the modules its packages and tests need.
func fetchSums(ctx context.Context, loc compatLoc) error {
	cmd := exec.CommandContext(ctx, "go", "mod", "download")
	cmd.Dir, cmd.Env = loc.dir, append(os.Environ(), loc.env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go mod download: %v: %s", err, firstLine(string(out)))
	}
	return nil
}

// testdataGuard removes what runs add to a package's testdata directory
// (reproducers of fuzzbox and of go test -fuzz), so that every run starts
// from the package's own seeds.
type testdataGuard struct {
	dir  string        // the package's testdata directory
	snap *treeSnapshot // nil when the package had none
}

func guardTestdata(pkgDir string) (*testdataGuard, error) {
	g := &testdataGuard{dir: filepath.Join(pkgDir, "testdata")}
	if _, err := os.Stat(g.dir); err != nil {
		return g, nil
	}
	snap, err := snapshot(g.dir)
	if err != nil {
		return nil, err
	}
	g.snap = snap
	return g, nil
}

// restore removes every file and directory added since guardTestdata.
func (g *testdataGuard) restore() error {
	if g.snap == nil {
		return os.RemoveAll(g.dir)
	}
	return g.snap.restore()
}

// fileName turns a module or package path into a file name.
func fileName(s string) string {
	return strings.NewReplacer("/", "_", "@", "_", " ", "_", "(", "", ")", "", "=", "-").Replace(s)
}

// goEnv returns the go command's value of the variable name, "" when it
// cannot say.
func goEnv(name string) string {
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
