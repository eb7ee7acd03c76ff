package driver

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fuzzbox/fuzzbox/event"
)

// Exit codes of a run, as the fuzzbox command exits with them.
const (
	ExitOK      = 0 // nothing found
	ExitFailure = 1 // a failure was found (or the package's tests failed)
	ExitError   = 2 // a usage, build or internal error
)

// Result is what a run came to.
type Result struct {
	ExitCode int            // ExitOK, ExitFailure or ExitError
	Err      error          // with ExitError: why (also in the exit event)
	Targets  []TargetResult // one per target, in the order they ran
}

// TargetResult is what one target's turns came to.
type TargetResult struct {
	Target
	Execs    int64         // executions over all turns
	Failures []event.Event // the failure events (without duplicates)
	// Duplicates counts, per crash bucket (event.Event.Bucket), the
	// failures after the first (-keepgoing).
	Duplicates map[string]int
	Flaky      []event.Event // the flaky events
	Internal   []event.Event // the internal_error events
	Err        string        // why the target could not run ("" = it ran)
	// StartFailed is the engine's done event's start_failed: the fuzz
	// test's code before f.Fuzz failed in a worker process, which runs it
	// again. Its failure (ExitFailure), with no input; it gets no more turns.
	StartFailed string
	Plateau     bool // its last turn stopped early: no new coverage for Config.Plateau
	ExitCode    int  // the worst exit of its fuzzing binary: ExitOK, ExitFailure or ExitError
	// Unfuzzed is the last turn's progress through the seed and generated
	// corpus ("done/total") when its time ended before fuzzing started:
	// nothing was fuzzed. "" when it fuzzed.
	Unfuzzed string

	bin  string // the fuzzing binary
	twin string // its race-built twin (Config.RaceTwin), or ""
	dict string // dictionary file for the run: Config.Dict plus the package's literals

	started   bool          // the engine reported its baseline in the last turn
	turned    bool          // it had a turn: the run did not end before it
	turnExecs int64         // executions of the last turn
	fuzzedFor time.Duration // the last turn's fuzzing time (start to done event), 0 if it did not fuzz
	ranFor    time.Duration // the fuzzing binary's running time over all its starts (go test's elapsed)
	startedAt int64         // the last turn's start event, in ms since the run started
	caughtAt  int64         // the last turn's first failure caught while fuzzing (minimizing event), 0 if none
	next      turnNext      // whether the last turn is followed by another, and why (runTurn)
	stopped   bool          // the run was stopped (Ctrl-C) before its fuzzing started
	resumes   int           // turns started again after such a stop
	dones     int           // done events of its target: the engine's and endUnfuzzed's
	skip      []string      // top-level tests left out: they failed only in fuzzbox's binary
	leaveOut  []string      // corpus inputs left out: slower than -timeout only in fuzzbox's binary (checker.leaveOut)
	skipTests bool          // run no test before fuzzing: one failed only in fuzzbox's binary, unnamed, or they ran in an earlier turn of the package
	// prefuzzFailed says the package's tests or seeds failed before
	// fuzzing, under go test too or where fuzzbox could not tell
	// (whoseFailure), in this target's turn or its package's first.
	prefuzzFailed bool
}

// A Handler receives the events of a run, from several goroutines but one
// at a time.
type Handler func(event.Event)

// Fuzz fuzzes targets (from Resolve): it builds each of their packages into
// a fuzzing binary once (in a temporary directory it removes; nothing with
// Config.Binary), then runs one fuzz test at a time, each for an equal share
// of cfg.FuzzTime, or, without FuzzTime and with several targets, in turns
// of rotationSlice until ctx is cancelled. A target that fails leaves the
// rotation; the others go on. Its events go to h, a build event first and an
// exit event last. Cancelling ctx stops the run as Ctrl-C does: each
// fuzzing binary gets SIGINT and 5 s to write what it found, then is killed
// (its workers die with it).
func Fuzz(ctx context.Context, cfg Config, targets []Target, h Handler) Result {
	s := newStream(h)
	s.emit(event.Event{Type: event.Build, Package: packagesOf(targets)})
	res := fuzz(ctx, cfg, targets, s)
	code := res.ExitCode
	e := event.Event{Type: event.Exit, ExitCode: &code}
	if res.Err != nil {
		e.Error = oneLine(res.Err)
	}
	s.emit(e)
	return res
}

func errorResult(err error) Result { return Result{ExitCode: ExitError, Err: err} }

// packagesOf returns the targets' packages, each once, space-separated.
func packagesOf(targets []Target) string {
	var pkgs []string
	for _, t := range targets {
		if !slices.Contains(pkgs, t.Package) {
			pkgs = append(pkgs, t.Package)
		}
	}
	return strings.Join(pkgs, " ")
}

// syncNames refuses a run that syncs fuzz tests of several packages of the
// same name: the sync directory keeps one directory per name (Sync/FuzzX),
// which instances on other machines share.
func syncNames(cfg Config, targets []Target) error {
	if cfg.Sync == "" {
		return nil
	}
	seen := map[string]string{}
	for _, t := range targets {
		if pkg, ok := seen[t.Name]; ok && pkg != t.Package {
			return fmt.Errorf("-sync: %s.%s and %s.%s would share %s: fuzz one of the packages at a time, or give each its own -sync directory",
				pkg, t.Name, t.Package, t.Name, filepath.Join(cfg.Sync, t.Name))
		}
		seen[t.Name] = t.Package
	}
	return nil
}

