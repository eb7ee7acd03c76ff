package engine

import (
	"runtime"
	"strings"
	"time"

	"github.com/fuzzbox/fuzzbox/engine/ipc"
)

// Settling (worker side). A goroutine the code under test starts may
// outlive the input that started it and panic while a later input runs:
// the worker dies with that later input in shared memory, whose re-runs
// pass. go test -fuzz reports such a death as "fuzzing process hung or
// terminated unexpectedly" with that later input, which does not replay.
//
// A settling execution (ipc.FuzzArgs.Settle, RunArgs.Settle,
// MinimizeArgs.Settle) sets the shared memory's settling flag once the fuzz
// function has returned (workerServer.exec) and, when it passed with more
// goroutines than before, waits for them, ipc.SettleMax at most: the panic
// then kills the worker while its own input is in shared memory, and the
// death says it came after the fuzz function returned (settledNote). The
// wait ends early when none of the goroutines the code under test started
// since the last settling execution can still run on its own: all are
// blocked on another goroutine (a leak, which the leak check reports, or a
// server waiting for its next request).

// settledNote ends the line of a death while settling that says how the
// worker died (proc.death: the message's first line for an exit, its second
// for a panic or fatal error's dump): failures whose message has it came
// from a goroutine after the fuzz function returned (diedAfterReturn).
const settledNote = "after the fuzz function returned, on a goroutine the input started"

// diedAfterReturn reports whether a failure's message is that of a worker
// that died while settling.
func diedAfterReturn(msg string) bool {
	return strings.Contains(firstLine(msg)+"\n"+secondLine(msg), settledNote)
}

// secondLine returns the line after msg's first, or "".
func secondLine(msg string) string {
	_, rest, _ := strings.Cut(strings.TrimLeft(msg, "\n"), "\n")
	line, _, _ := strings.Cut(rest, "\n")
	return line
}

// settleLook is how often a settling execution looks at the goroutines
// (a dump, about 50 µs) to see whether any may still run.
const settleLook = 10 * time.Millisecond

// settle waits, after an execution that passed, while goroutines it left
// (more than before) may still run, ipc.SettleMax at most.
func (w *workerServer) settle(before int) {
	if !stillMore(before) {
		return
	}
	var last map[uint64]bool
	defer func() {
		if last != nil {
			w.settleKnown = last // those still there are no later input's
		}
	}()
	start := time.Now()
	for look := time.Duration(0); runtime.NumGoroutine() > before; time.Sleep(200 * time.Microsecond) {
		since := time.Since(start)
		if since >= ipc.SettleMax {
			return
		}
		if since < look {
			continue
		}
		var run bool
		if run, last = w.mayStillRun(); !run {
			return
		}
		look = since + settleLook
	}
}

// mayStillRun reports whether a goroutine the code under test started,
// not there when the last settling execution ended, is running, runnable,
// sleeping or in a system call: one that may yet fail without another
// goroutine's help. It returns the ids of the goroutines there now.
func (w *workerServer) mayStillRun() (bool, map[uint64]bool) {
	if w.stacks == nil {
		w.stacks = allStacks()
	}
	all := parseGoroutines(w.stacks())
	pkg := ""
	if w.leaks != nil {
		pkg = w.leaks.pkg
	}
	for _, g := range all {
		if !w.settleKnown[g.id] && startedByCode(g.creator, pkg) && mayRun(g.state) {
			return true, goroutineIDs(all)
		}
	}
	return false, goroutineIDs(all)
}

// mayRun reports whether a goroutine in state may go on without another
// goroutine waking it.
func mayRun(state string) bool {
	return stateIn(state, "running", "runnable", "sleep", "syscall", "preempted")
}

// startedByCode reports whether fn, the function that started a goroutine,
// is the code under test's: not the runtime's, the testing package's or
// fuzzbox's (internalFrame), unless it is in the package under test pkg
// (fuzzbox's own, in its tests). The standard library's count: a
// time.AfterFunc's function runs on a goroutine time started.
func startedByCode(fn, pkg string) bool {
	if fn == "" {
		return false
	}
	if p := funcPackage(fn); pkg != "" && (p == pkg || p == pkg+"_test") {
		return true
	}
	return !internalFrame(fn)
}

// onInputGoroutine reports whether the failing goroutine of a dying
// worker's output (the first of its dump) is one the testing package
// started for an input: the fuzz function's own, not one it left behind.
func onInputGoroutine(out string) bool {
	m := createdByRE.FindStringSubmatch(firstGoroutine(trimDump(out)))
	return m != nil && strings.HasPrefix(m[1], "testing.")
}
