package build

import "syscall"

// deathSignal has the command killed when this process dies.
func deathSignal(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGKILL }
