package driver

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/fuzzbox/fuzzbox/driver/build"
)

// TestSourceDictListsImports: the driver lists what build.PackageLiterals
// needs (the imports), so a fuzz test's dictionary holds the literals of the
// package it imports (build's TestPackageLiterals checks the rest).
func TestSourceDictListsImports(t *testing.T) {
	dir := t.TempDir()
	mod := "module example.com/m\n\ngo 1.26\n"
	dep := "package dep\n\nconst K = \"zebra-keyword\"\n"
	test := "package p\n\nimport (\n\t\"testing\"\n\n\t\"example.com/m/dep\"\n)\n\nfunc FuzzX(f *testing.F) { f.Fuzz(func(t *testing.T, s string) { _ = s == dep.K }) }\n"
	for name, text := range map[string]string{"go.mod": mod, "dep/dep.go": dep, "p/p_test.go": test} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pkgs, err := listPackages(context.Background(), filepath.Join(dir, "p"), []string{"."}, "")
	if err != nil || len(pkgs) != 1 {
		t.Fatalf("listPackages: %v %v", pkgs, err)
	}
	toks := build.PackageLiterals(context.Background(), pkgs[0].LiteralSource)
	if !slices.ContainsFunc(toks, func(b []byte) bool { return string(b) == "zebra-keyword" }) {
		t.Errorf("dictionary %q lacks the imported package's literal", toks)
	}
}
