package ipc

import (
	"path/filepath"
	"testing"
)

// TestCreateMemWithoutTMPDIR: on Linux a region is an anonymous memory
// file, not a file in TMPDIR: a full TMPDIR (a small tmpfs /tmp) made the
// first write to a new region fault (SIGBUS), which killed the coordinator.
func TestCreateMemWithoutTMPDIR(t *testing.T) {
	if sysMemfdCreate == 0 {
		t.Skip("regions are temporary files here")
	}
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	m, err := CreateMem(1<<20, 64)
	if err != nil {
		t.Fatalf("CreateMem with TMPDIR missing: %v", err)
	}
	defer m.Close()
	if !m.SetValue(make([]byte, 1<<20)) {
		t.Fatal("SetValue of the region's capacity failed")
	}
}
