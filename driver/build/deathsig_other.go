//go:build unix && !linux

package build

import "syscall"

// deathSignal does nothing where the system has no parent-death signal.
func deathSignal(attr *syscall.SysProcAttr) {}