// rotationSlice is each target's turn when several share an open-ended run.
const rotationSlice = time.Minute

func fuzz(ctx context.Context, cfg Config, targets []Target, s *stream) Result {
	if err := cfg.checkRun(); err != nil {
		return errorResult(err)
	}
	if len(targets) == 0 {
		return errorResult(errors.New("no fuzz test to fuzz"))
	}
	tmp, release, err := workDir("fuzz")
	if err != nil {
		return errorResult(err)
	}
	defer release()
	cfg.cachePerPackage = cfg.cachePerPackage || slices.ContainsFunc(targets, func(t Target) bool { return t.Package != targets[0].Package })
	if err := syncNames(cfg, targets); err != nil {
		return errorResult(err)
	}
	results, err := prepare(ctx, cfg, targets, tmp, s)
	if err != nil {
		return errorResult(err)
	}
	b := newBudget(cfg, len(targets))
	tested := map[*pkgInfo]bool{} // the package's tests ran in a turn of this run
	for {
		ran := false
		for i, r := range results {
			if ctx.Err() != nil || !r.runnable() || b.open && r.Plateau {
				continue
			}
			ran = true
			share := b.share(runnable(results[i:]))
			r.skipTests = r.skipTests || tested[r.pkg]
			testsTurn := !r.skipTests
			if !r.turned {
				importGoCorpus(cfg, r, s)
			}
			r.turned = true
			dones := r.dones
			runTarget(ctx, cfg, r, share, s)
			endTurn(ctx, r, s, dones)
			tested[r.pkg] = true
			b.spent(share, r)
			switch seed := r.failedSeed(cfg); {
			case r.prefuzzFailed:
				stopPackage(results, r, s, "its package's tests or seeds failed before fuzzing "+r.Name+" (above), and go test -fuzz fuzzes nothing then")
			case testsTurn && seed != "":
				stopPackage(results, r, s, "the seed corpus entry "+r.Name+"/"+seed+" failed (above), and go test -fuzz runs it with the package's tests before fuzzing, and fuzzes nothing when they fail")
			}
		}
		if !b.open || !ran || ctx.Err() != nil {
			break
		}
	}
	for _, r := range results {
		if !r.turned && r.dones == 0 {
			r.endUnfuzzed(s, event.NotFuzzedStopped, "the run ended before its turn")
		}
	}
	return summarize(results)
}

// endTurn gives r's turn the done event the engine did not send, when its
// fuzzing did not start (no done event since the turn began with dones):
// why is r.Err, its package's failed tests or seeds, or a stop. A turn
// whose fuzzing started ends with the engine's.
func endTurn(ctx context.Context, r *TargetResult, s *stream, dones int) {
	if r.dones > dones || r.started {
		return
	}
	switch {
	case r.Err != "":
		r.endUnfuzzed(s, event.NotFuzzedError, r.Err)
	case r.prefuzzFailed:
		r.endUnfuzzed(s, event.NotFuzzedFailed, "its package's tests or seeds failed before fuzzing "+r.Name+" (see output), and go test -fuzz fuzzes nothing then")
	case ctx.Err() != nil:
		r.stopped = true
		if r.ranFor > 0 {
			s.output(r.Target, "fuzzbox: the run was stopped before fuzzing "+r.Name+" started, while its package's tests ran\n")
		}
		r.endUnfuzzed(s, event.NotFuzzedStopped, "the run was stopped before fuzzing "+r.Name+" started")
	default:
		r.endUnfuzzed(s, event.NotFuzzedError, "its fuzzing binary exited before fuzzing "+r.Name+" started (see output)")
	}
}

// endUnfuzzed emits the done event of r's target whose fuzzing did not
// start, and will not: why is an event.NotFuzzed* reason, message the text.
func (r *TargetResult) endUnfuzzed(s *stream, why, message string) {
	r.dones++
	s.emit(event.Event{Type: event.Done, Target: r.Name, Package: r.Package, NotFuzzed: why, Message: message})
}

// runnable counts the results whose targets can run.
func runnable(results []*TargetResult) int {
	n := 0
	for _, r := range results {
		if r.runnable() {
			n++
		}
	}
	return n
}

// runnable says whether r's target is still to be fuzzed: its package built,
// its tests passed, and it has not failed.
func (r *TargetResult) runnable() bool {
	return r.Err == "" && !r.prefuzzFailed && r.StartFailed == "" && len(r.Failures) == 0
}

