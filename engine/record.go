package engine

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/fuzzbox/fuzzbox/corpus"
	"github.com/fuzzbox/fuzzbox/engine/ipc"
	"github.com/fuzzbox/fuzzbox/event"
)

// Failures. Every failing input is re-run in a fresh worker process before
// it is reported (confirmRuns times at most, until it fails the same way
// again): an input that does not fail again is flaky — reported as such and
// not written, unless KeepFlaky. Minimization follows, and a smaller input
// replaces the found one only if it too fails again in a fresh worker.
//
// A re-run that says nothing about the input (stopped by an internal
// error, or killed by a signal fuzzbox did not send: the SIGTERM a process
// group gets when a CI job or a supervisor stops the run, the OOM killer)
// is no verdict. A failure left without one — the run stopped first, or
// every re-run was cut short — is unconfirmed: neither reported nor
// written, and not counted as flaky; its input goes to the generated
// corpus, which the next run runs first (coordinator.unconfirmed).

// confirmRuns is how many fresh-worker re-runs may confirm a failure.
const confirmRuns = 3

// maxFlakyReports bounds the flaky reports of one signature: a target that
// fails at random would otherwise spend its run re-running.
const maxFlakyReports = 5

// maxClaimsPerLine bounds the failures claimed at one t.Error or t.Fatal
// line, or one line that panics (claimLine), in a -keepgoing run. Such a failure's
// signature holds its message, which may quote the input: a line that
// reports the input would otherwise make each failing input a new unique
// failure, confirmed, minimized and written, without bound over a long run.
// Past the bound, such failures are refused, and a warning says so once.
const maxClaimsPerLine = 5

// lost handles a call on p that ended without a response: the worker died
// or broke the protocol while running vals (from seed s, if it is one).
// It returns the process to use next.
func (w *worker) lost(p *proc, err error, vals []any, s seedRef) (*proc, error) {
	if w.stopping() {
		return w.restart(p) // the coordinator killed it
	}
	if errors.Is(err, errDied) && p.reason.Load() == nil {
		if lerr := systemLimit(p.out.String()); lerr != nil {
			return p, lerr // no thread for the worker's runtime: the machine's limit
		}
	}
	if w.diedStarting(p, err) {
		w.startFailed(p)
		return p, nil
	}
	if why := w.internalCause(p, err); why != "" {
		w.internal(why)
		return w.restart(p)
	}
	if p.killedFromOutside() {
		return w.confirmDeath(p, vals)
	}
	kind, msg := p.death(w.opts.Timeout, w.opts.RSSLimitMB)
	np, rerr := w.restart(p)
	w.recordFailure(nil, newFailure(kind, msg, vals, s))
	return np, rerr
}

// failed handles an input that failed while its worker p survived. It
// returns the process to use next.
func (w *worker) failed(p *proc, msg string, vals []any, s seedRef) (*proc, error) {
	if engineFault(msg, w.opts.Package) {
		w.internal("fuzzbox's own code panicked while running an input:\n" + msg)
		return w.restart(p)
	}
	kind, msg := classify(msg)
	return w.recordFailure(p, newFailure(kind, msg, vals, s)), nil
}

// classify returns the kind of a failing input's message as the worker
// reported it, and the message without the testing package's prefixes:
// what a failure's signature is computed from, on either side.
func classify(msg string) (kind, clean string) {
	clean = cleanMessage(msg)
	return failureKind(clean), clean
}

// testingPrefixRE matches the testing package's own file:line prefix on the
// lines it reports a recovered panic with: noise in a failure's message.
var testingPrefixRE = regexp.MustCompile(`(?m)^([ \t]*)testing\.go:\d+: `)

func cleanMessage(msg string) string {
	if !strings.Contains(msg, "testing.go:") {
		return msg // the expression's search through a long stack is costly
	}
	return testingPrefixRE.ReplaceAllString(msg, "$1")
}

