package engine

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/fuzzbox/fuzzbox/corpus"
	"github.com/fuzzbox/fuzzbox/engine/instrument"
	"github.com/fuzzbox/fuzzbox/engine/ipc"
)

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

type coordinator struct {
	opts   Options
	rep    *reporter
	covLen int

	mu       sync.Mutex // guards the fields below
	corpus   *queue
	global   []byte // bucket bits reached by any input
	newCount int    // entries added since the baseline
	pruned   int    // generated-corpus entries deleted as redundant
	dict     *dictionary
	fails    []*crashError
	claimed  bool // a failure is being recorded (without KeepGoing, the only one)
	sigs     map[string]bool
	fatalErr error // an internal error that stops the run

	execs  atomic.Int64 // executions over all workers
	budget atomic.Int64 // executions left under opts.Limit (when set)

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
		corpus: newQueue(),
		sigs:   map[string]bool{},
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

// loadInputs returns the seeds and the generated corpus, in that order.
func (c *coordinator) loadInputs() ([]*entry, error) {
	var es []*entry
	for _, s := range c.opts.Seeds {
		vals := s.Values
		if vals == nil {
			v, err := corpus.Unmarshal(s.Data)
			if err != nil {
				return nil, fmt.Errorf("engine: seed %s: %w", s.Path, err)
			}
			vals = v
		}
		es = append(es, newEntry(vals, s.Data, s.Path, true))
	}
	if c.opts.CacheDir != "" {
		cached, err := corpus.ReadDir(c.opts.CacheDir, c.opts.Types)
		if err != nil {
			fmt.Fprintf(c.opts.Log, "fuzz: warning: skipping bad entries of the generated corpus: %v\n", err)
		}
		// Smallest first: when two entries reach the same coverage, the
		// baseline keeps the smaller and prunes the other.
		sort.SliceStable(cached, func(i, j int) bool { return len(cached[i].Data) < len(cached[j].Data) })
		for _, e := range cached {
			es = append(es, newEntry(e.Values, e.Data, e.Path, false))
		}
	}
	if len(es) == 0 {
		es = append(es, newEntry(zeroValues(c.opts.Types), nil, "zero", true))
	}
	for _, e := range es {
		if err := corpus.CheckTypes(e.vals, c.opts.Types); err != nil {
			return nil, fmt.Errorf("engine: corpus entry %s: %w", e.path, err)
		}
	}
	return es, nil
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
	c.rep.emit(Event{Type: "baseline", Progress: fmt.Sprintf("0/%d", len(inputs))})

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
	e := c.statsEvent("done", 0)
	e.Failures, e.Found, e.Pruned = len(c.fails), len(c.fails) > 0, c.pruned
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
			e := c.statsEvent("stats", rate)
			c.mu.Unlock()
			c.rep.emit(e)
		}
	}
}

// statsEvent builds a stats-shaped event; c.mu must be held.
func (c *coordinator) statsEvent(typ string, rate float64) Event {
	n := c.execs.Load()
	if typ == "done" {
		if s := time.Since(c.rep.start).Seconds(); s > 0 {
			rate = float64(n) / s
		}
	}
	return Event{Type: typ, Execs: n, ExecsPerSec: rate, Corpus: c.corpus.len(), New: c.newCount, Edges: countEdges(c.global)}
}

