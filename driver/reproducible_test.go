//go:build unix

package driver

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/fuzzbox/fuzzbox/driver/build"
)

// TestBinaryIndependentOfUserCache: the same package built by two users (or
// machines) whose user cache directories differ, and so fuzzbox's extracted
// runtime module, gives the same binary file. Synced instances take each
// other's recorded coverage only for the same binary (engine/synccov.go):
// while the binary named the runtime's directory, every import from an
// instance with another cache ran on a worker.
func TestBinaryIndependentOfUserCache(t *testing.T) {
	toolexec := toolexecKeepingGoCache(t) // one go build cache, as the bench's instances share
	dir := filepath.Join(t.TempDir(), "nofuzz")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "cmd", "fuzzbox", "testdata", "fuzz", "nofuzz"))); err != nil {
		t.Fatal(err)
	}
	var bins [][]byte
	for _, user := range []string{"alice", "bob"} {
		cache := filepath.Join(t.TempDir(), user, ".cache")
		t.Setenv("XDG_CACHE_HOME", cache) // os.UserCacheDir on Unix
		t.Setenv("HOME", cache)           // and on macOS
		out := filepath.Join(t.TempDir(), "nofuzz.test")
		if _, err := build.Build(context.Background(), build.Options{Dir: dir, Out: out, Toolexec: toolexec}); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(data, []byte(cache)) {
			t.Errorf("%s's binary names the user cache directory %s", user, cache)
		}
		bins = append(bins, data)
	}
	if !bytes.Equal(bins[0], bins[1]) {
		t.Error("the two users' binaries differ")
	}
}
