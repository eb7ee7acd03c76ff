package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/fuzzbox/fuzzbox/engine/basedeps"
	"github.com/fuzzbox/fuzzbox/engine/instrument"
	"github.com/fuzzbox/fuzzbox/engine/ipc"
)

// execState is shared by the worker loop and ResetCoverage/SnapshotCoverage,
// which the testing package calls on the goroutine that runs the fuzz
// function. The worker loop waits for each execution to finish, so the two
// never run at the same time.
var execState struct {
	snap  []byte // raw counters of the last execution (while fuzzing: of the last one with newBits)
	trace bool   // trace comparisons during the next execution
	cmps  cmpTrace

	// While fuzzing, seen holds the bucket bits known so far and
	// SnapshotCoverage only sets newBits: whether the execution set a bit
	// that seen lacks. It reads the live counters instead of copying them
	// first, saving a pass over every counter of the binary per execution.
	seen    []byte
	newBits bool
}

// ResetCoverage is called by the test main right before each execution of
// the fuzz function: it zeroes the edge counters and starts comparison
// tracing when the worker asked for it.
func ResetCoverage() {
	instrument.Reset()
	if execState.trace {
		instrument.StartTrace()
	}
}

// SnapshotCoverage is called by the test main right after each execution:
// it copies the counters and collects the traced comparisons.
func SnapshotCoverage() {
	if execState.trace {
		execState.cmps.reset()
		instrument.StopTrace(execState.cmps.onInt, execState.cmps.onStr)
	}
	if execState.seen != nil {
		execState.newBits = hasNewBits(instrument.Counters(), execState.seen)
		if execState.newBits {
			// Kept for the coordinator: code that runs after this call
			// and before the next execution (the testing package's own
			// bookkeeping) also moves the counters.
			copy(execState.snap, instrument.Counters())
		}
		return
	}
	copy(execState.snap, instrument.Counters())
}

// RunWorker serves the coordinator that started this process: it executes
// fn on the inputs the coordinator sends over the pipes and shared memory
// (file descriptors ipc.FdIn, ipc.FdOut, ipc.FdMem) until the coordinator
// closes the pipe or ctx is done. fn returns a non-nil error when the input
// fails; its message is reported to the coordinator.
func RunWorker(ctx context.Context, fn func(vals []any) error) error {
	// The coordinator decides when workers stop: a terminal's Ctrl-C is
	// caught and dropped (a full channel drops signals). Not ignored: an
	// ignored signal stays so in the processes the code under test starts,
	// and a server a fuzz test stops with SIGINT never stopped.
	signal.Notify(make(chan os.Signal, 1), os.Interrupt)
	if os.Getenv("GOTRACEBACK") == "" {
		debug.SetTraceback("all") // hang and crash reports show every goroutine, unless the user chose
	}
	dumpOnQuit()
	in := ipc.Inherited(ipc.FdIn, "fuzzbox-in")
	out := ipc.Inherited(ipc.FdOut, "fuzzbox-out")
	mf := ipc.Inherited(ipc.FdMem, "fuzzbox-mem")
	if in == nil || out == nil || mf == nil {
		return errors.New("engine: worker started without its pipes (run by fuzzbox, not by hand)")
	}
	mem, err := ipc.OpenMem(mf)
	if err != nil {
		return err
	}
	defer mem.Close()
	limitWorkerMemory(mem.Execs, mem.Held)
	basedeps.StackBallast()
	defer profileCPU("worker")()
	sc := newShallowCaller(fn)
	defer sc.stop()
	w := &workerServer{fn: sc.call, mem: mem, conn: ipc.NewConn(in, out), leaks: newLeakChecker()}
	// Read: the code under test, and what it starts, see the environment
	// go test gives them (but in package initialization, which ran first).
	os.Unsetenv(leaksEnv)
	os.Unsetenv(leakPatienceEnv)
	os.Unsetenv(rssLimitMBEnv)
	execState.snap = make([]byte, len(instrument.Counters()))
	w.seen = make([]byte, len(execState.snap))
	w.first, w.again = make([]byte, len(w.seen)), make([]byte, len(w.seen))
	oneProcUntilGoroutines(mem.Execs)
	w.stacks = allStacks()
	w.settleKnown = goroutineIDs(parseGoroutines(w.stacks())) // the worker's own, and the package's init's
	if testHookStarting != nil {
		testHookStarting()
	}
	return w.serve(ctx)
}