// confirmDeath handles a worker killed by a signal nobody in fuzzbox sent
// (the OOM killer, a user's kill): it restarts the worker and re-runs the
// input, and reports a failure only if the input fails again. A re-run
// killed from outside again makes the kill the input's failure (outsideKill),
// confirmed like any other; it is not re-run here again, which for an input
// that the kernel's OOM killer kills every time (a machine or container with
// less memory than -rss_limit_mb) went on without end.
func (w *worker) confirmDeath(p *proc, vals []any) (*proc, error) {
	first := p.state.String()
	np, err := w.restart(p)
	if err != nil || w.stopping() {
		return np, err
	}
	np.mem.SetValue(appendValues(nil, vals))
	var resp ipc.RunResponse
	if err := np.call(ipc.Call{Run: &ipc.RunArgs{}}, &resp); err != nil {
		if !np.killedFromOutside() || w.stopping() {
			return w.lost(np, err, vals, seedRef{})
		}
		kind, msg := outsideKill(np, &w.opts)
		next, err := w.restart(np)
		usual := p.rss0
		if usual == 0 && w.usualRSS != nil { // killed on its first call
			usual = w.usualRSS.Load()
		}
		if kind == KindOOM && notGrown(np, int(usual)) {
			return next, w.starved(np, int(usual))
		}
		w.recordFailure(nil, &failure{kind: kind, msg: msg, vals: vals, outside: true})
		return next, err
	}
	np.calls = int64(np.mem.Execs())
	if resp.Err != "" {
		return w.failed(np, resp.Err, vals, seedRef{})
	}
	fmt.Fprintf(w.opts.Log, "fuzz: warning: a worker was killed from outside (%s); its input did not fail again\n", first)
	return np, nil
}

// outsideKill describes the death of p, killed from outside a second time
// on the same input, as a failure: an oom for a SIGKILL of the kernel's OOM
// killer (or a SIGKILL where the kernel's count of OOM kills cannot be
// read), an exit for any other signal, or for a SIGKILL while the count
// did not change, which someone else sent.
func outsideKill(p *proc, opts *Options) (kind, msg string) {
	ws, _ := p.state.Sys().(syscall.WaitStatus)
	const again = "while running the input, and so was a fresh worker's re-run"
	killed, known := p.oomKilled()
	switch {
	case ws.Signal() != syscall.SIGKILL:
		return KindExit, fmt.Sprintf("fuzzbox: the worker was killed (signal: %v), which fuzzbox did not send, %s", ws.Signal(), again)
	case known && !killed:
		return KindExit, fmt.Sprintf("fuzzbox: the worker was killed by SIGKILL, which neither fuzzbox nor the kernel's OOM killer sent (the kernel's count of OOM kills did not change), %s", again)
	case known:
		return KindOOM, fmt.Sprintf("fuzzbox: out of memory: the kernel's OOM killer killed the worker %s (%s)", again, oomWhy(opts))
	}
	return KindOOM, fmt.Sprintf("fuzzbox: out of memory: the worker was killed by SIGKILL, which fuzzbox did not send, %s: most likely the kernel's OOM killer (%s)", again, oomWhy(opts))
}

// grownMarginMB is how much more than a worker's usual resident memory a
// worker the kernel's OOM killer killed on an input may have had at its
// peak for the input not to be what grew: runtime and page noise.
const grownMarginMB = 32

// starvedLimit is how many workers killed by the kernel's OOM killer while
// their input did not grow them a worker takes before it stops the run.
const starvedLimit = 3

// notGrown reports whether p, killed by the kernel's OOM killer while it
// ran an input, had at its peak (the wait status's maximum resident set)
// no more memory than usualMB, the resident memory of the worker that ran
// the input first after its first fuzz call (proc.rss0; the run's first
// worker's, setup.usualRSS, if it was killed on its first), and the margin:
// the kill came from the memory the machine's or cgroup's other processes
// hold, not from the input. An input that allocates is killed while its
// allocation is being touched, at a peak far above it. Unknown (no
// reading) is not "not grown". (A child's peak is at least the
// coordinator's when it was started, which Linux keeps across exec: a
// large coordinator makes every kill look grown, as before this check.)
func notGrown(p *proc, usualMB int) bool {
	peak := exitedPeakMB(p.state)
	return usualMB > 0 && peak > 0 && peak <= usualMB+grownMarginMB
}

// starved handles an input whose re-run the kernel's OOM killer killed
// though the input did not grow the worker (notGrown): the machine or
// cgroup is short of memory for the run, which is no failure of the code.
// It warns, and after starvedLimit such kills returns the error that stops
// the run: nothing is written, as go test -fuzz writes nothing when its
// workers are killed.
func (w *worker) starved(p *proc, usualMB int) error {
	w.oomStarved++
	why := fmt.Sprintf("the kernel's OOM killer killed a worker and its fresh re-run of one input, though the input did not grow it (%d MiB at its peak, a worker's usual %d MiB): the machine, or the cgroup the run is in, is short of memory for the run (%s)",
		exitedPeakMB(p.state), usualMB, oomWhy(&w.opts))
	if w.oomStarved >= starvedLimit {
		return fmt.Errorf("engine: %s; stopping after %d such kills: give the run more memory, or lower -parallel", why, w.oomStarved)
	}
	w.rep.emit(event.Event{Type: event.Warning, Message: why + "; not reported as the code's failure"})
	return nil
}

