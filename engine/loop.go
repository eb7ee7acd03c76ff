package engine

import (
	"context"
	"fmt"
	"time"

	"github.com/fuzzbox/fuzzbox/engine/ipc"
	"github.com/fuzzbox/fuzzbox/event"
)

// The loop and its messages. A worker goroutine sends one message when it
// starts (ready) and one each time it has finished a piece of work
// (ranBaseline, fuzzed); the loop answers each of these with the worker's
// next work, or by closing the worker's work channel when it is to stop.
// While it works, a worker may send the other messages; the loop answers a
// claim on the worker's claims channel. The loop never blocks on a worker:
// both channels it sends on hold one value, and a worker has at most one
// question open.

// A message is what a worker goroutine tells the loop.
type message struct {
	from  *worker
	execs int64 // executions the worker ran since its previous message
	body  any   // one of the types below
}

// ready is a new worker's first message: it wants work.
type ready struct{}

// ranBaseline reports that e ran for the baseline. cov is e's coverage: the
// worker's shared memory, lent to the loop until it answers. cov is nil
// when e failed or killed the worker (the failure was recorded).
type ranBaseline struct {
	e      *entry
	cov    []byte
	tokens [][]byte      // operands of traced comparisons
	dur    time.Duration // e's execution time
}

// fuzzed reports that a fuzz call based on base ended.
type fuzzed struct {
	base   *entry
	found  bool     // the call reported new coverage (before it was checked)
	tokens [][]byte // operands of traced comparisons
	unused int64    // executions reserved for the call and not run
	// adds are the inputs that added coverage to the worker's snapshot, in
	// the order found (found.go).
	adds []foundInput
	// unstable are the bits the call's finds reached on their first
	// execution and not on their second (unstableBits), or nil.
	unstable []byte
	known    []ipc.KnownFailure // failures of known signatures it counted
}

// claim asks whether a failure with signature sig is to be recorded; the
// loop answers on the worker's claims channel.
type claim struct {
	f   *failure
	sig string
}

// flaky reports that a claimed failure did not fail again: the claim is
// released.
type flaky struct {
	f   *failure
	sig string
}

// unconfirmed reports that no re-run of a claimed failure gave a verdict
// (the run stopped first, or each re-run was killed from outside or stopped
// by an internal error): the claim is released without counting it flaky.
type unconfirmed struct {
	f   *failure
	sig string
}

// minimized asks, before a failure's reproducer is written, whether this
// run recorded a failure of the bucket its minimized signature sig names:
// the loop answers on the worker's recordedAs channel with that failure's
// reproducer (a path, or a seed), or "" when there is none.
type minimized struct{ sig string }

// recorded reports a failure whose reproducer is written at path.
type recorded struct {
	f    *failure
	path string
}

// internalErr reports an internal error; the run goes on.
type internalErr struct{ msg string }

// fatal reports an error that stops the run (a worker cannot be started).
type fatal struct{ err error }

// modified reports that the fuzz function changed its []byte argument arg
// (1-based) while it ran the encoded input enc.
type modified struct {
	arg int
	enc []byte
}

// gone is a worker's last message: it has stopped its process and returns.
type gone struct{}

// work is what the loop hands a worker: a baseline input to run, or a fuzz
// call.
type work struct {
	baseline *entry
	trace    bool          // trace the baseline input's comparisons: the dictionary has room
	base     *entry        // the fuzz call's input
	args     *ipc.FuzzArgs // the fuzz call's arguments
	global   []byte        // the coverage reached so far (read-only: shared by workers)
}

// minimizingPastEnd is the message of the statistics interval's minimizing
// event once the run's time is up (-fuzztime, -plateau) while a failure is
// still being minimized, which goes on for up to -fuzzminimizetime: go test
// -fuzz stops there and writes the input as it is.
const minimizingPastEnd = "the run's time is up; a failure found is being minimized, for up to -fuzzminimizetime"

// statsInterval is how often the loop reports statistics.
const statsInterval = 3 * time.Second

