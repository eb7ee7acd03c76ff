package engine

import (
	"bytes"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Hangs confirmed sooner. A hang is reported only when a fresh worker runs
// the input past the timeout again; started when the watchdog kills the
// first worker, that confirmation doubles the wait (about 20 s at the
// default timeout of 10 s, where go test -fuzz says "hung" after about
// 11 s without confirming). So an execution that has already run a tenth
// of the timeout is re-run at once in a fresh worker, alongside it (an
// early confirmation): when the first is killed as a hang, the confirming
// run has most of its timeout behind it, and the hang is reported about one
// tenth of a timeout after the first. An execution that ends, or any
// outcome but a hang or an oom, kills the early run; its verdict is used
// only for a hang or an oom of the same input, so a hang's report still
// needs two runs past the full timeout. An execution whose memory grows is
// not ending: its early run goes on, and confirms the hang or the oom it
// ends in (confirms: one input growing without end meets either limit
// first, by the machine's speed). Cancelled at each step of growth, early
// runs of x/text's HZ-GB2312 decoder on a lone "~" never confirmed it: the
// re-run began when the first worker reached the limit, 13 s in, and grew
// for 13 s more.
//
// An early run starts only on a processor no other worker uses (takeCPU):
// beside busy workers it took processor time from the execution it was to
// confirm. image/gif's FuzzDecode re-encodes each seed 256 times (8 s in
// go test -fuzz's binary); at -parallel=2 on two processors each slow seed
// started an early run, the four processes ran at half speed, every seed
// outlasted the 10-s timeout and fuzzbox refused to fuzz the test, which
// go test -fuzz fuzzes. Where every processor has a worker, the
// confirmation starts when the watchdog kills the first worker, as before
// early runs.

// slowFraction: an execution that has run timeout/slowFraction without
// ending, or grown the worker's resident memory by -rss_limit_mb/slowFraction,
// starts its early confirmation. One growing to an oom is confirmed
// sooner so: x/text's UTF-16 decoder reaches the limit in the heap about
// 0.7 s into the execution, before a tenth of the timeout.
const slowFraction = 10

// earlyCounts counts early confirmations started and those whose verdict
// confirmed a failure, for the engine's tests; running counts those
// running, heldShort those whose oom of the heap check came after the
// shorter wait they were told of (tellHeld).
var earlyCounts struct{ started, confirmed, running, heldShort atomic.Int64 }

// takeCPU counts an early run as running and reports true when a
// processor is left for it beside the run's workers and the other early
// runs (the coordinator's GOMAXPROCS: the processors it may use, cgroup
// limits included); otherwise it counts nothing and reports false.
func takeCPU(workers int) bool {
	if int64(workers)+earlyCounts.running.Add(1) <= int64(runtime.GOMAXPROCS(0)) {
		return true
	}
	earlyCounts.running.Add(-1)
	return false
}

// procHooks are the fuzzing worker's callbacks from its process's
// watchdog.
type procHooks struct {
	slow     func(enc []byte) // an execution (enc: its input) has run timeout/slowFraction
	progress func()           // the slow execution ended or made progress
}

// early is one early confirmation: a fresh worker running a slow input.
type early struct {
	enc       []byte // the input, encoded
	done      chan struct{}
	proc      atomic.Pointer[proc] // its worker; nil once it ended
	mu        sync.Mutex           // held to write to proc's shared memory, and to end it
	cancelled atomic.Bool
	held      atomic.Bool // the first worker's oom was of the heap check (tellHeld)
	// Set before done is closed: the re-run's failure kind and message,
	// whether it failed, and whether it gave a verdict at all (not an
	// internal error or a cancellation).
	kind, msg       string
	failed, verdict bool
}

// watchSlow makes p's watchdog start early confirmations for w.
func (w *worker) watchSlow(p *proc) {
	p.hooks.Store(&procHooks{slow: w.startEarly, progress: w.cancelEarly})
}

// startEarly starts the early confirmation of enc (called by the watchdog).
func (w *worker) startEarly(enc []byte) {
	vals, err := decodeValues(enc)
	if err != nil || !takeCPU(w.opts.Parallel) {
		return
	}
	e := &early{enc: enc, done: make(chan struct{})}
	earlyCounts.started.Add(1)
	if old := w.early.Swap(e); old != nil {
		old.cancel()
	}
	go e.run(w.setup, vals)
}

func (e *early) run(s *setup, vals []any) {
	defer close(e.done)
	defer earlyCounts.running.Add(-1) // counted by takeCPU
	p, err := s.startRawProc(true)
	if err != nil {
		return
	}
	defer func() {
		e.mu.Lock() // tellHeld writes to its shared memory under it
		e.proc.Store(nil)
		e.mu.Unlock()
		p.stop(time.Second)
	}()
	e.proc.Store(p)
	if e.cancelled.Load() {
		return
	}
	r := s.rerunOn(p, vals, e.held.Load()) // the full wait, unless a first oom told otherwise
	e.kind, e.msg, e.failed, e.verdict = r.kind, r.msg, r.failed, r.verdict() && !e.cancelled.Load()
	if strings.Contains(firstLine(r.msg), heldInHeap+confirmHeld.String()) {
		earlyCounts.heldShort.Add(1)
	}
}

// tellHeld tells the early run that the first worker's oom was of the
// heap check (heldOOM): its check then waits confirmHeld, as a re-run
// started after the failure does (ipc.RunArgs.HeldOOM), also when it is
// already running (ipc.Mem.SetHeld). Under heldFor, an early run began
// after a tenth of the timeout confirmed x/text's UTF-16 decoder later than a
// re-run begun after the first worker's oom (2.3–2.6 s against 2.2–2.5 s).
func (e *early) tellHeld() {
	e.held.Store(true)
	e.mu.Lock()
	defer e.mu.Unlock()
	if p := e.proc.Load(); p != nil {
		p.mem.SetHeld()
	}
}

// cancel kills the early run's process, if it has one yet; the run
// then ends without a verdict.
func (e *early) cancel() {
	e.cancelled.Store(true)
	if p := e.proc.Load(); p != nil {
		p.kill("cancelled", syscall.SIGKILL)
	}
}

// cancelEarly cancels the early confirmation running, if any.
func (w *worker) cancelEarly() {
	if e := w.early.Swap(nil); e != nil {
		e.cancel()
	}
}

// takeEarly returns the early confirmation of the input enc, if one runs,
// and cancels one of another input.
func (w *worker) takeEarly(enc []byte) *early {
	e := w.early.Swap(nil)
	if e != nil && !bytes.Equal(e.enc, enc) {
		e.cancel()
		return nil
	}
	return e
}
