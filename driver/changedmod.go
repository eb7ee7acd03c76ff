package driver

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// changedModules returns the modules a change of a go.mod among files
// affects: each module whose requirement or replacement differs between
// base's go.mod and the working tree's (a dependency update), and the
// module of a go.mod whose go, toolchain or godebug lines, which every
// package of it is built with, differ. A go.mod new or removed since base
// is left to the files that come or go with it; one under a testdata
// directory is a test's fixture.
func changedModules(ctx context.Context, dir, root, base string, files []string) (map[string]bool, error) {
	mods := map[string]bool{}
	for _, f := range files {
		if filepath.Base(f) != "go.mod" || packageDir(root, f) != filepath.Dir(f) { // not a test's fixture under testdata
			continue
		}
		rel, err := filepath.Rel(root, f)
		if err != nil {
			return nil, err
		}
		old, err := gitOutput(ctx, dir, "show", base+":"+filepath.ToSlash(rel))
		if err != nil {
			// New since base, or git failed: only the first is no change.
			listed, lerr := gitOutput(ctx, dir, "ls-tree", "--full-tree", "--name-only", "-z", base, "--", filepath.ToSlash(rel))
			if lerr == nil && listed == "" {
				continue
			}
			return nil, fmt.Errorf("reading %s at %s: %w", rel, base, err)
		}
		before, err := readGoMod(ctx, dir, []byte(old))
		if err != nil {
			return nil, fmt.Errorf("%s at %s: %w", rel, base, err)
		}
		now, err := os.ReadFile(f)
		if os.IsNotExist(err) {
			continue // removed
		} else if err != nil {
			return nil, err
		}
		after, err := readGoMod(ctx, dir, now)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", rel, err)
		}
		for m := range before.moved(after) {
			mods[m] = true
		}
	}
	return mods, nil
}

// goMod is what changedModules reads of go mod edit -json.
type goMod struct {
	Module    struct{ Path string }
	Go        string
	Toolchain string
	GoDebug   []struct{ Key, Value string }
	Require   []struct{ Path, Version string }
	Replace   []struct {
		Old, New struct{ Path, Version string }
	}
}

// readGoMod parses a go.mod file's text with the go command.
func readGoMod(ctx context.Context, dir string, text []byte) (*goMod, error) {
	tmp, err := os.CreateTemp("", "fuzzbox-go.mod-")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(text)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	out, err := goOutput(ctx, dir, "mod", "edit", "-json", tmp.Name())
	if err != nil {
		return nil, err
	}
	var m goMod
	if err := json.Unmarshal(out, &m); err != nil {
		return nil, fmt.Errorf("go mod edit -json: %w", err)
	}
	return &m, nil
}

// moved returns the modules whose requirement or replacement differs
// between m and after, and m's own module when its go, toolchain or
// godebug lines do.
func (m *goMod) moved(after *goMod) map[string]bool {
	diff := map[string]bool{}
	if m.Go != after.Go || m.Toolchain != after.Toolchain || !slices.Equal(m.GoDebug, after.GoDebug) {
		diff[m.Module.Path], diff[after.Module.Path] = true, true
	}
	before, now := m.requirements(), after.requirements()
	for _, r := range []map[string]string{before, now} {
		for path := range r {
			if before[path] != now[path] {
				diff[path] = true
			}
		}
	}
	return diff
}

// requirements maps each module of m's require and replace lines to what
// they say of it: its version, and what replaces it (at which version).
func (m *goMod) requirements() map[string]string {
	r := map[string]string{}
	for _, q := range m.Require {
		r[q.Path] = q.Version
	}
	for _, q := range m.Replace {
		r[q.Old.Path] += " " + strings.Join([]string{q.Old.Version, "=>", q.New.Path, q.New.Version}, " ")
	}
	return r
}