// loop serves live workers until all have gone. ctx is the soft stop.
func (c *coordinator) loop(ctx context.Context, msgs <-chan message, live int) {
	tick := time.NewTicker(statsInterval)
	defer tick.Stop()
	done := ctx.Done()
	last, lastT := int64(0), time.Now()
	for live > 0 {
		select {
		case m := <-msgs:
			c.execs += m.execs
			if _, ok := m.body.(gone); ok {
				live--
				c.gone(m.from)
				continue
			}
			c.handle(ctx, m)
		case n := <-c.newsC():
			c.synced(ctx.Err() != nil, n)
		case <-done:
			c.release()
			done = nil
		case now := <-tick.C:
			c.flushDuplicates()
			if ctx.Err() != nil {
				if c.rep.minimizing.Load() > 0 && c.hard.Err() == nil {
					c.rep.emit(event.Event{Type: event.Minimizing, Message: minimizingPastEnd})
				}
				continue
			}
			if c.onPlateau(now) {
				continue
			}
			if e, ok := c.waitingEvent(); ok {
				c.rep.emit(e)
				last, lastT = c.execs, now
				continue
			}
			rate := float64(c.execs-last) / now.Sub(lastT).Seconds()
			last, lastT = c.execs, now
			c.rep.emit(c.statsEvent(event.Stats, rate))
		}
	}
}

// onPlateau stops fuzzing, as the end of -fuzztime does, when Plateau is set
// and no input has added coverage for that long; it reports whether it did.
// The loop checks at every statistics tick, so the stop comes up to
// statsInterval late.
func (c *coordinator) onPlateau(now time.Time) bool {
	if c.opts.Plateau <= 0 || !c.fuzzing || c.opts.PruneOnly || now.Sub(c.lastNew) < c.opts.Plateau {
		return false
	}
	c.plateaued = true
	c.finish()
	return true
}

// handle acts on one message.
func (c *coordinator) handle(ctx context.Context, m message) {
	switch b := m.body.(type) {
	case ready:
		c.serve(ctx, m.from)
	case ranBaseline:
		c.pending--
		c.ranBaseline(b)
		c.serve(ctx, m.from)
		c.serveIdle(ctx)
	case fuzzed:
		c.fuzzed(b)
		c.serve(ctx, m.from)
	case claim:
		m.from.claims <- c.claim(b.f, b.sig)
	case flaky:
		c.unclaim(b.f, b.sig)
	case unconfirmed:
		c.unconfirmed(b.f, b.sig)
	case minimized:
		m.from.recordedAs <- c.recordedAs(bucketID(b.sig))
	case recorded:
		c.recorded(b.f, b.path)
	case internalErr:
		c.internal(b.msg)
	case fatal:
		c.fatal(b.err)
	case modified:
		c.warnModified(b.arg, b.enc)
	case twinReady:
		c.twinReady(b)
	default:
		panic("engine: unknown message")
	}
}

// serve hands w its next work: a baseline input while some are left; once
// all have run, fuzz calls. A worker that asks while others still run the
// last baseline inputs waits. serve stops w when the run stops, after the
// baseline with PruneOnly, and when the execution budget is spent (the
// other workers use up what they reserved).
func (c *coordinator) serve(ctx context.Context, w *worker) {
	switch {
	case ctx.Err() != nil:
		close(w.work)
	case c.next < len(c.inputs) && !c.seedsRunning():
		w.work <- work{baseline: c.inputs[c.next], trace: !c.opts.NoCmp && !c.dict.full()}
		c.next++
		c.pending++
	case c.pending > 0 && !c.fuzzing:
		c.idle = append(c.idle, w)
	default:
		if !c.fuzzing {
			c.endBaseline(ctx)
		}
		if c.opts.PruneOnly || !c.fuzzWork(w) {
			close(w.work)
		}
	}
}

