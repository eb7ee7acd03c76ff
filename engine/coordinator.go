package engine

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/fuzzbox/fuzzbox/corpus"
	"github.com/fuzzbox/fuzzbox/engine/instrument"
	"github.com/fuzzbox/fuzzbox/event"
)

// The coordinator has internal/fuzz's shape: one worker goroutine per
// worker process, which owns that process (start, restart, wear) and the
// fresh ones it starts to confirm and minimize a failure, and one loop that
// alone owns the corpus, the coverage, the dictionary, length control, the
// failures and the statistics. Workers send the loop messages; the loop
// answers with work. No lock guards the loop's state: only the loop's
// goroutine touches it. By concern:
//   - coordinator.go: the run's lifetime and result, and what every
//     goroutine reads (setup);
//   - loop.go: the loop, its messages and the work it hands out;
//   - workers.go: a worker goroutine, its process policy and its fuzz calls;
//   - inputs.go: the corpus: baseline, pruning, new coverage, the cache;
//   - record.go: failures: confirmation in fresh workers, minimization,
//     reproducers;
//   - sync.go: corpus sync, whose goroutine owns the sync directory (as
//     cachewrite.go's owns the cache's writes) and sends the loop what it
//     read;
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
	if err := platformErr(); err != nil {
		return err
	}
	c, err := newCoordinator(opts)
	if err != nil {
		return err
	}
	if opts.RSSLimitMB > 0 && memLimitNote != "" {
		fmt.Fprintf(c.opts.Log, "fuzz: warning: %s\n", memLimitNote)
	}
	if m, ok := memoryFit(c.opts, cgroupMemLimit); !ok {
		c.rep.emit(event.Event{Type: event.Warning, Message: m.warning()})
		if m.limitMB-coordinatorMB >= 64 {
			c.group = newWorkerGroup("", uint64(m.limitMB-coordinatorMB)<<20)
			defer c.group.remove() // after run, which stops every worker
		}
	}
	if path := os.Getenv(heapProfileEnv); path != "" {
		defer profileHeap(path, c.opts.Log)()
	}
	defer profileCPU("coordinator")()
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	return c.run(ctx)
}

// setup is what every goroutine of one Coordinate call reads. It is fixed
// before the workers start; nobody changes it after.
type setup struct {
	opts    Options
	rep     *reporter // safe for concurrent use
	covLen  int
	command func() (string, []string, []string) // command, arguments and environment of a worker process
	group   *workerGroup                        // the workers' cgroup (cgroup_linux.go), or nil

	// Two ways to stop. cancel (a failure, an internal error, a signal via
	// the parent context) is a hard stop: executions in flight are killed
	// after a short grace. finish (the time or execution limit) is a soft
	// stop: executions in flight complete, so that a hang starting in the
	// last seconds of a run is still caught by the watchdog.
	hard      context.Context
	cancel    context.CancelFunc
	finish    context.CancelFunc
	warmInput []byte // encoded input each new worker runs once before it counts (see startProc, warmInput)
	// startErr is set once, by the first worker that died as it started
	// (startFailed), which stops the run; the race twin's setup shares it.
	startErr *atomic.Pointer[startError]
	// usualRSS is the resident memory (MiB) of the run's first worker to
	// finish a fuzz call, after it (proc.rss0): a worker's usual size, which
	// notGrown compares an OOM-killed worker's peak with.
	usualRSS *atomic.Int64
}

// stopping reports whether the run is stopping hard, in which case a
// worker's death is the coordinator's doing, not the input's.
func (s *setup) stopping() bool { return s.hard.Err() != nil }

