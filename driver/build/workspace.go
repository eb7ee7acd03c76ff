package build

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
)

// Builds in workspace mode.
//
// The runtime module normally joins the build through a copy of the user's
// go.mod (-modfile), with GOWORK off. Two kinds of module are built
// differently by go test, and so by fuzzbox:
//
//   - A module of a go.work workspace (GOWORK set by the go command): its
//     requirements may be other workspace modules that no proxy serves.
//     fuzzbox writes a copy of the workspace file with absolute paths and
//     the runtime module added to its use list.
//   - A module with a vendor directory (go 1.14 or later, no -mod=mod or
//     -mod=readonly in GOFLAGS): go test compiles the vendored copies, and
//     may have no module cache or network at all. vendor/modules.txt, which
//     the go command checks against go.mod, cannot list the runtime module
//     without touching the user's files, but a workspace's vendor directory
//     lies beside its go.work: fuzzbox writes a workspace of the module and
//     the runtime, with a vendor directory whose modules.txt is the module's
//     (marked as a workspace's) and whose other entries are links to the
//     module's vendored directories.
//
// The workspace is written to a directory under the user cache directory
// named after the user's go.work or go.mod, so that repeated builds compile
// vendored packages from the same paths and hit the go build cache.

// addRuntime adds the runtime module to the build of the user's package:
// it returns the go command flags, and sets GOWORK (and pathMapEnv) in
// g.env.
func (g *goCmd) addRuntime(ctx context.Context, tmp string) ([]string, error) {
	if g.gomod == "" || g.gomod == os.DevNull {
		return nil, errors.New("build: not in a module; fuzzbox needs a go.mod")
	}
	users := g.gowork != "" && g.gowork != "off"
	if !users {
		v, err := g.vendored(ctx)
		if err != nil {
			return nil, err
		}
		if !v {
			return g.moduleFile(ctx, tmp)
		}
	}
	env, err := g.writeWorkspace(ctx, users)
	if errors.Is(err, errNoLinks) && !users {
		// Where links cannot be made (Windows without the privilege), the
		// vendored module is built from the module cache, as before.
		return g.moduleFile(ctx, tmp)
	}
	if err != nil {
		return nil, err
	}
	g.env = append(g.env, env...)
	return nil, nil
}

// moduleFile adds the runtime module through a copy of go.mod
// (writeModFile), outside any workspace.
func (g *goCmd) moduleFile(ctx context.Context, tmp string) ([]string, error) {
	g.env = append(g.env, "GOWORK=off")
	return g.writeModFile(ctx, tmp)
}

// vendored reports whether go test builds the main module from its vendor
// directory: one exists, and GOFLAGS asks for it (-mod=vendor) or does not
// ask for the module cache and the module's go line is 1.14 or later.
func (g *goCmd) vendored(ctx context.Context) (bool, error) {
	if fi, err := os.Stat(filepath.Join(filepath.Dir(g.gomod), "vendor")); err != nil || !fi.IsDir() {
		return false, nil
	}
	switch g.goflag("mod") {
	case "mod", "readonly":
		return false, nil
	case "vendor":
		return true, nil
	}
	var m goWork
	if err := g.editJSON(ctx, "mod", g.gomod, &m); err != nil {
		return false, err
	}
	minor, ok := goMinor("go" + m.Go)
	return ok && minor >= 14, nil
}

// workDir returns the directory the workspace for source (the user's
// go.work or go.mod) is written to.
func workDir(source string) (string, error) {
	sum := sha256.Sum256([]byte(source))
	return filepath.Join(UserCacheDir(), "fuzzbox", "work", hex.EncodeToString(sum[:12])), nil
}

// writeWorkspace writes the workspace the build uses and returns the
// environment that selects it: GOWORK, and with a vendor directory the
// rewrite of its paths (pathMapEnv).
func (g *goCmd) writeWorkspace(ctx context.Context, users bool) ([]string, error) {
	rt, err := runtimeDir()
	if err != nil {
		return nil, fmt.Errorf("build: %w", err)
	}
	source, sums := g.gomod, ""
	if users {
		source, sums = g.gowork, filepath.Join(filepath.Dir(g.gowork), "go.work.sum")
	}
	dir, err := workDir(source)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, fmt.Errorf("build: %w", err)
	}
	var work []byte
	if users {
		work, err = g.userWork(ctx, rt, dir)
	} else {
		work, err = g.moduleWork(ctx, rt)
	}
	if err != nil {
		return nil, err
	}
	gowork := filepath.Join(dir, "go.work")
	if err := writeIfChanged(gowork, work); err != nil {
		return nil, err
	}
	if err := copyOrRemove(sums, filepath.Join(dir, "go.work.sum")); err != nil {
		return nil, err
	}
	vendor, mirror := filepath.Join(filepath.Dir(source), "vendor"), filepath.Join(dir, "vendor")
	ok, err := mirrorVendor(vendor, mirror, !users)
	if err != nil || !ok {
		return []string{"GOWORK=" + gowork}, err
	}
	return []string{"GOWORK=" + gowork, pathMapEnv + "=" + mirror + "=>" + vendor}, nil
}

