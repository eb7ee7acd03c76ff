package engine

import (
	"fmt"
	"os"
	"runtime/debug"
	"runtime/metrics"
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
// coordinator also polls the worker's resident set, but an input that
// allocates a huge slice is caught here at once, before the pages are
// touched: a goroutine samples the heap every 10 ms and, above the limit,
// panics, which ends the process with every goroutine's stack (the one
// allocating among them) and a message the coordinator reports as oom.
func limitWorkerMemory() {
	debug.SetMaxStack(workerMaxStack)
	mb, _ := strconv.Atoi(os.Getenv(memLimitEnv))
	if mb <= 0 {
		return
	}
	limit := uint64(mb) << 20
	go func() {
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for range time.Tick(10 * time.Millisecond) {
			metrics.Read(s)
			if n := s[0].Value.Uint64(); n > limit {
				panic(fmt.Sprintf("fuzzbox: out of memory: the heap reached %d MiB, over -rss_limit_mb=%d", n>>20, mb))
			}
		}
	}()
}