// oomWhy says why the kernel's OOM killer could act before -rss_limit_mb:
// memoryFit's warning, or the machine's memory.
func oomWhy(opts *Options) string {
	if m, ok := memoryFit(*opts, cgroupMemLimit); !ok {
		return m.String()
	}
	return fmt.Sprintf("the machine, or the cgroup the run is in, has less memory for it than -rss_limit_mb=%d", opts.RSSLimitMB)
}

// recordFailure confirms a failure in fresh workers, minimizes it when its
// process p is still alive and writes the reproducer, if the loop lets it
// record f (see claim). It returns the process to use next.
func (w *worker) recordFailure(p *proc, f *failure) *proc {
	defer w.cancelEarly() // one that confirm did not take
	sig := signature(f.kind, f.msg)
	w.send(claim{f, sig})
	if !<-w.claims {
		return p
	}
	f.sig, f.bucket = sig, bucketID(sig)
	f.known = knownBucket(bucketDirs(&w.opts), f.bucket)
	var verdict bool
	f.reruns, f.reproduced, verdict = w.confirm(f)
	switch {
	case w.opts.KeepFlaky || f.reproduced > 0:
	case !verdict:
		w.send(unconfirmed{f, sig})
		return p
	default:
		w.send(flaky{f, sig})
		return p
	}
	f.key = failureKey(f.kind, f.msg)
	// A race is reported once per process, so a shrunk candidate never
	// fails again: races are not minimized. Nor is a failure confirmed as
	// the run is being stopped (Ctrl-C): its input is written at once (the
	// driver kills a coordinator that does not end soon, and the bug was
	// lost with the minimization).
	switch {
	case f.seed != "" || f.kind == KindRace || f.outside || !w.minimizing():
	case w.stopping():
		f.minimized = minimizedStopped
	case p != nil:
		p = w.minimizeFailure(p, f)
	default:
		w.minimizeDeath(f)
	}
	if f.seed == "" {
		// A failure this run recorded already has the reproducer of its
		// minimized bucket (a seed or testdata file that failed, a find of
		// another way in): it gets no second file, and is reported as a
		// duplicate of that one (recorded).
		w.send(minimized{signature(f.kind, f.msg)})
		if path := <-w.recordedAs; path != "" {
			w.send(recorded{f, path})
			return p
		}
	}
	path, err := w.writeReproducer(f)
	if err != nil {
		w.fatal(fmt.Errorf("engine: writing the reproducer of a %s failure: %w; %s\n%s", f.kind, err, w.keepUnwritten(f), f.msg))
		return p
	}
	w.send(recorded{f, path})
	return p
}

// maxShownInput bounds the encoded input an error message shows.
const maxShownInput = 16 << 10

// keepUnwritten keeps the input of a failure whose reproducer could not be
// written (testdata full or read-only) where it can: in the cache
// directory, and in the message it returns, encoded as the file would have
// been (up to maxShownInput). A found bug was lost with the write.
func (w *worker) keepUnwritten(f *failure) string {
	data, err := corpus.Marshal(f.vals...)
	if err != nil {
		return "its input could not be encoded: " + err.Error()
	}
	kept := "its input was not kept"
	if w.opts.CacheDir != "" {
		if path, err := corpus.Write(w.opts.CacheDir, data); err == nil {
			kept = "its input is kept at " + path + ", the reproducer's content"
		} else {
			kept = fmt.Sprintf("its input could not be kept in the cache either (%v)", err)
		}
	}
	if len(data) > maxShownInput {
		return fmt.Sprintf("%s (%d bytes, too long to show here)", kept, len(data))
	}
	return fmt.Sprintf("%s; the reproducer's content:\n%s", kept, data)
}

// recordedAs returns the reproducer of the failure this run recorded with
// bucket id: its path, or its seed's name for one of f.Add's; "" for none.
func (c *coordinator) recordedAs(id string) string {
	for _, e := range c.fails {
		if e.bucket == id && id != "" {
			return cmp.Or(e.path, e.seed)
		}
	}
	return ""
}

