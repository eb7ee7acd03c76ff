package engine

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"github.com/fuzzbox/fuzzbox/engine/ipc"
)

// worker is one worker goroutine. It owns its worker process (and the ones
// that replace it), and the fresh processes it starts to confirm and
// minimize a failure; it reads the loop's state only through the work the
// loop hands it.
type worker struct {
	*setup
	id     int
	msgs   chan<- message // to the loop
	work   chan work      // from the loop; closed when the worker is to stop
	claims chan bool      // the loop's answers to claim messages
	// recordedAs carries the loop's answers to minimized messages.
	recordedAs chan string
	execs      int64                 // executions not yet reported to the loop
	total      int64                 // executions of this worker
	restarts   int                   // processes that died under it
	oomStarved int                   // workers the OOM killer killed on inputs that did not grow them (starved)
	early      atomic.Pointer[early] // the early confirmation of a slow input (early.go)
}

func newWorker(s *setup, id int, msgs chan<- message) *worker {
	return &worker{setup: s, id: id, msgs: msgs, work: make(chan work, 1), claims: make(chan bool, 1), recordedAs: make(chan string, 1)}
}

// send sends the loop body with the executions run since the last message.
func (w *worker) send(body any) {
	w.msgs <- message{from: w, execs: w.execs, body: body}
	w.execs = 0
}

// count counts n executions.
func (w *worker) count(n int64) {
	w.execs += n
	w.total += n
}

// internal reports an internal error to the loop.
func (w *worker) internal(msg string) { w.send(internalErr{msg}) }

// fatal reports an error that stops the run to the loop.
func (w *worker) fatal(err error) { w.send(fatal{err}) }

// run starts the worker's process and does the loop's work on it until the
// loop stops it or the process cannot be replaced.
func (w *worker) run() {
	p, err := w.startProc()
	defer func() {
		w.cancelEarly()
		if p != nil {
			p.stop(2 * time.Second)
		}
		w.send(gone{})
	}()
	if err != nil {
		w.fatal(err)
		return
	}
	var done any = ready{}
	for {
		w.send(done)
		wk, ok := <-w.work
		if !ok {
			return
		}
		if w.worn(p) {
			// A fresh process, before leaks pile up; only now: the loop
			// has read the coverage the last message lent it.
			if p, err = w.restart(p); err != nil {
				w.fatal(err)
				return
			}
		}
		if wk.baseline != nil {
			done, p, err = w.baseline(p, wk.baseline, wk.trace)
		} else {
			done, p, err = w.fuzz(p, wk)
		}
		if err != nil {
			w.fatal(err)
			return
		}
	}
}

// fuzz makes one fuzz call on p and handles its outcome. It returns the
// message that reports it and the process to use next; an error means no
// process can be started.
func (w *worker) fuzz(p *proc, wk work) (fuzzed, *proc, error) {
	np, done, err := w.fuzzOnce(p, wk)
	if err == nil && np != p && !w.stopping() {
		w.restarts++
		if w.restarts > 100 && w.total < int64(w.restarts)*10 {
			err = errors.New("engine: workers keep dying without running inputs")
		}
	}
	return done, np, err
}

// startProc starts a worker process and warms it up.
func (w *worker) startProc() (*proc, error) {
	p, err := w.startRawProc(true)
	if err != nil {
		return p, err
	}
	w.watchSlow(p)
	if w.warmInput == nil {
		return p, nil
	}
	// The first execution in a fresh process also runs one-time
	// initialization (sync.Once, lazily built tables) in instrumented
	// code: its coverage is not the input's. One throwaway execution keeps
	// that noise out of the baseline and out of the first fuzz call.
	p.mem.SetValue(w.warmInput)
	var resp ipc.RunResponse
	if err := p.call(ipc.Call{Run: &ipc.RunArgs{}}, &resp); err != nil {
		if w.diedStarting(p, err) {
			w.startFailed(p)
			return p, nil
		}
		p.stop(time.Second) // the input will fail in the baseline, attributed to it
		return w.startRawProc(true)
	}
	p.calls = int64(p.mem.Execs())
	return p, nil
}

// warmInput returns the encoding of the input a new worker runs first, as
// a throwaway (startProc): the shortest of inputs (the zero input, most
// often), whose run costs little. It was the first seed: image/gif's
// FuzzDecode re-encodes its first seed 256 times, 8 s in the instrumented
// binary, and every worker (every restart too) paid that before its first
// input, where go test -fuzz's do not.
func warmInput(inputs []*entry) []byte {
	if len(inputs) == 0 {
		return nil
	}
	return slices.MinFunc(inputs, func(a, b *entry) int { return cmp.Compare(len(a.enc), len(b.enc)) }).enc
}

// startRawProc starts a worker process. With stoppable, a hard stop of the
// run kills it when it is busy.
func (s *setup) startRawProc(stoppable bool) (*proc, error) {
	return s.startRawProcTimeout(stoppable, s.opts.Timeout)
}