// coordinator is the loop's state: only the loop's goroutine (loop.go)
// reads or writes the fields below setup, and the run's goroutine after the
// loop has returned.
type coordinator struct {
	*setup

	corpus    *queue
	cache     *cacheWriter      // writes found entries to the cache during the loop
	global    []byte            // bucket bits reached by any input
	snap      []byte            // a copy of global and unstable handed to workers, nil when either changed since
	unstable  []byte            // bucket bits reached once and not again by the same input (unstableBits)
	lastNew   time.Time         // when fuzzing started or an input last added coverage (Plateau)
	alias     map[string]string // signatures a recorded failure was caught and minimized with → its bucket id
	sync      *syncer           // corpus sync (sync.go); nil when not syncing, or before fuzzing starts
	plateaued bool              // fuzzing stopped on Plateau
	newCount  int               // entries added since the baseline
	pruned    int               // generated-corpus entries deleted as redundant
	dict      *dictionary
	lens      lenControl // the mutants' length limit
	rng       *rand.Rand
	fails     []*crashError
	claimed   bool                    // a failure is being recorded (without KeepGoing, the only one)
	sigs      map[string]bool         // signatures of recorded failures
	dups      map[string]*event.Event // duplicates since the last statistics tick, by bucket (duplicate)
	dupOrder  []string                // their buckets, in the order they came
	flaky     map[string]int          // signatures of flaky failures, with how often they were seen
	known     []string                // the last knownSigs
	// settle: fuzz calls settle (ipc.FuzzArgs.Settle), since a flaky death
	// on a goroutine the code under test started (unclaim).
	settle    bool
	atLine    map[string]int // failures claimed at each t.Error line (failureKey of a fail), flaky ones too; maxClaimsPerLine at most, then one more once claim has warned that the line is full
	internals int            // internal errors so far
	fatalErr  error          // an internal error that stops the run
	execs     int64          // executions over all workers
	budget    int64          // executions left under opts.Limit (when set)
	warned    bool           // the fuzz function was seen changing its input (warned once)
	key       *binaryKey     // the test binary's SHA-256 when syncing: coverage is recorded (synccov.go)

	inputs  []*entry  // the baseline's inputs
	next    int       // the next baseline input to hand out
	pending int       // baseline inputs handed out and not yet reported
	fuzzing bool      // the baseline is done and the Start event sent
	idle    []*worker // workers waiting for the baseline to end

	fuzzers int         // fuzzing workers not gone (the race twin is not one)
	twinIn  chan *entry // to the race twin (racetwin.go): its next input; nil without a twin
	twinQ   twinQueue   // inputs waiting for the race twin
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
		setup: &setup{
			opts:     opts,
			rep:      &reporter{target: opts.Target, start: time.Now(), events: opts.Events, log: opts.Log},
			covLen:   len(instrument.Counters()),
			command:  selfWorker,
			startErr: new(atomic.Pointer[startError]),
			usualRSS: new(atomic.Int64),
		},
		corpus: newQueue(opts.Schedule == SchedulePower),
		rng:    rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 0)),
		sigs:   map[string]bool{},
		alias:  map[string]string{},
		flaky:  map[string]int{},
		atLine: map[string]int{},
		budget: opts.Limit,
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
	c.unstable = make([]byte, c.covLen)
	if c.covLen == 0 {
		fmt.Fprintln(opts.Log, "fuzz: warning: the test binary has no coverage instrumentation; fuzzing blind")
	}
	return c, nil
}

// selfWorker is the worker command of a real run: this test binary again,
// with -test.fuzzworker first, as internal/fuzz puts it: the arguments may
// end in positional ones (go test's -args), after which the flag package
// parses no flag. They are the process's as it started (startArgs).
func selfWorker() (string, []string, []string) {
	return startArgs[0], append([]string{"-test.fuzzworker"}, startArgs[1:]...), nil
}

// startArgs are the process's arguments as it started: a test that
// replaced os.Args (and did not restore them) had every worker started
// with its arguments, and the run fail to start one.
var startArgs = slices.Clone(os.Args)

