package driver

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fuzzbox/fuzzbox/corpus"
)

// TestCopyNewEntries: go test's corpus files that fuzzbox's generated
// corpus lacks are copied once each; a name copied before is not copied
// again after the baseline pruned it; what is not a corpus file, or an
// entry of the fuzz function's earlier types, is left out for good, but
// for a file go test is still writing (its content not yet what its name
// says), which is looked at again; go test's directory is only read.
func TestCopyNewEntries(t *testing.T) {
	dir := t.TempDir()
	src, dest, record := filepath.Join(dir, "gocache"), filepath.Join(dir, "cache", "FuzzX"), filepath.Join(dir, "cache", "FuzzX.gocache")
	types := []reflect.Type{reflect.TypeFor[string]()}
	if n, err := copyNewEntries(src, dest, record, types); n != 0 || err != nil {
		t.Fatalf("no go test corpus: %d, %v", n, err)
	}
	entry := func(s string) []byte {
		data, err := corpus.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	a, b, c := entry("a"), entry("b"), entry("c")
	for _, data := range [][]byte{a, b} {
		if _, err := corpus.Write(src, data); err != nil {
			t.Fatal(err)
		}
	}
	writeTestFile(t, filepath.Join(src, "garbage"), "not a corpus file\n")
	oldType, err := corpus.Write(src, []byte("go test fuzz v1\nint(5)\n")) // of the fuzz function's earlier arguments
	if err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, filepath.Join(src, corpus.Name(c)), string(c[:len(c)/2])) // being written
	if err := os.Mkdir(filepath.Join(src, "subdir"), 0o777); err != nil {
		t.Fatal(err)
	}
	if _, err := corpus.Write(dest, a); err != nil {
		t.Fatal(err)
	}
	if n, err := copyNewEntries(src, dest, record, types); n != 1 || err != nil {
		t.Fatalf("first copy: %d, %v; want 1 (b: a is there already)", n, err)
	}
	if got, _ := os.ReadFile(filepath.Join(dest, corpus.Name(b))); string(got) != string(b) {
		t.Errorf("b in fuzzbox's corpus: %q", got)
	}
	if ents, _ := os.ReadDir(dest); len(ents) != 2 {
		t.Errorf("fuzzbox's corpus has %d files, want a and b", len(ents))
	}
	names, _ := os.ReadFile(record)
	want := []string{corpus.Name(a), corpus.Name(b), filepath.Base(oldType)}
	slices.Sort(want)
	if got := strings.Fields(string(names)); !slices.Equal(slices.Sorted(slices.Values(got)), want) {
		t.Errorf("record %q, want %q", got, want)
	}
	os.Remove(filepath.Join(dest, corpus.Name(b))) // pruned by a baseline
	if n, err := copyNewEntries(src, dest, record, types); n != 0 || err != nil {
		t.Errorf("second copy: %d, %v; want none (b was copied before)", n, err)
	}
	writeTestFile(t, filepath.Join(src, corpus.Name(c)), string(c)) // written whole
	if n, err := copyNewEntries(src, dest, record, types); n != 1 || err != nil {
		t.Errorf("after go test wrote c whole: %d, %v; want 1", n, err)
	}
	if ents, _ := os.ReadDir(src); len(ents) != 6 {
		t.Errorf("go test's corpus has %d entries, want its 6 untouched", len(ents))
	}
}