// workerLoop runs one worker process: first its share of the baseline, then
// fuzz calls until ctx is done. It restarts the process when it dies.
func (c *coordinator) workerLoop(ctx context.Context, id int, inputs []*entry, next *atomic.Int64, started *sync.WaitGroup) {
	p, err := c.startProc()
	if err != nil {
		c.internalError(err)
		started.Done()
		return
	}
	defer func() { p.stop(2 * time.Second) }()
	for ctx.Err() == nil {
		i := int(next.Add(1)) - 1
		if i >= len(inputs) {
			break
		}
		if p, err = c.baseline(p, inputs[i]); err != nil {
			c.internalError(err)
			started.Done()
			return
		}
	}
	started.Done()
	started.Wait()
	if c.opts.PruneOnly {
		return
	}
	if id == 0 && ctx.Err() == nil {
		c.mu.Lock()
		c.corpus.ensureNonEmpty(inputs)
		c.mu.Unlock()
		c.rep.emit(Event{Type: "start", Workers: c.opts.Parallel, Progress: fmt.Sprintf("%d/%d", len(inputs), len(inputs))})
	}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), uint64(id)))
	restarts := 0
	for ctx.Err() == nil {
		np, err := c.fuzzOnce(p, rng)
		if err == errBudgetSpent {
			return // the other workers use up what they reserved
		}
		if err != nil {
			c.internalError(err)
			return
		}
		if np == p && c.worn(p) && ctx.Err() == nil {
			np, err = c.restart(p) // a fresh process, before leaks pile up
			if err != nil {
				c.internalError(err)
				return
			}
		} else if np != p {
			restarts++
			if restarts > 100 && c.execs.Load() < int64(restarts)*10 {
				c.internalError(errors.New("engine: workers keep dying without running inputs"))
				return
			}
		}
		p = np
	}
}

func (c *coordinator) startProc() (*proc, error) {
	p, err := c.startRawProc()
	if err != nil || c.warmInput == nil {
		return p, err
	}
	// The first execution in a fresh process also runs one-time
	// initialization (sync.Once, lazily built tables) in instrumented
	// code: its coverage is not the input's. One throwaway execution keeps
	// that noise out of the baseline and out of the first fuzz call.
	p.mem.SetValue(c.warmInput)
	var resp ipc.RunResponse
	if err := p.call(ipc.Call{Run: &ipc.RunArgs{}}, &resp); err != nil {
		p.stop(time.Second) // the input will fail in the baseline, attributed to it
		return c.startRawProc()
	}
	p.calls = int64(p.mem.Execs())
	return p, nil
}

func (c *coordinator) startRawProc() (*proc, error) {
	name, args := c.workerCommand()
	p, err := startProc(name, args, c.covLen, c.opts.Timeout, c.opts.RSSLimitMB)
	if err == nil {
		go p.killOnHardStop(c.hard)
	}
	return p, err
}

// stopping reports whether the run is stopping hard, in which case a
// worker's death is the coordinator's doing, not the input's.
func (c *coordinator) stopping() bool { return c.hard.Err() != nil }

func (c *coordinator) workerCommand() (string, []string) {
	return os.Args[0], append(append([]string(nil), os.Args[1:]...), "-test.fuzzworker")
}

// died records the death of p while it ran vals as a failure, unless the
// coordinator itself is stopping it.
func (c *coordinator) died(p *proc, vals []any, path string) {
	if c.stopping() {
		return
	}
	kind, msg := p.death(c.opts.Timeout, c.opts.RSSLimitMB)
	c.recordFailure(nil, &failure{kind: kind, msg: msg, vals: vals, path: path})
}

// confirmDeath handles a worker killed by a signal nobody in fuzzbox sent
// (the OOM killer, a user's kill): it restarts the worker and re-runs the
// input, and reports a failure only if the input fails again.
func (c *coordinator) confirmDeath(p *proc, vals []any) (*proc, error) {
	first := p.state.String()
	np, err := c.restart(p)
	if err != nil || c.stopping() {
		return np, err
	}
	np.mem.SetValue(appendValues(nil, vals))
	var resp ipc.RunResponse
	if err := np.call(ipc.Call{Run: &ipc.RunArgs{}}, &resp); err != nil {
		c.died(np, vals, "")
		return c.restart(np)
	}
	np.calls = int64(np.mem.Execs())
	if resp.Err != "" {
		return c.recordFailure(np, &failure{kind: failureKind(resp.Err), msg: resp.Err, vals: vals}), nil
	}
	fmt.Fprintf(c.opts.Log, "fuzz: warning: a worker was killed from outside (%s); its input did not fail again\n", first)
	return np, nil
}

// seedFile returns the file of a testdata seed, which is its own
// reproducer, or "" for other entries.
func seedFile(e *entry) string {
	if e.seed && strings.HasPrefix(e.path, "testdata") {
		return e.path
	}
	return ""
}

