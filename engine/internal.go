package engine

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/fuzzbox/fuzzbox/engine/ipc"
	"github.com/fuzzbox/fuzzbox/event"
)

// Internal errors. A failure is reported only when it is the code under
// test's: a worker that exits with ipc.WorkerExitCode, answers with a
// message that is not a response, reports an InternalErr, or crashes with a
// panic raised in fuzzbox's own code is fuzzbox's bug. The coordinator
// reports it as an internal_error event, replaces the worker and goes on;
// nothing is written under testdata/.

// maxInternalErrors ends a run whose workers keep failing internally: past
// it, going on would only hide a broken fuzzbox behind a busy status line.
const maxInternalErrors = 20

// runtimePkgs are the packages of fuzzbox linked into every fuzzing binary.
// A panic or fatal error raised in one of them is fuzzbox's.
var runtimePkgs = []string{
	"github.com/fuzzbox/fuzzbox/engine",
	"github.com/fuzzbox/fuzzbox/engine/instrument",
	"github.com/fuzzbox/fuzzbox/engine/ipc",
	"github.com/fuzzbox/fuzzbox/engine/fuzzmain",
	"github.com/fuzzbox/fuzzbox/corpus",
}

// engineFault reports whether msg, the report of a failing input (a
// recovered panic's stack or a dead worker's output), shows a panic or
// fatal error raised in fuzzbox's own code rather than in the code under
// test (whose import path is target: fuzzing fuzzbox's own packages keeps
// their failures the user's).
func engineFault(msg, target string) bool {
	pkg := culpritPackage(msg)
	if pkg == "" || pkg == target {
		return false
	}
	for _, p := range runtimePkgs {
		if pkg == p {
			return true
		}
	}
	return false
}

// culpritPackage returns the package of the function that raised the first
// panic or fatal error reported in msg: the first frame of its goroutine
// after the panic call and the runtime's own frames; "" when msg has none.
func culpritPackage(msg string) string {
	i := dumpStart(msg)
	if i < 0 {
		return ""
	}
	frames := stackFuncs(msg[i:])
	for j, fn := range frames {
		if strings.HasPrefix(fn, "panic(") || fn == "panic" {
			frames = frames[j+1:]
			break
		}
	}
	for _, fn := range frames {
		if strings.HasPrefix(fn, "runtime.") || strings.HasPrefix(fn, "runtime/") || strings.HasPrefix(fn, "panic(") {
			continue
		}
		return funcPackage(fn)
	}
	return ""
}

// stackFuncs returns the function names of the first goroutine's frames in
// a Go traceback, innermost first.
func stackFuncs(dump string) []string {
	var out []string
	inStack := false
	for _, line := range strings.Split(dump, "\n") {
		l := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(l, "goroutine ") && strings.HasSuffix(l, ":"):
			if inStack {
				return out
			}
			inStack = true
		case !inStack || l == "" || strings.HasPrefix(l, "/") || strings.HasPrefix(l, "created by ") || strings.HasPrefix(l, "..."):
			if inStack && l == "" && len(out) > 0 {
				return out
			}
		default:
			if k := strings.LastIndex(l, "("); k > 0 && strings.HasSuffix(l, ")") {
				out = append(out, l[:k])
			} else if strings.HasSuffix(l, "(...)") {
				out = append(out, strings.TrimSuffix(l, "(...)"))
			}
		}
	}
	return out
}

// funcPackage returns the import path of a traceback function name such as
// github.com/a/b.(*T).m or github.com/a/b.f.func1. The linker writes a dot
// in the last element of an import path as %2e (gopkg.in/yaml%2ev3.f).
func funcPackage(fn string) string {
	slash := strings.LastIndex(fn, "/")
	dot := strings.Index(fn[slash+1:], ".")
	if dot >= 0 {
		fn = fn[:slash+1+dot]
	}
	return strings.ReplaceAll(fn, "%2e", ".")
}

// errProtocol reports a worker that answered with something other than a
// response.
var errProtocol = errors.New("engine: worker broke the protocol")

