package engine

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProfileHeap: stopping the profiler writes a heap profile (gzipped
// protocol buffer) to the path given.
func TestProfileHeap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "heap.pprof")
	var log strings.Builder
	profileHeap(path, &log)()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		t.Errorf("%s is not a gzipped profile: % x", path, data[:min(len(data), 8)])
	}
	if log.Len() > 0 {
		t.Errorf("warnings: %s", log.String())
	}
}