// restartAfterExecs bounds a worker's lifetime in executions: a fresh
// process sheds whatever the target leaked (goroutines, caches, heap).
const restartAfterExecs = 1 << 24

// worn reports whether p should be replaced by a fresh process: after
// restartAfterExecs executions or above three quarters of the memory limit.
func (c *coordinator) worn(p *proc) bool {
	if p.mem.Execs() >= restartAfterExecs {
		return true
	}
	return c.opts.RSSLimitMB > 0 && int(p.rss.Load()) > c.opts.RSSLimitMB*3/4
}

// restart replaces a dead process.
func (c *coordinator) restart(p *proc) (*proc, error) {
	p.stop(time.Second)
	return c.startProc()
}

func (c *coordinator) internalError(err error) {
	c.mu.Lock()
	if c.fatalErr == nil {
		c.fatalErr = err
	}
	c.mu.Unlock()
	c.cancel()
}

// baseline runs one corpus input, merges its coverage and keeps it when it
// is a seed or adds coverage. It returns the process to use next.
func (c *coordinator) baseline(p *proc, e *entry) (*proc, error) {
	p.mem.SetValue(e.enc)
	var resp ipc.RunResponse
	if err := p.call(ipc.Call{Run: &ipc.RunArgs{Trace: cmpGuidance}}, &resp); err != nil {
		c.died(p, e.vals, seedFile(e))
		return c.restart(p)
	}
	if resp.InternalErr != "" {
		return p, fmt.Errorf("engine: worker: %s", resp.InternalErr)
	}
	c.execs.Add(1)
	if resp.Err != "" {
		c.recordFailure(p, &failure{kind: failureKind(resp.Err), msg: resp.Err, vals: e.vals, path: seedFile(e)})
		return p, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dict.add(resp.Tokens)
	if n := mergeBits(c.global, p.mem.Coverage()); n > 0 || e.seed {
		e.dur = resp.Duration
		c.corpus.add(e)
		return p, nil
	}
	c.prune(e)
	return p, nil
}

// prune deletes a generated-corpus entry that adds no coverage to what the
// seeds and earlier (smaller) entries reach. This bounds the cache's growth:
// every run leaves only entries that mattered to its baseline.
func (c *coordinator) prune(e *entry) {
	if e.seed || e.path == "" || c.covLen == 0 || filepath.Dir(e.path) != filepath.Clean(c.opts.CacheDir) {
		return
	}
	if err := os.Remove(e.path); err == nil {
		c.pruned++
	}
}

// fuzzOnce makes one fuzz call on p and handles its outcome.
func (c *coordinator) fuzzOnce(p *proc, rng *rand.Rand) (*proc, error) {
	limit := int64(0)
	if c.opts.Limit > 0 {
		limit = c.reserve(c.budgetChunk())
		if limit == 0 {
			return p, errBudgetSpent
		}
	}
	c.mu.Lock()
	e := c.corpus.pick(rng)
	args := &ipc.FuzzArgs{
		Limit: limit, Duration: fuzzCallDuration, Seed: rng.Uint64(), Trace: cmpGuidance,
		Splice: c.corpus.spliceSample(rng, 8), Dict: c.dict.tokens(),
	}
	p.mem.SetValue(e.enc)
	copy(p.mem.Coverage(), c.global)
	c.mu.Unlock()

	var resp ipc.FuzzResponse
	err := p.call(ipc.Call{Fuzz: args}, &resp)
	if err != nil {
		c.execs.Add(int64(p.mem.Execs()) - p.calls)
		vals, derr := decodeValues(p.mem.Value())
		if derr != nil {
			vals = e.vals
		}
		if p.killedFromOutside() {
			return c.confirmDeath(p, vals)
		}
		c.died(p, vals, "")
		return c.restart(p)
	}
	p.calls = int64(p.mem.Execs())
	c.execs.Add(resp.Execs)
	if limit > 0 && resp.Execs < limit {
		c.budget.Add(limit - resp.Execs)
	}
	if resp.InternalErr != "" {
		return p, fmt.Errorf("engine: worker: %s", resp.InternalErr)
	}
	c.mu.Lock()
	c.dict.add(resp.Tokens)
	e.picked(resp.Interesting)
	c.mu.Unlock()
	switch {
	case resp.Err != "":
		vals, derr := decodeValues(p.mem.Value())
		if derr != nil {
			return p, derr
		}
		return c.recordFailure(p, &failure{kind: failureKind(resp.Err), msg: resp.Err, vals: vals}), nil
	case resp.Interesting:
		return c.interesting(p)
	}
	return p, nil
}

// errBudgetSpent ends a worker's loop when -fuzztime=Nx is used up.
var errBudgetSpent = errors.New("engine: execution budget spent")

// budgetChunk is how many executions one fuzz call reserves under
// -fuzztime=Nx: small enough that every worker gets a share.
func (c *coordinator) budgetChunk() int64 {
	return min(4096, max(16, c.opts.Limit/int64(8*c.opts.Parallel)))
}

// reserve takes up to n executions from the -fuzztime=Nx budget.
func (c *coordinator) reserve(n int64) int64 {
	for {
		left := c.budget.Load()
		if left <= 0 {
			return 0
		}
		take := min(n, left)
		if c.budget.CompareAndSwap(left, left-take) {
			return take
		}
	}
}

// interesting re-runs the input a worker reported as finding new coverage,
// to learn its coverage, and adds it to the corpus if it still adds bits.
func (c *coordinator) interesting(p *proc) (*proc, error) {
	vals, err := decodeValues(p.mem.Value())
	if err != nil {
		return p, err
	}
	var resp ipc.RunResponse
	if err := p.call(ipc.Call{Run: &ipc.RunArgs{}}, &resp); err != nil {
		c.died(p, vals, "")
		return c.restart(p)
	}
	c.execs.Add(1)
	p.calls = int64(p.mem.Execs())
	if resp.Err != "" {
		return c.recordFailure(p, &failure{kind: failureKind(resp.Err), msg: resp.Err, vals: vals}), nil
	}
	c.mu.Lock()
	isNew := !covers(c.global, p.mem.Coverage())
	c.mu.Unlock()
	if !isNew {
		return p, nil
	}
	if valuesSize(vals) > cheapMinimizeSize {
		p, vals = c.minimizeCoverage(p, vals)
	}
	c.mu.Lock()
	n := mergeBits(c.global, p.mem.Coverage())
	if n == 0 {
		c.mu.Unlock()
		return p, nil
	}
	e := newEntry(vals, nil, "", false)
	e.dur = resp.Duration
	c.corpus.add(e)
	c.newCount++
	size := c.corpus.len()
	c.mu.Unlock()
	path := c.saveCache(e)
	c.rep.emit(Event{Type: "coverage", Reproducer: path, Corpus: size, Edges: n})
	return p, nil
}

// Inputs that find new coverage are shrunk before they join the corpus when
// they are larger than cheapMinimizeSize, within a small budget, keeping
// every coverage bit they reached: smaller entries mutate and run faster.
const (
	cheapMinimizeSize  = 64
	cheapMinimizeExecs = 256
	cheapMinimizeTime  = 50 * time.Millisecond
)

// minimizeCoverage shrinks vals on p (whose coverage area holds vals'
// coverage) while it keeps that coverage, and returns the process to use
// next and the input to keep.
func (c *coordinator) minimizeCoverage(p *proc, vals []any) (*proc, []any) {
	p.mem.SetValue(appendValues(nil, vals))
	var resp ipc.MinimizeResponse
	args := &ipc.MinimizeArgs{Limit: cheapMinimizeExecs, Duration: cheapMinimizeTime, KeepCoverage: true}
	if err := p.call(ipc.Call{Minimize: args}, &resp); err != nil {
		c.died(p, vals, "") // a shrunk candidate killed the worker: that is a finding too
		np, err := c.restart(p)
		if err != nil {
			c.internalError(err)
			return p, vals
		}
		return np, vals
	}
	c.execs.Add(resp.Execs)
	p.calls = int64(p.mem.Execs())
	if resp.Smaller {
		if small, err := decodeValues(p.mem.Value()); err == nil {
			return p, small
		}
	}
	return p, vals
}

// saveDict writes the automatic dictionary next to the generated corpus,
// atomically, so the next run starts with the operands this one learned.
func (c *coordinator) saveDict() {
	if c.opts.CacheDir == "" || len(c.dict.auto) == 0 {
		return
	}
	if err := writeDictFile(dictBeside(c.opts.CacheDir), c.dict.auto); err != nil {
		fmt.Fprintf(c.opts.Log, "fuzz: warning: saving the automatic dictionary: %v\n", err)
	}
}

// saveCache writes e to the generated corpus and returns its path ("" when
// there is no cache directory or writing failed).
func (c *coordinator) saveCache(e *entry) string {
	if c.opts.CacheDir == "" {
		return ""
	}
	path, err := corpus.Write(c.opts.CacheDir, e.data)
	if err != nil {
		fmt.Fprintf(c.opts.Log, "fuzz: warning: %v\n", err)
		return ""
	}
	return path
}

// recordFailure minimizes a failure when its process p is still alive,
// writes the reproducer and stops the run unless KeepGoing. It returns the
// process to use next.
func (c *coordinator) recordFailure(p *proc, f *failure) *proc {
	c.mu.Lock()
	sig := signature(f.kind, f.msg)
	dup := c.sigs[sig]
	stopped := !c.opts.KeepGoing && c.claimed
	c.sigs[sig], c.claimed = true, true // claim it before minimizing, which takes a while
	c.mu.Unlock()
	switch {
	case stopped:
		return p // another worker's failure already ends the run
	case dup:
		c.rep.emit(Event{Type: "failure", Kind: f.kind, Message: f.msg, Duplicate: true})
		return p
	}
	// A race is reported once per process, so a shrunk candidate never
	// fails again: races are not minimized.
	if p != nil && f.path == "" && f.kind != KindRace && c.minimizing() {
		p = c.minimizeFailure(p, f)
	}
	c.mu.Lock()
	c.sigs[signature(f.kind, f.msg)] = true // the minimized message may differ
	c.mu.Unlock()
	path, err := f.path, error(nil)
	if path == "" {
		var data []byte
		data, err = corpus.Marshal(f.vals...)
		if err == nil {
			path, err = corpus.Write(c.opts.CorpusDir, data)
		}
	}
	if err != nil {
		c.internalError(fmt.Errorf("engine: writing the reproducer of a %s failure: %w\n%s", f.kind, err, f.msg))
		return p
	}
	ce := &crashError{kind: f.kind, msg: f.msg, path: path}
	c.mu.Lock()
	c.fails = append(c.fails, ce)
	c.mu.Unlock()
	c.rep.emit(Event{Type: "failure", Kind: f.kind, Message: f.msg, Reproducer: path})
	if !c.opts.KeepGoing {
		c.cancel()
	}
	return p
}

func (c *coordinator) minimizing() bool {
	return c.opts.MinimizeDuration > 0 || c.opts.MinimizeLimit > 0
}

// minimizeFailure shrinks f.vals on p while it keeps failing the same way.
func (c *coordinator) minimizeFailure(p *proc, f *failure) *proc {
	c.rep.emit(Event{Type: "minimizing", Kind: f.kind, Message: f.msg})
	p.mem.SetValue(appendValues(nil, f.vals))
	var resp ipc.MinimizeResponse
	args := &ipc.MinimizeArgs{Limit: c.opts.MinimizeLimit, Duration: c.opts.MinimizeDuration, Kind: f.kind}
	if err := p.call(ipc.Call{Minimize: args}, &resp); err != nil {
		// A candidate killed the worker: keep the input as found.
		np, err := c.restart(p)
		if err != nil {
			c.internalError(err)
			return p
		}
		return np
	}
	c.execs.Add(resp.Execs)
	p.calls = int64(p.mem.Execs())
	if resp.Smaller {
		if vals, err := decodeValues(p.mem.Value()); err == nil {
			f.vals, f.msg = vals, resp.Err
		}
	}
	return p
}