// internalCause returns a description of why p's lost call (err from
// p.call) is fuzzbox's fault, or "" when it may be the input's.
func (s *setup) internalCause(p *proc, err error) string {
	if errors.Is(err, errProtocol) {
		return err.Error()
	}
	if p.state != nil && p.state.ExitCode() == ipc.WorkerExitCode && strings.Contains(p.out.String(), ipc.WorkerErrorPrefix) {
		// Exit code 70 alone is the code under test's as well
		// (EX_SOFTWARE): fuzzbox's worker prints its line first.
		out := lastLines(p.out.String(), 40)
		return fmt.Sprintf("the worker stopped on an internal error (exit code %d): %s\n%s", ipc.WorkerExitCode, event.FirstLine(out), out)
	}
	out := p.out.String()
	if p.reason.Load() == reasonStart {
		return fmt.Sprintf("the worker did not start within %v:\n%s", s.startLimit().Round(time.Second), trimDump(out))
	}
	if p.reason.Load() != nil || deathKind(out) == KindOOM {
		return "" // the watchdog's kill, or the worker's own memory check reporting the input's oom
	}
	if engineFault(out, s.opts.Package) {
		dump := trimDump(out)
		return fmt.Sprintf("the worker crashed in fuzzbox's own code: %s\n%s", event.FirstLine(dump), dump)
	}
	return ""
}

// A worker process runs the fuzz test again from its start: its code before
// f.Fuzz runs in each worker while the first process, fuzzing, still holds
// what that code made there. Code that succeeds once at a time (a fixed
// directory made, a fixed port listened on) fails in the workers, as it does
// under go test -fuzz ("fuzzing process terminated without fuzzing: EOF").
// A worker's death before it served a call, by its own doing, is then
// neither an input's failure nor fuzzbox's: the run stops and the fuzz test
// fails with what the worker printed (startError).

// diedStarting reports whether p, whose call failed with err, died before
// it served a call, by its own doing: not killed by fuzzbox (the run's stop,
// the watchdog) or by a signal from outside, and not on an error of
// fuzzbox's code (internalCause); or was killed for not starting within its
// startLimit while still in the test's own code (its initialization,
// TestMain, the fuzz test before f.Fuzz: its dump has no frame of
// fuzzbox's worker), which waits there for ever under go test -fuzz too.
func (s *setup) diedStarting(p *proc, err error) bool {
	if !errors.Is(err, errDied) || p.mem.Ready() || s.stopping() || p.killedFromOutside() {
		return false
	}
	out := p.out.String()
	switch p.reason.Load() {
	case nil:
		return !strings.Contains(out, ipc.WorkerErrorPrefix) && !engineFault(out, s.opts.Package)
	case reasonStart:
		return dumpStart(out) >= 0 && !strings.Contains(out, workerFrame) && s.inTestCode(stuckGoroutine(out))
	}
	return false
}

// inTestCode reports whether g, the goroutine a worker killed for not
// starting was running the test's code on (stuckGoroutine), waits in the
// code under test: its innermost frame outside the standard library is
// the package under test's (or its external test package's) or a
// dependency's, not fuzzbox's. A worker stuck in fuzzbox's own code before
// it serves (its main, its flags, its pipes) was reported as the fuzz
// test's failure before f.Fuzz; it is fuzzbox's internal error.
func (s *setup) inTestCode(g string) bool {
	for _, fn := range stackFuncs(g) {
		pkg := funcPackage(fn)
		switch {
		case pkg == s.opts.Package || pkg == s.opts.Package+"_test":
			return true
		case slices.Contains(runtimePkgs, pkg):
			return false
		case !strings.Contains(strings.Split(pkg, "/")[0], "."):
			continue // the standard library, the runtime: waiting for whom called it
		default:
			return true
		}
	}
	return false
}

// workerFrame is how a fuzzbox worker's serving reads in a goroutine dump:
// the worker has left the test's code before f.Fuzz.
const workerFrame = "github.com/fuzzbox/fuzzbox/engine.RunWorker("

// startFailed stops the run on p's death as it started (diedStarting);
// the first such death is the one reported.
func (s *setup) startFailed(p *proc) {
	e := &startError{target: s.opts.Target, state: p.state.String(), out: lastLines(p.out.String(), 40), testMain: s.opts.TestMain,
		limit: systemLimit(p.out.String())}
	if p.reason.Load() == reasonStart {
		e.stuck, e.setup, e.out = s.startLimit(), s.opts.Setup, stuckGoroutine(p.out.String())
	}
	s.startErr.CompareAndSwap(nil, e)
	s.cancel()
}

