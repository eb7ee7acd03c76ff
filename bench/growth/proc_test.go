//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

func TestReadProcs(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	cmd := exec.Command("sleep", "10")
	if err := cmd.Start(); err != nil {
		t.Skip("no sleep command:", err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	tree := readProcs()
	self := tree.get(os.Getpid())
	if self.pid != os.Getpid() || self.ppid != os.Getppid() || self.rssKB <= 0 || self.comm == "" {
		t.Errorf("this process reads as %+v", self)
	}
	kids := tree.children(os.Getpid())
	if len(kids) != 1 || kids[0].pid != cmd.Process.Pid || kids[0].comm != "sleep" {
		t.Errorf("children = %+v, want the sleep process %d", kids, cmd.Process.Pid)
	}
	if c := tree.coordinator(os.Getpid()); c.pid != 0 {
		t.Errorf("coordinator = %+v, want none (no child named *.test)", c)
	}
}

func TestMeasureDir(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "FuzzX"), 0o755)
	os.WriteFile(filepath.Join(dir, "FuzzX", "a"), []byte("12345"), 0o644)
	os.WriteFile(filepath.Join(dir, "FuzzX.dict"), []byte("abc"), 0o644)
	if got := measureDir(dir); got != (dirSize{files: 2, bytes: 8}) {
		t.Errorf("measureDir = %+v, want 2 files of 8 bytes", got)
	}
	if got := measureDir(filepath.Join(dir, "missing")); got != (dirSize{}) {
		t.Errorf("measureDir of a missing directory = %+v", got)
	}
}