// testHookStarting, when set (by the engine's tests), runs in RunWorker
// before the worker serves calls.
var testHookStarting func()

// workerServer is the worker process's side of the protocol (internal/fuzz's
// name). It is used by one goroutine.
type workerServer struct {
	fn   func([]any) error
	mem  *ipc.Mem
	conn *ipc.Conn
	dict [][]byte // the dictionary of the last fuzz call that sent one
	// known holds the known signatures of the last fuzz call that sent
	// them (ipc.FuzzArgs.Known); nil when none.
	known map[string]bool
	sigs  map[string]knownKeys // failure messages → their keys, maxSigMemo at most (knownFailure)
	// sent holds the comparison tokens already sent to the coordinator,
	// which keeps them: a call reports only new ones.
	sent map[string]bool
	seen []byte // bucket bits known to the coordinator plus found in this call
	buf  []byte // encoding of the input being executed

	// A fuzz call's finds (found.go).
	first, again []byte    // bucket bits of a find's two executions
	unstable     []byte    // bits reached by a first execution only, in this call; nil when none
	keepUntil    time.Time // with a find, when the call ends (FuzzArgs.Keep)

	fixSubs []cmpSub // fixUp's substitutions, reused from one traced mutant to the next

	exactMem bool // measure each execution's memory (run and minimize calls; see memCheck)

	leaks *leakChecker // goroutine-leak detection (leak.go); nil when off

	// Settling (settle.go): whether this call's executions settle, and the
	// goroutines there when the last settling execution ended.
	settling    bool
	settleKnown map[uint64]bool
	stacks      func() string // a dump of every goroutine (allStacks)

	// Input modification checks (FuzzArgs.CheckInput), per fuzz call.
	checkInput    bool
	modified      int    // 1-based index of the first []byte argument an execution changed
	modifiedInput []byte // that execution's input, encoded
}

