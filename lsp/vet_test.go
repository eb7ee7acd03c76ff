package lsp

import (
	"os"
	"path/filepath"
	"testing"
)

// An open document that is the file on disk is no overlay: any overlay makes
// go/packages type-check every dependency from source (go-ethereum's
// core/vm: 425 MB and 10.7 s instead of 55 MB and 1.4 s).
func TestVetOverlayOnlyUnsavedEdits(t *testing.T) {
	dir := t.TempDir()
	clean, dirty := filepath.Join(dir, "clean_test.go"), filepath.Join(dir, "dirty_test.go")
	for _, p := range []string{clean, dirty} {
		if err := os.WriteFile(p, []byte("package p\n"), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	s := New(Options{})
	s.open[clean] = "package p\n"
	s.open[dirty] = "package p\n\nfunc F() {}\n"
	s.open[filepath.Join(t.TempDir(), "other.go")] = "package q\n" // another package
	got := s.overlay(dir)
	if len(got) != 1 || string(got[dirty]) != s.open[dirty] {
		t.Errorf("overlay = %q, want only %s with its unsaved text", got, dirty)
	}
}
