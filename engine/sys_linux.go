package engine

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// setWorkerAttr makes the kernel kill the worker when the coordinator dies,
// even by SIGKILL, so no worker outlives it.
func setWorkerAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// rssMB returns the resident set size of process pid in MiB (0 if unknown).
func rssMB(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0
	}
	f := bytes.Fields(b)
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.Atoi(string(f[1]))
	return pages * os.Getpagesize() >> 20
}

// vmBytes returns the size of this process's mapped address space.
func vmBytes() uint64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := bytes.Fields(b)
	if len(f) < 1 {
		return 0
	}
	pages, _ := strconv.ParseUint(string(f[0]), 10, 64)
	return pages * uint64(os.Getpagesize())
}
