package fuzzbox_test

import (
	"io/fs"
	"maps"
	"os/exec"
	"regexp"
	"strings"
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
	// The runtime is exactly engine/fuzzmain, engine/libfuzzer, typed (which
	// users' fuzz tests import) and the module's packages they depend on,
	// with or without the fuzzbox build tag.
	want := map[string]bool{}
	for _, tags := range []string{"", "fuzzbox"} {
		out, err := exec.Command("go", "list", "-tags="+tags, "-deps", "-f", "{{.ImportPath}}", "./engine/fuzzmain", "./engine/libfuzzer", "./typed").Output()
		if err != nil {
			t.Fatalf("go list: %v", err)
		}
		for _, p := range strings.Fields(string(out)) {
			if rel, ok := strings.CutPrefix(p, "github.com/fuzzbox/fuzzbox/"); ok {
				want[rel] = true
			}
		}
	}
	if len(want) < 5 {
		t.Fatalf("go list found only %v", want)
	}
	if !maps.Equal(dirs, want) {
		t.Errorf("runtime source from %v, want the packages engine/fuzzmain and engine/libfuzzer depend on: %v", dirs, want)
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
