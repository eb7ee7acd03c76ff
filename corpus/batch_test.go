package corpus

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"testing"
	"time"
)

func TestBatchWritesEntriesAndCleansUp(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache", "FuzzX")
	var b Batch
	var paths []string
	for i := range 3 {
		data, _ := Marshal("v" + strconv.Itoa(i))
		p, err := b.Write(dir, data)
		if err != nil || p != filepath.Join(dir, Name(data)) {
			t.Fatalf("Write %d = %q, %v", i, p, err)
		}
		paths = append(paths, p)
	}
	data, _ := Marshal("v0")
	if p, err := b.Write(dir, data); err != nil || p != paths[0] {
		t.Fatalf("Write of an entry that is there = %q, %v", p, err)
	}
	if len(b.written) != 3 {
		t.Errorf("the batch holds %d files to sync, want 3 (one per new entry)", len(b.written))
	}
	// Until Flush, the one temporary directory stays; go test skips it.
	ents, err := ReadDir(dir, []reflect.Type{reflect.TypeFor[string]()})
	if err != nil || len(ents) != 3 {
		t.Fatalf("ReadDir = %d entries, %v; want 3", len(ents), err)
	}
	if tmps, _ := filepath.Glob(filepath.Join(dir, ".tmp-*")); len(tmps) != 1 {
		t.Errorf("temporary directories = %v, want one, reused", tmps)
	}
	if err := b.Flush(); err != nil || len(b.written) != 0 {
		t.Errorf("Flush = %v, %d files left to sync", err, len(b.written))
	}
	if tmps, _ := filepath.Glob(filepath.Join(dir, ".tmp-*")); len(tmps) != 0 {
		t.Errorf("Flush left %v", tmps)
	}
	d, _ := Marshal("after")
	if _, err := b.Write(dir, d); err != nil {
		t.Errorf("Write after Flush: %v", err)
	}
	b.Flush()
}

// A directory removed under the batch (a sync directory someone cleared) is
// made again at the next write, and the files lost with it are no error to
// Flush.
func TestBatchDirectoryRemovedUnderIt(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sync", "FuzzX")
	var b Batch
	a, _ := Marshal("a")
	if _, err := b.Write(dir, a); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	c, _ := Marshal("c")
	p, err := b.Write(dir, c)
	if err != nil {
		t.Fatalf("Write after the directory was removed: %v", err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Errorf("entry not written: %v", err)
	}
	if err := b.Flush(); err != nil {
		t.Errorf("Flush = %v, want no error for the removed file", err)
	}
}

// BenchmarkWrite and BenchmarkBatchWrite compare a synced write per entry
// with a batch flushed every 100 entries (the cache writer flushes every
// second): go test -bench=Write ./corpus.
func BenchmarkWrite(b *testing.B) {
	dir := b.TempDir()
	for i := 0; b.Loop(); i++ {
		data, _ := Marshal(strconv.Itoa(i))
		if _, err := Write(dir, data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBatchWrite(b *testing.B) {
	dir := b.TempDir()
	var batch Batch
	for i := 0; b.Loop(); i++ {
		data, _ := Marshal(strconv.Itoa(i))
		if _, err := batch.Write(dir, data); err != nil {
			b.Fatal(err)
		}
		if i%100 == 99 {
			batch.Flush()
		}
	}
	batch.Flush()
}

// TestBatchLink: an entry of another directory is linked where it can be
// (the same file, no new one), written where it cannot (misnamed, gone,
// another file system), and never twice.
func TestBatchLink(t *testing.T) {
	root := t.TempDir()
	from, to := filepath.Join(root, "sync"), filepath.Join(root, "cache", "FuzzX")
	var b Batch
	data, _ := Marshal("linked")
	src, err := b.Write(from, data)
	if err != nil {
		t.Fatal(err)
	}
	p, err := b.Link(to, src, data)
	if err != nil || p != filepath.Join(to, Name(data)) {
		t.Fatalf("Link = %q, %v", p, err)
	}
	fs, err1 := os.Stat(src)
	fd, err2 := os.Stat(p)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if !os.SameFile(fs, fd) && !b.noLink[to] {
		t.Errorf("%s is a copy of %s, not a link, and linking was not given up", p, src)
	}
	if p2, err := b.Link(to, src, data); err != nil || p2 != p {
		t.Errorf("Link of an entry that is there = %q, %v", p2, err)
	}
	// Misnamed: the file's name is not its content's, so it is written.
	other, _ := Marshal("other")
	wrong := filepath.Join(from, "0123456789abcdef")
	if err := os.WriteFile(wrong, other, 0o644); err != nil {
		t.Fatal(err)
	}
	p, err = b.Link(to, wrong, other)
	if err != nil {
		t.Fatal(err)
	}
	fw, _ := os.Stat(wrong)
	if fo, err := os.Stat(p); err != nil || os.SameFile(fw, fo) {
		t.Errorf("a misnamed file was linked (%v)", err)
	}
	// Gone: written from data.
	gone, _ := Marshal("gone")
	p, err = b.Link(to, filepath.Join(from, Name(gone)), gone)
	if got, rerr := os.ReadFile(p); err != nil || rerr != nil || string(got) != string(gone) {
		t.Errorf("Link of a missing file = %q, %v (%v)", got, err, rerr)
	}
	// A directory that does not exist yet is made.
	fresh := filepath.Join(root, "fresh")
	if p, err := b.Link(fresh, src, data); err != nil || p != filepath.Join(fresh, Name(data)) {
		t.Errorf("Link into a new directory = %q, %v", p, err)
	}
	if err := b.Flush(); err != nil {
		t.Errorf("Flush: %v", err)
	}
	ents, err := ReadDir(to, []reflect.Type{reflect.TypeFor[string]()})
	if err != nil || len(ents) != 3 {
		t.Errorf("ReadDir = %d entries, %v; want 3", len(ents), err)
	}
}

// TestRemoveStale: a killed writer's temporary directory is removed once
// it is old; a young one (another process writing now) and entries stay.
func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	var b Batch
	if _, err := b.Write(dir, []byte("go test fuzz v1\nint(1)\n")); err != nil { // its .tmp-* kept until Flush: a kill now leaves it
		t.Fatal(err)
	}
	young, err := os.MkdirTemp(dir, ".tmp-")
	if err != nil {
		t.Fatal(err)
	}
	old := b.tmp[dir]
	long := time.Now().Add(-time.Hour)
	if err := os.Chtimes(old, long, long); err != nil {
		t.Fatal(err)
	}
	if n := RemoveStale(dir, 10*time.Minute); n != 1 {
		t.Errorf("removed %d, want the old one", n)
	}
	ents, _ := os.ReadDir(dir)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if len(names) != 2 || !slices.Contains(names, filepath.Base(young)) || slices.Contains(names, filepath.Base(old)) {
		t.Errorf("left %v, want the entry and %s", names, filepath.Base(young))
	}
}
