package driver

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fuzzbox/fuzzbox/engine/ipc"
	"github.com/fuzzbox/fuzzbox/event"
)

// runTarget runs the fuzzing binary for one turn of r's target, in its
// package directory, and records the outcome in r. A binary that stops
// before fuzzing because a test failed only in it (whoseFailure) is started
// again without that test. One that stopped while fuzzing only at inputs go
// test passes (a slow input that is no hang under go test, a failure only
// fuzzbox's binary has: set aside, not the user's) is started again for
// what is left of fuzztime, up to maxResumes times, as go test -fuzz goes
// on past an input it runs within its timeout.
func runTarget(ctx context.Context, cfg Config, r *TargetResult, fuzztime string, s *stream) {
	for retries := 0; ; {
		before := r.ExitCode
		w, exitErr := runTurn(ctx, cfg, r, fuzztime, s)
		if w == nil {
			left, ok := resumeTime(fuzztime, r)
			if !ok || ctx.Err() != nil || r.next == resume && r.resumes == maxResumes {
				return
			}
			r.skipTests = true // they passed before the first turn
			fuzztime = left
			if r.next == restartWithout {
				// Bounded by maxLeftOut (checker.leaveOut).
				s.output(r.Target, fmt.Sprintf("fuzzbox: %s starts again without %s, slow only in fuzzbox's binary\n", r.Name, strings.Join(r.leaveOut, ", ")))
				continue
			}
			r.resumes++
			s.output(r.Target, fmt.Sprintf(
				"fuzzbox: fuzzing %s goes on without the input set aside (start %d of at most %d)\n", r.Name, r.resumes, maxResumes))
			continue
		}
		if !whoseFailure(ctx, cfg, r, w, exitErr, s) {
			return
		}
		if retries++; retries > maxPrefuzzRetries {
			r.Err = fmt.Sprintf("fuzzbox's binary still fails before fuzzing after %d starts without the tests that failed only in it (internal errors above)", retries)
			return
		}
		r.ExitCode = before // that stop was fuzzbox's, not a finding
	}
}

// turnNext says whether a turn of a target is followed by another, and why.
type turnNext int

const (
	stopTurns turnNext = iota // a finding, an error, the end of fuzztime, or the run's stop
	// resume: the turn stopped while fuzzing only at failures go test
	// passes (set aside by the checker); the next goes on for what is left
	// of fuzztime.
	resume
	// restartWithout: the turn stopped before fuzzing only at inputs slow
	// only in fuzzbox's binary (checker.leaveOut); the next runs the corpus
	// without them, with all of fuzztime.
	restartWithout
)

// maxResumes bounds how often a target is started again after a turn that
// stopped only at set-aside inputs: code that makes such inputs (a slow
// case the mutator finds again and again) would otherwise restart the
// binary all run long.
const maxResumes = 3

// resumeTime returns the fuzztime of the turn after r's last, and whether
// there is to be one (r.next): after a resume, what fuzzing left of
// fuzztime ("" = until stopped), if any; after a restart without inputs
// left out, all of it, since nothing was fuzzed.
func resumeTime(fuzztime string, r *TargetResult) (string, bool) {
	switch {
	case r.next == stopTurns:
		return "", false
	case fuzztime == "" || r.next == restartWithout:
		return fuzztime, true
	}
	if n, ok := strings.CutSuffix(fuzztime, "x"); ok {
		total, err := strconv.ParseInt(n, 10, 64)
		return fmt.Sprintf("%dx", total-r.turnExecs), err == nil && total > r.turnExecs
	}
	d, err := time.ParseDuration(fuzztime)
	used := r.fuzzedFor
	if r.caughtAt > 0 {
		// Until the failure was caught: not its timeout's wait, its
		// minimization or its re-runs.
		used = time.Duration(r.caughtAt-r.startedAt) * time.Millisecond
	}
	left := d - used
	return left.String(), err == nil && left >= time.Second
}

// runTurn runs the fuzzing binary once. When it stopped with a failure
// before the engine started, runTurn returns what its output said and its
// exit error; otherwise nil.
func runTurn(ctx context.Context, cfg Config, r *TargetResult, fuzztime string, s *stream) (*prefuzzWatch, error) {
	args, err := cfg.childArgs(r, fuzztime)
	if err != nil {
		r.Err = oneLine(err)
		return nil, nil
	}
	args = append(args, r.skipArgs(cfg.Skip)...)
	w := &prefuzzWatch{}
	cmd := testCmd(r.Dir, r.bin, cfg.userArgs(), args...)
	evR, evW, err := os.Pipe()
	if err != nil {
		r.Err = oneLine(err)
		return nil, nil
	}
	cmd.ExtraFiles = []*os.File{evW} // fd ipc.EventsFD
	// The binary's standard error joins its standard output, as go test
	// has it: what tests write there (the log package, println, a
	// crashing test's panic) is output, in the events of -json too.
	outR, outW := io.Pipe()
	cmd.Stdout, cmd.Stderr = outW, outW
	cmd.WaitDelay = outputDelay
	began := time.Now()
	err = cmd.Start()
	evW.Close() // the child has its copy
	if err != nil {
		evR.Close()
		r.Err = oneLine(err)
		return nil, nil
	}
	r.started, r.next = false, stopTurns // before readEvents, which sets started, starts
	failsBefore := len(r.Failures)
	r.startedAt, r.caughtAt, r.fuzzedFor, r.turnExecs, r.Plateau, r.Unfuzzed = 0, 0, 0, 0, false, ""
	chk := newChecker(ctx, cfg, r, s)
	var tests *notice
	if !r.skipTests && !cfg.PruneOnly && cfg.Run != "^$" {
		tests = announceTests(r.Target, s)
	}
	var wg sync.WaitGroup
	wg.Add(2)
	events := newReadAhead(evR)
	go func() { defer wg.Done(); readEvents(events, r, s, chk, !cfg.canReplay(), tests) }()
	var held, trailer []string
	go func() { defer wg.Done(); held, trailer = copyOutput(outR, r.Target, s, w.line) }()
	err = waitChild(ctx, cmd)
	if errors.Is(err, errKilledAtStop) {
		s.output(r.Target, fmt.Sprintf("fuzzbox: the fuzzing binary of %s did not stop within %v of the stop and was killed: a failure it was still confirming, minimizing or writing is lost\n", r.Package, stopGrace))
	}
	tests.end()
	r.ranFor += time.Since(began)
	outW.Close()
	events.endWithin(outputDelay)
	wg.Wait()
	heldOutput(held, r, s, chk)
	for _, line := range trailer {
		s.output(r.Target, line+"\n")
	}
	c := childExit(err)
	if c == ExitError && ctx.Err() == nil && r.started && r.Err == "" && err != nil {
		r.Err = "the fuzzing binary did not exit normally (" + err.Error() + ")" // "signal: killed": by someone else
	}
	if c == ExitError && ctx.Err() != nil {
		// Killed because the run was stopped (Ctrl-C while the package's
		// tests ran: the testing package has no handler for it then): the
		// binary's doing no more than a finding.
		c = ExitOK
	}
	if c == ExitFailure && r.started && chk.onlyRefuted() {
		c = ExitOK // it stopped at a failure go test does not have (an internal error, reported)
		names, without := chk.leaveOut()
		switch {
		case cfg.KeepGoing: // the engine went on past them
		case without:
			// Seeds (or generated corpus entries) only slow in fuzzbox's
			// binary: the next turn runs the corpus without them.
			r.leaveOut, r.next = append(r.leaveOut, names...), restartWithout
		case !chk.refutedBefore():
			r.next = resume
		default:
			// A seed (or generated corpus entry) failing only in fuzzbox's
			// binary stops every start: not fuzzed, an error, as when
			// its seeds fail so in the tests.
			c, r.Err = ExitError, fmt.Sprintf("not fuzzed: an input of %s's corpus fails, or outlasts -timeout, only in fuzzbox's binary (above), which stops its fuzzing as it starts", r.Name)
		}
	}
	if c == ExitFailure && r.started && len(r.Failures) == failsBefore && !chk.onlyRefuted() && r.Err == "" && r.StartFailed == "" && ctx.Err() == nil {
		if w.engineCrash(r.Package) {
			c = engineCrashed(r, w, s)
		} else {
			s.output(r.Target, fmt.Sprintf("fuzzbox: the fuzzing binary exited (%v) after fuzzing %s without a failure (%s): FAIL, as under go test -fuzz\n", err, r.Name, w.exitReason()))
		}
	}
	if c > r.ExitCode {
		r.ExitCode = c
	}
	if ctx.Err() != nil || r.started {
		return nil, nil
	}
	if c != ExitOK {
		return w, err // the package's tests or seeds failed before the engine started
	}
	exitedBeforeFuzzing(r, w, s, skipSelects(cfg.Skip, r.Name))
	return nil, nil
}

// exitedBeforeFuzzing records why a fuzzing binary that exited with status
// 0 fuzzed nothing, and ends a skipped fuzz test's turn with its done event;
// skipped says -skip leaves the fuzz test out.
func exitedBeforeFuzzing(r *TargetResult, w *prefuzzWatch, s *stream, skipped bool) {
	if !w.passed {
		r.Err = fmt.Sprintf("the fuzzing binary exited with status 0 before fuzzing %s started: nothing was fuzzed (does a TestMain return without calling m.Run?)", r.Name)
		return
	}
	why := "it skipped itself (f.Skip), and passes, as under go test -fuzz"
	if skipped {
		why = "-skip leaves it out, as under go test -fuzz"
	}
	s.output(r.Target, fmt.Sprintf("fuzzbox: %s was not fuzzed: %s\n", r.Name, why))
	r.endUnfuzzed(s, event.NotFuzzedSkipped, why)
}

