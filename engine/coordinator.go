package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/fuzzbox/fuzzbox/engine/instrument"
	"github.com/fuzzbox/fuzzbox/event"
)

// The coordinator is split by concern:
//   - coordinator.go: the run's lifetime, shared state and statistics;
//   - workers.go: worker process policy (start, restart, wear) and the
//     execution budget, and the fuzz call loop;
//   - inputs.go: the corpus: baseline, pruning, new coverage, the cache;
//   - record.go: failures: confirmation in fresh workers, minimization,
//     reproducers;
//   - internal.go: internal errors, which are never reported as failures.

// fuzzCallDuration is how long one fuzz call runs in a worker before it
// reports back; short enough for the schedule to react, long enough that
// the round trip costs nothing measurable.
const fuzzCallDuration = 200 * time.Millisecond

// Coordinate fuzzes one target: it runs the seed corpus and the generated
// corpus in CacheDir to gather baseline coverage, then has opts.Parallel
// worker processes mutate and execute inputs until the time or execution
// limit is reached, ctx is done, the process gets SIGINT or SIGTERM, or an
// input fails (all failures with KeepGoing). It returns nil when nothing
// failed, or an error whose CrashPath method names the reproducer written
// to CorpusDir.
func Coordinate(ctx context.Context, opts Options) error {
	c, err := newCoordinator(opts)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	return c.run(ctx)
}

// coordinator is the state of one Coordinate call. Worker goroutines (one
// per worker process) share it; mu guards the corpus, coverage and failure
// state, the atomics are read by the statistics loop without it.
type coordinator struct {
	opts   Options
	rep    *reporter
	covLen int
	worker func() (string, []string, []string) // command, arguments and environment of a worker process

	mu        sync.Mutex // guards the fields below
	corpus    *queue
	global    []byte // bucket bits reached by any input
	newCount  int    // entries added since the baseline
	pruned    int    // generated-corpus entries deleted as redundant
	dict      *dictionary
	lens      lenControl // the mutants' length limit
	fails     []*crashError
	claimed   bool            // a failure is being recorded (without KeepGoing, the only one)
	sigs      map[string]bool // signatures of recorded failures
	flaky     map[string]int  // signatures of flaky failures, with how often they were seen
	internals int             // internal errors so far
	fatalErr  error           // an internal error that stops the run

	execs          atomic.Int64 // executions over all workers
	warnedModified atomic.Bool  // the fuzz function was seen changing its input (warned once)
	budget         atomic.Int64 // executions left under opts.Limit (when set)

	// Two ways to stop. cancel (a failure, an internal error, a signal via
	// the parent context) is a hard stop: executions in flight are killed
	// after a short grace. finish (the time or execution limit) is a soft
	// stop: executions in flight complete, so that a hang starting in the
	// last seconds of a run is still caught by the watchdog.
	cancel    context.CancelFunc
	finish    context.CancelFunc
	hard      context.Context
	warmInput []byte // encoded input each new worker runs once before it counts (see startProc)
}

func newCoordinator(opts Options) (*coordinator, error) {
	if len(opts.Types) == 0 {
		return nil, errors.New("engine: the fuzz function has no arguments to fuzz")
	}
	if opts.Schedule != "" && opts.Schedule != ScheduleRoundRobin && opts.Schedule != SchedulePower {
		return nil, fmt.Errorf("engine: unknown schedule %q (want %s or %s)", opts.Schedule, ScheduleRoundRobin, SchedulePower)
	}
	if opts.Parallel <= 0 {
		opts.Parallel = runtime.GOMAXPROCS(0)
	}
	if opts.Timeout <= 0 {
		opts.Timeout = defaultTimeout
	}
	if opts.Log == nil {
		opts.Log = os.Stdout
	}
	c := &coordinator{
		opts:   opts,
		rep:    &reporter{target: opts.Target, start: time.Now(), events: opts.Events, log: opts.Log},
		covLen: len(instrument.Counters()),
		worker: selfWorker,
		corpus: newQueue(opts.Schedule == SchedulePower),
		sigs:   map[string]bool{},
		flaky:  map[string]int{},
	}
	dict, err := loadDicts(opts.DictFile, opts.CorpusDir)
	if err != nil {
		return nil, err
	}
	c.dict = newDictionary(dict)
	if opts.CacheDir != "" {
		saved, err := readDict(dictBeside(opts.CacheDir))
		if err == nil {
			c.dict.add(saved)
		}
	}
	c.global = make([]byte, c.covLen)
	c.budget.Store(opts.Limit)
	if c.covLen == 0 {
		fmt.Fprintln(opts.Log, "fuzz: warning: the test binary has no coverage instrumentation; fuzzing blind")
	}
	return c, nil
}

