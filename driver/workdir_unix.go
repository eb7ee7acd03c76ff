//go:build unix

package driver

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"time"
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
// dies); ok is false when it cannot, or ctx ends while it waits.
func lockFile(ctx context.Context, path string) (unlock func(), ok bool) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, false
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err != syscall.EWOULDBLOCK && err != syscall.EINTR {
			break
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, false
		case <-time.After(lockPoll):
		}
	}
	if err != nil {
		f.Close()
		return nil, false
	}
	return func() { f.Close() }, true
}

// lockPoll is how often lockFile tries a lock another process holds: a
// blocking flock could not be given up when the run is stopped.
const lockPoll = 50 * time.Millisecond
