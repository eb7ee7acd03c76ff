//go:build !unix

package build

import (
	"os"
	"syscall"
)

// newGroup returns nil here: the command runs in the caller's group.
func newGroup() *syscall.SysProcAttr { return nil }

// interruptGroup interrupts p alone here.
func interruptGroup(p *os.Process) error { return p.Signal(os.Interrupt) }