// claim reports whether f is to be recorded: not a duplicate (reported as
// one), not after the failure that ends the run, not a signature that was
// flaky too often. It claims the run's one failure without KeepGoing.
func (c *coordinator) claim(f *failure, sig string) bool {
	line := claimLine(f.kind, f.msg)
	dup := c.sigs[sig]
	stopped := !c.opts.KeepGoing && c.claimed
	tooFlaky := c.flaky[sig] >= maxFlakyReports
	tooMany := line != "" && c.atLine[line] >= maxClaimsPerLine
	if dup && !stopped {
		c.duplicate(f, c.bucketOf(sig), 1)
	}
	if tooMany && !dup && !stopped && c.atLine[line] == maxClaimsPerLine {
		c.atLine[line]++ // said once
		c.rep.emit(event.Event{Type: event.Warning, Message: fmt.Sprintf(
			"%d failures with different messages were recorded at %s; further ones at that line are not (its message may quote the input, which makes every failing input new)",
			maxClaimsPerLine, line)})
	}
	if dup || stopped || tooFlaky || tooMany {
		return false
	}
	c.sigs[sig], c.claimed = true, true // before confirming and minimizing, which take a while
	if line != "" {
		c.atLine[line]++
	}
	return true
}

// claimLine returns the line a fail (kind, message msg) was reported at or
// a panic happened at (file:line), whose failures claim bounds (maxClaimsPerLine): their
// signatures hold their messages, which may quote the input; "" for other
// kinds.
func claimLine(kind, msg string) string {
	switch kind {
	case KindFail:
		return failureKey(kind, msg)
	case KindPanic:
		_, _, at := panicSite(firstGoroutine(msg))
		return at
	}
	return ""
}

// duplicate counts n failures of a recorded failure's bucket. The
// statistics tick reports each bucket's since the last tick as one event
// with the count (flushDuplicates): a -keepgoing run whose fuzzing keeps
// hitting a bug wrote an event, with the whole message, for every input
// (17,514 in 10 s, 13 MB, on pion/dtls's FuzzGCM_RoundTrip).
func (c *coordinator) duplicate(f *failure, bucket string, n int) {
	for _, e := range c.fails {
		if e.bucket == bucket && bucket != "" {
			e.hits += n
		}
	}
	if e := c.dups[bucket]; e != nil {
		e.Count += n
		return
	}
	if c.dups == nil {
		c.dups = map[string]*event.Event{}
	}
	c.dups[bucket] = &event.Event{Type: event.Failure, Kind: f.kind, Message: f.msg, Line: headline(f.kind, f.msg), Duplicate: true, Bucket: bucket, Count: n}
	c.dupOrder = append(c.dupOrder, bucket)
}

// flushDuplicates reports the duplicates counted since the last call, a
// bucket's as one event, in the order their buckets first came.
func (c *coordinator) flushDuplicates() {
	for _, b := range c.dupOrder {
		c.rep.emit(*c.dups[b])
	}
	c.dups, c.dupOrder = nil, nil
}

// bucketOf returns the bucket id of a failure's signature: that of the
// recorded failure it was caught or minimized as (saveBucket), or its own.
func (c *coordinator) bucketOf(sig string) string {
	if id, ok := c.alias[sig]; ok {
		return id
	}
	return bucketID(sig)
}

// saveBucket files f under the bucket of the failure its reproducer shows:
// that of minSig, its minimized message's signature, which becomes
// f.bucket. It writes that bucket, and, when minimization changed the
// signature, the one f was caught with (so that a later run catching it
// the same way knows it too), into each bucket directory that lacks them
// (bucketDirs). f is known when either was there already: an earlier run,
// another instance or an earlier failure of this run recorded the failure
// its reproducer shows, or caught this one the same way. A bucket that
// cannot be written is a warning: the failure is recorded.
func (c *coordinator) saveBucket(f *failure, path, minSig string) {
	if f.bucket == "" {
		return
	}
	caught := f.bucket
	f.bucket = bucketID(minSig)
	bs := []bucket{{ID: f.bucket, Signature: minSig}}
	if caught != f.bucket {
		f.caught = caught
		bs = append(bs, bucket{ID: caught, Signature: f.sig})
	}
	for _, dir := range bucketDirs(&c.opts) {
		for _, b := range bs {
			b.Kind, b.Message, b.Reproducer, b.FirstSeen = f.kind, lineOf(f.kind, f.msg), path, time.Now().UTC()
			wrote, err := writeBucket(dir, b)
			if err != nil {
				c.rep.emit(event.Event{Type: event.Warning, Message: "crash buckets: " + err.Error()})
				return
			}
			f.known = f.known || !wrote
		}
	}
}

