//go:build unix

package driver

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fuzzbox/fuzzbox/driver/build"
)

// toolexecKeepingGoCache returns the toolexec command of fuzzbox and keeps
// the go build cache where it is when the test moves the user cache
// directory (GOCACHE is under it by default).
func toolexecKeepingGoCache(t *testing.T) []string {
	t.Helper()
	toolexec, err := build.ToolexecCommand(testFuzzbox(t))
	if err != nil {
		t.Fatal(err)
	}
	gocache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOCACHE", strings.TrimSpace(string(gocache)))
	return toolexec
}

// TestBinaryCache: a second build of the same package links nothing (the
// cached binary is up to date) and gives the run its own copy; an entry
// unused for binCacheAge, locked by nobody, is removed.
func TestBinaryCache(t *testing.T) {
	toolexec := toolexecKeepingGoCache(t)
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache) // os.UserCacheDir on Unix
	t.Setenv("HOME", cache)           // and on macOS
	root, err := os.UserCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(root, filepath.FromSlash(binCacheDir), "0123456789abcdef01234567")
	if err := os.MkdirAll(old, 0o777); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(old, workLock), nil, 0o600)
	long := time.Now().Add(-binCacheAge - time.Hour)
	os.Chtimes(old, long, long)

	// A package in the temporary directory has no entry: this one is
	// outside the one the build sees.
	base := t.TempDir()
	tmp := filepath.Join(base, "tmp")
	os.Mkdir(tmp, 0o777)
	t.Setenv("TMPDIR", tmp)
	dir := filepath.Join(base, "nofuzz")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "cmd", "fuzzbox", "testdata", "fuzz", "nofuzz"))); err != nil {
		t.Fatal(err)
	}
	var outs []string
	var cached os.FileInfo
	for i := range 2 {
		out := filepath.Join(t.TempDir(), "nofuzz.test")
		res, err := cachedBuild(context.Background(), build.Options{Dir: dir, Out: out, Toolexec: toolexec})
		if err != nil {
			t.Fatal(err)
		}
		if res.Binary != out {
			t.Errorf("build %d: binary %s, want the run's copy %s", i, res.Binary, out)
		}
		outs = append(outs, out)
		entry, _ := binCacheEntryPath(t, root)
		fi, err := os.Stat(filepath.Join(entry, "nofuzz.test"))
		if err != nil {
			t.Fatalf("build %d: no cached binary: %v", i, err)
		}
		// A link writes a new file and renames it over the old one; an
		// up-to-date binary is only touched.
		if i == 1 && !os.SameFile(fi, cached) {
			t.Error("the second build linked the cached binary again")
		}
		cached = fi
	}
	a, errA := os.ReadFile(outs[0])
	b, errB := os.ReadFile(outs[1])
	if errA != nil || errB != nil || !bytes.Equal(a, b) || len(a) == 0 {
		t.Errorf("the two runs' binaries differ or are missing (%v, %v)", errA, errB)
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("an entry unused for longer than %v is still there (%v)", binCacheAge, err)
	}
	if _, _, ok := binCacheEntry(context.Background(), build.Options{Dir: filepath.Join(tmp, "p")}); ok {
		t.Error("a package in the temporary directory got an entry")
	}
}

// binCacheEntryPath returns the one entry of the binary cache under root
// besides the old one TestBinaryCache made.
func binCacheEntryPath(t *testing.T, root string) (string, bool) {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(binCacheDir)))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.Name() != "0123456789abcdef01234567" {
			return filepath.Join(root, filepath.FromSlash(binCacheDir), e.Name()), true
		}
	}
	t.Fatal("no entry in the binary cache")
	return "", false
}

// TestLockFileWaitEnds: a run waiting for another's lock on a cache entry
// gives up when it is stopped (Ctrl-C), and takes the lock once it is free.
func TestLockFileWaitEnds(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lock")
	unlock, ok := lockFile(context.Background(), path)
	if !ok {
		t.Fatal("no lock on a new file")
	}
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan bool)
	go func() {
		_, ok := lockFile(ctx, path)
		got <- ok
	}()
	time.Sleep(100 * time.Millisecond)
	cancel()
	select {
	case ok := <-got:
		if ok {
			t.Fatal("took a lock another open file holds")
		}
	case <-time.After(time.Minute):
		t.Fatal("the wait for a held lock did not end when its context did")
	}
	go func() {
		unlock2, ok := lockFile(context.Background(), path)
		if ok {
			unlock2()
		}
		got <- ok
	}()
	time.Sleep(100 * time.Millisecond)
	unlock()
	select {
	case ok := <-got:
		if !ok {
			t.Error("no lock once the holder let go")
		}
	case <-time.After(time.Minute):
		t.Fatal("still waiting for a lock its holder let go")
	}
}
