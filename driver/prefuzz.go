package driver

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/fuzzbox/fuzzbox/corpus"
	"github.com/fuzzbox/fuzzbox/driver/build"
	"github.com/fuzzbox/fuzzbox/event"
)

// Before it fuzzes, a fuzzing binary runs the package's tests and the fuzz
// test's seeds, as go test -fuzz does. When it stops there, the failure is
// the user's only if stock go test fails too: fuzzbox's binary differs from
// go test's (its test main, its instrumentation, its hooks), and a failure
// only that binary has is fuzzbox's bug. whoseFailure runs the failing tests
// with stock go test to tell; a failure go test does not have is reported as
// an internal error, and fuzzing goes on without the tests that failed.

// maxPrefuzzRetries bounds how often a target is started again without the
// tests that failed only in fuzzbox's binary.
const maxPrefuzzRetries = 2

// crashLines is how many lines of a crash's report the internal error quotes.
const crashLines = 20

// prefuzzWatch reads the fuzzing binary's output (standard output and
// error, one stream) for what failed before fuzzing: the top-level tests go
// test marks "--- FAIL", and the test whose goroutine was running when the
// process crashed. One goroutine feeds it (copyOutput); it is read once
// that goroutine is done.
type prefuzzWatch struct {
	failed  []string // top-level names of "--- FAIL:" lines
	failMsg []string // the first crashLines lines of the failures: "--- FAIL:" lines and the indented lines under them
	inFail  bool     // reading the indented lines under a top-level "--- FAIL:"
	crashed string   // the test running in the crashing goroutine
	report  []string // the first lines of a crash report (panic, fatal error)
	inCrash bool     // reading the first "[running]" goroutine's frames
	caller  string   // the package of its innermost frame outside the standard library, "" before one
	passed  bool     // go test's final "PASS" line was printed
	failEnd bool     // its final "FAIL" line: every test ran, some failed
}

// line takes one line of the binary's output.
func (w *prefuzzWatch) line(s string) {
	w.failLine(s)
	w.crashLine(s)
}

var (
	topFailRE   = regexp.MustCompile(`^--- FAIL: (\S+)`)
	crashHeadRE = regexp.MustCompile(`^(panic: |fatal error: |unexpected fault address|\[signal |SIGSEGV|SIGBUS)`)
	runningRE   = regexp.MustCompile(`^goroutine \d+ .*\[running\]:$`)
)

// failLine takes one line of the binary's output for go test's "--- FAIL"
// lines and its final "PASS".
func (w *prefuzzWatch) failLine(s string) {
	switch s {
	case "PASS":
		w.passed = true
		return
	case "FAIL":
		w.failEnd = true
		return
	}
	m := topFailRE.FindStringSubmatch(s)
	w.inFail = m != nil || w.inFail && strings.HasPrefix(s, "    ")
	if w.inFail && len(w.failMsg) < crashLines {
		w.failMsg = append(w.failMsg, s)
	}
	if m == nil {
		return
	}
	name, _, _ := strings.Cut(m[1], "/")
	if !slices.Contains(w.failed, name) {
		w.failed = append(w.failed, name)
	}
}

// crashLine takes one line of the binary's output for the report the
// runtime prints of a panic or fatal error, with the goroutines' stacks.
func (w *prefuzzWatch) crashLine(s string) {
	switch {
	case len(w.report) == 0 && crashHeadRE.MatchString(s):
		w.report = append(w.report, s)
	case len(w.report) > 0 && len(w.report) < crashLines:
		w.report = append(w.report, s)
	}
	switch {
	case w.crashed == "" && !w.inCrash && runningRE.MatchString(s):
		w.inCrash = true
	case w.inCrash && s == "":
		w.inCrash = false
	case w.inCrash:
		if pkg, _, ok := frameFunc(s); ok && !stdPackage(pkg) && w.caller == "" {
			w.caller = pkg
		}
		if name := testOfFrame(s); name != "" {
			w.crashed, w.inCrash = name, false
		}
	}
}

