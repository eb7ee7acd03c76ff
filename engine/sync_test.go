package engine

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fuzzbox/fuzzbox/corpus"
)

// syncerUntil takes the syncer's news, the names of the entries and the
// warnings, until done says so.
func syncerUntil(t *testing.T, s *syncer, done func(names, warnings []string) bool) (names, warnings []string) {
	t.Helper()
	timeout := time.After(time.Minute)
	for !done(names, warnings) {
		select {
		case n := <-s.news:
			for _, e := range n.entries {
				names = append(names, filepath.Base(e.path))
			}
			warnings = append(warnings, n.warnings...)
		case <-timeout:
			t.Fatalf("the syncer did not say what was expected in a minute; it said %q, %q", names, warnings)
		}
	}
	return names, warnings
}

// waitFor waits until path exists (os.Lstat: a link counts), failing the
// test after a minute; what names what is awaited in the failure.
func waitFor(t *testing.T, path, what string) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
		if _, err := os.Lstat(path); err == nil {
			return
		} else if time.Now().After(deadline) {
			t.Fatalf("%s in a minute: %v", what, err)
		}
	}
}

// warned returns a done function of syncerUntil: a warning contains want.
func warned(want string) func(_, warnings []string) bool {
	return func(_, warnings []string) bool {
		return slices.ContainsFunc(warnings, func(w string) bool { return strings.Contains(w, want) })
	}
}

// TestSyncer: the syncer makes the directory, publishes, hands over the
// other instances' valid entries and a warning for a bad file; when the
// sync directory is removed it says so once and does not make it again;
// when it is back it says so and publishes everything again, the entry
// found meanwhile included.
func TestSyncer(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sync")
	dir := filepath.Join(root, "FuzzX")
	entry := func(s string) []byte { data, _ := corpus.Marshal([]byte(s)); return data }
	mine, meanwhile, other := entry("mine"), entry("found while the directory was gone"), entry("other")
	s := startSyncer(&Options{SyncDir: root, Target: "FuzzX", Types: []reflect.Type{reflect.TypeFor[[]byte]()}}, 10*time.Millisecond, nil, nil, 0)
	defer s.close(os.Stderr)
	s.out <- syncOut{data: mine}
	if _, err := corpus.Write(dir, other); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "garbage"), []byte("garbage\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	names, _ := syncerUntil(t, s, func(names, warnings []string) bool {
		return len(names) > 0 && warned("skipping garbage")(nil, warnings)
	})
	if len(names) != 1 || names[0] != corpus.Name(other) {
		t.Errorf("entries %q, want only the other instance's %s", names, corpus.Name(other))
	}

	// The syncer's goroutine may be writing into root (its peer file, a
	// coverage record) while it is removed: remove until it is gone.
	var err error
	for range 100 {
		if err = os.RemoveAll(root); err == nil {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	s.out <- syncOut{data: meanwhile}
	_, warnings := syncerUntil(t, s, warned("fuzzing goes on without it"))
	if _, err := os.Stat(root); err == nil {
		t.Errorf("the syncer made the removed sync directory again")
	}
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	_, more := syncerUntil(t, s, warned("works again"))
	if n := len(warnings) + len(more); n != 2 {
		t.Errorf("warnings %q, want one that the directory failed and one that it works again", append(warnings, more...))
	}
	for _, data := range [][]byte{mine, meanwhile} {
		if _, err := os.Stat(filepath.Join(dir, corpus.Name(data))); err != nil {
			t.Errorf("not published again: %v", err)
		}
	}
}

// TestSyncerReadsSoon: with a long longest wait, the syncer still reads the
// directory soon after this instance publishes (a growing corpus), and
// backs off when its reads find nothing.
func TestSyncerReadsSoon(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sync")
	entry := func(s string) []byte { data, _ := corpus.Marshal([]byte(s)); return data }
	s := startSyncer(&Options{SyncDir: root, Target: "FuzzX", Types: []reflect.Type{reflect.TypeFor[[]byte]()}}, time.Hour, nil, nil, 0)
	defer s.close(os.Stderr)
	// Once "mine" is in the directory, the syncer's first read is done
	// (it found nothing: the next would be an hour away), and it took the
	// publishing as a sign that the corpora grow.
	mine := filepath.Join(root, "FuzzX", corpus.Name(entry("mine")))
	s.out <- syncOut{data: entry("mine")}
	waitFor(t, mine, "not published")
	other := entry("other")
	if _, err := corpus.Write(filepath.Join(root, "FuzzX"), other); err != nil {
		t.Fatal(err)
	}
	names, _ := syncerUntil(t, s, func(names, _ []string) bool { return len(names) > 0 })
	if len(names) != 1 || names[0] != corpus.Name(other) {
		t.Errorf("entries %q, want the other instance's %s", names, corpus.Name(other))
	}
}

// TestSyncerReportsAFailedFlush: a published entry that cannot be synced
// to the disk at the next flush (here a symbolic link loop put in its
// place, which open refuses as fsync would refuse a failing disk) is
// reported once, and the syncer goes on.
func TestSyncerReportsAFailedFlush(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("needs symbolic links")
	}
	root := filepath.Join(t.TempDir(), "sync")
	s := startSyncer(&Options{SyncDir: root, Target: "FuzzX", Types: []reflect.Type{reflect.TypeFor[[]byte]()}}, time.Hour, nil, nil, 0)
	defer s.close(os.Stderr)
	var warnings []string
	// The link must replace the file between its write and the next
	// flush (every flushEvery): on a loaded machine a flush may come
	// first, so each attempt publishes another entry.
	for attempt := 0; len(warnings) == 0; attempt++ {
		if attempt == 10 {
			t.Fatal("no warning after 10 entries replaced by a link loop")
		}
		data, _ := corpus.Marshal([]byte("mine " + strconv.Itoa(attempt)))
		path := filepath.Join(root, "FuzzX", corpus.Name(data))
		s.out <- syncOut{data: data}
		waitFor(t, path, "not published")
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Base(path), path); err != nil {
			t.Fatal(err)
		}
		wait := time.After(3 * flushEvery)
	news:
		for {
			select {
			case n := <-s.news:
				warnings = append(warnings, n.warnings...)
			case <-wait:
				break news
			}
		}
	}
	// Once (a listing that works afterwards says "works again", and the
	// instance writes its entries again).
	failed := 0
	for _, w := range warnings {
		switch {
		case strings.Contains(w, "syncing files to") && strings.Contains(w, "fuzzing goes on without it"):
			failed++
		case !strings.Contains(w, "works again"):
			t.Errorf("unexpected warning %q", w)
		}
	}
	if failed != 1 {
		t.Errorf("warnings %q, want one that syncing failed", warnings)
	}
}

