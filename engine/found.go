package engine

import (
	"bytes"
	"fmt"
	"time"

	"github.com/fuzzbox/fuzzbox/engine/ipc"
)

// Inputs with new coverage, from the worker process's execution to the
// coordinator's corpus. A fuzz call does not end at the first input that
// sets a bit the coverage it was given lacks: it runs that input a second
// time at once (bits only the first execution reached are unstable, see
// unstableBits), lists it with the second execution's coverage when that
// still adds bits, adds both executions' bits to what it looks for beyond,
// makes it the base of the mutants to come (as the coordinator's round
// robin comes back to the newest entries), and goes on for FuzzArgs.Keep
// (keepFinding) collecting more. Before, each find ended its call and cost
// two round trips (the call's end and a re-run the coordinator asked for)
// and the next call's traced execution of its base; while a parser's corpus
// grows nearly every call found something within a few executions, and on
// two processors shared with the coordinator a worker spent most of a text
// parser's first second waiting (bench/README.md, "A fuzz call's round
// trip"). Measured in "Fuzz calls that go on after a find": 5 ms with the
// newest find as base was sooner on the text parsers, 20 ms on the same
// base sooner on the planted targets and later on the text parsers, the
// whole 200-ms call later on both.
//
// An input joins the corpus as it was found, not shrunk: shrinking every
// new input over 64 bytes while it kept its coverage (up to 256 executions)
// made the text parsers' bugs later on five of six, pooled over three
// alternating blocks (bench/README.md, "New inputs kept whole").

// keepFinding is FuzzArgs.Keep: how long a fuzz call goes on after its
// first find.
const keepFinding = 5 * time.Millisecond

// found handles the execution just run, which set bits w.seen lacks: it
// runs the input again, lists it in resp.Found when the second execution
// also adds bits, and adds both executions' bits to w.seen. It reports
// whether the call must end: the second execution failed (resp.Err, the
// input in shared memory), keep is zero, or the list is full.
func (w *workerServer) found(keep time.Duration, resp *ipc.FuzzResponse) bool {
	bucketize(w.first, execState.snap)
	enc := bytes.Clone(w.buf)
	vals, err := decodeValues(bytes.Clone(enc))
	if err != nil {
		resp.InternalErr = fmt.Sprintf("decoding an input with new coverage: %v", err)
		return true
	}
	execState.seen = nil // the second execution's counters are copied whole
	start := time.Now()
	err = w.exec(vals)
	dur := time.Since(start)
	execState.seen = w.seen
	resp.Execs++
	if err != nil {
		resp.Err = err.Error()
		return true
	}
	bucketize(w.again, execState.snap)
	if u := unstableBits(w.first, w.again, w.seen); u != nil {
		if w.unstable == nil {
			w.unstable = u
		} else {
			mergeBits(w.unstable, u)
		}
	}
	if !covers(w.seen, w.again) {
		resp.Found = append(resp.Found, ipc.Found{Input: enc, Coverage: appendSparse(nil, w.again), Duration: dur})
		if len(resp.Found) == 1 {
			w.keepUntil = time.Now().Add(keep)
		}
	}
	mergeBits(w.seen, w.first)
	mergeBits(w.seen, w.again)
	return keep <= 0 && len(resp.Found) > 0 || len(resp.Found) >= ipc.MaxFound
}

// endFound completes a fuzz call's response with its unstable bits.
func (w *workerServer) endFound(resp *ipc.FuzzResponse) {
	if w.unstable != nil {
		resp.Unstable = appendSparse(nil, w.unstable)
		w.unstable = nil
	}
}

// foundInput is an input a fuzz call found, with its coverage, for the loop.
type foundInput struct {
	e      *entry
	cov    []byte
	sparse []byte // cov, sparse-encoded (as the worker sent it and coverage logs record it)
}

// takeFound decodes a fuzz call's finds and unstable bits into done. An
// entry that cannot be decoded is an internal error, and skipped.
func (w *worker) takeFound(resp *ipc.FuzzResponse, done *fuzzed) {
	n := w.covLen
	if resp.Unstable != nil {
		u, err := expandSparse(resp.Unstable, n)
		if err != nil {
			w.internal(fmt.Sprintf("decoding a fuzz call's unstable bits: %v", err))
		} else {
			done.unstable = u
		}
	}
	for _, f := range resp.Found {
		vals, err := decodeValues(f.Input)
		if err != nil {
			w.internal(fmt.Sprintf("decoding an input with new coverage: %v", err))
			continue
		}
		cov, err := expandSparse(f.Coverage, n)
		if err != nil {
			w.internal(fmt.Sprintf("decoding an input's coverage: %v", err))
			continue
		}
		e := newEntry(vals, nil, "", false)
		e.dur = f.Duration
		done.adds = append(done.adds, foundInput{e, cov, f.Coverage})
	}
}