// stopPackage takes the other targets of failed's package out of the run,
// saying why: its tests or seeds failed before fuzzing (under go test too,
// or it could not tell), or failed's own seeds did, which the tests of go
// test -fuzz for another fuzz test run; go test -fuzz fuzzes nothing then.
// A package's tests run in the turn of its first target only. Each gets
// its done event.
func stopPackage(results []*TargetResult, failed *TargetResult, s *stream, why string) {
	for _, r := range results {
		if r == failed || r.pkg != failed.pkg || !r.runnable() {
			continue
		}
		r.prefuzzFailed = true
		r.ExitCode = max(r.ExitCode, ExitFailure)
		s.output(r.Target, fmt.Sprintf("fuzzbox: %s is not fuzzed: %s\n", r.Name, why))
		r.endUnfuzzed(s, event.NotFuzzedFailed, why)
	}
}

// failedSeed returns the name of r's seed corpus entry that failed (go
// test -fuzz runs it as fuzzing starts) if go test -fuzz of another fuzz
// test of the package would run it with the tests (cfg's Run and Skip
// select r's fuzz test), or "".
func (r *TargetResult) failedSeed(cfg Config) string {
	if !runSelects(cfg.Run, r.Name) || skipSelects(cfg.Skip, r.Name) {
		return ""
	}
	for _, f := range r.Failures {
		if f.Seed != "" {
			return f.Seed
		}
	}
	return ""
}

// A budget splits -fuzztime over the targets of a run: each gets an equal
// share of what is left, so what a target leaves unused (it stopped on
// Config.Plateau, or at a failure) goes to the ones after it.
type budget struct {
	open  bool          // no -fuzztime with several targets: turns of rotationSlice until cancelled
	fixed string        // the -test.fuzztime of every turn: one target, open, or PruneOnly
	nx    bool          // the budget is executions (Nx)
	timed bool          // the budget is a duration
	execs int64         // Nx budgets: executions left
	time  time.Duration // duration budgets: fuzzing time left
}

func newBudget(cfg Config, n int) *budget {
	ft := cfg.FuzzTime
	switch {
	case cfg.PruneOnly:
		return &budget{}
	case n == 1:
		return &budget{fixed: ft}
	case ft == "":
		return &budget{open: true, fixed: rotationSlice.String()}
	case nxRE.MatchString(ft):
		total, _ := strconv.ParseInt(strings.TrimSuffix(ft, "x"), 10, 64)
		return &budget{nx: true, execs: total}
	}
	d, _ := time.ParseDuration(ft)
	return &budget{timed: true, time: d}
}

// share returns the -test.fuzztime of the next turn, left targets (this one
// included) still to run in this pass.
func (b *budget) share(left int) string {
	switch {
	case b.nx:
		return fmt.Sprintf("%dx", max(1, b.execs/int64(left)))
	case b.timed:
		return max(b.time/time.Duration(left), time.Millisecond).String()
	}
	return b.fixed
}

// spent takes a turn of r that was given share out of the budget: all of
// it, or what the turn used when it stopped early, on a plateau or at a
// failure.
func (b *budget) spent(share string, r *TargetResult) {
	early := r.Plateau || len(r.Failures) > 0 || r.prefuzzFailed
	switch {
	case b.nx:
		n, _ := strconv.ParseInt(strings.TrimSuffix(share, "x"), 10, 64)
		if early {
			n = min(n, r.turnExecs)
		}
		b.execs -= n
	case b.timed:
		d, _ := time.ParseDuration(share)
		if early {
			d = min(d, r.fuzzedFor)
		}
		b.time -= d
	}
}

// summarize computes the run's exit code from its targets' results.
func summarize(results []*TargetResult) Result {
	res := Result{ExitCode: ExitOK}
	for _, r := range results {
		res.Targets = append(res.Targets, *r)
		switch {
		case r.Err != "" || r.ExitCode == ExitError:
			res.ExitCode = ExitError
			if res.Err == nil {
				res.Err = fmt.Errorf("%s: %s", r.Target, firstNonEmpty(r.Err, "the fuzzing binary did not exit normally"))
			}
		case (len(r.Failures) > 0 || r.ExitCode == ExitFailure) && res.ExitCode == ExitOK:
			res.ExitCode = ExitFailure
		}
	}
	return res
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// oneLine flattens an error message for a one-line report.
func oneLine(err error) string {
	return strings.ReplaceAll(err.Error(), "\n", "; ")
}

// stream serializes events to the handler and stamps each with the time
// since the run started. Times only go forward: an event the driver held
// back while it replayed a failure with go test (the engine's done event,
// stamped when the engine sent it) takes the time of the last one before
// it, which printed "elapsed: 1m40s, warning: …" and then "elapsed: 1m36s".
type stream struct {
	mu    sync.Mutex
	h     Handler
	start time.Time
	last  time.Time // the latest Time emitted
}

func newStream(h Handler) *stream {
	if h == nil {
		h = func(event.Event) {}
	}
	return &stream{h: h, start: time.Now()}
}

// output emits text (whole lines) as an output event of target t.
func (s *stream) output(t Target, text string) {
	s.emit(event.Event{Type: event.Output, Target: t.Name, Package: t.Package, Output: text})
}

func (s *stream) emit(e event.Event) {
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if e.Time.Before(s.last) {
		e.Time = s.last
	}
	s.last = e.Time
	e.Elapsed = e.Time.Sub(s.start).Milliseconds()
	s.h(e)
}
