package driver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTypedSkew: a package whose module requires another fuzzbox's package
// typed is warned about (the fuzzing binary decodes with this fuzzbox's,
// go test with the module's); one whose module has this fuzzbox's is not.
func TestTypedSkew(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	for _, dir := range []string{"typed", "internal/typedhook", "internal/stdlib"} {
		files, _ := filepath.Glob(filepath.Join(root, dir, "*.go"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			writeTestFiles(t, other, map[string]string{filepath.Join(dir, filepath.Base(f)): string(data)})
		}
	}
	writeTestFiles(t, other, map[string]string{"go.mod": "module github.com/fuzzbox/fuzzbox\n\ngo 1.26\n"})
	pkgWith := func(fuzzbox string) *pkgInfo {
		dir := t.TempDir()
		writeTestFiles(t, dir, map[string]string{"go.mod": "module example.com/skew\n\ngo 1.26\n\nrequire github.com/fuzzbox/fuzzbox v0.0.0\n\nreplace github.com/fuzzbox/fuzzbox => " + fuzzbox + "\n"})
		p := &pkgInfo{}
		p.Dir, p.TestImports = dir, []string{"testing", typedImport}
		return p
	}
	if msg := typedSkew(context.Background(), pkgWith(other)); msg != "" {
		t.Errorf("the same typed source: %q, want no warning", msg)
	}
	writeTestFiles(t, other, map[string]string{"typed/encoding.go": "package typed\n\nconst Version = 1\n"})
	if msg := typedSkew(context.Background(), pkgWith(other)); !strings.Contains(msg, "whose package typed is not this fuzzbox's") {
		t.Errorf("another typed source: %q, want the warning", msg)
	}
	p := pkgWith(other)
	p.TestImports = []string{"testing"}
	if msg := typedSkew(context.Background(), p); msg != "" {
		t.Errorf("a package whose tests do not import typed: %q, want no warning", msg)
	}
}