func TestSyncerNextWait(t *testing.T) {
	s := &syncer{every: syncEvery}
	for _, c := range []struct {
		last time.Duration
		busy bool
		want time.Duration
	}{
		{syncEvery, true, syncSoon},
		{syncSoon, true, syncSoon},
		{syncSoon, false, 2 * syncSoon},
		{4 * time.Second, false, syncEvery},
		{syncEvery, false, syncEvery},
	} {
		if got := s.nextWait(c.last, c.busy); got != c.want {
			t.Errorf("nextWait(%v, %v) = %v, want %v", c.last, c.busy, got, c.want)
		}
	}
	if got := (&syncer{every: 10 * time.Millisecond}).nextWait(syncEvery, true); got != 10*time.Millisecond {
		t.Errorf("with every = 10ms, nextWait = %v, want 10ms", got)
	}
}

// TestSyncerWatches: on Linux the syncer reads another instance's input as
// it appears, though its next scan is an hour away (the directory was
// empty, and this instance publishes nothing); after the directory is
// removed and made again by someone else, it watches the new one.
func TestSyncerWatches(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the directory is watched on Linux only")
	}
	root := filepath.Join(t.TempDir(), "sync")
	dir := filepath.Join(root, "FuzzX")
	entry := func(s string) []byte { data, _ := corpus.Marshal([]byte(s)); return data }
	s := startSyncer(&Options{SyncDir: root, Target: "FuzzX", Types: []reflect.Type{reflect.TypeFor[[]byte]()}}, time.Hour, nil, nil, 0)
	defer s.close(os.Stderr)
	waitFor(t, dir, "the directory was not made")
	time.Sleep(100 * time.Millisecond) // the first scan is done: the next is an hour away
	for _, s1 := range []string{"first", "second"} {
		if _, err := corpus.Write(dir, entry(s1)); err != nil {
			t.Fatal(err)
		}
		names, _ := syncerUntil(t, s, func(names, _ []string) bool { return len(names) > 0 })
		if len(names) != 1 || names[0] != corpus.Name(entry(s1)) {
			t.Errorf("entries %q, want %s", names, corpus.Name(entry(s1)))
		}
	}
	// Removed and made again by another instance: the syncer reads what
	// is written into the new directory.
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(dir, 0o777); err != nil && !os.IsExist(err) {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	third := entry("third")
	if _, err := corpus.Write(dir, third); err != nil {
		t.Fatal(err)
	}
	syncerUntil(t, s, func(names, _ []string) bool { return slices.Contains(names, corpus.Name(third)) })
}

