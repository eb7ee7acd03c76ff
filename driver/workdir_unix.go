//go:build unix

package driver

import (
	"os"
	"path/filepath"
	"syscall"
)

// lockWorkDir creates dir's lock file and holds an exclusive lock on it
// until the returned function is called (or the process dies). The file is
// locked under another name and then renamed, so that no sweep finds it
// unlocked. Without a lock the directory is only ever removed by its own
// run.
func lockWorkDir(dir string) (unlock func()) {
	tmp := filepath.Join(dir, workLock+".new")
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return func() {}
	}
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil || os.Rename(tmp, filepath.Join(dir, workLock)) != nil {
		f.Close()
		return func() {}
	}
	return func() { f.Close() }
}

// abandoned reports whether the lock file at path exists and no process
// holds its lock. The probe's own lock is released at once.
func abandoned(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
}

// lockFile opens path, creating it, and holds an exclusive lock on it,
// waiting for another process's, until unlock is called (or the process
// dies); ok is false when it cannot.
func lockFile(path string) (unlock func(), ok bool) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, false
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, false
	}
	return func() { f.Close() }, true
}