func (w *workerServer) serve(ctx context.Context) error {
	w.mem.SetReady()
	for ctx.Err() == nil {
		var c ipc.Call
		if err := w.conn.Recv(&c); err != nil {
			if err == io.EOF {
				return nil // the coordinator is done with us
			}
			return err
		}
		resp, err := w.handle(c)
		if err != nil {
			return err
		}
		if err := w.conn.Send(resp); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// testHookFuzzCall, when set (by the engine's own tests only), runs at the
// start of every fuzz call: it lets a test make the worker's own code panic.
var testHookFuzzCall func()

// handle serves one call. A panic in the worker's own code (the mutator,
// comparison substitutions, decoding: never the fuzz function, which the
// testing package runs on a goroutine of its own) is answered with an
// InternalErr, so that the coordinator never takes it for the input's.
func (w *workerServer) handle(c ipc.Call) (resp any, err error) {
	defer func() {
		if r := recover(); r != nil {
			execState.trace = false
			msg := fmt.Sprintf("panic in the worker: %v\n%s", r, debug.Stack())
			resp = internalResponse(c, msg)
		}
	}()
	w.exactMem = c.Fuzz == nil
	w.settling = c.Fuzz != nil && c.Fuzz.Settle || c.Run != nil && c.Run.Settle || c.Minimize != nil && c.Minimize.Settle
	switch {
	case c.Fuzz != nil:
		if testHookFuzzCall != nil {
			testHookFuzzCall()
		}
		return w.fuzz(c.Fuzz), nil
	case c.Run != nil:
		return w.run(c.Run), nil
	case c.Minimize != nil:
		return w.minimize(c.Minimize), nil
	}
	return nil, errors.New("engine: worker received an empty call")
}

// internalResponse is the response to c that reports an internal error.
func internalResponse(c ipc.Call, msg string) any {
	switch {
	case c.Fuzz != nil:
		return ipc.FuzzResponse{InternalErr: msg}
	case c.Run != nil:
		return ipc.RunResponse{InternalErr: msg}
	}
	return ipc.MinimizeResponse{InternalErr: msg}
}

// exec writes vals to shared memory and runs them once.
func (w *workerServer) exec(vals []any) error {
	w.buf = appendValues(w.buf[:0], vals)
	if !w.mem.SetValue(w.buf) {
		return nil // too large to record: skip rather than risk losing a crasher
	}
	w.mem.AddExec()
	execState.newBits = false
	exact := exactMemory(w.exactMem)
	var before heapMark
	if exact {
		before = heapBytes()
	}
	replayCaps(vals)
	goroutines, start := w.goroutines()
	err := w.fn(vals)
	if exact {
		checkExecMemory(before)
	} else if n := memCheck.suspect.Load(); n != 0 && n == w.mem.Execs() {
		checkRetained(memCheck.suspectLive.Load()) // the sampler saw it map more than the limit
	}
	if w.checkInput && w.modified == 0 {
		w.checkModified(vals)
	}
	if err == nil && goroutines > 0 && runtime.NumGoroutine() > goroutines {
		err = w.afterReturn(goroutines, time.Since(start))
	}
	return err
}

// afterReturn runs the leak check and the settling wait of an execution
// that passed, took d and left more goroutines than it found (before).
// What kills the worker meanwhile came after the fuzz function returned:
// the shared memory's settling flag says so.
func (w *workerServer) afterReturn(before int, d time.Duration) error {
	w.mem.SetSettling(true)
	defer w.mem.SetSettling(false)
	var err error
	if w.leaks != nil {
		err = w.checkLeak(before, d)
	}
	if err == nil && w.settling {
		w.settle(before)
	}
	return err
}

// goroutines returns, when leaks are looked for or executions settle, the
// number of goroutines and the time before an execution.
func (w *workerServer) goroutines() (int, time.Time) {
	if w.leaks == nil && !w.settling {
		return 0, time.Time{}
	}
	return runtime.NumGoroutine(), time.Now()
}

// checkLeak runs the leak check of an execution that left more goroutines
// than before it, which took d, and returns the leak as the input's error.
// The check re-runs the input from its encoding in w.buf: the function may
// have changed its copy.
func (w *workerServer) checkLeak(before int, d time.Duration) error {
	enc, newBits := bytes.Clone(w.buf), execState.newBits
	rerun := func() error {
		vals, err := decodeValues(bytes.Clone(enc))
		if err != nil {
			return err
		}
		return w.fn(vals)
	}
	msg := w.leaks.check(before, d, rerun)
	execState.newBits = execState.newBits || newBits // the re-runs' snapshots must not hide the first run's
	if msg == "" {
		return nil
	}
	return errors.New(msg)
}

// checkModified records the first []byte argument of vals that the
// execution changed: its contents no longer equal their encoding in w.buf,
// written before it ran. It compares in place: no copy per execution.
func (w *workerServer) checkModified(vals []any) {
	if i := changedBytesArg(w.buf, vals); i > 0 {
		w.modified, w.modifiedInput = i, append([]byte(nil), w.buf...)
	}
}

func (w *workerServer) input() ([]any, error) {
	vals, err := decodeValues(w.mem.Value())
	if err == nil && len(vals) == 0 {
		err = errors.New("engine: empty input")
	}
	return vals, err
}

func (w *workerServer) maxLen(limit int) int {
	m := w.mem.ValueCap()/2 - 16
	if limit > 0 && limit < m {
		m = limit
	}
	return m
}

// resizeLen is the longest value a resize substitution may make when the
// length control allows maxLen bytes: resizeFloor or maxLen, within the
// shared memory.
func (w *workerServer) resizeLen(maxLen int) int {
	return w.maxLen(max(resizeFloor, maxLen))
}

func (w *workerServer) fuzz(args *ipc.FuzzArgs) ipc.FuzzResponse {
	w.checkInput, w.modified, w.modifiedInput = args.CheckInput, 0, nil
	w.setKnown(args)
	if w.leaks != nil && len(w.known) > 0 {
		w.leaks.isKnown = w.knownLeak
		defer func() { w.leaks.isKnown = nil }()
	}
	defer func() { w.checkInput = false }()
	resp := w.fuzzLoop(args)
	resp.Modified, resp.ModifiedInput = w.modified, w.modifiedInput
	return resp
}

func (w *workerServer) fuzzLoop(args *ipc.FuzzArgs) ipc.FuzzResponse {
	var resp ipc.FuzzResponse
	base, err := w.input()
	if err != nil {
		resp.InternalErr = err.Error()
		return resp
	}
	copy(w.seen, w.mem.Coverage())
	execState.seen = w.seen
	defer func() { execState.seen = nil }()
	m := newMutator(args.Seed, w.maxLen(args.MaxLen))
	m.resizeLen = w.resizeLen(args.MaxLen)
	m.stall = args.Stall
	if !args.SameDict {
		w.dict = args.Dict
	}
	m.dict = w.dict
	for _, s := range args.Splice {
		if vals, err := decodeValues(s); err == nil && len(vals) == len(base) {
			m.splice = append(m.splice, vals)
		}
	}
	start := time.Now()
	tm, err := w.setBase(base, m, args.Trace, &resp)
	if err != nil {
		resp.Err, resp.Duration = err.Error(), time.Since(start)
		return resp
	}
	w.unstable, w.keepUntil = nil, time.Time{}
	rebased := 0 // the finds looked at as bases
	checkAt := 1 // the iteration at which to look at the clock next
	for iter := 0; args.Limit == 0 || resp.Execs < args.Limit; iter++ {
		// Look at the clock about 16 times per call, at most every 64
		// iterations. (Iterations, not executions: an iteration may run
		// several, and a test on resp.Execs could skip the mark.)
		if iter == checkAt && (args.Duration > 0 || len(resp.Found) > 0) {
			now := time.Now()
			elapsed := now.Sub(start)
			if args.Duration > 0 && elapsed >= args.Duration || len(resp.Found) > 0 && !now.Before(w.keepUntil) {
				break
			}
			checkAt = iter + clockStride(elapsed, iter, clockSpan(args, len(resp.Found) > 0))
		}
		vals := cloneValues(base)
		if tm == nil || !tm.mutate(vals, m) {
			m.mutate(vals)
		}
		traced := args.Trace && m.traceMutant(resp.Execs)
		run := vals
		if traced {
			run = cloneValues(vals) // fixUp works on the input as it was, whatever the function did to its copy
		}
		if w.try(run, traced, args.Keep, &resp) {
			break
		}
		if traced && w.fixUp(vals, m, args, &resp) {
			break
		}
		if n := len(resp.Found); n > rebased {
			// The newest find is the base from now on, as the coordinator's
			// round robin comes back to the newest entries.
			rebased = n
			if b, derr := decodeValues(resp.Found[n-1].Input); derr == nil {
				base = b
				if tm, err = w.setBase(base, m, args.Trace, &resp); err != nil {
					resp.Err = err.Error()
					break
				}
			}
		}
	}
	w.endFound(&resp)
	resp.Duration = time.Since(start)
	return resp
}

// maxSentTokens bounds workerServer.sent; past it the set starts over and
// tokens may be sent again (the coordinator drops duplicates).
const maxSentTokens = 1 << 14

// unsent returns the tokens not reported before, and marks them reported.
func (w *workerServer) unsent(tokens [][]byte) [][]byte {
	if w.sent == nil || len(w.sent) > maxSentTokens {
		w.sent = map[string]bool{}
	}
	var out [][]byte
	for _, t := range tokens {
		if !w.sent[string(t)] {
			w.sent[string(t)] = true
			out = append(out, t)
		}
	}
	return out
}

// clockSpan is the span the loop's clock checks divide: the call's
// duration, or the time kept after a find when that is shorter.
func clockSpan(args *ipc.FuzzArgs, found bool) time.Duration {
	if found && (args.Duration == 0 || args.Keep < args.Duration) {
		return args.Keep
	}
	return args.Duration
}

// clockStride is how many iterations a fuzz call of duration d runs before
// it looks at the clock again, after iters took elapsed: a 16th of d at the
// rate so far, between 1 and 64. A fixed 64 made a call on an input that
// takes 50 ms run 3.2 s instead of 200 ms: on a matcher with exponential
// inputs, most of a run went to its slowest corpus entries.
func clockStride(elapsed time.Duration, iters int, d time.Duration) int {
	if elapsed <= 0 {
		return 64
	}
	n := int64(d/16) * int64(iters) / int64(elapsed)
	return int(max(1, min(64, n)))
}

// try executes one mutant and reports whether the call must end because it
// failed (with a signature not known: knownFailure) or its finds end it
// (found). With traced, comparisons are recorded.
func (w *workerServer) try(vals []any, traced bool, keep time.Duration, resp *ipc.FuzzResponse) bool {
	execState.trace = traced
	err := w.exec(vals)
	execState.trace = false
	resp.Execs++
	if err != nil && w.knownFailure(err, resp) {
		return false
	}
	if err != nil {
		resp.Err = err.Error()
		return true
	}
	return execState.newBits && w.found(keep, resp)
}

// fixUpTries is how many substitutions fixUp tries on a traced mutant.
const fixUpTries = 2

// fixUp applies substitutions derived from a traced mutant's own
// comparisons to that mutant (input-to-state, as in Redqueen). A mutant that
// changed a record's kind but broke its checksum gets the checksum it
// computed written where it was read, which no substitution derived from
// the base input could give.
func (w *workerServer) fixUp(vals []any, m *mutator, args *ipc.FuzzArgs, resp *ipc.FuzzResponse) bool {
	w.fixSubs = execState.cmps.appendSubstitutions(w.fixSubs, vals)
	subs := w.fixSubs
	for i := 0; i < fixUpTries && len(subs) > 0; i++ {
		if args.Limit > 0 && resp.Execs >= args.Limit {
			return false
		}
		cand, ok := m.fixUpCandidate(vals, subs)
		if !ok {
			continue
		}
		if w.try(cand, false, args.Keep, resp) {
			return true
		}
	}
	return false
}

// setBase makes base the input a fuzz call's mutants come from: it returns
// base's typed mutator (nil for other targets, which get base's growth
// limit instead) and, with trace, gives m the substitutions and tokens of
// base's traced execution, counted in resp (tokens not sent before join
// resp.Tokens). An error is that execution's failure.
func (w *workerServer) setBase(base []any, m *mutator, trace bool, resp *ipc.FuzzResponse) (*typedMutator, error) {
	tm := newTypedMutator(base, m)
	if tm == nil {
		if m.guideLen == 0 {
			m.guideLen = m.maxLen // the call's limit, kept for the bases to come
		}
		m.maxLen = growthLimit(m.guideLen, maxBytesLen(base), m.stall)
	}
	if !trace {
		return tm, nil
	}
	subs, tokens, err := w.traceBase(base)
	resp.Execs++
	if err != nil {
		return tm, err
	}
	m.cmp = subs
	resp.Tokens = append(resp.Tokens, w.unsent(tokens)...)
	m.dict = append(w.dict[:len(w.dict):len(w.dict)], tokens...)
	if tm != nil {
		tm.setHints(&execState.cmps, m.dict)
	}
	return tm, nil
}

func (w *workerServer) traceBase(base []any) ([]cmpSub, [][]byte, error) {
	execState.trace = true
	err := w.exec(cloneValues(base))
	execState.trace = false
	if err != nil {
		return nil, nil, err
	}
	return execState.cmps.substitutions(base), execState.cmps.tokens(), nil
}

func (w *workerServer) run(args *ipc.RunArgs) ipc.RunResponse {
	var resp ipc.RunResponse
	vals, err := w.input()
	if err != nil {
		resp.InternalErr = err.Error()
		return resp
	}
	execState.trace = args.Trace
	memCheck.confirming.Store(args.HeldOOM)
	start := time.Now()
	err = w.exec(vals)
	resp.Duration = time.Since(start)
	execState.trace = false
	memCheck.confirming.Store(false)
	if err != nil {
		resp.Err = err.Error()
	}
	if args.Trace {
		resp.Tokens = w.unsent(execState.cmps.tokens())
	}
	if cov := w.mem.Coverage(); len(cov) == len(execState.snap) {
		bucketize(cov, execState.snap) // none for the race twin: its counters are not the coordinator's
	}
	return resp
}

func (w *workerServer) minimize(args *ipc.MinimizeArgs) ipc.MinimizeResponse {
	var resp ipc.MinimizeResponse
	vals, err := w.input()
	if err != nil {
		resp.InternalErr = err.Error()
		return resp
	}
	start := time.Now()
	spent := func() bool {
		return args.Limit > 0 && resp.Execs >= args.Limit || args.Duration > 0 && time.Since(start) > args.Duration
	}
	refuse, next := args.Refuse, int64(0) // next: the place of the next candidate
	keep := func(cand []any) bool {
		place := next
		next++
		if len(refuse) > 0 && refuse[0] == place {
			refuse = refuse[1:]
			return false
		}
		if spent() {
			return false
		}
		resp.Execs++
		err := w.exec(cand)
		if err == nil || !sameFailure(args.Kind, args.Key, failureKind(err.Error()), err.Error()) {
			return false
		}
		resp.Err = err.Error()
		return true
	}
	best, smaller, typed := typedShrink(vals, keep, spent)
	if !typed {
		best, smaller = shrinkUntil(vals, keep, spent)
	}
	resp.Smaller, resp.CutShort = smaller, spent()
	w.mem.SetValue(appendValues(w.buf[:0], best))
	resp.Duration = time.Since(start)
	return resp
}
