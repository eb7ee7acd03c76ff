package engine

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"
	"time"
)

// TestShareSkipsImports: a synced instance skips the turns of inputs it
// imported, and none of its own or of the seeds; no entry's first call is
// skipped, and a roll of 0 skips nothing.
func TestShareSkipsImports(t *testing.T) {
	a, b := share{rank: 0, n: 2}, share{rank: 1, n: 2}
	seed := newEntry([]any{[]byte("x")}, nil, "seed#0", true)
	seed.calls = 1
	own := &entry{data: []byte("found here"), calls: 1}
	imported := &entry{data: []byte("found there"), imported: true, calls: 1}
	for _, sh := range []share{a, b} {
		if sh.skip(seed, 1) || sh.skip(own, 1) {
			t.Errorf("share %+v skipped a seed or an input of its own", sh)
		}
		if !sh.skip(imported, 1) || sh.skip(imported, 0) {
			t.Errorf("share %+v: an imported input was not skipped on a roll of 1, or was on 0", sh)
		}
	}
	if (share{n: 1}).skip(imported, 1) {
		t.Error("a lone instance skipped an input")
	}
	imported.calls = 0
	if a.skip(imported, 1) {
		t.Error("an imported input was skipped before its first call")
	}
}

// syncerShare waits for s to hand over a share of n instances.
func syncerShare(t *testing.T, s *syncer, n int) share {
	t.Helper()
	timeout := time.After(time.Minute)
	for {
		select {
		case news := <-s.news:
			if news.share != nil && news.share.n == n {
				return *news.share
			}
		case <-timeout:
			t.Fatalf("no share of %d instances in a minute", n)
		}
	}
}

// TestSyncerShares: two instances syncing through one directory take the
// two shares; a stale peer file does not count, and one long unrenewed is
// removed; when one instance stops, the other takes the whole corpus again.
func TestSyncerShares(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sync")
	dir := filepath.Join(root, "FuzzX")
	if err := os.MkdirAll(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	stale, gone := filepath.Join(dir, peerPrefix+"0000stale"), filepath.Join(dir, peerPrefix+"0000gone")
	for path, age := range map[string]time.Duration{stale: 2 * peerStale, gone: 2 * peerGone} {
		if err := os.WriteFile(path, nil, 0o666); err != nil {
			t.Fatal(err)
		}
		old := time.Now().Add(-age)
		if err := os.Chtimes(path, old, old); err != nil {
			t.Fatal(err)
		}
	}
	opts := &Options{SyncDir: root, Target: "FuzzX", Types: []reflect.Type{reflect.TypeFor[[]byte]()}}
	a := startSyncer(opts, 10*time.Millisecond, nil, nil, 0)
	defer a.close(os.Stderr)
	b := startSyncer(opts, 10*time.Millisecond, nil, nil, 0)
	sa, sb := syncerShare(t, a, 2), syncerShare(t, b, 2)
	if sa.rank == sb.rank {
		t.Errorf("both instances have rank %d", sa.rank)
	}
	if _, err := os.Stat(stale); err != nil {
		t.Errorf("a peer file a little stale was removed: %v", err)
	}
	if _, err := os.Stat(gone); err == nil {
		t.Error("a peer file long unrenewed was not removed")
	}
	b.close(os.Stderr)
	if _, err := os.Stat(filepath.Join(dir, peerPrefix+b.peer)); err == nil {
		t.Error("a stopped instance left its peer file")
	}
	if s := syncerShare(t, a, 1); s.rank != 0 {
		t.Errorf("alone again: rank %d, want 0", s.rank)
	}
}

// TestSyncerCountsNewPeerAtOnce: an instance that listed the directory
// before another started counts it as soon as its peer file appears (the
// watch), not at its next listing, which here is an hour away.
func TestSyncerCountsNewPeerAtOnce(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the directory is watched on Linux only")
	}
	root := t.TempDir()
	opts := &Options{SyncDir: root, Target: "FuzzX", Types: []reflect.Type{reflect.TypeFor[[]byte]()}}
	a := startSyncer(opts, time.Hour, nil, nil, 0)
	defer a.close(os.Stderr)
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
		if _, err := os.Stat(filepath.Join(root, "FuzzX", peerPrefix+a.peer)); err == nil {
			break // a has listed the directory and announced itself
		}
		if time.Now().After(deadline) {
			t.Fatal("the first instance wrote no peer file in a minute")
		}
	}
	b := startSyncer(opts, time.Hour, nil, nil, 0)
	defer b.close(os.Stderr)
	sa, sb := syncerShare(t, a, 2), syncerShare(t, b, 2)
	if sa.rank == sb.rank {
		t.Errorf("both instances have rank %d", sa.rank)
	}
}