// seedsRunning reports whether the next baseline input is the first after
// the seeds (the zero input, the generated corpus) while a seed still runs.
// The seeds' outcomes come first: go test -fuzz runs no zero input beside
// seeds, and reports a fuzz test that fails on every input against seed#0;
// a generated input failing first would be minimized and written as a new
// reproducer of what the seed already shows.
func (c *coordinator) seedsRunning() bool {
	return !c.fuzzing && c.pending > 0 && c.next > 0 && c.next < len(c.inputs) && c.inputs[c.next-1].seed && !c.inputs[c.next].seed
}

// serveIdle serves again the workers held at the seeds' end (seedsRunning)
// once the last seed has run; during the baseline only.
func (c *coordinator) serveIdle(ctx context.Context) {
	if c.fuzzing || len(c.idle) == 0 || c.seedsRunning() {
		return
	}
	idle := c.idle
	c.idle = nil
	for _, w := range idle {
		c.serve(ctx, w)
	}
}

// endBaseline starts fuzzing and serves the workers that waited for it.
func (c *coordinator) endBaseline(ctx context.Context) {
	c.fuzzing, c.lastNew = true, time.Now()
	if !c.opts.PruneOnly {
		c.corpus.ensureNonEmpty(c.inputs)
		c.sync = startSyncer(&c.opts, syncEvery, c.cache, c.key, c.covLen)
		for _, e := range c.corpus.entries {
			c.publish(e, e.baseCov, false) // what this instance's cache brought
			e.baseCov = nil
			c.toTwin(e)
		}
		c.rep.emit(event.Event{Type: event.Start, Workers: c.opts.Parallel, Progress: fmt.Sprintf("%d/%d", len(c.inputs), len(c.inputs))})
	}
	idle := c.idle
	c.idle = nil
	for _, w := range idle {
		c.serve(ctx, w)
	}
}

// release stops the workers waiting for the baseline to end: the run
// stopped before it did.
func (c *coordinator) release() {
	for _, w := range c.idle {
		close(w.work)
	}
	c.idle = nil
}

// fuzzWork hands w a fuzz call, reporting false when the execution budget
// is spent.
func (c *coordinator) fuzzWork(w *worker) bool {
	limit := int64(0)
	if c.opts.Limit > 0 {
		if limit = min(c.budgetChunk(), c.budget); limit <= 0 {
			return false
		}
		c.budget -= limit
	}
	e := c.corpus.pick(c.rng)
	args := &ipc.FuzzArgs{
		Limit: limit, Duration: c.corpus.callDuration(e), MaxLen: c.lens.limit(c.corpus, e, c.execs), Stall: c.lens.stall(), Seed: c.rng.Uint64(), Trace: !c.opts.NoCmp,
		Splice: c.corpus.spliceSample(c.rng, 8), Dict: c.dict.tokens(), CheckInput: !c.warned, Keep: keepFinding,
		Settle: c.settle, Known: c.knownSigs(),
	}
	w.work <- work{base: e, args: args, global: c.snapshot()}
	return true
}

// budgetChunk is how many executions one fuzz call reserves under
// -fuzztime=Nx: small enough that every worker gets a share.
func (c *coordinator) budgetChunk() int64 {
	return min(4096, max(16, c.opts.Limit/int64(8*c.opts.Parallel)))
}

// snapshot returns a copy of the global coverage, with the unstable bits,
// that workers may read while the loop goes on: the same copy until either
// changes. Workers take it as the coverage already seen.
func (c *coordinator) snapshot() []byte {
	if c.snap == nil {
		c.snap = make([]byte, len(c.global))
		copy(c.snap, c.global)
		mergeBits(c.snap, c.unstable)
	}
	return c.snap
}

// fuzzed takes in what a fuzz call learned.
func (c *coordinator) fuzzed(b fuzzed) {
	c.budget += b.unused
	c.dict.add(b.tokens)
	b.base.picked(b.found)
	if b.unstable != nil && mergeBits(c.unstable, b.unstable) > 0 {
		c.snap = nil
	}
	for _, a := range b.adds {
		c.addFound(a)
	}
	c.knownFailed(b.known)
}

// fatal stops the run on an error that makes going on pointless.
func (c *coordinator) fatal(err error) {
	if c.fatalErr == nil {
		c.fatalErr = err
	}
	c.cancel()
}
