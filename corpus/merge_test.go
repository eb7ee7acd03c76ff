package corpus

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func writeVals(t *testing.T, dir string, vals ...any) string {
	t.Helper()
	data, err := Marshal(vals...)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Write(dir, data)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestMerge: shards (recursively) and libFuzzer inputs go into one
// directory, content-addressed: duplicates are counted once, bad files are
// reported and skipped.
func TestMerge(t *testing.T) {
	shardA, shardB, lf, dest := t.TempDir(), t.TempDir(), t.TempDir(), filepath.Join(t.TempDir(), "FuzzM")
	writeVals(t, shardA, "apple", 1)
	writeVals(t, filepath.Join(shardA, "deep"), "berry", 2)
	writeVals(t, shardB, "apple", 1) // a duplicate of shard A's
	writeVals(t, shardB, "avocado", 3)
	wrong := writeVals(t, shardB, 3, "avocado")
	mustWrite(t, filepath.Join(shardB, "junk"), "not a corpus file")
	// A sync directory's own files, skipped: an instance's peer file and
	// coverage log, a killed write's temporary directory.
	mustWrite(t, filepath.Join(shardB, ".peer-0123456789abcdef"), "")
	mustWrite(t, filepath.Join(shardB, ".cov-0123456789abcdef"), "\x00binary")
	mustWrite(t, filepath.Join(shardB, ".tmp-1", "0123456789abcdef"), "go test fuzz v1\nstring(\"cut")
	types := []reflect.Type{reflect.TypeFor[string](), reflect.TypeFor[int]()}
	added, present, errs := Merge(dest, []string{shardA, shardB}, types, false)
	if added != 3 || present != 1 || len(errs) != 2 {
		t.Fatalf("Merge = %d added, %d present, errors %q; want 3, 1 and two errors", added, present, errs)
	}
	// In walk order: file names sort before "junk".
	for i, want := range []string{wrong + ": " + wrong + ":2: mismatched types", filepath.Join(shardB, "junk") + ": "} {
		if !strings.HasPrefix(errs[i].Error(), want) {
			t.Errorf("error %d = %q, want it to start with %q", i, errs[i], want)
		}
	}
	raw, _ := EncodeLibFuzzer([]any{"bean", 4})
	mustWrite(t, filepath.Join(lf, "crash-x"), string(raw))
	mustWrite(t, filepath.Join(lf, "crash-y"), string(raw))
	added, present, errs = Merge(dest, []string{lf, filepath.Join(lf, "missing")}, types, true)
	if added != 1 || present != 1 || len(errs) != 1 || !strings.Contains(errs[0].Error(), "no such file") {
		t.Fatalf("Merge of libFuzzer inputs = %d added, %d present, errors %q; want 1, 1 and the missing source", added, present, errs)
	}
	ents, err := ReadDir(dest, types)
	if err != nil || len(ents) != 4 {
		t.Errorf("dest holds %d good entries (%v), want 4", len(ents), err)
	}
	if _, err := os.Stat(filepath.Join(dest, Name([]byte(h+"string(\"bean\")\nint(4)\n")))); err != nil {
		t.Errorf("the libFuzzer input's entry: %v", err)
	}
}

// TestSymlinkedSources: a source or raw input named by a symbolic link is
// followed, as cp -r follows one named on its command line (Merge and
// ImportRaw merged and imported nothing without a word); below it, links to
// files are followed, as go test reads a corpus directory's (they were
// skipped without a word), a link to nothing is an error, and links to
// directories are not followed.
func TestSymlinkedSources(t *testing.T) {
	base := t.TempDir()
	real := filepath.Join(base, "real")
	writeVals(t, real, "apple", 1)
	mustWrite(t, filepath.Join(base, "raw", "a"), "hello")
	mustWrite(t, filepath.Join(base, "raw", "b"), "world")
	outside := filepath.Join(base, "outside")
	writeVals(t, outside, "cherry", 9)
	shared := writeVals(t, filepath.Join(base, "shared"), "banana", 2)
	for _, l := range [][2]string{{real, "real-link"}, {filepath.Join(base, "raw"), "raw-link"}, {filepath.Join(base, "raw", "a"), "file-link"}, {outside, filepath.Join("real", "inner-link")},
		{shared, filepath.Join("real", "entry-link")}, {filepath.Join(base, "raw", "b"), filepath.Join("raw", "b-link")}} {
		if err := os.Symlink(l[0], filepath.Join(base, l[1])); err != nil {
			t.Skip(err)
		}
	}
	types := []reflect.Type{reflect.TypeFor[string](), reflect.TypeFor[int]()}
	if added, _, errs := Merge(filepath.Join(t.TempDir(), "FuzzM"), []string{filepath.Join(base, "real-link")}, types, false); added != 2 || len(errs) != 0 {
		t.Errorf("Merge of a linked directory = %d added, errors %q; want its entry and its linked entry, not the one behind the link to a directory in it", added, errs)
	}
	for link, want := range map[string]int{"raw-link": 2, "file-link": 1} { // raw/b-link is b again
		dir := t.TempDir()
		if errs := ImportRaw([]string{filepath.Join(base, link)}, dir, reflect.TypeFor[[]byte]()); errs != nil {
			t.Fatal(errs)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != want {
			t.Errorf("ImportRaw(%s) wrote %d entries, want %d", link, len(ents), want)
		}
	}
	dangling := filepath.Join(base, "dangling")
	if err := os.Symlink(filepath.Join(base, "gone"), dangling); err != nil {
		t.Fatal(err)
	}
	if _, _, errs := Merge(filepath.Join(t.TempDir(), "FuzzM"), []string{dangling}, types, false); len(errs) != 1 || !errors.Is(errs[0], fs.ErrNotExist) {
		t.Errorf("Merge of a dangling link: errors %q, want it not found", errs)
	}
	if err := os.Symlink(filepath.Join(base, "gone"), filepath.Join(real, "dangling")); err != nil {
		t.Fatal(err)
	}
	if added, _, errs := Merge(filepath.Join(t.TempDir(), "FuzzM"), []string{real}, types, false); added != 2 || len(errs) != 1 || !errors.Is(errs[0], fs.ErrNotExist) {
		t.Errorf("Merge of a directory with a dangling link = %d added, errors %q; want 2, and the link not found", added, errs)
	}
	if errs := ImportRaw([]string{dangling}, t.TempDir(), reflect.TypeFor[[]byte]()); len(errs) != 1 || !errors.Is(errs[0], fs.ErrNotExist) {
		t.Errorf("ImportRaw of a dangling link: errors %q, want it not found", errs)
	}
}