// goWork is the part of "go work edit -json" and "go mod edit -json" output
// writeWorkspace uses.
type goWork struct {
	Go        string
	Toolchain string
	Godebug   []struct{ Key, Value string }
	Use       []struct{ DiskPath string }
	Replace   []struct {
		Old struct{ Path, Version string }
		New struct{ Path, Version string }
	}
}

// userWork returns the user's go.work, to be written in dir, with the
// runtime module rt used. Its directories are absolute, but for those of
// replacements: relative to dir, as relocateReplacements makes them in the
// vendor directory's modules.txt, with which the go command compares them.
func (g *goCmd) userWork(ctx context.Context, rt, dir string) ([]byte, error) {
	var w goWork
	if err := g.editJSON(ctx, "work", g.gowork, &w); err != nil {
		return nil, err
	}
	if w.Toolchain == "" && len(w.Godebug) == 0 {
		// go work edit -json (Go 1.26) prints neither: a godebug line of
		// go.work was left out of the build, and a seed that needs it
		// failed only in fuzzbox's binary.
		data, err := os.ReadFile(g.gowork)
		if err != nil {
			return nil, fmt.Errorf("build: %w", err)
		}
		w.Toolchain, w.Godebug = workDirectives(data)
	}
	base := filepath.Dir(g.gowork)
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(base, p)
	}
	var b bytes.Buffer
	writeHeader(&b, w)
	for _, u := range w.Use {
		fmt.Fprintf(&b, "use %q\n", abs(u.DiskPath))
	}
	fmt.Fprintf(&b, "use %q\n", rt)
	for _, r := range w.Replace {
		old := r.Old.Path
		if r.Old.Version != "" {
			old += " " + r.Old.Version
		}
		if r.New.Version != "" {
			fmt.Fprintf(&b, "replace %s => %s %s\n", old, r.New.Path, r.New.Version)
			continue
		}
		to := r.New.Path
		if !filepath.IsAbs(to) {
			to = dirPath(dir, abs(to))
		}
		fmt.Fprintf(&b, "replace %s => %q\n", old, to)
	}
	return b.Bytes(), nil
}

// workDirectives reads the toolchain and godebug lines of a go.work file
// (godebug k=v, or a block of k=v lines).
func workDirectives(data []byte) (toolchain string, godebug []struct{ Key, Value string }) {
	block := false
	for _, line := range strings.Split(string(data), "\n") {
		line, _, _ = strings.Cut(line, "//")
		f := strings.Fields(line)
		switch {
		case len(f) == 0:
		case block && f[0] == ")":
			block = false
		case block:
			if k, v, ok := strings.Cut(f[0], "="); ok {
				godebug = append(godebug, struct{ Key, Value string }{k, v})
			}
		case f[0] == "toolchain" && len(f) == 2:
			toolchain = f[1]
		case f[0] == "godebug" && len(f) == 2 && f[1] == "(", f[0] == "godebug(" && len(f) == 1:
			block = true
		case f[0] == "godebug" && len(f) == 2:
			if k, v, ok := strings.Cut(f[1], "="); ok {
				godebug = append(godebug, struct{ Key, Value string }{k, v})
			}
		}
	}
	return toolchain, godebug
}

// moduleWork returns a workspace of the vendored main module and the runtime
// module rt. Its go, toolchain and godebug lines are the module's: in
// workspace mode the go command takes GODEBUG defaults from go.work, not
// go.mod.
func (g *goCmd) moduleWork(ctx context.Context, rt string) ([]byte, error) {
	var m goWork
	if err := g.editJSON(ctx, "mod", g.gomod, &m); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	writeHeader(&b, m)
	fmt.Fprintf(&b, "use %q\nuse %q\n", filepath.Dir(g.gomod), rt)
	return b.Bytes(), nil
}

func writeHeader(b *bytes.Buffer, w goWork) {
	fmt.Fprintf(b, "// Written by fuzzbox for its builds; not yours to edit.\n\ngo %s\n", w.Go)
	if w.Toolchain != "" {
		fmt.Fprintf(b, "toolchain %s\n", w.Toolchain)
	}
	for _, d := range w.Godebug {
		fmt.Fprintf(b, "godebug %s=%s\n", d.Key, d.Value)
	}
}

// editJSON reads file with "go mod|work edit -json".
func (g *goCmd) editJSON(ctx context.Context, kind, file string, v any) error {
	out, err := g.output(ctx, kind, "edit", "-json", file)
	if err != nil {
		return fmt.Errorf("build: reading %s: %w", file, err)
	}
	if err := json.Unmarshal(out, v); err != nil {
		return fmt.Errorf("build: reading %s: %w", file, err)
	}
	return nil
}

