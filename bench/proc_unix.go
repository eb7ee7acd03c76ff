//go:build unix

package main

import (
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// stopGrace is how long a cancelled run may take to stop on SIGTERM before
// its process group is killed.
const stopGrace = 10 * time.Second

// setProcessGroup makes cmd the leader of a new process group and makes
// cancellation stop the whole group: go test runs the test binary and the
// fuzzing workers as children, which must not outlive a cancelled run.
// SIGTERM comes first, so that a run stopped early (the other instances of
// a synced run, once one has found the bug) ends as a user's Ctrl-C would
// end it and removes its temporary files; SIGKILL follows after stopGrace,
// or as soon as the leader has exited (call waited after cmd.Wait).
func setProcessGroup(cmd *exec.Cmd) (waited func()) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var mu sync.Mutex
	var kill *time.Timer
	cmd.Cancel = func() error {
		mu.Lock()
		defer mu.Unlock()
		pid := cmd.Process.Pid
		kill = time.AfterFunc(stopGrace, func() { syscall.Kill(-pid, syscall.SIGKILL) })
		return syscall.Kill(-pid, syscall.SIGTERM)
	}
	return func() {
		mu.Lock()
		defer mu.Unlock()
		if kill != nil && kill.Stop() {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // what is left of the group
		}
	}
}