// unclaim reports f as flaky and releases its claim: the run goes on. A
// failure on a goroutine the code under test started (strayGoroutine) may
// come from an earlier input: the first turns settling on (ipc.FuzzArgs.Settle),
// the last report of its signature says it stayed flaky even so.
func (c *coordinator) unclaim(f *failure, sig string) {
	c.dropClaim(f, sig)
	c.flaky[sig]++
	c.rep.emit(event.Event{Type: event.Flaky, Kind: f.kind, Message: f.msg, Line: headline(f.kind, f.msg), Reruns: f.reruns, Reproduced: f.reproduced})
	g := strayGoroutine(f.msg, c.opts.Package)
	if g == "" {
		return
	}
	wait := ipc.SettleMax.String()
	var msg string
	switch {
	case c.flaky[sig] == 1:
		then := "fuzzing goes on waiting, after each input that leaves goroutines running, for them to end (" + wait + " at most: an input that leaves one sleeping costs that much), so that such a failure is caught with the input that started the goroutine"
		if c.settle {
			then = "fuzzing waits for the goroutines each input leaves already (" + wait + " at most)"
		}
		msg = fmt.Sprintf("the flaky %s failure (%s) is on a goroutine %s, not on the fuzz function's: such a goroutine may outlive the input that started it and fail while a later input runs, whose re-runs then pass (go test -fuzz reports it as the process terminating unexpectedly, with that later input); %s",
			f.kind, lineOf(f.kind, f.msg), g, then)
		c.settle = true
	case c.flaky[sig] == maxFlakyReports:
		msg = fmt.Sprintf("the %s failure (%s) on a goroutine %s stayed flaky while fuzzing waited for the goroutines each input left (%s at most): the goroutine outlives the wait, or a timer (time.AfterFunc) starts it after its input returned, so the input that causes it is not known, and it is not reported again. Look for a goroutine that fails after its input returned",
			f.kind, lineOf(f.kind, f.msg), g, wait)
	default:
		return
	}
	c.rep.emit(event.Event{Type: event.Warning, Kind: f.kind, Message: msg})
}

// unfuzzedWhy is the warning of a run whose limit ended it while it ran
// the seed and generated corpus (progress inputs of them): a longer
// -fuzztime, or, when inputs failed there and did not fail again alone in
// a fresh worker, what that points to: a longer run helps nothing when
// each input hangs after the one before it (a lock the fuzz function leaves
// held: buf.build/go/hyperpb's FuzzScalars, a flaky hang every 11 s).
func (c *coordinator) unfuzzedWhy(progress string) string {
	msg := fmt.Sprintf("the run's limit ended it while it ran the seed and generated corpus (%s inputs): nothing was fuzzed", progress)
	n := 0
	for _, k := range c.flaky {
		n += k
	}
	if n == 0 {
		return msg + "; give it a longer -fuzztime"
	}
	return msg + fmt.Sprintf("; %d of its inputs failed there, each after other calls in its worker process, and not when re-run alone in a fresh one (flaky, above): "+
		"does the fuzz function keep state from one call to the next (a lock it leaves held, a global it changes)? go test -fuzz runs many inputs in one process too, "+
		"and go test -run=%s runs every seed in one", n, "'^"+c.opts.Target+"$'")
}

// strayGoroutine describes the goroutine a dying process's dump shows
// failing, when the code under test (package pkg) started it, not the
// testing package for an input: "example.com/m.F.func1 started", or, for
// one the standard library started for the code (time.AfterFunc's,
// context.AfterFunc's), "time.goFunc started, running example.com/m.F.func2".
// It returns "" for any other.
func strayGoroutine(msg, pkg string) string {
	first := firstGoroutine(msg)
	m := createdByRE.FindStringSubmatch(first)
	if m == nil || !startedByCode(m[1], pkg) {
		return ""
	}
	desc := m[1] + " started"
	if !stdPackage(funcPackage(m[1])) {
		return desc
	}
	for _, f := range frameRE.FindAllStringSubmatch(first, -1) {
		if !internalFrame(f[1]) && f[1] != m[1] && !stdPackage(funcPackage(f[1])) {
			return desc + ", running " + f[1]
		}
	}
	return desc
}

// dropClaim drops the claim on a failure with signature sig that is not
// recorded: the signature may be claimed again, and the run goes on.
func (c *coordinator) dropClaim(f *failure, sig string) {
	delete(c.sigs, sig)
	c.claimed = false
	// Not recorded: it takes none of its line's claims (a flaky failure
	// reached five times used them up, and a solid one at that line was
	// never reported).
	if line := claimLine(f.kind, f.msg); line != "" && c.atLine[line] > 0 && c.atLine[line] <= maxClaimsPerLine {
		c.atLine[line]--
	}
}

