//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// setProcessGroup makes cmd the leader of a new process group and makes
// cancellation kill the whole group: go test runs the test binary and the
// fuzzing workers as children, which must not outlive a killed run.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