// stuckGoroutine returns, from a worker's goroutine dump, the goroutine
// running the test's code: the fuzz test's (testing.fRunner), TestMain's,
// or the main goroutine's.
func stuckGoroutine(out string) string {
	blocks := goroutineGapRE.Split(out[max(0, dumpStart(out)):], -1)
	for _, mark := range []string{"testing.fRunner(", ".TestMain(", "goroutine 1 ["} {
		for _, b := range blocks {
			if strings.Contains(b, mark) {
				return strings.TrimSpace(b)
			}
		}
	}
	return trimDump(out)
}

// startFailure returns the death startFailed recorded, or nil.
func (s *setup) startFailure() *startError {
	if s.startErr == nil {
		return nil
	}
	return s.startErr.Load()
}

// startError is the fuzz test's failure in a worker process before f.Fuzz.
type startError struct {
	target, state string // the fuzz test; how the worker exited
	out           string // the worker's last lines of output
	testMain      bool   // the package has a TestMain (Options.TestMain)
	limit         error  // the system refused the worker a thread (systemLimit): no failure of the fuzz test
	// stuck is the worker's startLimit when it was killed for not
	// starting within it, still in the test's code; setup is then how
	// long the first process took (Options.Setup), and out the goroutine
	// running that code.
	stuck, setup time.Duration
}

// systemLimit returns e's limit, nil for no start error.
func (e *startError) systemLimit() error {
	if e == nil {
		return nil
	}
	return e.limit
}

func (e *startError) Error() string {
	out := strings.TrimSpace(e.out)
	if out == "" || out == "FAIL" {
		out = strings.TrimSpace(out + "\n(the testing package discards what a fuzz test prints with f.Error, f.Fatal or f.Log in a worker process)")
	}
	what, again := e.target+"'s code before f.Fuzz", "the fuzz test"
	if e.testMain {
		what, again = "TestMain, or "+what+",", "TestMain and the fuzz test"
	}
	if e.stuck > 0 {
		return fmt.Sprintf("%s did not finish within %v in a fuzzing worker process, which runs %s again from its start while the first process fuzzes (the first process took %v from its start to fuzzing): code there that waits for something the first process holds (a lock, a file, a port) waits for ever in the workers, under go test -fuzz too. Where the worker was:\n%s",
			what, e.stuck.Round(time.Second), again, e.setup.Round(time.Millisecond), out)
	}
	return fmt.Sprintf("%s failed in a fuzzing worker process (%s), which runs %s again from its start while the first process fuzzes: code there that succeeds once at a time (a fixed file or directory made, a fixed port listened on) fails in the workers, as under go test -fuzz (\"fuzzing process terminated without fuzzing: EOF\") (go test -run runs it once, in one process). The worker's output:\n%s", what, e.state, again, out)
}

// systemLimit returns the run's error when out (a worker's output, an
// error's text) says the system refused a thread, process or file
// (event.SystemLimit), or nil: a worker dying so was reported as the fuzz
// test's failure before f.Fuzz or as fuzzbox's crash.
func systemLimit(out string) error {
	what, limit := event.SystemLimit(out)
	if what == "" {
		return nil
	}
	return fmt.Errorf("engine: the system refused a fuzzing worker a thread or process (%s): %s is too low for -parallel workers; raise it or lower -parallel (nothing is reported as a failure of the code)", what, limit)
}

// internal reports an internal error and counts it; past maxInternalErrors
// it stops the run with an error. One that says the system refused a
// thread, process or file (systemLimit) stops it at once, with that.
func (c *coordinator) internal(msg string) {
	if err := systemLimit(msg); err != nil {
		c.fatal(err)
		return
	}
	c.internals++
	n := c.internals
	if n <= maxInternalErrors {
		first, rest, _ := strings.Cut(msg, "\n")
		msg = strings.TrimSuffix(first+"; fuzzing goes on\n"+rest, "\n")
	}
	c.rep.emit(event.Event{Type: event.InternalError, Message: msg})
	if n > maxInternalErrors {
		c.fatal(fmt.Errorf("engine: giving up after %d internal errors (a bug in fuzzbox); the last one: %s", n, event.FirstLine(msg)))
	}
}