// unconfirmed releases the claim on f, which no re-run confirmed or
// refuted, and keeps its input in the generated corpus: the next run runs
// it first and reports it, confirmed, if it fails there. It is neither
// reported as a failure nor written to testdata, and a warning says so.
func (c *coordinator) unconfirmed(f *failure, sig string) {
	c.dropClaim(f, sig)
	path, kept := startRel(f.path), ""
	switch {
	case f.seed != "":
		kept = "the " + event.SeedEntry(c.opts.Target, f.seed)
	case path == "" && c.opts.CacheDir != "":
		// Written now, not by the batched cache writer: the warning
		// says it is kept only when it is.
		data, err := corpus.Marshal(f.vals...)
		if err == nil {
			path, err = corpus.Write(c.opts.CacheDir, data)
		}
		kept = path
		if err != nil {
			kept = "it could not be kept: " + err.Error()
		}
	case path == "":
		kept = orNone("")
	}
	why := "every re-run in a fresh worker was cut short"
	if c.stopping() {
		why = "the run was stopped before a re-run in a fresh worker could confirm it"
	}
	c.rep.emit(event.Event{Type: event.Warning, Kind: f.kind, Reproducer: path, Message: fmt.Sprintf(
		"unconfirmed %s failure: %s: %s, so it is not reported and nothing was written to testdata; its input is kept (%s) and runs first in the next run, which reports it if it fails again",
		f.kind, lineOf(f.kind, f.msg), why, kept)})
}

// recorded reports f, whose reproducer is written at path, and stops the
// run unless KeepGoing. A failure minimized into the input of one recorded
// before is reported as a duplicate of it.
func (c *coordinator) recorded(f *failure, path string) {
	minSig := signature(f.kind, f.msg)
	c.sigs[minSig] = true // the minimized message may differ
	c.saveBucket(f, path, minSig)
	c.alias[f.sig], c.alias[minSig] = f.bucket, f.bucket
	same := func(e *crashError) bool {
		return e.path == path && e.seed == f.seed || e.bucket == f.bucket && f.bucket != ""
	}
	if i := slices.IndexFunc(c.fails, same); i >= 0 {
		// Minimized into the very input, or the bucket, of a failure
		// recorded before, which its report and reproducer stand for.
		c.fails[i].hits++
		c.rep.emit(event.Event{Type: event.Failure, Kind: f.kind, Message: f.msg, Line: headline(f.kind, f.msg), Duplicate: true, Bucket: f.bucket, Reproducer: c.fails[i].path})
		return
	}
	values := typedValues(f.vals)
	name := f.seed
	if name == "" {
		name = filepath.Base(path)
	}
	c.fails = append(c.fails, &crashError{kind: f.kind, msg: f.msg + typedValuesText(values) + raceReplay(c.opts.Target, name, f.kind), path: path, seed: f.seed,
		bucket: f.bucket, known: f.known, hits: 1})
	c.rep.emit(event.Event{Type: event.Failure, Kind: f.kind, Message: f.msg, Line: headline(f.kind, f.msg), Reproducer: path, Seed: f.seed, Entry: f.entry,
		Reruns: f.reruns, Reproduced: f.reproduced, Minimized: f.minimized, Values: values,
		Bucket: f.bucket, Known: f.known, Caught: f.caught, AfterReturn: diedAfterReturn(f.msg), ExitZero: exitedZero(f.kind, f.msg)})
	if f.kind != KindRace {
		c.toTwin(&entry{vals: f.vals, enc: appendValues(nil, f.vals)})
	}
	if !c.opts.KeepGoing {
		c.cancel()
	}
}

// confirm re-runs f's input in fresh workers until it fails the same way
// again, confirmRuns times at most, and returns how many re-runs gave a
// verdict, how many of those failed the same way, and whether any gave one
// (a stop of the run ends the re-runs; one without a verdict is tried
// again within the same bound). An oom is re-run too: a fresh worker has
// the same memory limit and measures its one input on its own, so memory
// that an earlier input of the fuzzing worker left behind is never blamed
// on this one.
func (w *worker) confirm(f *failure) (reruns, reproduced int, verdict bool) {
	if e := w.takeEarly(appendValues(nil, f.vals)); e != nil {
		if heldOOM(f) {
			e.tellHeld()
		}
		if f.kind != KindHang && f.kind != KindOOM {
			e.cancel()
		} else if <-e.done; e.verdict {
			reruns++
			if e.failed && confirms(f, e.kind, e.msg) {
				earlyCounts.confirmed.Add(1)
				return reruns, 1, true
			}
		}
	}
	limit := confirmRuns
	if f.kind == KindRace {
		limit = raceConfirmRuns
	}
	for tries := reruns; tries < limit && !w.stopping(); tries++ {
		r := w.rerun(f.vals, heldOOM(f))
		if f.outside && r.killed && r.kind == f.kind && !w.stopping() {
			return reruns + 1, 1, true // killed from outside once more: the input's doing
		}
		if !r.verdict() {
			continue
		}
		reruns++
		if r.failed && confirms(f, r.kind, r.msg) {
			if diedAfterReturn(r.msg) {
				// Alone in a worker, the input's goroutine failed after the
				// fuzz function returned: what it does, whatever input was
				// running when the fuzzing worker died.
				f.msg = r.msg
			}
			return reruns, 1, true
		}
	}
	return reruns, 0, reruns > 0
}

