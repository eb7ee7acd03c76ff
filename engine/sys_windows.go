//go:build !unix

package engine

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
)

// On Windows (and other systems without Unix process control) the engine
// refuses to fuzz, saying what is missing: its workers need shared memory
// (mmap; Windows would need CreateFileMapping) and their pipes passed as
// inherited descriptors (exec.Cmd.ExtraFiles, which Windows lacks), and a
// hang's stacks come from SIGQUIT. The fuzzing binaries build there (CI
// cross-builds windows/amd64), and stock go test replays every reproducer.

// platformErr says why fuzzbox's engine does not run here.
func platformErr() error {
	return fmt.Errorf("engine: fuzzbox's engine does not run on %s yet: its worker processes need shared memory (mmap) and pipes passed as inherited file descriptors; go test replays the corpus and reproducers, and go test -fuzz fuzzes natively", runtime.GOOS)
}

// memLimitNote: never shown, fuzzing is refused first.
var memLimitNote = ""

func setWorkerAttr(cmd *exec.Cmd) {}

// startWorker starts cmd.
func startWorker(cmd *exec.Cmd) error { return cmd.Start() }

// workerWaited: startWorker keeps nothing running here.
func workerWaited() {}

func oomFirst(pid int) {}

func rssMB(pid int) int { return 0 }

// exitedPeakMB is not implemented outside Linux.
func exitedPeakMB(state *os.ProcessState) int { return 0 }

func vmBytes() (vm, anon uint64) { return 0, 0 }

func unallocatedBytes() uint64 { return 0 }

// lowerPriority: not done here; the race twin runs at normal priority.
func lowerPriority(pid int) {}

// cgroupMemLimit: never called, fuzzing is refused first.
func cgroupMemLimit(root string) (uint64, string) { return 0, "" }

// oomKills: never called, fuzzing is refused first.
func oomKills() (uint64, bool) { return 0, false }

// workerGroup: never made, fuzzing is refused first.
type workerGroup struct{}

func newWorkerGroup(root string, limit uint64) *workerGroup { return nil }
func (g *workerGroup) add(pid int)                          {}
func (g *workerGroup) remove()                              {}
