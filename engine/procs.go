package engine

import (
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/fuzzbox/fuzzbox/engine/basedeps"
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
// on, after a few watch intervals (basedeps.GoroutineWatch, which the
// libFuzzer binaries' wake-up rule shares). Code whose goroutines are
// already alive when the worker starts serving (started at package
// initialization, or by the fuzz test before f.Fuzz) keeps the default from
// the start: they may run beside every input without starting any more.
// Code that asks how many processors it has (procsReader) keeps the
// default too: it may take a serial path on one processor where go test
// takes a parallel one. A GOMAXPROCS the user set applies to the workers
// unchanged.

// allProcsEnv, set in a worker's environment, keeps it on every processor
// from the start: a worker that re-runs or minimizes a failure
// (startRawProcTimeout), whose one input must run as it did where it failed.
const allProcsEnv = "FUZZBOX_ALL_PROCS"

// oneProcUntilGoroutines runs the worker on one processor until the code
// under test is seen starting goroutines (basedeps.GoroutineWatch; execs
// counts the executions begun). It must be called while no input runs. It
// does nothing in a worker started with allProcsEnv, when the user set GOMAXPROCS, the code reads the
// number of processors (procsReader), the runtime does not count started
// goroutines, or goroutines of the code are alive already.
func oneProcUntilGoroutines(execs func() uint64) {
	all := os.Getenv(allProcsEnv) != ""
	os.Unsetenv(allProcsEnv) // the code under test sees go test's environment
	if all || os.Getenv("GOMAXPROCS") != "" {
		return
	}
	if procsReader != "" {
		return
	}
	if codeGoroutine(parseGoroutines(allStacks()()), workerCreator) != "" {
		return
	}
	// The counts are taken here, while no input runs: the watch's
	// goroutine may first run after many inputs (on one processor, when
	// the worker first blocks).
	w, ok := basedeps.NewGoroutineWatch(execs, 1) // and the watch's goroutine
	if !ok || runtime.GOMAXPROCS(1) == 1 {
		return
	}
	go func() {
		tick := time.NewTicker(basedeps.WatchEvery)
		defer tick.Stop()
		for range tick.C {
			if w.Own() {
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

// procsReader names a package of the code under test that reads the number
// of processors (runtime.GOMAXPROCS, runtime.NumCPU): set by the link step
// of fuzzbox's builds (driver/build, linkArgs) with -X. Such code may take
// another path on one processor than go test takes on several, without
// starting a goroutine, so its workers keep the default GOMAXPROCS.
var procsReader string
