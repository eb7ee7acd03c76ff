package driver

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestSourceDictImports: the dictionary holds the package's own literals
// first, then those of the packages outside the standard library that it or
// its tests import (here a parser in another package, with the keyword its
// bug hides behind), and none of the standard library's.
func TestSourceDictImports(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":           "module example.com/m\n\ngo 1.26\n",
		"fmtx/fmtx.go":     "package fmtx\n\nfunc Parse(s string) bool { return s == \"zebra-keyword\" || s == \"own-literal\" }\n",
		"p/p.go":           "package p\n\nimport \"strings\"\n\nfunc Trim(s string) string { return strings.TrimPrefix(s, \"own-literal\") }\n",
		"p/p_test.go":      "package p_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/m/fmtx\"\n\t\"example.com/m/p\"\n)\n\nfunc FuzzX(f *testing.F) {\n\tf.Add(\"seed-literal\")\n\tf.Fuzz(func(t *testing.T, s string) { fmtx.Parse(p.Trim(s)) })\n}\n",
		"unused/unused.go": "package unused\n\nconst K = \"not-imported\"\n",
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pkgs, err := listPackages(context.Background(), filepath.Join(dir, "p"), ".")
	if err != nil || len(pkgs) != 1 {
		t.Fatalf("listPackages: %v %v", pkgs, err)
	}
	var got []string
	for _, tok := range sourceDict(context.Background(), pkgs[0]) {
		got = append(got, string(tok))
	}
	want := []string{"own-literal", "seed-literal", "zebra-keyword"}
	if !slices.Equal(got, want) {
		t.Errorf("dictionary %q, want %q (own literals, then imported non-std packages', each once)", got, want)
	}
}
