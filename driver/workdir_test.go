//go:build unix

package driver

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWorkDirSweep: a run's directory stays while its lock is held (by
// another open file, as another process would hold it), is removed by the
// next sweep once the lock is gone (its run was killed), and is removed by
// its own release; a directory without a lock file is left alone.
func TestWorkDirSweep(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	live, release, err := workDir("test")
	if err != nil {
		t.Fatal(err)
	}
	killed, err := os.MkdirTemp(tmp, workPrefix+"test-")
	if err != nil {
		t.Fatal(err)
	}
	unlock := lockWorkDir(killed)
	other := filepath.Join(tmp, workPrefix+"old")
	if err := os.Mkdir(other, 0o777); err != nil {
		t.Fatal(err)
	}
	sweepWorkDirs(tmp)
	for _, d := range []string{live, killed, other} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s removed while locked or without a lock: %v", d, err)
		}
	}
	unlock() // as the kernel releases a killed process's lock
	_, release2, err := workDir("test")
	if err != nil {
		t.Fatal(err)
	}
	defer release2()
	if _, err := os.Stat(killed); !os.IsNotExist(err) {
		t.Errorf("the killed run's directory is still there (%v)", err)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("the live run's directory was removed: %v", err)
	}
	release()
	if _, err := os.Stat(live); !os.IsNotExist(err) {
		t.Errorf("release left the directory (%v)", err)
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("a directory without a lock file was removed: %v", err)
	}
}
