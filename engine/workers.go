package engine

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fuzzbox/fuzzbox/engine/ipc"
	"github.com/fuzzbox/fuzzbox/event"
)

// workerLoop runs one worker process: first its share of the baseline, then
// fuzz calls until ctx is done. It restarts the process when it dies.
func (c *coordinator) workerLoop(ctx context.Context, id int, inputs []*entry, next *atomic.Int64, started *sync.WaitGroup) {
	p, err := c.startProc()
	if err == nil {
		p, err = c.baselineShare(ctx, p, inputs, next)
	}
	started.Done()
	if err != nil {
		c.internalError(err)
	}
	started.Wait()
	if p == nil {
		return
	}
	if err != nil || c.opts.PruneOnly {
		p.stop(2 * time.Second)
		return
	}
	if id == 0 && ctx.Err() == nil {
		c.mu.Lock()
		c.corpus.ensureNonEmpty(inputs)
		c.mu.Unlock()
		c.rep.emit(event.Event{Type: event.Start, Workers: c.opts.Parallel, Progress: fmt.Sprintf("%d/%d", len(inputs), len(inputs))})
	}
	c.fuzzLoop(ctx, id, p)
}

// baselineShare runs baseline inputs on p, taking the next one from next
// until all have run. It returns the process to use next.
func (c *coordinator) baselineShare(ctx context.Context, p *proc, inputs []*entry, next *atomic.Int64) (*proc, error) {
	for ctx.Err() == nil {
		i := int(next.Add(1)) - 1
		if i >= len(inputs) {
			break
		}
		np, err := c.baseline(p, inputs[i])
		if err != nil {
			return np, err
		}
		p = np
	}
	return p, nil
}

// fuzzLoop makes fuzz calls on p (and the processes that replace it) until
// ctx is done, the budget is spent or the run cannot go on.
func (c *coordinator) fuzzLoop(ctx context.Context, id int, p *proc) {
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), uint64(id)))
	restarts := 0
	defer func() { p.stop(2 * time.Second) }()
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

// startProc starts a worker process and warms it up.
func (c *coordinator) startProc() (*proc, error) {
	p, err := c.startRawProc(true)
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
		return c.startRawProc(true)
	}
	p.calls = int64(p.mem.Execs())
	return p, nil
}

// startRawProc starts a worker process. With stoppable, a hard stop of the
// run kills it when it is busy.
func (c *coordinator) startRawProc(stoppable bool) (*proc, error) {
	name, args, env := c.worker()
	p, err := startProc(name, args, env, c.covLen, c.opts.Timeout, c.opts.RSSLimitMB)
	if err == nil && stoppable {
		go p.killOnHardStop(c.hard)
	}
	return p, err
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

// restart replaces a process.
func (c *coordinator) restart(p *proc) (*proc, error) {
	p.stop(time.Second)
	return c.startProc()
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
		Limit: limit, Duration: c.corpus.callDuration(e), MaxLen: c.lens.limit(c.corpus, e, c.execs.Load()), Seed: rng.Uint64(), Trace: !c.opts.NoCmp,
		Splice: c.corpus.spliceSample(rng, 8), Dict: c.dict.tokens(), CheckInput: !c.warnedModified.Load(),
	}
	p.mem.SetValue(e.enc)
	copy(p.mem.Coverage(), c.global)
	c.mu.Unlock()

	var resp ipc.FuzzResponse
	if err := p.call(ipc.Call{Fuzz: args}, &resp); err != nil {
		c.execs.Add(int64(p.mem.Execs()) - p.calls)
		vals, derr := decodeValues(p.mem.Value())
		if derr != nil {
			vals = e.vals
		}
		return c.lost(p, err, vals, "")
	}
	p.calls = int64(p.mem.Execs())
	c.execs.Add(resp.Execs)
	if limit > 0 && resp.Execs < limit {
		c.budget.Add(limit - resp.Execs)
	}
	if resp.InternalErr != "" {
		c.internal("worker: " + resp.InternalErr)
		return c.restart(p)
	}
	if resp.Modified > 0 {
		c.warnModified(resp.Modified, resp.ModifiedInput)
	}
	c.mu.Lock()
	c.dict.add(resp.Tokens)
	e.picked(resp.Interesting)
	c.mu.Unlock()
	switch {
	case resp.Err != "":
		vals, derr := decodeValues(p.mem.Value())
		if derr != nil {
			c.internal(fmt.Sprintf("decoding the failing input from shared memory: %v", derr))
			return c.restart(p)
		}
		return c.failed(p, resp.Err, vals, "")
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