// selfWorker is the worker command of a real run: this test binary again,
// with -test.fuzzworker.
func selfWorker() (string, []string, []string) {
	return os.Args[0], append(append([]string(nil), os.Args[1:]...), "-test.fuzzworker"), nil
}

func (c *coordinator) run(ctx context.Context) error {
	inputs, err := c.loadInputs()
	if err != nil {
		return err
	}
	c.hard, c.cancel = context.WithCancel(ctx)
	defer c.cancel()
	if c.opts.Duration > 0 {
		ctx, c.finish = context.WithTimeout(c.hard, c.opts.Duration)
	} else {
		ctx, c.finish = context.WithCancel(c.hard)
	}
	defer c.finish()
	c.warmInput = inputs[0].enc
	c.rep.emit(event.Event{Type: event.Baseline, Progress: fmt.Sprintf("0/%d", len(inputs))})

	var next atomic.Int64 // next baseline input to run
	var wg sync.WaitGroup
	var started sync.WaitGroup
	started.Add(c.opts.Parallel)
	for i := range c.opts.Parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.workerLoop(ctx, i, inputs, &next, &started)
		}()
	}
	statsDone := make(chan struct{})
	go c.statsLoop(ctx, statsDone)
	wg.Wait()
	c.finish()
	<-statsDone
	c.saveDict()
	return c.result()
}

// result reports the end of the run and returns Coordinate's result.
func (c *coordinator) result() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.statsEvent(event.Done, 0)
	e.Failures, e.Found, e.Pruned, e.Internal = len(c.fails), len(c.fails) > 0, c.pruned, c.internals
	if c.fatalErr != nil {
		e.Error = c.fatalErr.Error()
	}
	c.rep.emit(e)
	switch {
	case c.fatalErr != nil && len(c.fails) == 0:
		return c.fatalErr
	case len(c.fails) == 1:
		return c.fails[0]
	case len(c.fails) > 1:
		return &multiCrashError{errs: c.fails}
	}
	return nil
}

// statsLoop emits a stats event every 3 seconds until ctx is done.
func (c *coordinator) statsLoop(ctx context.Context, done chan<- struct{}) {
	defer close(done)
	t := time.NewTicker(3 * time.Second)
	defer t.Stop()
	last, lastT := int64(0), time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			n := c.execs.Load()
			rate := float64(n-last) / now.Sub(lastT).Seconds()
			last, lastT = n, now
			c.mu.Lock()
			e := c.statsEvent(event.Stats, rate)
			c.mu.Unlock()
			c.rep.emit(e)
		}
	}
}

// statsEvent builds a stats-shaped event; c.mu must be held.
func (c *coordinator) statsEvent(typ string, rate float64) event.Event {
	n := c.execs.Load()
	if typ == event.Done {
		if s := time.Since(c.rep.start).Seconds(); s > 0 {
			rate = float64(n) / s
		}
	}
	return event.Event{Type: typ, Execs: n, ExecsPerSec: rate, Corpus: c.corpus.len(), New: c.newCount, Edges: countEdges(c.global)}
}

// stopping reports whether the run is stopping hard, in which case a
// worker's death is the coordinator's doing, not the input's.
func (c *coordinator) stopping() bool { return c.hard.Err() != nil }

// internalError stops the run on an error that makes going on pointless.
func (c *coordinator) internalError(err error) {
	c.mu.Lock()
	if c.fatalErr == nil {
		c.fatalErr = err
	}
	c.mu.Unlock()
	c.cancel()
}
