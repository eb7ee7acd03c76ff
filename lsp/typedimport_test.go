package lsp

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A corpus file of a fuzz test that is not typed (one []byte, as most are)
// asks nothing of the test binary: asking built the package's test and ran
// the fuzz test's seeds, every minute while a lens showed the file.
func TestTypedValuesNotTypedRunsNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("would build a test binary without the fix")
	}
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/bytes\n\ngo 1.26\n",
		"b_test.go": `package b

import (
	"os"
	"testing"
)

func FuzzBytes(f *testing.F) {
	os.WriteFile("ran", nil, 0o666) // the test ran
	f.Fuzz(func(t *testing.T, b []byte) {})
}
`,
		"testdata/fuzz/FuzzBytes/a": "go test fuzz v1\n[]byte(\"x\")\n",
	}
	writeFiles(t, dir, files)
	s := New(Options{Logf: t.Logf})
	s.typed.pending = map[testKey]bool{}
	s.typed.failed = map[testKey]time.Time{}
	s.typed.vals = map[string]typedEntry{}
	key := testKey{dir, "FuzzBytes"}
	s.askTypedValues(key)
	if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
		t.Error("the fuzz test ran to give the typed values of a fuzz test that is not typed")
	}
	if s.typed.failed[key].IsZero() {
		t.Error("no retry time noted: every lens would ask again")
	}
}

// writeFiles writes files (name relative to dir -> text) below dir, with
// their directories: the internal tests' fixtures.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
}
