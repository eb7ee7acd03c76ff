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
	tuneGC(mb)
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

// workerGCPercent is the workers' GOGC. A worker's live heap is small and
// every input allocates afresh (testing's goroutine, T and context, the
// target's own garbage), so at Go's default of 100 it collected several
// dozen times a second: 6–12% more executions per CPU second at 400 on
// bench/targets/nobug and bench/realworld/dnsrr.
const workerGCPercent = 400

// tuneGC sets the workers' GOGC, with a soft memory limit at half of
// -rss_limit_mb so that the larger heap goal never brings a worker near the
// limit with garbage: a target whose live heap nears half the limit is
// collected as often as it needs (at Go's default, such a heap would reach
// the limit and be reported as oom). With no memory limit, or GOGC or
// GOMEMLIMIT set by the user, the runtime's settings stay.
func tuneGC(limitMB int) {
	if limitMB <= 0 || os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(workerGCPercent)
	debug.SetMemoryLimit(int64(limitMB) << 20 / 2)
}