// skipArgs returns the flags that leave out what the user skips (go test's
// -skip) and what failed only in fuzzbox's binary in an earlier start. One
// -test.skip holds both: the testing package splits a pattern into
// alternations at its top-level "|" before it splits each at "/", so the
// user's pattern keeps its meaning beside the anchored names.
func (r *TargetResult) skipArgs(user string) []string {
	var args []string
	if r.skipTests {
		args = append(args, "-test.run=^$")
	}
	skip := user
	if len(r.skip) > 0 {
		skip = strings.TrimPrefix(user+"|"+anchoredAlternation(r.skip), "|")
	}
	if skip != "" {
		args = append(args, "-test.skip="+skip)
	}
	if len(r.leaveOut) > 0 {
		args = append(args, flagArg(ipc.FlagLeaveOut, strings.Join(r.leaveOut, ipc.LeaveOutSep)))
	}
	return args
}

// outputDelay bounds how long, after the fuzzing binary exited, the
// driver waits for its output and event pipes to close (go test's
// WaitDelay): a process a test started and left running may hold them.
const outputDelay = 5 * time.Second

// childExit maps the fuzzing binary's exit to the driver's: any failure of
// the binary (a failure found, failing or panicking tests: exit 1 or 2, as
// go test reports them all as FAIL) is ExitFailure; a binary that did not
// exit normally (killed) is ExitError. One that exited with status 0 while
// a process it started held its output past outputDelay passed.
func childExit(err error) int {
	var ee *exec.ExitError
	switch {
	case err == nil, errors.Is(err, exec.ErrWaitDelay):
		return ExitOK
	case errors.As(err, &ee) && ee.ExitCode() > 0:
		return ExitFailure
	}
	return ExitError
}

// readEvents consumes the engine's event stream: it records results in r
// and passes each event on, with the package. A failure go test does not
// reproduce is replaced by the internal error or warning chk reports, and
// the done event does not count it; with unchecked (Config.canReplay
// false: a prebuilt binary and no stock one, so chk is nil), the first
// failure is followed by a line that says failures are not checked. The
// first event ends the tests events (announceTests).
func readEvents(rd io.ReadCloser, r *TargetResult, s *stream, chk *checker, unchecked bool, tests *notice) {
	defer rd.Close()
	dec := event.NewDecoder(rd)
	for {
		e, err := dec.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			continue // not an event: skip the line, keep the stream
		}
		tests.end()
		if !chk.check(e) {
			continue
		}
		chk.correct(&e)
		record(r, e)
		e.Package = r.Package
		s.emit(e)
		chk.followUp(e)
		if unchecked && e.Type == event.Failure && !e.Duplicate {
			unchecked = false // said once
			s.output(r.Target, "fuzzbox: not checked with go test: without -stockbin there is no stock test binary of the package to replay failures with, so they are reported as fuzzbox's binary saw them\n")
		}
	}
}

// engineCrashed reports a fuzzing binary that crashed in fuzzbox's own
// code while fuzzing (prefuzzWatch.engineCrash) as an internal error, not
// as the user's failure, and returns the turn's exit code: an error.
func engineCrashed(r *TargetResult, w *prefuzzWatch, s *stream) int {
	if what, limit := event.SystemLimit(strings.Join(w.report, "\n")); what != "" {
		// Not fuzzbox's bug: the machine's limit (ulimit -u).
		r.Err = fmt.Sprintf("fuzzing stopped: the system refused fuzzbox's binary a thread or process (%s): %s is too low for -parallel workers; raise it or lower -parallel (nothing is reported as a failure of the code)", what, limit)
		return ExitError
	}
	s.emit(event.Event{Type: event.InternalError, Target: r.Name, Package: r.Package, Message: fmt.Sprintf(
		"fuzzbox's fuzzing binary crashed in fuzzbox's own code (%s) while fuzzing %s: this is a bug in fuzzbox, not in your code. "+
			"Please report it with fuzzbox's version, go version, the module and version of %s, the command, and the crash report above.",
		w.report[0], r.Name, r.Package)})
	r.Internal = append(r.Internal, event.Event{Type: event.InternalError, Target: r.Name})
	r.Err = "fuzzing stopped: fuzzbox's binary crashed in its own code (an internal error, above)"
	return ExitError
}

