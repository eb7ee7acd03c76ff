package driver

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/fuzzbox/fuzzbox/corpus"
)

// TestMergeCorpus: v1 files merge into CacheDir/FuzzX without readable
// argument types; libFuzzer inputs need them; -fuzz names one fuzz test,
// which the pruning run fuzzes.
func TestMergeCorpus(t *testing.T) {
	pkg, src, cache := t.TempDir(), t.TempDir(), t.TempDir()
	// FuzzX's argument types cannot be read from its source.
	os.WriteFile(filepath.Join(pkg, "x_test.go"), []byte("package x\n\nimport \"testing\"\n\nvar fn = func(t *testing.T, s string) {}\n\nfunc FuzzX(f *testing.F) { f.Fuzz(fn) }\n"), 0o644)
	os.WriteFile(filepath.Join(src, "a"), []byte("go test fuzz v1\nstring(\"a\")\n"), 0o644)
	os.WriteFile(filepath.Join(src, "b"), []byte("go test fuzz v1\nstring(\"b\")\n"), 0o644)
	m, err := MergeCorpus(Config{CacheDir: cache, Fuzz: "FuzzX"}, pkg, []string{src}, "", false)
	if err != nil || m.Dest != filepath.Join(cache, "FuzzX") || m.Added != 2 || m.Present != 0 || len(m.Errs) != 0 || m.Entries() != 2 {
		t.Fatalf("v1 merge: %+v, %v", m, err)
	}
	if m.Prune.Fuzz != "^FuzzX$" || !m.Prune.PruneOnly || m.Prune.CacheDir != cache {
		t.Errorf("pruning run's configuration %+v: want -fuzz=^FuzzX$, PruneOnly and the merge's cache", m.Prune)
	}
	if m, err = MergeCorpus(Config{CacheDir: cache, Fuzz: "FuzzX"}, pkg, []string{src}, "", false); err != nil || m.Added != 0 || m.Present != 2 {
		t.Errorf("merging again: %+v, %v", m, err)
	}
	if _, err := MergeCorpus(Config{CacheDir: cache, Fuzz: "FuzzX"}, pkg, []string{src}, "", true); err == nil {
		t.Error("libFuzzer inputs without argument types: no error")
	}
	if m, err = MergeCorpus(Config{CacheDir: cache, Fuzz: "^FuzzX$"}, pkg, []string{src}, "[]byte", true); err != nil || m.Added != 2 {
		t.Errorf("libFuzzer inputs as []byte: %+v, %v", m, err)
	}
	// A name the package has no fuzz test of (a typo) copies nothing.
	if _, err := MergeCorpus(Config{CacheDir: cache, Fuzz: "FuzzY"}, pkg, []string{src}, "", false); !errors.Is(err, corpus.ErrNoFuzzTest) {
		t.Errorf("-fuzz=FuzzY: %v, want corpus.ErrNoFuzzTest", err)
	}
	if _, err := os.Stat(filepath.Join(cache, "FuzzY")); err == nil {
		t.Error("-fuzz=FuzzY: entries copied into its cache directory")
	}
	for _, fuzz := range []string{"", "Fuzz.", "FuzzX|FuzzY", "Fuzzx"} {
		if _, err := MergeCorpus(Config{CacheDir: cache, Fuzz: fuzz}, pkg, []string{src}, "", false); !errors.Is(err, ErrNotOneFuzzTest) {
			t.Errorf("-fuzz=%q: %v, want ErrNotOneFuzzTest", fuzz, err)
		}
	}
}
