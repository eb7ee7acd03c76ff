package driver

import (
	"os"
	"path/filepath"
	"strings"
)

// Temporary directories (the test binaries of a run, a replay, a coverage
// report) are removed when the run returns; a driver killed before that
// (SIGKILL, the OOM killer, a CI job's timeout) would leave each one in the
// temporary directory for good, several megabytes of test binary apiece.
// So each holds a lock file for as long as its run goes on, and the next
// run removes the ones whose lock nobody holds any more. A lock, unlike a
// process ID, is released by the kernel when its holder dies, and means the
// same to processes in other PID namespaces sharing the directory.

// workPrefix starts the names of the driver's temporary directories.
const workPrefix = "fuzzbox-"

// workLock is the lock file in each of them.
const workLock = ".fuzzbox-run-lock"

// workDir makes a temporary directory named workPrefix+kind+"-*", locked
// until release is called, which also removes it. It first removes the
// directories of runs that ended without removing theirs.
func workDir(kind string) (dir string, release func(), err error) {
	sweepWorkDirs(os.TempDir())
	dir, err = os.MkdirTemp("", workPrefix+kind+"-")
	if err != nil {
		return "", nil, err
	}
	unlock := lockWorkDir(dir)
	return dir, func() {
		os.RemoveAll(dir)
		unlock()
	}, nil
}

// sweepWorkDirs removes the driver's directories in tmp whose lock file
// exists and is not held: their run was killed. Directories without a lock
// file (an older fuzzbox's, or one being made) are left alone.
func sweepWorkDirs(tmp string) {
	ents, err := os.ReadDir(tmp)
	if err != nil {
		return
	}
	for _, de := range ents {
		if !de.IsDir() || !strings.HasPrefix(de.Name(), workPrefix) {
			continue
		}
		dir := filepath.Join(tmp, de.Name())
		if abandoned(filepath.Join(dir, workLock)) {
			os.RemoveAll(dir)
		}
	}
}