// A rerunResult is what one re-run of an input in a fresh worker said.
type rerunResult struct {
	kind, msg string
	failed    bool // the input failed: kind and msg say how
	// why, when not empty, is the internal error that stopped the re-run.
	why string
	// killed: a signal fuzzbox did not send killed the worker (a process
	// group's SIGTERM as the run is stopped, the OOM killer); kind is then
	// what outsideKill makes of the signal.
	killed bool
}

// verdict reports whether the re-run said anything about the input.
func (r rerunResult) verdict() bool { return r.why == "" && !r.killed }

// rerun runs vals once in a fresh worker; an internal error that stopped
// it is reported. heldOOM: it confirms an oom of the heap check
// (ipc.RunArgs.HeldOOM).
func (w *worker) rerun(vals []any, heldOOM bool) rerunResult {
	p, err := w.startRawProc(false)
	if err != nil {
		why := fmt.Sprintf("starting a worker to re-run a failing input: %v", err)
		w.internal(why)
		return rerunResult{why: why}
	}
	defer p.stop(time.Second)
	r := w.rerunOn(p, vals, heldOOM)
	if r.why != "" {
		w.internal(r.why)
	}
	return r
}

// rerunOn is rerun on the fresh process p, without reporting.
func (s *setup) rerunOn(p *proc, vals []any, heldOOM bool) rerunResult {
	p.mem.SetValue(appendValues(nil, vals))
	var resp ipc.RunResponse
	// A re-run settles: a goroutine the input started may fail after it.
	if err := p.call(ipc.Call{Run: &ipc.RunArgs{Settle: true, HeldOOM: heldOOM}}, &resp); err != nil {
		if s.diedStarting(p, err) {
			s.startFailed(p)
			return rerunResult{killed: true} // no verdict; the run stops
		}
		if why := s.internalCause(p, err); why != "" {
			return rerunResult{why: why}
		}
		if p.killedFromOutside() {
			kind, _ := outsideKill(p, &s.opts)
			return rerunResult{killed: true, kind: kind}
		}
		kind, msg := p.death(s.opts.Timeout, s.opts.RSSLimitMB)
		return rerunResult{kind: kind, msg: msg, failed: true}
	}
	switch {
	case resp.InternalErr != "":
		return rerunResult{why: "worker: " + resp.InternalErr}
	case resp.Err == "":
		return rerunResult{}
	case engineFault(resp.Err, s.opts.Package):
		return rerunResult{why: "fuzzbox's own code panicked while re-running an input:\n" + resp.Err}
	}
	return rerunResult{kind: failureKind(resp.Err), msg: cleanMessage(resp.Err), failed: true}
}

func (w *worker) minimizing() bool {
	return w.opts.MinimizeDuration > 0 || w.opts.MinimizeLimit > 0
}

// minimizeFailure shrinks f.vals on p while it keeps failing the same way,
// and keeps the smaller input only if it fails again in a fresh worker. A
// candidate that kills the worker (a hang, a fatal error) is refused: a
// fresh worker starts over from f.vals past it.
func (w *worker) minimizeFailure(p *proc, f *failure) *proc {
	w.rep.emit(event.Event{Type: event.Minimizing, Kind: f.kind, Message: f.msg, Line: headline(f.kind, f.msg)})
	w.rep.minimizing.Add(1)
	defer w.rep.minimizing.Add(-1)
	defer w.markStopped(f)
	f.minimized = minimizedNo
	start, execs := time.Now(), int64(0)
	var refuse []int64
	var resp ipc.MinimizeResponse
	for {
		if w.stopping() {
			return p // its process is not killed once the stop's kills are done
		}
		args := &ipc.MinimizeArgs{Kind: f.kind, Key: f.key, Refuse: refuse}
		if !w.minimizeBudget(args, start, execs) {
			f.minimized = minimizedCutShort
			return p
		}
		p.mem.SetValue(appendValues(nil, f.vals))
		before := p.mem.Execs()
		err := p.call(ipc.Call{Minimize: args}, &resp)
		if err == nil {
			break
		}
		n := int64(p.mem.Execs() - before)
		execs += n
		w.count(n)
		byCandidate := w.killedByCandidate(p, err, n)
		np, err := w.restart(p)
		if err != nil {
			w.fatal(err)
			return p
		}
		p = np
		if !byCandidate || w.stopping() {
			return p // keep the input as found
		}
		refuse = refuseKiller(refuse, n)
	}
	w.count(resp.Execs)
	p.calls = int64(p.mem.Execs())
	if resp.CutShort {
		f.minimized = minimizedCutShort
	}
	if !resp.Smaller || resp.InternalErr != "" || w.stopping() {
		return p // stopping: no re-run of the smaller input (its fresh worker is not killed by the stop)
	}
	vals, err := decodeValues(p.mem.Value())
	if err != nil {
		return p
	}
	w.adoptMinimized(f, vals, resp.CutShort)
	return p
}

