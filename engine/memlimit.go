package engine

import (
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"time"
)

// memLimitEnv carries -rss_limit_mb from the coordinator to its workers.
const memLimitEnv = "FUZZBOX_WORKER_MEMLIMIT_MB"

// workerMaxStack is the goroutine stack limit in workers. Go's default of
// 1 GB makes a runaway recursion take many seconds under instrumentation
// and look like a hang; at 256 MB it is reported as the stack overflow it
// is, and stock go test still overflows on the reproducer.
const workerMaxStack = 256 << 20

// limitWorkerMemory enforces the memory limit from inside the worker. The
// coordinator polls the worker's resident set, but resident memory grows
// only as pages are touched, which for a huge slice takes seconds. Here a
// goroutine samples the process's mapped size every 10 ms and, when one
// execution (execs tells them apart) has grown it by more than the limit,
// panics: the process ends with every goroutine's stack, the allocating one
// among them, and a message the coordinator reports as oom. (The Go heap's
// own metrics are no help: reading them waits for the allocating goroutine,
// busy zeroing or copying gigabytes, to reach a safe point.)
func limitWorkerMemory(execs func() uint64) {
	debug.SetMaxStack(workerMaxStack)
	mb, _ := strconv.Atoi(os.Getenv(memLimitEnv))
	if mb <= 0 || vmBytes() == 0 {
		return
	}
	limit := uint64(mb) << 20
	go func() {
		lastExec, prev := execs(), vmBytes()
		base := prev // mapped size before the current execution began
		for range time.Tick(10 * time.Millisecond) {
			vm := vmBytes()
			if e := execs(); e != lastExec {
				lastExec, base = e, prev
			}
			if vm > base && vm-base > limit {
				panic(fmt.Sprintf("fuzzbox: out of memory: one execution grew the worker by %d MiB, over -rss_limit_mb=%d", (vm-base)>>20, mb))
			}
			prev = vm
		}
	}()
}
