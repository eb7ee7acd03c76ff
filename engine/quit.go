package engine

import (
	"bytes"
	"os"
	"os/signal"
	"runtime"
	"syscall"
)

// Goroutine stacks of a hanging worker. The watchdog (proc.go) sends a
// worker SIGQUIT when an execution runs longer than the timeout. The
// runtime's own SIGQUIT report cannot show a goroutine that is running on
// another thread: it asks running goroutines to stop, waits about 7 ms for
// them (freezetheworld), and prints "goroutine running on other thread;
// stack unavailable" for those still running. A busy loop's goroutine is
// such a one; on a loaded machine its thread may not run within 7 ms, and
// the hang was reported without the stack that shows where it hangs
// (driver's TestFuzzFailures/FuzzHang lost it in 5 of 23 runs at a load
// average of 15-20 on 2 cores, and in 4 of 4 with GODEBUG=dontfreezetheworld=1,
// which makes the runtime skip that wait; with this handler in none of 12
// and 3 such runs).
//
// So a worker handles SIGQUIT itself: it prints every goroutine's stack
// with the world stopped (runtime.Stack), which waits until every goroutine
// has stopped however long the OS takes to run its thread, and exits with
// status 2, as the runtime does. It restores SIGQUIT's default action
// first: if the world cannot be stopped (a goroutine that cannot be
// preempted), the watchdog's second SIGQUIT gets the runtime's own report.
// The exit is the worker process's, on its coordinator's signal: library
// code in the coordinator never exits.

// quitExitCode is the status a worker exits with after its SIGQUIT report:
// the runtime's.
const quitExitCode = 2

// quitHeader starts a worker's SIGQUIT report; dumpStart finds it.
const quitHeader = "SIGQUIT: quit (goroutine stacks taken by fuzzbox with the world stopped)\n\n"

// quitFrame is how the SIGQUIT handler's goroutine reads in a goroutine
// dump (dropIdle removes it).
const quitFrame = "github.com/fuzzbox/fuzzbox/engine.dumpOnQuit."

// dumpOnQuit makes the worker answer SIGQUIT with its goroutine stacks.
func dumpOnQuit() {
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGQUIT)
	go func() {
		<-c
		signal.Reset(syscall.SIGQUIT)
		os.Stderr.Write(quitReport())
		os.Exit(quitExitCode)
	}()
}

// quitReport returns quitHeader and the stacks of every goroutine but the
// calling one.
func quitReport() []byte {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) || len(buf) >= 64<<20 {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	// The first goroutine is the caller, with nothing to say about the hang.
	if i := bytes.Index(buf, []byte("\n\n")); i >= 0 {
		buf = buf[i+2:]
	}
	return append([]byte(quitHeader), buf...)
}