// TestSyncerCaches: a new entry the loop hands the syncer with cache set is
// published and then linked into the cache from the published file (one
// new file, not two); while the directory is gone it is written to the
// cache all the same; an entry without cache set is not cached.
func TestSyncerCaches(t *testing.T) {
	tmp := t.TempDir()
	root, cacheDir := filepath.Join(tmp, "sync"), filepath.Join(tmp, "cache")
	entry := func(s string) []byte { data, _ := corpus.Marshal([]byte(s)); return data }
	linked, whileGone, notNew := entry("linked"), entry("while the directory is gone"), entry("from the cache")
	cache := newCacheWriter(cacheDir, nil)
	s := startSyncer(&Options{SyncDir: root, Target: "FuzzX", Types: []reflect.Type{reflect.TypeFor[[]byte]()}}, time.Hour, cache, nil, 0)
	s.out <- syncOut{data: notNew}
	s.out <- syncOut{data: linked, cache: true}
	published, cached := filepath.Join(root, "FuzzX", corpus.Name(linked)), filepath.Join(cacheDir, corpus.Name(linked))
	waitFile(t, published)
	waitFile(t, cached)
	fp, err1 := os.Stat(published)
	fc, err2 := os.Stat(cached)
	if err1 != nil || err2 != nil || !os.SameFile(fp, fc) {
		t.Errorf("the cache's entry is not a link of the published one (%v, %v)", err1, err2)
	}
	if err := os.RemoveAll(root); err != nil {
		t.Fatal(err)
	}
	s.out <- syncOut{data: whileGone, cache: true}
	s.close(io.Discard)
	cache.close(io.Discard)
	if _, err := os.Stat(root); err == nil {
		t.Errorf("the removed directory was made again")
	}
	if got, err := os.ReadFile(filepath.Join(cacheDir, corpus.Name(whileGone))); err != nil || !bytes.Equal(got, whileGone) {
		t.Errorf("an entry found while the directory was gone: %q, %v; want it in the cache", got, err)
	}
	if _, err := os.Stat(filepath.Join(cacheDir, corpus.Name(notNew))); err == nil {
		t.Errorf("an entry published without cache set was cached")
	}
}

// waitFile waits up to 10 s for path to exist.
func waitFile(t *testing.T, path string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not appear", path)
		}
	}
}

// TestSyncerWorksAgainOnlyWhenWritable: a directory that can be read but not
// written (a full file system; /proc here) is not said to work again until
// this instance's entries go in again: it was said to work at every scan and
// to fail at the next write, two warnings a second.
func TestSyncerWorksAgainOnlyWhenWritable(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("uses /proc as a directory that cannot be written")
	}
	s := &syncer{dir: "/proc", broken: true, mine: [][]byte{[]byte("go test fuzz v1\n[]byte(\"a\")\n")}}
	for range 3 {
		if s.works() {
			t.Fatal("works() in a directory nothing can be written to")
		}
	}
	if len(s.held.warnings) != 0 {
		t.Errorf("warnings while it stays broken: %q", s.held.warnings)
	}
	s.dir = t.TempDir()
	if !s.works() || len(s.held.warnings) != 1 || !strings.Contains(s.held.warnings[0], "works again") {
		t.Errorf("a writable directory: warnings %q, want one saying it works again", s.held.warnings)
	}
	if _, err := os.Stat(filepath.Join(s.dir, corpus.Name(s.mine[0]))); err != nil {
		t.Errorf("the entry was not published again: %v", err)
	}
}
