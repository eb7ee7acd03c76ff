package engine

import (
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"github.com/fuzzbox/fuzzbox/engine/ipc"
	"github.com/fuzzbox/fuzzbox/event"
)

// Failures that kill their worker (hang, oom, fatal, exit) are minimized in
// fresh workers, one round per smaller input found.
//
// A hang's rounds cost the most: each smaller input that still hangs is
// known only when the watchdog kills it, a whole timeout later (10 s by
// default; a four-byte infinite loop found in a seed of forty took 50 s to
// minimize, where go test -fuzz reports a hang after 11 s, unminimized). So
// a hang is minimized with probes first: a candidate still running after a
// tenth of the timeout (hangProbe), on the same way in (hangFrames), counts
// as hanging. The smallest such input is adopted only if a fresh worker
// runs it past the whole timeout again (adoptMinimized), as any minimized
// input; a probe can take a slow input that ends for a hang, so when that
// re-run ends, minimization starts over from the input found, at the whole
// timeout, with what is left of the budget.

// probeKills counts the candidates a probe took for hangs, for the engine's
// tests.
var probeKills atomic.Int64

// hangProbe is how long a candidate of a hang's minimization runs before
// it counts as hanging, in the probe rounds.
func hangProbe(timeout time.Duration) time.Duration {
	return timeout / slowFraction
}

// minimizeDeath minimizes a failure that kills its worker: a fresh worker
// runs the candidates, written to shared memory before each runs, until one
// kills it the same way; that candidate is the new input, and a fresh
// worker goes on from it. A candidate that kills the worker another way is
// refused: a fresh worker goes on past it from the same input. A hang stays
// a hang at the same timeout, an oom at the same memory limit.
func (w *worker) minimizeDeath(f *failure) {
	w.rep.emit(event.Event{Type: event.Minimizing, Kind: f.kind, Message: f.msg, Line: headline(f.kind, f.msg)})
	w.rep.minimizing.Add(1)
	defer w.rep.minimizing.Add(-1)
	defer w.markStopped(f)
	f.minimized = minimizedNo
	m := &deathMin{start: time.Now(), timeout: w.opts.Timeout}
	if f.kind == KindHang {
		probe := &deathMin{start: m.start, timeout: hangProbe(w.opts.Timeout), way: hangFrames(f.msg)}
		best, smaller := w.shrinkDeath(f, probe)
		cut := f.minimized == minimizedCutShort
		adopted := smaller && w.adoptMinimized(f, best, cut)
		// No smaller candidate ran a probe's time on the same way in, and
		// the probes could tell for every one: none would hang that way at
		// the whole timeout either. On a slow machine (CI's arm64 under
		// qemu) a candidate refused for its way in may only not have
		// reached its loop within the probe's time ("He" was kept where
		// "H" hangs), and a worker may be killed before it ran its first
		// candidate; the whole timeout tells.
		if cut || !probe.unsure && (adopted || !smaller) {
			return
		}
		m.execs = probe.execs
	}
	// The message reported is the one the re-run gives the input written:
	// if the re-run refuses the candidate, f keeps its input and message.
	if best, smaller := w.shrinkDeath(f, m); smaller {
		w.adoptMinimized(f, best, f.minimized == minimizedCutShort)
	}
}

// deathMin is one pass of minimizeDeath: its rounds' timeout, the budget
// spent, and for probe rounds the way in a candidate's hang must have.
type deathMin struct {
	start   time.Time
	execs   int64
	timeout time.Duration
	way     []string // hangFrames of the hang minimized; nil: any way

	// unsure says that a probe round could not tell for a candidate of the
	// smallest input found: one killed its worker another way (or on
	// another way in), or the worker was killed before it ran one.
	unsure bool
}

// shrinkDeath runs m's rounds from f.vals until no candidate is smaller or
// the budget is spent (f.minimized is then cut short), and returns the
// smallest input that killed a worker like f.
func (w *worker) shrinkDeath(f *failure, m *deathMin) (best []any, smaller bool) {
	best = f.vals
	var refuse []int64
	for !w.stopping() {
		args := &ipc.MinimizeArgs{Kind: f.kind, Key: f.key, Refuse: refuse, Settle: diedAfterReturn(f.msg)}
		if !w.minimizeBudget(args, m.start, m.execs) {
			f.minimized = minimizedCutShort
			break
		}
		cand, n, done := w.minimizeRound(best, args, m)
		m.execs += n
		if done == roundOtherDeath {
			refuse = refuseKiller(refuse, n)
			continue
		}
		if done != "" {
			if done == minimizedCutShort {
				f.minimized = done
			}
			m.unsure = m.unsure || done == "other" && n == 0 && m.timeout < w.opts.Timeout
			break
		}
		best, smaller, refuse = cand, true, nil
	}
	m.unsure = m.unsure || len(refuse) > 0
	return best, smaller
}

// roundOtherDeath is minimizeRound's done when a candidate killed the worker
// some other way than the failure minimized.
const roundOtherDeath = "other death"

// minimizeRound runs one Minimize call on a fresh worker, whose watchdog
// has m's timeout, from vals. It returns the candidate that killed the
// worker the same way and the executions spent, or why the round ended
// without one: "no" (every candidate tried), minimizedCutShort,
// roundOtherDeath, or "other" (the worker could not start or was not killed
// by a candidate: see killedByCandidate).
func (w *worker) minimizeRound(vals []any, args *ipc.MinimizeArgs, m *deathMin) (cand []any, execs int64, done string) {
	p, err := w.startRawProcTimeout(false, m.timeout)
	if err != nil {
		w.internal(fmt.Sprintf("starting a worker to minimize a failing input: %v", err))
		return nil, 0, "other"
	}
	defer p.stop(time.Second)
	p.mem.SetValue(appendValues(nil, vals))
	var resp ipc.MinimizeResponse
	err = p.call(ipc.Call{Minimize: args}, &resp)
	switch {
	case err == nil && resp.CutShort:
		return nil, resp.Execs, minimizedCutShort
	case err == nil:
		return nil, resp.Execs, minimizedNo
	}
	execs = int64(p.mem.Execs())
	if !w.killedByCandidate(p, err, execs) {
		return nil, execs, "other"
	}
	kind, msg := p.death(w.opts.Timeout, w.opts.RSSLimitMB)
	if cand, err = decodeValues(p.mem.Value()); err != nil {
		return nil, execs, "other"
	}
	if !sameFailure(args.Kind, args.Key, kind, msg) || m.way != nil && !slices.Equal(hangFrames(msg), m.way) {
		return nil, execs, roundOtherDeath
	}
	if m.timeout < w.opts.Timeout {
		probeKills.Add(1)
	}
	return cand, execs, ""
}
