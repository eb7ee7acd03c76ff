//go:build !linux

package engine

import "os/exec"

// setWorkerAttr: without Pdeathsig, workers notice the coordinator's death
// when their call pipe closes.
func setWorkerAttr(cmd *exec.Cmd) {}

// rssMB is not implemented outside Linux: -rss_limit_mb has no effect.
func rssMB(pid int) int { return 0 }

// vmBytes is not implemented outside Linux: the worker-side memory check
// is off and only the runtime's own out-of-memory errors are reported.
func vmBytes() uint64 { return 0 }