// mirrorVendor makes dst a vendor directory with src's modules.txt (marked
// as a workspace's when mark is set, its replacements by directories made
// relative to dst's: relocateReplacements) and, for every other entry of
// src, a link to it. Without src, dst is removed. It reports whether src
// exists.
func mirrorVendor(src, dst string, mark bool) (bool, error) {
	entries, err := os.ReadDir(src)
	if errors.Is(err, os.ErrNotExist) {
		if err := os.RemoveAll(dst); err != nil {
			return false, fmt.Errorf("build: %w", err)
		}
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("build: %w", err)
	}
	if err := os.MkdirAll(dst, 0o777); err != nil {
		return false, fmt.Errorf("build: %w", err)
	}
	want := map[string]bool{"modules.txt": true}
	for _, e := range entries {
		if e.Name() == "modules.txt" {
			continue
		}
		want[e.Name()] = true
		if err := linkTo(filepath.Join(src, e.Name()), filepath.Join(dst, e.Name())); err != nil {
			return false, err
		}
	}
	modules, err := os.ReadFile(filepath.Join(src, "modules.txt"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return false, fmt.Errorf("build: %w", err)
	}
	modules = relocateReplacements(modules, filepath.Dir(src), filepath.Dir(dst))
	if mark {
		modules = append([]byte("## workspace\n"), modules...)
	}
	if err := writeIfChanged(filepath.Join(dst, "modules.txt"), modules); err != nil {
		return false, err
	}
	return true, removeOthers(dst, want)
}

// removeOthers removes the entries of dir that want does not name (a
// vendored directory gone since the last build), but for names starting with
// a dot: other builds' links in the making.
func removeOthers(dir string, want map[string]bool) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("build: %w", err)
	}
	for _, e := range ents {
		if !want[e.Name()] && !strings.HasPrefix(e.Name(), ".") {
			if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
				return fmt.Errorf("build: %w", err)
			}
		}
	}
	return nil
}

// relocateReplacements rewrites the replacements by relative directories in
// a modules.txt written beside from, so that they say the same beside to:
// the go command checks them against go.mod's, made relative to the
// workspace's directory in workspace mode and left as written in a module.
func relocateReplacements(modules []byte, from, to string) []byte {
	lines := strings.Split(string(modules), "\n")
	for i, line := range lines {
		head, dir, ok := strings.Cut(line, " => ")
		if !ok || !strings.HasPrefix(line, "# ") || strings.Contains(dir, " ") || !(strings.HasPrefix(dir, "./") || strings.HasPrefix(dir, "../")) {
			continue // not a replacement by a relative directory
		}
		lines[i] = head + " => " + dirPath(to, filepath.Join(from, filepath.FromSlash(dir)))
	}
	return []byte(strings.Join(lines, "\n"))
}

// dirPath returns target as a replacement's directory written in dir: a
// path relative to dir, starting with ./ or ../, or absolute when there is
// none (another volume).
func dirPath(dir, target string) string {
	rel, err := filepath.Rel(dir, target)
	if err != nil {
		return target
	}
	rel = filepath.ToSlash(rel)
	if rel != ".." && !strings.HasPrefix(rel, "../") {
		rel = "./" + rel
	}
	return rel
}

// errNoLinks is linkTo's error when the system refuses a symbolic link.
var errNoLinks = errors.New("making a link to a vendored directory")

// linkTo makes link a symbolic link to target, unless it is one already.
// Concurrent builds (fuzzbox fuzz builds its race twin beside the main
// binary) may make the same link: each makes it under a name of its own,
// starting with a dot, and renames it over link.
func linkTo(target, link string) error {
	if got, err := os.Readlink(link); err == nil && got == target {
		return nil
	}
	tmp := tmpName(link)
	if err := os.Symlink(target, tmp); err != nil {
		return fmt.Errorf("build: %w: %w", errNoLinks, err)
	}
	if err := os.Rename(tmp, link); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("build: %w", err)
	}
	return nil
}

// tmpSeq tells apart the temporary names of one process's concurrent builds.
var tmpSeq atomic.Int64

// tmpName returns a name, in path's directory, that no other build uses at
// the same time.
func tmpName(path string) string {
	return filepath.Join(filepath.Dir(path), fmt.Sprintf(".%s.%d-%d", filepath.Base(path), os.Getpid(), tmpSeq.Add(1)))
}

// writeIfChanged writes data to file unless it holds that already, through
// a temporary file renamed over it.
func writeIfChanged(file string, data []byte) error {
	if old, err := os.ReadFile(file); err == nil && bytes.Equal(old, data) {
		return nil
	}
	tmp := tmpName(file)
	if err := os.WriteFile(tmp, data, 0o666); err != nil {
		return fmt.Errorf("build: %w", err)
	}
	if err := os.Rename(tmp, file); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("build: %w", err)
	}
	return nil
}

// copyOrRemove copies from to to, or removes to when from is "" or does not
// exist.
func copyOrRemove(from, to string) error {
	var data []byte
	err := os.ErrNotExist
	if from != "" {
		data, err = os.ReadFile(from)
	}
	switch {
	case errors.Is(err, os.ErrNotExist):
		if err := os.Remove(to); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("build: %w", err)
		}
		return nil
	case err != nil:
		return fmt.Errorf("build: %w", err)
	}
	return writeIfChanged(to, data)
}
