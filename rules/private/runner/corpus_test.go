package main

import (
	"archive/zip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fuzzbox/fuzzbox/corpus"
)

func TestCorpusFor(t *testing.T) {
	files := []string{
		"pkg/testdata/corpus/FuzzA/a1",
		"pkg/testdata/corpus/FuzzB/b1",
		"pkg/testdata/corpus/shared",
		"pkg/testdata/corpus/FuzzA/sub/a2",
		"other/Fuzzy/x", // Fuzzy is not a fuzz test name: for every fuzz test
	}
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"FuzzA", []string{files[0], files[2], files[3], files[4]}},
		{"FuzzB", []string{files[1], files[2], files[4]}},
		{"FuzzC", []string{files[2], files[4]}},
	} {
		if got := corpusFor(files, tc.name); !slices.Equal(got, tc.want) {
			t.Errorf("corpusFor(%s) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// writeFiles writes name -> content under dir and returns the paths, in order of names.
func writeFiles(t *testing.T, dir string, files map[string]string) []string {
	t.Helper()
	var paths []string
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o666); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	slices.Sort(paths)
	return paths
}

func TestSeedCorpusSkipsBadFiles(t *testing.T) {
	dir := t.TempDir()
	pkg := filepath.Join(dir, "pkg")
	writeFiles(t, pkg, map[string]string{"x_test.go": "package x\n\nimport \"testing\"\n\nfunc FuzzA(f *testing.F) { f.Fuzz(func(t *testing.T, b []byte) {}) }\n"})
	good := "go test fuzz v1\n[]byte(\"ok\")\n"
	files := writeFiles(t, filepath.Join(dir, "corpus"), map[string]string{
		"FuzzA/good":      good,
		"FuzzA/garbage":   "not a corpus file\n",
		"FuzzA/wrongtype": "go test fuzz v1\nint(1)\n",
		"FuzzA/dup":       good,
	})
	var warn strings.Builder
	dest := filepath.Join(dir, "cache", "FuzzA")
	st := seedCorpus(files, "FuzzA", pkg, dest, &warn)
	if st.Files != 4 || st.Added != 1 || st.Skipped != 2 || len(st.Names) != 1 {
		t.Errorf("seedCorpus = %+v, want 4 files, 1 added, 2 skipped, 1 name", st)
	}
	if _, err := os.Stat(filepath.Join(dest, corpus.Name([]byte(good)))); err != nil {
		t.Errorf("the good entry is not in the generated corpus under its content's name: %v", err)
	}
	for _, want := range []string{"skipping " + files[1] + " for FuzzA: line 1:", "skipping " + files[3] + " for FuzzA: "} {
		if !strings.Contains(warn.String(), want) {
			t.Errorf("warnings %q lack %q", warn.String(), want)
		}
	}
	if n := len(entryList(dest)); n != 1 {
		t.Errorf("the generated corpus has %d entries, want 1", n)
	}
}

func TestSaveNewInputsLeavesOutTheCorpus(t *testing.T) {
	dir := t.TempDir()
	cache := filepath.Join(dir, "cache")
	writeFiles(t, cache, map[string]string{"aaaa": "go test fuzz v1\nint(1)\n", "bbbb": "go test fuzz v1\nint(2)\n"})
	out := filepath.Join(dir, "out")
	n, err := saveNewInputs(cache, "FuzzA", out, map[string]bool{"aaaa": true})
	if err != nil || n != 1 {
		t.Fatalf("saveNewInputs = %d, %v; want 1, nil", n, err)
	}
	if got := entryList(filepath.Join(out, "corpus", "FuzzA")); !slices.Equal(got, []string{"bbbb"}) {
		t.Errorf("outputs corpus/FuzzA = %q, want [bbbb]", got)
	}
	if n, err := saveNewInputs(filepath.Join(dir, "missing"), "FuzzA", out, nil); n != 0 || err != nil {
		t.Errorf("saveNewInputs of a missing directory = %d, %v; want 0, nil", n, err)
	}
}

func TestMergeExtractZipKeepsCorpusEntriesOnly(t *testing.T) {
	dir := t.TempDir()
	z := filepath.Join(dir, "outputs.zip")
	f, err := os.Create(z)
	if err != nil {
		t.Fatal(err)
	}
	w := zip.NewWriter(f)
	for _, name := range []string{
		"corpus/FuzzA/0123456789abcdef",
		"corpus/FuzzB/fedcba9876543210",
		"corpus/FuzzA/../../escape",
		"corpus/Fuzzy/x",
		"corpus/FuzzA/sub/deep",
		"testdata/fuzz/FuzzA/repro",
		"summary.txt",
	} {
		fw, err := w.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write([]byte("go test fuzz v1\nint(1)\n"))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var warn strings.Builder
	inputs, err := extractInputs([]string{z}, filepath.Join(dir, "x"), &warn)
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) != 2 || len(inputs["FuzzA"]) != 1 || len(inputs["FuzzB"]) != 1 {
		t.Fatalf("extractInputs = %v, want one directory each for FuzzA and FuzzB", inputs)
	}
	if got := entryList(inputs["FuzzA"][0]); !slices.Equal(got, []string{"0123456789abcdef"}) {
		t.Errorf("FuzzA's inputs = %q", got)
	}
	for _, bad := range []string{"corpus/FuzzA/../../escape", "corpus/Fuzzy/x", "corpus/FuzzA/sub/deep"} {
		if !strings.Contains(warn.String(), "skipping "+bad+" in ") {
			t.Errorf("no warning for %s in %q", bad, warn.String())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "escape")); err == nil {
		t.Error("a zip entry escaped the extraction directory")
	}
}

func TestMergeShardOutputs(t *testing.T) {
	base := t.TempDir()
	if got := shardOutputs(base); len(got) != 0 {
		t.Errorf("shardOutputs of an empty directory = %q", got)
	}
	writeFiles(t, base, map[string]string{
		"shard_2_of_2/test.outputs/outputs.zip":       "",
		"shard_1_of_2/test.outputs/outputs.zip":       "",
		"test.outputs/corpus/FuzzA/x":                 "", // --nozip_undeclared_test_outputs
		"shard_3_of_3/test.outputs/summary.txt":       "", // no inputs there
		"shard_1_of_3/test.outputs/unrelated/file.go": "",
	})
	want := []string{
		filepath.Join(base, "test.outputs"),
		filepath.Join(base, "shard_1_of_2/test.outputs/outputs.zip"),
		filepath.Join(base, "shard_2_of_2/test.outputs/outputs.zip"),
	}
	if got := shardOutputs(base); !slices.Equal(got, want) {
		t.Errorf("shardOutputs = %q, want %q", got, want)
	}
}

func TestCorpusFilesExpandsDirectories(t *testing.T) {
	dir := t.TempDir()
	tree := writeFiles(t, filepath.Join(dir, "tree"), map[string]string{"FuzzA/a": "x", "FuzzB/b": "y"})
	one := writeFiles(t, dir, map[string]string{"one": "z"})[0]
	// A runfiles directory is a symlink to the rule's output directory.
	link := filepath.Join(dir, "link")
	if err := os.Symlink(filepath.Join(dir, "tree"), link); err != nil {
		t.Fatal(err)
	}
	manifest := writeFiles(t, dir, map[string]string{"manifest": one + "\n" + link + "\n\n"})[0]
	got, err := corpusFiles(manifest)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{one, filepath.Join(link, "FuzzA", "a"), filepath.Join(link, "FuzzB", "b")}
	if !slices.Equal(got, want) {
		t.Errorf("corpusFiles = %q, want %q (tree %q)", got, want, tree)
	}
	if got, err := corpusFiles(""); got != nil || err != nil {
		t.Errorf(`corpusFiles("") = %q, %v; want nil, nil`, got, err)
	}
	if _, err := corpusFiles(filepath.Join(dir, "missing")); err == nil || !strings.Contains(err.Error(), "reading the corpus list") {
		t.Errorf("corpusFiles(missing) error = %v, want one about the corpus list", err)
	}
}
