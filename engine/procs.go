package engine

import (
	"os"
	"runtime"
	"runtime/metrics"
	"strings"
	"time"
)

// One processor until the code under test starts goroutines (worker side).
//
// A worker runs one input at a time, and every input passes through three
// goroutines (the serving loop, the shallow caller, testing's goroutine for
// the input). While another processor is idle, each switch between them
// wakes a thread to look for work (runtime.wakep), which costs more than a
// small target's whole input and takes a core from the other workers. So a
// worker starts with GOMAXPROCS=1, and goes back to the runtime's default
// as soon as the code under test is seen starting goroutines of its own:
// code that runs goroutines in parallel (and the bugs that need them to,
// such as concurrent map writes) gets every processor from its first input
// on, after at most procsOver watch intervals. Code whose goroutines are
// already alive when the worker starts serving (started at package
// initialization, or by the fuzz test before f.Fuzz) keeps the default from
// the start: they may run beside every input without starting any more.
// Code that asks how many processors it has (procsReader) keeps the
// default too: it may take a serial path on one processor where go test
// takes a parallel one. A GOMAXPROCS the user set applies to the workers
// unchanged.

// procsWatch is how often the worker looks for goroutines the code under
// test started.
const procsWatch = 10 * time.Millisecond

// procsSlack is how many goroutines the process may start beyond one per
// execution (the runtime starts some on demand, such as a collector's mark
// worker or its cleanup goroutine) before the code under test is taken to
// start short-lived ones.
const procsSlack = 8

// procsOver is how many watches in a row must see more live goroutines
// than the worker's own and the input's: an input's goroutine caught
// exiting as the next one starts, now and then under load, must not count.
const procsOver = 3

// createdMetric counts the goroutines the process has started (Go 1.26).
const createdMetric = "/sched/goroutines-created:goroutines"

// oneProcUntilGoroutines runs the worker on one processor until the code
// under test is seen starting goroutines: more of them live than the
// worker's own and the input's (procsOver watches in a row), or more
// started than executions (execs counts those begun; testing starts one
// goroutine for each) beyond procsSlack. It must be called while no input
// runs. It does nothing when the user set GOMAXPROCS, the code reads the
// number of processors (procsReader), the runtime does not count started
// goroutines, or goroutines of the code are alive already.
func oneProcUntilGoroutines(execs func() uint64) {
	if os.Getenv("GOMAXPROCS") != "" {
		return
	}
	if procsReader != "" {
		return
	}
	if _, ok := goroutinesCreated(); !ok || codeGoroutine(parseGoroutines(allStacks()()), workerCreator) != "" || runtime.GOMAXPROCS(1) == 1 {
		return
	}
	// The counts are taken here, while no input runs: the watch's
	// goroutine may first run after many inputs (on one processor, when
	// the worker first blocks).
	w := procsWatcher{live: runtime.NumGoroutine() + 1, start: execs(), execs: execs} // live: and the watch's goroutine
	w.created, _ = goroutinesCreated()
	w.created++ // the watch's goroutine
	go func() {
		tick := time.NewTicker(procsWatch)
		defer tick.Stop()
		for range tick.C {
			if w.own() {
				runtime.SetDefaultGOMAXPROCS()
				return
			}
		}
	}()
}

// workerCreator reports whether fn, the function that started a goroutine,
// is one a worker has before its first input: the runtime's, testing's and
// fuzzbox's (internalFrame), the generated test main's, os/signal's and
// runtime/pprof's (the worker's CPU profile, FUZZBOX_CPUPROFILE). The
// engine's own tests replace it (their probe is fuzzbox's code).
var workerCreator = func(fn string) bool {
	return internalFrame(fn) || strings.HasPrefix(fn, "main.") || strings.HasPrefix(fn, "os/signal.") ||
		strings.HasPrefix(fn, "runtime/pprof.")
}

// codeGoroutine returns the function that started a goroutine of gs that
// is not the worker's own (own), or "" if none did: one that package
// initialization or the fuzz test before f.Fuzz started (a pool, a
// server), which may run beside every input, so the worker keeps the
// default GOMAXPROCS.
func codeGoroutine(gs []goroutine, own func(string) bool) string {
	for _, g := range gs {
		if g.creator != "" && !own(g.creator) {
			return g.creator
		}
	}
	return ""
}

// procsWatcher is oneProcUntilGoroutines' state between watches.
type procsWatcher struct {
	live    int           // goroutines when no input runs
	created uint64        // goroutines started when the watch began
	start   uint64        // executions begun then
	execs   func() uint64 // executions begun
	over    int           // watches in a row that saw more live goroutines than live+1
}

// own reports whether the code under test has started goroutines of its own.
func (w *procsWatcher) own() bool {
	if w.above() {
		w.over++
	} else {
		w.over = 0
	}
	now, _ := goroutinesCreated()
	return w.over >= procsOver || now-w.created > w.execs()-w.start+procsSlack
}

// above reports whether more goroutines are live than the worker's own and
// the input's. An input's goroutine that was preempted after it signalled
// its end can wait in the global run queue while the next inputs' run (the
// scheduler hands the processor from goroutine to goroutine through runnext
// and rarely looks there): it is let run out before the second count.
func (w *procsWatcher) above() bool {
	if runtime.NumGoroutine() <= w.live+1 {
		return false
	}
	runtime.Gosched()
	return runtime.NumGoroutine() > w.live+1
}

// goroutinesCreated returns the number of goroutines the process started.
func goroutinesCreated() (uint64, bool) {
	s := []metrics.Sample{{Name: createdMetric}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0, false
	}
	return s[0].Value.Uint64(), true
}

// procsReader names a package of the code under test that reads the number
// of processors (runtime.GOMAXPROCS, runtime.NumCPU): set by the link step
// of fuzzbox's builds (driver/build, linkArgs) with -X. Such code may take
// another path on one processor than go test takes on several, without
// starting a goroutine, so its workers keep the default GOMAXPROCS.
var procsReader string