// killedByCandidate reports whether p, which died in a Minimize call after
// running n candidates, was killed by the last of them: not by an internal
// error (reported), not from outside, not before running any.
func (w *worker) killedByCandidate(p *proc, err error, n int64) bool {
	if w.diedStarting(p, err) {
		w.startFailed(p)
		return false
	}
	if why := w.internalCause(p, err); why != "" {
		w.internal(why)
		return false
	}
	return n > 0 && !p.killedFromOutside()
}

// refuseKiller returns refuse with the place of the candidate that killed a
// worker after it ran n candidates of a Minimize call with refuse added: the
// n-th candidate not refused.
func refuseKiller(refuse []int64, n int64) []int64 {
	k, i := n-1, 0
	for ; i < len(refuse) && refuse[i] <= k; i++ {
		k++
	}
	return slices.Insert(refuse, i, k)
}

// Values of failure.minimized and of the failure event's minimized field.
const (
	minimizedYes      = event.MinimizedYes
	minimizedNo       = event.MinimizedNo
	minimizedCutShort = event.MinimizedCutShort
	minimizedStopped  = event.MinimizedStopped
)

// markStopped marks f's minimization, as it returns, stopped when the run
// was stopped and no smaller input was taken: what it says otherwise ("no",
// nothing smaller found; "cut short", by -fuzzminimizetime) is not so.
func (w *worker) markStopped(f *failure) {
	if w.stopping() && f.minimized != minimizedYes {
		f.minimized = minimizedStopped
	}
}

// adoptMinimized makes vals, a smaller input that failed like f, f's input
// if it fails the same way again in a fresh worker (the message of that
// run, as go test will show it, or for an oom, as fuzzbox measured it),
// and reports whether it did.
func (w *worker) adoptMinimized(f *failure, vals []any, cut bool) bool {
	r := w.rerun(vals, false) // the candidate's oom may not be the heap check's: the full wait
	if !r.failed || !sameFailure(f.kind, f.key, r.kind, r.msg) {
		return false
	}
	f.vals, f.msg, f.minimized = vals, r.msg, minimizedYes
	if cut {
		f.minimized = minimizedCutShort
	}
	return true
}

// minimizeBudget sets args' limits from what is left of the minimization
// budget, reporting false when nothing is.
func (w *worker) minimizeBudget(args *ipc.MinimizeArgs, start time.Time, execs int64) bool {
	if d := w.opts.MinimizeDuration; d > 0 {
		if args.Duration = d - time.Since(start); args.Duration <= 0 {
			return false
		}
	}
	if l := w.opts.MinimizeLimit; l > 0 {
		if args.Limit = l - execs; args.Limit <= 0 {
			return false
		}
	}
	return true
}

// writeReproducer writes f's input to CorpusDir and returns the path; a
// seed's is its testdata file, or "" for f.Add's values. The path is
// relative to the directory the process started in (startRel).
func (w *worker) writeReproducer(f *failure) (string, error) {
	if f.seed != "" {
		return startRel(f.path), nil
	}
	data, err := corpus.Marshal(f.vals...)
	if err != nil {
		return "", err
	}
	path, err := corpus.Write(w.opts.CorpusDir, data)
	return startRel(path), err
}

// startDir is the directory the process started in: the package's, where
// go test, the driver and the editor look for testdata/fuzz.
var startDir, _ = os.Getwd()

// startRel returns a relative path as relative to startDir. CorpusDir is
// relative to the working directory of the time, which a fuzz test may
// have changed before f.Fuzz (f.Chdir): go test then writes and reads its
// reproducers under the new directory, and so does the engine, but a path
// reported as is would name a file under the package directory. A path
// outside startDir is returned absolute.
func startRel(path string) string {
	if path == "" || filepath.IsAbs(path) || startDir == "" {
		return path
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	if rel, err := filepath.Rel(startDir, abs); err == nil && filepath.IsLocal(rel) {
		return rel
	}
	return abs
}
