//go:build unix

package build

import (
	"os"
	"syscall"
)

// newGroup starts a command in a process group of its own.
func newGroup() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// interruptGroup sends SIGINT to p's process group (newGroup).
func interruptGroup(p *os.Process) error { return syscall.Kill(-p.Pid, syscall.SIGINT) }