// stdPackage reports whether the import path is the standard library's
// (its first element has no dot).
func stdPackage(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// engineCrash reports whether the process crashed in fuzzbox's own code:
// the crashing goroutine's innermost frame outside the standard library is
// fuzzbox's runtime's (the coordinator's: the fuzz function runs in the
// workers, whose panics outside it the engine answers itself), unless pkg,
// the package under test, is that package (fuzzing fuzzbox itself).
func (w *prefuzzWatch) engineCrash(pkg string) bool {
	return len(w.report) > 0 && build.IsRuntimePackage(w.caller) && w.caller != pkg && w.caller != pkg+"_test"
}

// lateCallRE matches testing's panic when a test's T is used after the
// test returned (testing.go's c.finished checks), naming the test.
var lateCallRE = regexp.MustCompile(`^panic: (?:Log in goroutine|Fail in goroutine|Output called|Write called) after (\S+) has completed`)

// lateCall reports whether the crash is testing's panic at a test's T used
// after the test returned, called by code outside the standard library and
// fuzzbox's runtime (the user's): a goroutine the test started that logs or fails
// late. Whether a process sees it depends on its living on: go test
// -run=TestX exits first and passes, go test -fuzz runs on and fails.
func (w *prefuzzWatch) lateCall() bool {
	return len(w.report) > 0 && lateCallRE.MatchString(w.report[0]) &&
		w.caller != "" && !build.IsRuntimePackage(w.caller)
}

// ranAll reports whether the binary ran every test before it stopped: it
// printed go test's final "FAIL", and nothing crashed (a panic or fatal
// error ends the process before the tests after it run).
func (w *prefuzzWatch) ranAll() bool {
	return w.failEnd && len(w.report) == 0 && w.crashed == ""
}

// exitReason guesses, for a binary that exited non-zero while or after
// fuzzing though the fuzz function did not fail, why: a test's goroutine
// that used its T late (lateCall), another crash outside the fuzz function,
// or else a TestMain's exit code.
func (w *prefuzzWatch) exitReason() string {
	switch {
	case w.lateCall():
		return w.lateCallText()
	case len(w.report) > 0:
		return "a crash outside the fuzz function: " + w.report[0]
	}
	return "a TestMain that exits non-zero after m.Run?"
}

// lateCallText says what lateCall found.
func (w *prefuzzWatch) lateCallText() string {
	return "a goroutine " + failedWhat(w.names()) + " started used a *testing.T after its test returned: " + strings.TrimPrefix(w.report[0], "panic: ")
}

// names returns the top-level tests that failed, the crashed one included.
func (w *prefuzzWatch) names() []string {
	names := slices.Clone(w.failed)
	if w.crashed != "" && !slices.Contains(names, w.crashed) {
		names = append(names, w.crashed)
	}
	return names
}

// excerpt returns the crash report's first lines, or the failed tests'
// (what go test prints under their "--- FAIL:" lines: why they failed).
func (w *prefuzzWatch) excerpt() string {
	if len(w.report) > 0 {
		return strings.Join(w.report, "\n")
	}
	if len(w.failMsg) > 0 {
		return strings.Join(w.failMsg, "\n")
	}
	return "(no test failed and nothing crashed: the binary exited)"
}

// testOfFrame returns the test, fuzz test or example function a goroutine
// stack frame line belongs to ("example.com/p.TestX.func1(0x1)" is TestX), or
// "" when it is none.
func testOfFrame(frame string) string {
	_, fn, ok := frameFunc(frame)
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(fn, ".")
	for _, prefix := range []string{"Test", "Fuzz", "Example"} {
		if corpus.IsTestName(name, prefix) {
			return name
		}
	}
	return ""
}

// frameFunc splits the function of a goroutine stack's frame line
// ("example.com/p.TestX.func1(0x1)") into its package and the rest; ok is
// false for other lines: a file:line line, or "created by", which names the
// parent, not the runner.
func frameFunc(frame string) (pkg, fn string, ok bool) {
	if strings.HasPrefix(frame, "\t") || strings.HasPrefix(frame, "created by ") {
		return "", "", false
	}
	paren := strings.LastIndexByte(frame, '(')
	if paren <= 0 {
		return "", "", false
	}
	return build.SplitSymbol(frame[:paren])
}

// whoseFailure decides, with stock go test, whose failure stopped r's
// fuzzing binary before fuzzing. It reports the outcome as events and
// returns whether to start the target again (with r.skip set to leave out
// the tests that failed only in fuzzbox's binary).
func whoseFailure(ctx context.Context, cfg Config, r *TargetResult, w *prefuzzWatch, exitErr error, s *stream) bool {
	names := w.names()
	run := cfg.Run // what the binary ran: "" is every test
	if len(names) > 0 {
		run = anchoredAlternation(names)
	}
	if !cfg.canReplay() {
		// A prebuilt binary's package may not be one the go command
		// builds: without a stock binary, its build system's test decides.
		s.output(r.Target, fmt.Sprintf(
			"fuzzbox: the fuzzing binary %s stopped (%v) before fuzzing %s started: %s failed in it; run the package's tests with your build system (-run='%s') to see whether they fail there too\n",
			r.bin, exitErr, r.Name, failedWhat(names), run))
		r.prefuzzFailed = true
		return false
	}
	gt := "go test " + cfg.shownTestFlags() // as goTest runs it
	where, skipHint := " in "+r.Dir, ", or leave the tests out with fuzzbox fuzz -skip='"+run+"'"
	if cfg.StockBinary != "" {
		// No go command runs (Bazel): the package's own test binary does,
		// in a directory of the test action that is gone after it.
		gt, where = "the package's test binary ("+filepath.Base(cfg.StockBinary)+") with ", ""
		skipHint = ", or leave the tests out with the test binary flag -test.skip='" + run + "' (the fuzzing target's arguments)"
	}
	s.output(r.Target, fmt.Sprintf(
		"fuzzbox: the fuzzing binary of %s stopped (%v) before fuzzing %s started; checking with %s-run='%s' whose failure it is\n",
		r.Package, exitErr, r.Name, gt, run))
	out, code, built, err := goTest(ctx, cfg, r.Dir, run)
	switch {
	case ctx.Err() != nil:
		return false
	case err != nil || !built:
		s.output(r.Target, fmt.Sprintf(
			"fuzzbox: %s could not run to check it (%s); fuzzbox cannot tell whether a test of the package failed or its own binary did; run %s-run='%s'%s\n",
			strings.TrimSuffix(strings.TrimSuffix(gt, " with "), " "), firstNonEmpty(errText(err), firstLineOf(out)), gt, run, where))
		r.prefuzzFailed = true
		return false
	case code != 0:
		hint := skipHint
		if cfg.Run == "^$" || slices.Equal(names, []string{r.Name}) || len(names) == 0 {
			hint = "" // the fuzz test itself failed, or no test is named: nothing to leave out
		}
		under := "under go test too"
		if cfg.StockBinary != "" {
			under = "in the package's test binary too"
		}
		s.output(r.Target, fmt.Sprintf(
			"fuzzbox: %s failed %s (%s-run='%s'%s): fix it first%s\n",
			failedWhat(names), under, gt, run, where, hint))
		r.prefuzzFailed = true
		return false
	case w.lateCall():
		s.output(r.Target, fmt.Sprintf(
			"fuzzbox: %s failed (%s); %s-run='%s' passed, as its process can exit before the goroutine runs, but go test -fuzz, whose process runs on, fails as fuzzbox did: fix it first\n",
			failedWhat(names), w.lateCallText(), gt, run))
		r.prefuzzFailed = true
		return false
	}
	again, passed := rerun(ctx, cfg, r, run)
	if passed {
		// It fails neither under go test nor, this time, in fuzzbox's
		// binary: a flaky test (timing under load), nobody's bug to report.
		// Also when no test could be named: a crash in a goroutine that is
		// no test's (pion/ice's watchdog, which panicked under load).
		s.emit(event.Event{Type: event.Warning, Target: r.Name, Package: r.Package, Message: fmt.Sprintf(
			"%s failed before fuzzing in fuzzbox's binary, then passed under %s-run='%s' and when run again in fuzzbox's binary: a flaky test; fuzzing goes on without it.\n%s",
			failedWhat(names), gt, run, w.excerpt())})
		return r.skipFuzzboxOnly(names, w.ranAll(), s)
	}
	s.emit(event.Event{Type: event.InternalError, Target: r.Name, Package: r.Package, Message: fmt.Sprintf(
		"fuzzbox's fuzzing binary failed %s before fuzzing, and again when run alone in it, but %s-run='%s' passes: this is a bug in fuzzbox, not in your code (or a test that fails under load, twice in a row). "+
			"Please report it with fuzzbox's version, go version, the module and version of %s, the command, and the output below.\n%s\nthe run alone in fuzzbox's binary:\n%s",
		failedWhat(names), gt, run, r.Package, w.excerpt(), again)})
	r.Internal = append(r.Internal, event.Event{Type: event.InternalError, Target: r.Name})
	return r.skipFuzzboxOnly(names, w.ranAll(), s)
}

// rerun runs the tests matching run once more in the fuzzing binary,
// without fuzzing, and reports whether they passed, and if not, what their
// output said (its crash report or failed tests, else its last lines).
func rerun(ctx context.Context, cfg Config, r *TargetResult, run string) (excerpt string, passed bool) {
	out, code, err := combined(ctx, testCmd(r.Dir, r.bin, cfg.userArgs(), cfg.replayArgs(run)...))
	if err == nil && code == 0 {
		return "", true
	}
	w := &prefuzzWatch{}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	for _, l := range lines {
		w.line(l)
	}
	if len(w.report) > 0 || len(w.failed) > 0 {
		return w.excerpt(), false
	}
	tail := strings.Join(lines[max(0, len(lines)-crashLines):], "\n")
	if err != nil {
		tail += "\n" + err.Error()
	}
	return tail, false
}

// skipFuzzboxOnly arranges the next start of r without the tests that
// failed only in fuzzbox's binary, and reports whether there is one. When
// the binary ran every test (ranAll), the others passed: the next start runs
// none (a package's tests can take minutes: pion/dtls's, 55 s under load).
func (r *TargetResult) skipFuzzboxOnly(names []string, ranAll bool, s *stream) bool {
	if slices.Contains(names, r.Name) {
		r.Err = fmt.Sprintf("fuzzbox's binary fails the seed inputs of %s where go test passes them (an internal error, reported above): not fuzzed", r.Name)
		return false
	}
	if ranAll && len(names) > 0 && !r.skipTests {
		r.skipTests = true
		s.output(r.Target, fmt.Sprintf(
			"fuzzbox: fuzzing %s without running the package's tests again: they ran, and all but %s passed\n", r.Name, strings.Join(names, ", ")))
		return true
	}
	if len(names) == 0 {
		if r.skipTests {
			return false // already started without any test
		}
		r.skipTests = true
	} else {
		r.skip = append(r.skip, names...)
	}
	s.output(r.Target, fmt.Sprintf(
		"fuzzbox: fuzzing %s without %s\n", r.Name, firstNonEmpty(strings.Join(r.skip, ", "), "running the package's tests first")))
	return true
}

// anchoredAlternation is a -run pattern matching exactly the top-level names.
func anchoredAlternation(names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = regexp.QuoteMeta(n)
	}
	return "^(" + strings.Join(quoted, "|") + ")$"
}

func failedWhat(names []string) string {
	if len(names) == 0 {
		return "the package's tests"
	}
	return strings.Join(names, ", ")
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// testsQuiet is how long the package's tests run before a tests event says
// so; testsInterval how often it says so again while they go on (the
// engine's statistics interval).
const (
	testsQuiet    = time.Second
	testsInterval = 3 * time.Second
)

// announceTests starts the tests events of t's turn, while its fuzzing
// binary runs the package's tests before its engine starts; end stops them.
// go test -fuzz prints nothing then, and a package's tests can take minutes
// (pion/dtls's, about a minute under load): without them a run would show
// its build event, then nothing.
func announceTests(t Target, s *stream) *notice {
	return startNotice(s, testsQuiet, testsInterval, func(sofar time.Duration) event.Event {
		return event.Event{Type: event.Tests, Target: t.Name, Package: t.Package, Message: fmt.Sprintf(
			"running the package's tests before fuzzing %s, as go test -fuzz does (%s so far)", t.Name, sofar)}
	})
}
