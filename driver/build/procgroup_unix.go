//go:build unix

package build

import (
	"os"
	"syscall"
)

// newGroup starts a command in a process group of its own, killed when
// this process dies where the system can say so (deathSignal): a kill -9 of
// fuzzbox's process group does not reach a build in a group of its own,
// which ran on.
func newGroup() *syscall.SysProcAttr {
	attr := &syscall.SysProcAttr{Setpgid: true}
	deathSignal(attr)
	return attr
}

// interruptGroup sends SIGINT to p's process group (newGroup).
func interruptGroup(p *os.Process) error { return syscall.Kill(-p.Pid, syscall.SIGINT) }
