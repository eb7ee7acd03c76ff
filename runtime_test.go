package fuzzbox_test

import (
	"io/fs"
	"regexp"
	"testing"

	"github.com/fuzzbox/fuzzbox"
)

// TestRuntimeFS checks that the embedded runtime holds the packages a
// fuzzing binary links, and only Go files.
func TestRuntimeFS(t *testing.T) {
	dirs := map[string]bool{}
	err := fs.WalkDir(fuzzbox.RuntimeFS(), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if !regexp.MustCompile(`\.go$`).MatchString(name) {
			t.Errorf("embedded non-Go file %s", name)
		}
		if fuzzbox.IsRuntimeFile(name) {
			dirs[name[:len(name)-len(d.Name())-1]] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"engine", "engine/fuzzmain", "engine/ipc", "engine/instrument", "corpus"} {
		if !dirs[dir] {
			t.Errorf("no runtime source from %s; have %v", dir, dirs)
		}
	}
	if len(dirs) != 5 {
		t.Errorf("runtime source from %d directories, want 5: %v", len(dirs), dirs)
	}
}

func TestRuntimeHash(t *testing.T) {
	h := fuzzbox.RuntimeHash()
	if !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(h) || fuzzbox.RuntimeHash() != h {
		t.Errorf("RuntimeHash() = %q, want a stable hex SHA-256", h)
	}
}

func TestIsRuntimeFile(t *testing.T) {
	for name, want := range map[string]bool{
		"engine/worker.go":        true,
		"engine/worker_test.go":   false,
		"corpus/testdata/x.txt":   false,
		"engine/fuzzmain/deps.go": true,
		"engine/ipc/sys_unix.go":  true,
		"engine/ipc/doc_test.go":  false,
	} {
		if got := fuzzbox.IsRuntimeFile(name); got != want {
			t.Errorf("IsRuntimeFile(%q) = %v, want %v", name, got, want)
		}
	}
}