// record notes what e means for the target's result.
func record(r *TargetResult, e event.Event) {
	switch e.Type {
	case event.Failure:
		if !e.Duplicate {
			r.Failures = append(r.Failures, e)
		} else if e.Bucket != "" {
			if r.Duplicates == nil {
				r.Duplicates = map[string]int{}
			}
			r.Duplicates[e.Bucket] += max(1, e.Count)
		}
	case event.Flaky:
		r.Flaky = append(r.Flaky, e)
	case event.InternalError:
		r.Internal = append(r.Internal, e)
	case event.Baseline:
		r.started = true
	case event.Start:
		r.startedAt = e.Elapsed
	case event.Minimizing:
		if r.caughtAt == 0 && r.startedAt > 0 {
			r.caughtAt = e.Elapsed
		}
	case event.Done:
		r.dones++
		r.Execs += e.Execs
		r.turnExecs, r.Plateau, r.Unfuzzed = e.Execs, e.Plateau, e.Progress
		if r.startedAt > 0 {
			r.fuzzedFor = time.Duration(e.Elapsed-r.startedAt) * time.Millisecond
		}
		if e.Error != "" {
			r.Err = e.Error
		}
		if e.StartFailed != "" {
			r.StartFailed = e.StartFailed
		}
	}
}

// copyOutput turns the fuzzing binary's standard output into output events
// (a line with text a test printed without a newline before go test's
// framing is two: splitFraming) up to the fuzz test's own "--- FAIL" line, and returns that line and the
// rest: whether they are shown depends on go test's replay of the failure
// (heldOutput), which may still run. It returns, in trailer, a passing
// binary's last lines from "PASS" (with -v, from the fuzz test's own
// "--- PASS" line) on, which are shown after its events.
func copyOutput(rd io.Reader, t Target, s *stream, watch func(string)) (held, trailer []string) {
	for text := range outputLines(rd, maxOutputLine) {
		for _, line := range splitFraming(text) {
			watch(line)
			switch {
			case held != nil || strings.HasPrefix(line, "--- FAIL: "+t.Name+" ("):
				held = append(held, line)
			case trailer != nil || line == "PASS" || strings.HasPrefix(line, "--- PASS: "+t.Name+" ("):
				// The binary's last words, which follow the engine's
				// done event (its last statistics line) as under go
				// test: the events come through another pipe, read
				// concurrently. With -v they start at the fuzz test's
				// own "--- PASS" line (and the "=== NAME" after it),
				// printed once the engine returned.
				trailer = append(trailer, line)
			default:
				s.output(t, line+"\n")
			}
		}
	}
	return held, trailer
}

// maxOutputLine is the longest line of a test binary's output that
// copyOutput passes on whole.
const maxOutputLine = 64 << 20

// outputLines yields the lines of rd without their line ends (a newline,
// and a carriage return before it), the last one also without. A line
// longer than max bytes is cut there, and says how much of it was left
// out; the lines after it come as usual (a test's 65-MiB line hid the
// failure that followed it). Breaking off, the caller leaves the rest of
// rd unread.
func outputLines(rd io.Reader, max int) iter.Seq[string] {
	return func(yield func(string) bool) {
		br := bufio.NewReaderSize(rd, 64<<10)
		var line []byte
		left := 0 // bytes of the line past max
		for {
			chunk, err := br.ReadSlice('\n')
			if err == nil {
				chunk = chunk[:len(chunk)-1]
			}
			keep := min(len(chunk), max-len(line))
			line, left = append(line, chunk[:keep]...), left+len(chunk)-keep
			if err == bufio.ErrBufferFull {
				continue // the line goes on
			}
			if len(line) > 0 || left > 0 || err == nil {
				text := string(bytes.TrimSuffix(line, []byte("\r")))
				if left > 0 {
					text += fmt.Sprintf(" [fuzzbox: the %d bytes after the first %d of this line are left out]", left, max)
				}
				if !yield(text) {
					return
				}
			}
			if err != nil {
				return
			}
			line, left = line[:0], 0
		}
	}
}

// heldOutput emits the fuzz test's failure report copyOutput held, unless
// every failure of the turn was set aside because go test passes its
// input: then the binary's "--- FAIL" and "Failing input written to
// testdata" are not true of the user's code, and one line says why they
// are left out.
func heldOutput(held []string, r *TargetResult, s *stream, chk *checker) {
	if len(held) == 0 {
		return
	}
	if chk.onlyRefuted() {
		s.output(r.Target, fmt.Sprintf(
			"fuzzbox: the fuzzing binary's failure report for %s (%d lines) is left out: go test passes the input it failed on (above)\n", r.Name, len(held)))
		return
	}
	for _, line := range held {
		s.output(r.Target, line+"\n")
	}
}
