package basedeps

import (
	"runtime"
	"runtime/metrics"
	"time"
)

// Watching for the code under test's own goroutines. Both fuzzing binaries
// run each input through three goroutines (the serving loop, testing's
// caller, testing's goroutine for the input), and while a processor is
// idle every switch between them wakes a thread to look for work, which
// costs more than a small target's whole input. So they run inputs without
// those wake-ups — a fuzzbox worker on one processor (engine/procs.go), a
// libFuzzer binary with the runtime's wake-ups of a new or readied
// goroutine held back (engine/libfuzzer/wake.go) — until a GoroutineWatch
// sees the code under test start goroutines of its own, which then get
// every processor, as under go test.

// WatchEvery is how often the watch looks for goroutines the code under
// test started.
const WatchEvery = 10 * time.Millisecond

// startedSlack is how many goroutines the process may start beyond one per
// execution (the runtime starts some on demand, such as a collector's mark
// worker or its cleanup goroutine) before the code under test is taken to
// start short-lived ones.
const startedSlack = 8

// liveWatches is how many watches in a row must see more live goroutines
// than the binary's own and the input's: an input's goroutine caught
// exiting as the next one starts, now and then under load, must not count.
const liveWatches = 3

// createdMetric counts the goroutines the process has started (Go 1.26).
const createdMetric = "/sched/goroutines-created:goroutines"

// A GoroutineWatch tells whether the code under test has started
// goroutines of its own: more of them live than the binary's own and the
// input's (Live), or more started than executions (Started; testing starts
// one goroutine for each) beyond startedSlack. Live and Started may be
// called from two goroutines, each from one.
type GoroutineWatch struct {
	live    int           // goroutines when no input runs
	over    int           // watches in a row that saw more live goroutines than live+1
	created uint64        // goroutines started when the watch began
	start   uint64        // executions begun then
	execs   func() uint64 // executions begun
}

// NewGoroutineWatch starts a watch; it must be called while no input runs.
// execs counts the executions begun; extra is the number of goroutines the
// caller starts for the watch itself. It reports false when the runtime
// does not count the goroutines it starts.
func NewGoroutineWatch(execs func() uint64, extra int) (*GoroutineWatch, bool) {
	created, ok := goroutinesCreated()
	if !ok {
		return nil, false
	}
	return &GoroutineWatch{live: runtime.NumGoroutine() + extra, created: created + uint64(extra), start: execs(), execs: execs}, true
}

// Own reports whether the code under test has started goroutines of its
// own, counting this call as one watch (Live, Started).
func (w *GoroutineWatch) Own() bool {
	live := w.Live()
	return live || w.Started()
}

// Live counts one watch of the live goroutines and reports whether
// liveWatches in a row saw more of them than the binary's own and the
// input's. It uses only the runtime, which fuzzing binaries compile
// without instrumentation: it may run while an input runs.
//
// An input's goroutine that was preempted after it signalled its end can
// wait in the global run queue while the next inputs run (the scheduler
// hands the processor from goroutine to goroutine through runnext and
// rarely looks there): it is let run out before the second count.
func (w *GoroutineWatch) Live() bool {
	if runtime.NumGoroutine() > w.live+1 {
		runtime.Gosched()
	}
	if runtime.NumGoroutine() > w.live+1 {
		w.over++
	} else {
		w.over = 0
	}
	return w.over >= liveWatches
}

// Started reports whether the process started more goroutines than
// executions since the watch began, beyond startedSlack. It reads
// runtime/metrics, which fuzzing binaries instrument: in a libFuzzer
// binary, whose engine reads the coverage of whatever runs beside an
// input, it must run between inputs.
func (w *GoroutineWatch) Started() bool {
	now, _ := goroutinesCreated()
	return now-w.created > w.execs()-w.start+startedSlack
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