func (c *coordinator) run(ctx context.Context) error {
	for _, dir := range []string{c.opts.CacheDir, c.opts.CorpusDir, syncEntries(&c.opts)} {
		if dir != "" {
			corpus.RemoveStale(dir, staleTemp) // a killed run's
		}
	}
	inputs, err := c.loadInputs()
	if err != nil {
		return err
	}
	c.inputs = inputs
	if c.opts.SyncDir != "" && c.covLen > 0 && !c.opts.PruneOnly {
		c.key = hashBinary() // by the end of the baseline, for the syncer
	}
	c.hard, c.cancel = context.WithCancel(ctx)
	c.rep.onLost(c.cancel)
	defer c.cancel()
	if c.opts.Duration > 0 {
		ctx, c.finish = context.WithTimeout(c.hard, c.opts.Duration)
	} else {
		ctx, c.finish = context.WithCancel(c.hard)
	}
	defer c.finish()
	c.warmInput = warmInput(inputs)
	c.rep.emit(event.Event{Type: event.Baseline, Progress: fmt.Sprintf("0/%d", len(inputs))})

	msgs := make(chan message)
	for i := range c.opts.Parallel {
		go newWorker(c.setup, i, msgs).run()
	}
	live := c.opts.Parallel
	c.fuzzers = live
	if c.opts.RaceTwin != "" && !c.opts.PruneOnly {
		c.twinIn = make(chan *entry, 1)
		startRaceTwin(c.setup, msgs, c.twinIn, ctx)
		live++
	}
	if c.opts.CacheDir != "" {
		c.cache = newCacheWriter(c.opts.CacheDir, func(msg string) { c.rep.emit(event.Event{Type: event.Warning, Message: msg}) })
	}
	c.loop(ctx, msgs, live)
	c.finish()
	if c.sync != nil { // first: it hands the cache what it published last
		c.sync.close(c.opts.Log)
		c.sync = nil
	}
	if c.cache != nil {
		c.cache.close(c.opts.Log)
		c.cache = nil
	}
	c.saveDict()
	return c.result()
}

// waitingEvent is the statistics tick's event while fuzzing has not started
// or waits, as go test -fuzz prints them: the baseline's progress
// ("gathering baseline coverage: 917/1501 completed"; a pruning run's
// whole work), or a failure's
// minimization ("minimizing"), which stops fuzzing but with -keepgoing.
func (c *coordinator) waitingEvent() (event.Event, bool) {
	switch {
	case c.rep.minimizing.Load() > 0 && !c.opts.KeepGoing:
		return event.Event{Type: event.Minimizing}, true
	case !c.fuzzing && len(c.inputs) > 0: // a pruning run (PruneOnly) is all baseline
		return event.Event{Type: event.Baseline, Progress: fmt.Sprintf("%d/%d", c.next-c.pending, len(c.inputs))}, true
	}
	return event.Event{}, false
}

// result reports the end of the run and returns Coordinate's result.
func (c *coordinator) result() error {
	e := c.statsEvent(event.Done, 0)
	e.Failures, e.Found, e.Pruned, e.Internal = len(c.fails), len(c.fails) > 0, c.pruned, c.internals
	e.Plateau = c.plateaued
	startErr := c.startFailure()
	if lerr := startErr.systemLimit(); lerr != nil && c.fatalErr == nil {
		// A worker without a thread (ulimit -u): the machine's limit, not
		// the fuzz test's code before f.Fuzz.
		c.fatalErr, startErr = lerr, nil
	}
	if c.fatalErr != nil {
		e.Error = c.fatalErr.Error()
	}
	if startErr != nil {
		e.StartFailed = startErr.Error()
	}
	if !c.fuzzing && !c.opts.PruneOnly && len(c.inputs) > 0 {
		e.Progress = fmt.Sprintf("%d/%d", c.next-c.pending, len(c.inputs))
		if len(c.fails) == 0 && c.fatalErr == nil && startErr == nil && c.hard.Err() == nil { // the limit ended it, not a stop
			c.rep.emit(event.Event{Type: event.Warning, Progress: e.Progress, Message: c.unfuzzedWhy(e.Progress)})
		}
	}
	c.flushDuplicates()
	c.rep.emit(e)
	switch {
	case startErr != nil && len(c.fails) == 0:
		return startErr
	case c.fatalErr != nil && len(c.fails) == 0:
		return c.fatalErr
	case len(c.fails) > 0:
		return runError(c.opts.Target, c.fails)
	}
	return nil
}

// statsEvent builds a stats-shaped event.
func (c *coordinator) statsEvent(typ string, rate float64) event.Event {
	if typ == event.Done {
		if s := time.Since(c.rep.start).Seconds(); s > 0 {
			rate = float64(c.execs) / s
		}
	}
	return event.Event{Type: typ, Execs: c.execs, ExecsPerSec: rate, Corpus: c.corpus.len(), New: c.newCount, Edges: countEdges(c.global),
		Unstable: countEdges(c.unstable), RaceReplayed: c.twinQ.replayed, RaceSkipped: c.twinQ.skipped, Instances: c.corpus.share.instances()}
}
