package build

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/fuzzbox/fuzzbox"
)

// runtimeModule is the module path of fuzzbox, and so of its runtime packages.
const runtimeModule = "github.com/fuzzbox/fuzzbox"

// runtimeGoMod is the go.mod of the extracted runtime module. Its go line is
// deliberately old: the go command refuses a dependency whose go line is
// newer than the main module's ("updates to go.mod needed"), and a user's
// module may declare any version. Toolexec compiles the runtime packages with
// -lang=runtimeLang instead, so the go line changes nothing else (the runtime
// has no requirements, and GODEBUG defaults come from the main module).
const runtimeGoMod = "module " + runtimeModule + "\n\ngo 1.11\n"

// runtimeDirOverride, when set, is used as the runtime module instead of the
// embedded source (tests point it at a fake runtime).
var runtimeDirOverride string

// runtimeDir returns the directory of the runtime module, extracting the
// embedded source under the user cache directory on first use.
func runtimeDir() (string, error) {
	if runtimeDirOverride != "" {
		return runtimeDirOverride, nil
	}
	dir := extractedRuntime()
	if err := extractRuntime(fuzzbox.RuntimeFS(), dir); err != nil {
		return "", fmt.Errorf("extracting the fuzzbox runtime source: %w", err)
	}
	return dir, nil
}

// extractedRuntime returns where runtimeDir extracts the runtime module:
// a directory of the user cache named by the source's hash.
func extractedRuntime() string {
	sum := sha256.Sum256([]byte(fuzzbox.RuntimeHash() + "\x00" + runtimeGoMod))
	return filepath.Join(UserCacheDir(), "fuzzbox", "runtime", hex.EncodeToString(sum[:16]))
}

// runtimePathMap is the -trimpath rewrite a runtime package's compile gets:
// the extracted module's files are recorded under the module's path, as a
// -trimpath build records a module's. Otherwise the binary names the user
// cache directory, and the binaries of two machines or users that differ
// only there are different files: synced instances then cannot take each
// other's recorded coverage (engine/synccov.go), and every import costs a
// worker's run. The user sees no difference: a report leaves fuzzbox's
// frames out. fuzzbox's own checkout, where the runtime packages are the
// main module's, is not under that directory and keeps its paths.
func runtimePathMap() string {
	return extractedRuntime() + "=>" + runtimeModule
}

// extractRuntime writes the runtime files of src and runtimeGoMod to dir,
// unless dir exists. It writes a temporary directory and renames it, so dir
// is complete whenever it exists, also with concurrent fuzzbox processes.
func extractRuntime(src fs.FS, dir string) error {
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o777); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".tmp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp) // a no-op after a successful rename
	if err := copyRuntime(src, tmp); err != nil {
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, statErr := os.Stat(dir); statErr == nil {
			return nil // another process won the race
		}
		return err
	}
	return nil
}

func copyRuntime(src fs.FS, dst string) error {
	n := 0
	err := fs.WalkDir(src, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !fuzzbox.IsRuntimeFile(name) {
			return err
		}
		data, err := fs.ReadFile(src, name)
		if err != nil {
			return err
		}
		n++
		out := filepath.Join(dst, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(out), 0o777); err != nil {
			return err
		}
		return os.WriteFile(out, data, 0o666)
	})
	if err != nil {
		return err
	}
	if n == 0 {
		return errors.New("no runtime source files")
	}
	return os.WriteFile(filepath.Join(dst, "go.mod"), []byte(runtimeGoMod), 0o666)
}

// UserCacheDir is os.UserCacheDir, or, where the environment names none
// ($HOME and $XDG_CACHE_HOME unset, as in some containers and CI jobs that
// set GOCACHE alone: go test runs there, fuzzbox refused to), the system's
// temporary directory. Everything fuzzbox keeps in it is kept under
// "fuzzbox".
func UserCacheDir() string {
	if dir, err := os.UserCacheDir(); err == nil {
		return dir
	}
	return os.TempDir()
}

// SameTypedSource reports whether mod, a copy of the fuzzbox module (the
// version a user's module requires), has the same package typed (and
// internal/typedhook and internal/stdlib) source as this fuzzbox's runtime: the fuzzing binary
// is built with this one, go test with that one.
func SameTypedSource(mod fs.FS) bool {
	for _, dir := range []string{"typed", "internal/typedhook", "internal/stdlib"} {
		ours, theirs := goFiles(fuzzbox.RuntimeFS(), dir), goFiles(mod, dir)
		if len(ours) == 0 || len(ours) != len(theirs) {
			return false
		}
		for name, data := range ours {
			if !bytes.Equal(data, theirs[name]) {
				return false
			}
		}
	}
	return true
}

// goFiles returns the runtime files (IsRuntimeFile) of dir in fsys by name.
func goFiles(fsys fs.FS, dir string) map[string][]byte {
	files := map[string][]byte{}
	ents, _ := fs.ReadDir(fsys, dir)
	for _, e := range ents {
		if fuzzbox.IsRuntimeFile(e.Name()) {
			if data, err := fs.ReadFile(fsys, path.Join(dir, e.Name())); err == nil {
				files[e.Name()] = data
			}
		}
	}
	return files
}
