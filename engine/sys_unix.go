//go:build unix && !linux

package engine

import (
	"os"
	"os/exec"
	"runtime"
)

// On the other Unix systems (macOS, the BSDs) the engine runs as on Linux
// (shared memory through mmap, the worker's pipes as inherited file
// descriptors, SIGQUIT for a hang's stacks) with two parts missing: no
// parent-death signal (a worker notices the coordinator's death when its
// call pipe closes, after the input it is running) and no reading of a
// worker's resident memory (-rss_limit_mb is not enforced). Cross-built in
// CI for darwin/arm64 and darwin/amd64; never run there.

// platformErr: fuzzing works here.
func platformErr() error { return nil }

// memLimitNote says why -rss_limit_mb has no effect here.
var memLimitNote = "-rss_limit_mb is not enforced on " + runtime.GOOS + ": fuzzbox reads a worker's resident memory from /proc on Linux only; an input that allocates without bound fails with the runtime's own out-of-memory error instead"

// setWorkerAttr: without Pdeathsig, workers notice the coordinator's death
// when their call pipe closes.
func setWorkerAttr(cmd *exec.Cmd) {}

// startWorker starts cmd.
func startWorker(cmd *exec.Cmd) error { return cmd.Start() }

// workerWaited: startWorker keeps nothing running here.
func workerWaited() {}

// oomFirst: no OOM killer to steer here.
func oomFirst(pid int) {}

// exitedPeakMB is not implemented outside Linux.
func exitedPeakMB(state *os.ProcessState) int { return 0 }

// rssMB is not implemented outside Linux: -rss_limit_mb has no effect.
func rssMB(pid int) int { return 0 }

// vmBytes is not implemented outside Linux: the worker-side memory check
// is off and only the runtime's own out-of-memory errors are reported.
func vmBytes() (vm, anon uint64) { return 0, 0 }

func unallocatedBytes() uint64 { return 0 }

// lowerPriority: not done here; the race twin runs at normal priority.
func lowerPriority(pid int) {}

// cgroupMemLimit: no cgroups outside Linux.
func cgroupMemLimit(root string) (uint64, string) { return 0, "" }

// oomKills: no count of OOM kills outside Linux.
func oomKills() (uint64, bool) { return 0, false }

// workerGroup: no cgroups outside Linux; the workers run where the
// coordinator does.
type workerGroup struct{}

func newWorkerGroup(root string, limit uint64) *workerGroup { return nil }
func (g *workerGroup) add(pid int)                          {}
func (g *workerGroup) remove()                              {}
