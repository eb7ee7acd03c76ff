//go:build !unix

package main

import "os/exec"

// setProcessGroup does nothing here: cancellation kills only the direct child.
func setProcessGroup(cmd *exec.Cmd) (waited func()) { return func() {} }