// startRawProcTimeout is startRawProc with a watchdog that takes an
// execution running longer than timeout for a hang. A process that is not
// stoppable re-runs or minimizes a failure: it runs on every processor
// from its first input (allProcsEnv), as the fuzzing worker that found the
// failure may have come to (a concurrent map write of goroutines the input
// starts and joins needs two).
func (s *setup) startRawProcTimeout(stoppable bool, timeout time.Duration) (*proc, error) {
	name, args, env := s.command()
	env = append(env[:len(env):len(env)], s.leaksSetting(), leakPatienceEnv+"="+leakPatience(s.opts.Timeout).String())
	if !stoppable {
		env = append(env, allProcsEnv+"=1")
	}
	p, err := startProc(name, args, env, s.covLen, timeout, s.startLimit(), s.opts.RSSLimitMB)
	if err == nil {
		s.group.add(p.cmd.Process.Pid)
	}
	if err == nil && stoppable {
		go p.killOnHardStop(s.hard)
	}
	return p, err
}

// leaksSetting is the worker's leaksEnv: the package under test, "-" when
// it is not known, or empty (off) with NoLeaks.
func (s *setup) leaksSetting() string {
	switch {
	case s.opts.NoLeaks:
		return leaksEnv + "="
	case s.opts.Package == "":
		return leaksEnv + "=-"
	}
	return leaksEnv + "=" + s.opts.Package
}

// restartAfterExecs bounds a worker's lifetime in executions: a fresh
// process sheds whatever the target leaked (goroutines, caches, heap).
const restartAfterExecs = 1 << 24

// worn reports whether p should be replaced by a fresh process: after
// restartAfterExecs executions, above three quarters of the memory limit,
// or above half of it (the soft limit its collector works under,
// memlimit.go) with twice the memory it had after its first fuzz call.
// Memory the target keeps from one input to the next (goroutines it leaves
// blocked, a cache that grows) otherwise brings the heap to the soft limit,
// where the collector runs without pause and the worker crawls: a fuzz test
// leaking a goroutine per input went from 54k to 1.5k execs/s within two
// minutes, at 1.0–1.2 GiB of a 2-GiB limit, never reaching three quarters.
// A process that starts big (a table built at init) is kept until three
// quarters.
func (w *worker) worn(p *proc) bool {
	if p.mem.Execs() >= restartAfterExecs {
		return true
	}
	if w.opts.RSSLimitMB <= 0 {
		return false
	}
	rss := p.rss.Load()
	if p.rss0 == 0 {
		p.rss0 = rss // its first call's (0 before it made one)
		if w.usualRSS != nil {
			w.usualRSS.CompareAndSwap(0, rss)
		}
	}
	limit := int64(w.opts.RSSLimitMB)
	return rss > limit*3/4 || p.rss0 > 0 && rss > limit/2 && rss > 2*p.rss0
}

// restart replaces a process.
func (w *worker) restart(p *proc) (*proc, error) {
	p.stop(time.Second)
	return w.startProc()
}

// fuzzOnce makes the fuzz call wk on p. It returns the process to use next
// and what the call learned.
func (w *worker) fuzzOnce(p *proc, wk work) (*proc, fuzzed, error) {
	done := fuzzed{base: wk.base}
	p.mem.SetValue(wk.base.enc)
	copy(p.mem.Coverage(), wk.global)
	var resp ipc.FuzzResponse
	if err := p.call(ipc.Call{Fuzz: p.fuzzArgs(wk.args)}, &resp); err != nil {
		w.count(int64(p.mem.Execs()) - p.calls)
		vals, derr := decodeValues(p.mem.Value())
		if derr != nil {
			vals = wk.base.vals
		}
		np, err := w.lost(p, err, vals, seedRef{})
		return np, done, err
	}
	p.calls = int64(p.mem.Execs())
	w.count(resp.Execs)
	if limit := wk.args.Limit; limit > 0 && resp.Execs < limit {
		done.unused = limit - resp.Execs
	}
	if resp.InternalErr != "" {
		w.internal("worker: " + resp.InternalErr)
		np, err := w.restart(p)
		return np, done, err
	}
	if resp.Modified > 0 {
		w.send(modified{resp.Modified, resp.ModifiedInput})
	}
	done.tokens, done.found, done.known = resp.Tokens, len(resp.Found) > 0, resp.Known
	w.takeFound(&resp, &done) // a failure that ends the call leaves the finds before it valid
	if resp.Err != "" {
		vals, derr := decodeValues(p.mem.Value())
		if derr != nil {
			w.internal(fmt.Sprintf("decoding the failing input from shared memory: %v", derr))
			np, err := w.restart(p)
			return np, done, err
		}
		np, err := w.failed(p, resp.Err, vals, seedRef{})
		return np, done, err
	}
	return p, done, nil
}
