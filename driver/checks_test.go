package driver

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fuzzbox/fuzzbox/corpus"
	"github.com/fuzzbox/fuzzbox/event"
)

// The driver's checks around a fuzzing binary, run end to end on the fuzz
// command's fixture modules (../cmd/fuzzbox/testdata/fuzz, README.md there):
// a failure before fuzzing or a finding is checked with stock go test
// (prefuzz.go, confirm.go), and a binary that fuzzes nothing says why
// (turn.go, prepare.go).

// fixtureRun is one Resolve and Fuzz of a fixture module.
type fixtureRun struct {
	dir    string
	res    Result
	events []event.Event // every event, in order
	out    string        // what fuzzbox fuzz prints of the events: status lines (event.Format) and output
	text   string        // out and the binary's standard error
	// The messages of the internal_error, failure and warning events, and
	// the executions of the done events.
	internal, failures, warnings []string
	execs                        int64
}

func (r *fixtureRun) String() string {
	return fmt.Sprintf("exit %d (%v)\n%s", r.res.ExitCode, r.res.Err, r.text)
}

// fuzzFixture copies fixture module name to a temporary directory and
// fuzzes cfg.Fuzz in pattern there, the generated corpus in its .cache.
func fuzzFixture(t *testing.T, name string, cfg Config, pattern string) *fixtureRun {
	t.Helper()
	cfg.Fuzzbox = testFuzzbox(t)
	dir := filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "cmd", "fuzzbox", "testdata", "fuzz", name))); err != nil {
		t.Fatal(err)
	}
	return fuzzIn(t, dir, cfg, pattern)
}

// fuzzIn fuzzes cfg.Fuzz in pattern in dir, as fuzzFixture.
func fuzzIn(t *testing.T, dir string, cfg Config, pattern string) *fixtureRun {
	t.Helper()
	return fuzzWatched(t, dir, cfg, pattern, nil)
}

// fuzzWatched is fuzzIn calling watch, if not nil, with every event as it
// comes (one at a time), for tests that act on the run while it goes on.
func fuzzWatched(t *testing.T, dir string, cfg Config, pattern string, watch func(event.Event)) *fixtureRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cfg.Dir, cfg.CacheDir = dir, filepath.Join(dir, ".cache")
	var stderr bytes.Buffer
	cfg.Stderr = &stderr
	r := &fixtureRun{dir: dir}
	targets, err := Resolve(ctx, cfg, []string{pattern})
	if err != nil {
		t.Fatalf("Resolve: %v", err)
	}
	var mu sync.Mutex
	var text strings.Builder
	r.res = Fuzz(ctx, cfg, targets, func(e event.Event) {
		mu.Lock()
		defer mu.Unlock()
		r.tally(e, &text)
		if watch != nil {
			watch(e)
		}
	})
	if ctx.Err() != nil {
		t.Fatalf("the run did not finish in 4 minutes:\n%s", text.String())
	}
	r.out = text.String()
	r.text = r.out + stderr.String()
	for _, e := range r.events {
		if e.Type == "" || e.Time.IsZero() || e.Elapsed < 0 {
			t.Errorf("event without a type, a time or elapsed_ms: %+v", e)
		}
	}
	return r
}

func (r *fixtureRun) tally(e event.Event, text *strings.Builder) {
	r.events = append(r.events, e)
	switch e.Type {
	case event.Output:
		text.WriteString(e.Output)
	case event.InternalError:
		r.internal = append(r.internal, e.Message)
	case event.Failure:
		r.failures = append(r.failures, e.Message)
	case event.Warning:
		r.warnings = append(r.warnings, e.Message)
	case event.Done:
		r.execs += e.Execs
	}
	if e.Type != event.Output {
		text.WriteString(event.Format(e) + "\n")
	}
}

// reproducers returns the files in the run's testdata/fuzz/target.
func (r *fixtureRun) reproducers(target string) []string {
	files, _ := filepath.Glob(filepath.Join(r.dir, "testdata", "fuzz", target, "*"))
	return files
}

// TestFuzzboxOnlyFailureIsNotBlamed: a test that fails (t.Fatal) and one that
// crashes (a fatal error) only in fuzzbox's binary, as go-toml's did, and
// then another fuzz test's seed that panics only there, are checked with
// stock go test, which passes them: fuzzbox reports its own internal errors,
// writes nothing, and fuzzes without them.
func TestFuzzboxOnlyFailureIsNotBlamed(t *testing.T) {
	r := fuzzFixture(t, "fuzzboxonly", Config{Fuzz: "^FuzzFine$", FuzzTime: "300x"}, ".")
	if r.res.ExitCode != ExitOK {
		t.Errorf("want exit 0: the package's tests pass under go test and fuzzing found nothing\n%s", r)
	}
	// The first start fails the two tests; the second, without them, the
	// seeds of the package's other fuzz test, which fail only in fuzzbox's
	// binary too; the third fuzzes.
	in := r.internal
	if len(in) != 2 || !strings.Contains(in[0], "TestFailsOnlyInFuzzbox, TestCrashesOnlyInFuzzbox") ||
		!strings.Contains(in[0], "not in your code") || !strings.Contains(in[0], "fatal error: sync: unlock of unlocked mutex") ||
		!strings.Contains(in[1], "failed FuzzPanicsOnlyInFuzzbox before fuzzing") || !strings.Contains(in[1], "panic: only in fuzzbox's binary") ||
		!strings.Contains(in[0], "the run alone in fuzzbox's binary:\nfatal error: sync: unlock of unlocked mutex") {
		t.Errorf("want two internal errors, naming the two tests and quoting the crash, then the other fuzz test; got %q\n%s", in, r)
	}
	if len(r.failures) > 0 || strings.Contains(r.text, "a test or seed input of the package failed") {
		t.Errorf("the package was blamed: %q\n%s", r.failures, r)
	}
	if r.execs < 300 {
		t.Errorf("fuzzing did not go on without the two tests: %d executions\n%s", r.execs, r)
	}
	if names := r.reproducers("FuzzFine"); len(names) != 0 {
		t.Errorf("reproducers written: %q", names)
	}
}

// TestFuzzboxOnlyFindingIsNotWritten: an input that fails in fuzzbox's binary
// (in its fresh workers too) but not under stock go test is not reported as
// the code's failure: an internal error says so; it is a seed, so the fuzz
// test is not fuzzed, exit 2, as when its seeds fail so in the tests (a
// reproducer fuzzbox wrote is moved out of testdata/ to the cache:
// TestSetAside).
func TestFuzzboxOnlyFindingIsNotWritten(t *testing.T) {
	r := fuzzFixture(t, "fuzzboxonly", Config{Fuzz: "^FuzzPanicsOnlyInFuzzbox$", Run: "^$", FuzzTime: "20s"}, ".")
	if r.res.ExitCode != ExitError || !strings.Contains(r.res.Targets[0].Err, "not fuzzed: an input of FuzzPanicsOnlyInFuzzbox's corpus fails, or outlasts -timeout") {
		t.Errorf("want exit 2, not fuzzed: go test passes the seed, which stops every start\n%s", r)
	}
	for _, m := range r.failures {
		t.Errorf("reported as a failure of the code: %s", m)
	}
	if len(r.internal) != 1 || !strings.Contains(r.internal[0], "go test -run='^FuzzPanicsOnlyInFuzzbox$/^") || !strings.Contains(r.internal[0], "passes it") {
		t.Fatalf("want one internal error saying go test passes the input, got %q\n%s", r.internal, r)
	}
	if names := r.reproducers("FuzzPanicsOnlyInFuzzbox"); len(names) != 0 {
		t.Errorf("reproducers left in testdata: %q", names)
	}
	if _, err := os.Stat(filepath.Join(r.dir, "testdata")); err == nil {
		t.Errorf("testdata/ made by the engine for the reproducer was left behind")
	}
	// The failing input is the seed (go test -fuzz reports a failing seed
	// as itself, fuzzbox too): nothing was written, nothing is set aside.
	if !strings.Contains(r.internal[0], "go test -run='^FuzzPanicsOnlyInFuzzbox$/^seed#0$' passes it") || !strings.Contains(r.internal[0], "the seed corpus entry FuzzPanicsOnlyInFuzzbox/seed#0 is yours and stays") {
		t.Errorf("the internal error does not name the seed and say it stays: %s", r.internal[0])
	}
	if kept, _ := filepath.Glob(filepath.Join(r.dir, ".cache", unreproducedDir, "FuzzPanicsOnlyInFuzzbox", "*")); len(kept) != 0 {
		t.Errorf("set aside %q: a seed is no reproducer fuzzbox wrote", kept)
	}
	r.doneFoundNothing(t)
	if strings.Contains(r.out, "Failing input written") || !strings.Contains(r.out, "failure report for FuzzPanicsOnlyInFuzzbox") {
		t.Errorf("want the binary's failure report left out, and why\n%s", r.out)
	}
}

// TestSlowSeedsLeftOut: seeds that run longer than -timeout in fuzzbox's
// binary (and its fresh workers) but within it under stock go test are slow
// inputs, not hangs: a warning each, no failure, no reproducer left in
// testdata/. A slow seed would stop every start's baseline, so the fuzz test
// starts again without it, one start per slow input, and is fuzzed. So is a
// slow generated-corpus entry, whose hang is minimized into an input of
// another name: it is left out by its own file's name (event.Event.Entry).
func TestSlowSeedsLeftOut(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "fuzzboxonly")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "cmd", "fuzzbox", "testdata", "fuzz", "fuzzboxonly"))); err != nil {
		t.Fatal(err)
	}
	// The fixture's slowPrefix and a tail that minimization cuts off.
	entry := []byte("go test fuzz v1\n[]byte(\"" + strings.Repeat("c", 42) + "tail\")\n")
	cached := filepath.Join(dir, ".cache", "FuzzSlowOnlyInFuzzbox")
	if err := os.MkdirAll(cached, 0o777); err != nil {
		t.Fatal(err)
	}
	cachedName := corpus.Name(entry)
	if err := os.WriteFile(filepath.Join(cached, cachedName), entry, 0o666); err != nil {
		t.Fatal(err)
	}
	r := fuzzIn(t, dir, Config{Fuzzbox: testFuzzbox(t), Fuzz: "^FuzzSlowOnlyInFuzzbox$", Run: "^$", FuzzTime: "2s", Timeout: time.Second}, "./slow")
	r.slowInputsOnly(t)
	// The warnings before fuzzing started: once it has, the fuzzer may make
	// the slow prefix again (a slow input set aside while fuzzing).
	var before []string
	for _, e := range r.events {
		if e.Type == event.Start {
			break
		}
		if e.Type == event.Warning {
			before = append(before, e.Message)
		}
	}
	if len(before) != 3 {
		t.Fatalf("want three warnings before fuzzing, one per slow input, got %q\n%s", before, r)
	}
	// Two workers run the baseline: the slow inputs may stop it in any order.
	var order []string
	for _, w := range before {
		name, _, _ := strings.Cut(strings.TrimPrefix(w, "input "), " ")
		if !strings.Contains(w, "a slow input, not a hang") || !strings.Contains(w, "go test -run='^FuzzSlowOnlyInFuzzbox$/^"+name+"$'") || !strings.Contains(w, "fuzzing starts again without it") {
			t.Errorf("want each warning to say go test runs the input within -timeout and fuzzing starts again without it, got %q", w)
		}
		if name != "seed#0" && name != "seed#2" {
			if name == cachedName {
				t.Errorf("the cached entry's reproducer is %s, the entry itself: want its input minimized (the prefix), another name", name)
			}
			name = cachedName // left out by the entry's own name
		}
		order = append(order, name)
	}
	if !slices.Contains(order, "seed#0") || !slices.Contains(order, "seed#2") || !slices.Contains(order, cachedName) {
		t.Errorf("inputs left out %q, want seed#0, seed#2 and the cached %s", order, cachedName)
	}
	starts := 0
	for _, e := range r.events {
		if e.Type == event.Start {
			starts++
		}
	}
	all := strings.Join(order, ", ")
	if starts != 1 || r.execs == 0 || !strings.Contains(r.out, "FuzzSlowOnlyInFuzzbox starts again without "+all+", slow only in fuzzbox's binary") {
		t.Errorf("want fuzzing started once, after three starts left out %s: %d starts, %d execs\n%s", all, starts, r.execs, r)
	}
	if names := r.reproducers("FuzzSlowOnlyInFuzzbox"); len(names) != 0 {
		t.Errorf("reproducers left in testdata: %q", names)
	}
	r.doneFoundNothing(t)
	var sum bytes.Buffer
	r.res.WriteSummary(&sum)
	if !strings.Contains(sum.String(), "execs, without "+all+" (slower than -timeout only in fuzzbox's binary)") {
		t.Errorf("the summary does not say the fuzz test was fuzzed without its slow inputs:\n%s", sum.String())
	}
}

// TestFuzzingGoesOnAfterASlowInput: a slow input found while fuzzing (not a
// seed) that go test runs within -timeout is set aside, and fuzzing goes on
// in a new fuzzing process, as go test -fuzz goes on past it, at most
// maxResumes times; a slow seed is left out before fuzzing
// (TestSlowSeedsLeftOut).
func TestFuzzingGoesOnAfterASlowInput(t *testing.T) {
	r := fuzzFixture(t, "fuzzboxonly", Config{Fuzz: "^FuzzSlowWhileFuzzing$", Run: "^$", FuzzTime: "60s", Timeout: time.Second}, "./slow")
	r.slowInputsOnly(t)
	starts := 0
	for _, e := range r.events {
		if e.Type == event.Start {
			starts++
		}
	}
	if starts < 2 || starts > 1+maxResumes || !strings.Contains(r.out, "goes on without the input set aside") || len(r.warnings) < starts-1 {
		t.Errorf("want fuzzing started again after each slow input (2 to %d starts), got %d starts, %d warnings\n%s", 1+maxResumes, starts, len(r.warnings), r)
	}
	if names := r.reproducers("FuzzSlowWhileFuzzing"); len(names) != 0 {
		t.Errorf("reproducers left in testdata: %q", names)
	}
	r.doneFoundNothing(t)
}

// slowInputsOnly checks that a run whose only failures were slow inputs go
// test runs within -timeout exits 0 and reports no failure or internal
// error.
func (r *fixtureRun) slowInputsOnly(t *testing.T) {
	t.Helper()
	if r.res.ExitCode != ExitOK {
		t.Errorf("want exit 0: go test runs every input within the timeout\n%s", r)
	}
	for _, m := range append(r.failures, r.internal...) {
		t.Errorf("reported as a failure or an internal error: %s", m)
	}
}

// doneFoundNothing checks that the done events count no failure: an input
// go test passes, set aside, is not one.
func (r *fixtureRun) doneFoundNothing(t *testing.T) {
	t.Helper()
	done := 0
	for _, e := range r.events {
		if e.Type != event.Done {
			continue
		}
		done++
		if e.Failures != 0 || e.Found {
			t.Errorf("the done event counts the input set aside: failures %d, found %v", e.Failures, e.Found)
		}
	}
	if done == 0 {
		t.Errorf("no done event\n%s", r)
	}
}

// TestFlakyTestBeforeFuzzing: a test that fails once in fuzzbox's binary,
// then passes under go test and again in fuzzbox's binary, is flaky: a
// warning, not an internal error, and fuzzing goes on without it.
func TestFlakyTestBeforeFuzzing(t *testing.T) {
	r := flakyRun(t, "^FuzzAfterFlaky$", "./flaky", "TestFailsOnce failed before fuzzing")
	// Every test ran in the first start: the second runs none of them again.
	if runs, err := os.ReadFile(filepath.Join(r.dir, "flaky", "passes.marker")); err != nil || string(runs) != "ran\n" {
		t.Errorf("TestPasses ran %q (%v), want once: it passed in the first start\n%s", runs, err, r)
	}
}

// TestFlakyCrashBeforeFuzzing: a flaky test that crashes the binary once
// from a goroutine that is no test's (pion/ice's TestUnspecifiedUDPMux, whose
// watchdog panicked under load) is re-run in fuzzbox's binary as a named
// failing test is: it passes, so it is a flaky test, not fuzzbox's
// internal error.
func TestFlakyCrashBeforeFuzzing(t *testing.T) {
	flakyRun(t, "^FuzzAfterFlakyCrash$", "./flakycrash", "the package's tests failed before fuzzing")
}

// flakyRun fuzzes fuzz 200 times in the fuzzboxonly fixture's package dir,
// whose tests are flaky: it wants exit 0, no internal error or failure, a
// flaky-test warning saying what failed, and the fuzzing after it.
func flakyRun(t *testing.T, fuzz, dir, what string) *fixtureRun {
	t.Helper()
	r := fuzzFixture(t, "fuzzboxonly", Config{Fuzz: fuzz, FuzzTime: "200x"}, dir)
	if r.res.ExitCode != ExitOK {
		t.Errorf("want exit 0\n%s", r)
	}
	for _, m := range append(r.internal, r.failures...) {
		t.Errorf("an internal error or failure for a flaky test: %s", m)
	}
	warned := false
	for _, m := range r.warnings {
		warned = warned || strings.Contains(m, what) && strings.Contains(m, "a flaky test")
	}
	if !warned || r.execs < 200 {
		t.Errorf("want a flaky-test warning and fuzzing after it (%d executions)\n%s", r.execs, r)
	}
	return r
}

// TestFuzzTestCallsExit0: go test runs a test binary with -test.paniconexit0,
// so a test calling os.Exit(0) fails instead of ending the run as a pass.
// fuzzbox's binary once exited 0 there: nothing fuzzed, nothing said.
func TestFuzzTestCallsExit0(t *testing.T) {
	r := fuzzFixture(t, "exit0", Config{Fuzz: "^FuzzAfterExit$", FuzzTime: "100x"}, ".")
	if r.res.ExitCode != ExitFailure || !strings.Contains(r.text, "unexpected call to os.Exit(0) during test") ||
		!strings.Contains(r.text, "TestExitsZero failed under go test too") {
		t.Errorf("want exit 1, the panic go test reports, and the failure checked with go test\n%s", r)
	}
}

// TestFuzzTestLogsLate: a goroutine a test started logs through its T
// after all tests returned, as fuzzing starts. go test -fuzz fails
// (testing's panic), and so does fuzzbox, saying why: the user's failure,
// not a TestMain's exit code, a flaky test or fuzzbox's internal error.
// (Before fuzzing, go test -run=TestLogsLate would pass, its process
// exiting first: TestPrefuzzWatchLateCall.)
func TestFuzzTestLogsLate(t *testing.T) {
	r := fuzzFixture(t, "exit0", Config{Fuzz: "^FuzzAfterLateLog$", FuzzTime: "2s"}, "./latelog")
	const why = "a goroutine TestLogsLate started used a *testing.T after its test returned: Log in goroutine after TestLogsLate has completed: shutting down"
	if r.res.ExitCode != ExitFailure || !strings.Contains(r.text, "panic: Log in goroutine after TestLogsLate has completed: shutting down") ||
		!strings.Contains(r.text, why) {
		t.Errorf("want exit 1, testing's panic and why\n%s", r)
	}
	if len(r.internal) > 0 || len(r.warnings) > 0 || len(r.failures) > 0 {
		t.Errorf("want no internal error, no flaky-test warning, no failure of the fuzz test\n%s", r)
	}
}

// TestFuzzTestMainWithoutRun: a TestMain that never calls m.Run lists no
// test and fuzzes nothing; the driver says why (ExitError) instead of
// reporting a clean run or that -fuzz matches nothing.
func TestFuzzTestMainWithoutRun(t *testing.T) {
	r := fuzzFixture(t, "exit0", Config{Fuzz: "^FuzzNeverRuns$", FuzzTime: "100x"}, "./nomrun")
	if r.res.ExitCode != ExitError || r.res.Err == nil || !strings.Contains(r.res.Err.Error(), "lists no fuzz test matching -fuzz=^FuzzNeverRuns$, though its source declares FuzzNeverRuns: does a TestMain return without calling m.Run?") {
		t.Errorf("want ExitError and the reason, got %v\n%s", r.res.Err, r)
	}
}

// TestFuzzTestMainExitsAfterRun: a TestMain that exits non-zero after
// m.Run (a check of its own; here always) does so when listing the tests
// too: the fuzz test is fuzzed, and the run fails after, as under go test
// -fuzz (before, listing failed: exit 2, nothing fuzzed).
func TestFuzzTestMainExitsAfterRun(t *testing.T) {
	dir := t.TempDir()
	writeTestFiles(t, dir, map[string]string{
		"go.mod": "module example.com/tm\n\ngo 1.26\n",
		"tm_test.go": `package tm

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	m.Run()
	os.Exit(3)
}

func FuzzX(f *testing.F) { f.Fuzz(func(t *testing.T, b []byte) {}) }
`})
	r := fuzzIn(t, dir, Config{Fuzz: "^FuzzX$", FuzzTime: "2000x", Fuzzbox: testFuzzbox(t)}, ".")
	if r.res.ExitCode != ExitFailure || r.execs == 0 || !strings.Contains(r.text, "exited (exit status 3) after fuzzing FuzzX without a failure") {
		t.Errorf("want FuzzX fuzzed, then exit 1 and why\n%s", r)
	}
}

// TestFuzzTestMainChecksGoroutines: a TestMain that fails on goroutines
// left running after m.Run (goleak.VerifyTestMain's check, x/net quic's
// wait) passes after fuzzing, as under go test -fuzz: the engine leaves
// none of its own (startWorker's stayed for the life of the process).
func TestFuzzTestMainChecksGoroutines(t *testing.T) {
	dir := t.TempDir()
	writeTestFiles(t, dir, map[string]string{
		"go.mod": "module example.com/gl\n\ngo 1.26\n",
		"gl_test.go": `package gl

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	code := m.Run()
	var left []string
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		buf := make([]byte, 1<<20)
		left = nil
		for _, g := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n")[1:] {
			if strings.Contains(g, "fuzzbox") {
				left = append(left, g)
			}
		}
		if len(left) == 0 || time.Now().After(deadline) {
			break
		}
	}
	if len(left) > 0 {
		fmt.Printf("leaked goroutines:\n%s\n", strings.Join(left, "\n\n"))
		code = 1
	}
	os.Exit(code)
}

func FuzzX(f *testing.F) { f.Fuzz(func(t *testing.T, b []byte) {}) }
`})
	r := fuzzIn(t, dir, Config{Fuzz: "^FuzzX$", FuzzTime: "2000x", Fuzzbox: testFuzzbox(t)}, ".")
	if r.res.ExitCode != ExitOK || r.execs == 0 || strings.Contains(r.text, "leaked goroutines") {
		t.Errorf("want FuzzX fuzzed and no goroutine of fuzzbox's left after m.Run\n%s", r)
	}
}

// TestFuzzInitPanics: a package whose initialization panics (here on a
// missing environment variable) fails the run with the panic and its stack,
// which says where, as go test shows it; not its first line alone with a
// guess about a TestMain's flags.
func TestFuzzInitPanics(t *testing.T) {
	dir := t.TempDir()
	writeTestFiles(t, dir, map[string]string{
		"go.mod": "module example.com/ip\n\ngo 1.26\n",
		"ip.go": `package ip

import "os"

var cfg = mustLoad()

func mustLoad() string {
	v, ok := os.LookupEnv("FUZZBOX_TEST_UNSET")
	if !ok {
		panic("FUZZBOX_TEST_UNSET is not set")
	}
	return v
}
`,
		"ip_test.go": `package ip

import "testing"

func FuzzX(f *testing.F) { f.Fuzz(func(t *testing.T, s string) { _ = cfg + s }) }
`})
	r := fuzzIn(t, dir, Config{Fuzz: "^FuzzX$", FuzzTime: "100x", Fuzzbox: testFuzzbox(t)}, ".")
	if r.res.Err == nil {
		t.Fatalf("want the listing's error, got none\n%s", r)
	}
	msg := r.res.Err.Error()
	for _, want := range []string{"listing the fuzz tests of the fuzzing binary of example.com/ip: exit status 2:",
		"panic: FUZZBOX_TEST_UNSET is not set", "example.com/ip.init()", filepath.Join(dir, "ip.go") + ":5"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "TestMain") || r.res.ExitCode != ExitError {
		t.Errorf("want ExitError without the TestMain hint, got %d:\n%s", r.res.ExitCode, msg)
	}
}

// TestFuzzTestChangesDirectory: a fuzz test that calls f.Chdir before
// f.Fuzz has its reproducer written under the new directory, where go test
// -run finds it too (go test -fuzz writes it there as well). The failure
// names that file relative to the package directory, and the driver's check
// with go test replays it (before, the check looked in the package's
// testdata/fuzz, could not replay it and reported it unchecked).
func TestFuzzTestChangesDirectory(t *testing.T) {
	dir := t.TempDir()
	writeTestFiles(t, dir, map[string]string{
		"go.mod":          "module example.com/cd\n\ngo 1.26\n",
		"sub/fixture.txt": "the directory the fuzz test works in\n",
		"cd_test.go": `package cd

import (
	"os"
	"testing"
)

func FuzzChdir(f *testing.F) {
	f.Chdir("sub")
	f.Add("a")
	f.Fuzz(func(t *testing.T, s string) {
		if _, err := os.Stat("fixture.txt"); err != nil {
			t.Skip(err)
		}
		if len(s) >= 3 {
			t.Fatal("three")
		}
	})
}
`})
	r := fuzzIn(t, dir, Config{Fuzz: "^FuzzChdir$", FuzzTime: "20s", Fuzzbox: testFuzzbox(t)}, ".")
	var rep string
	for _, e := range r.events {
		if e.Type == event.Failure {
			rep = e.Reproducer
		}
	}
	want := filepath.Join("sub", "testdata", "fuzz", "FuzzChdir") + string(filepath.Separator)
	if r.res.ExitCode != ExitFailure || !strings.HasPrefix(rep, want) {
		t.Fatalf("want exit 1 and a reproducer under %s, got %q\n%s", want, rep, r)
	}
	if _, err := os.Stat(filepath.Join(dir, rep)); err != nil {
		t.Errorf("the reproducer is not where the failure says: %v\n%s", err, r)
	}
	if strings.Contains(r.text, "could not replay") || len(r.internal) > 0 {
		t.Errorf("want the reproducer replayed with go test\n%s", r)
	}
}

// TestFuzzTestSetupFailsInWorkers: a fuzz test whose code before f.Fuzz
// succeeds once at a time (it makes a fixed directory, removed by its
// cleanup) fails in every worker process, which runs it again while the
// first process fuzzes. That is the fuzz test's failure (go test -fuzz
// fails too), not an internal error of fuzzbox's (as the f.Fatal's exit
// status 70 was reported) nor a seed's (as the panic was, refuted by go
// test and then called fuzzbox's bug).
func TestFuzzTestSetupFailsInWorkers(t *testing.T) {
	for _, fail := range []string{"f.Fatal(err)", "panic(err)"} {
		dir := t.TempDir()
		writeTestFiles(t, dir, map[string]string{
			"go.mod": "module example.com/sf\n\ngo 1.26\n",
			"sf_test.go": `package sf

import (
	"os"
	"testing"
)

func FuzzSetup(f *testing.F) {
	if err := os.Mkdir("out", 0o777); err != nil {
		` + fail + `
	}
	f.Cleanup(func() { os.Remove("out") })
	f.Add("a")
	f.Fuzz(func(t *testing.T, s string) {})
}
`})
		r := fuzzIn(t, dir, Config{Fuzz: "^FuzzSetup$", FuzzTime: "5s", Fuzzbox: testFuzzbox(t)}, ".")
		var why string
		for _, e := range r.events {
			if e.Type == event.Done && e.StartFailed != "" {
				why = e.StartFailed
			}
		}
		if r.res.ExitCode != ExitFailure || !strings.Contains(why, "FuzzSetup's code before f.Fuzz failed in a fuzzing worker process") {
			t.Errorf("%s: want exit 1 and the done event's start_failed, got %q\n%s", fail, why, r)
		}
		if fail == "panic(err)" && !strings.Contains(why, "mkdir out: file exists") {
			t.Errorf("%s: want the worker's panic in start_failed, got %q", fail, why)
		}
		if len(r.internal) > 0 || len(r.failures) > 0 || strings.Contains(r.text, "without a failure") {
			t.Errorf("%s: want no internal error, no failure of an input, no guess at why the binary failed\n%s", fail, r)
		}
		if _, err := os.Stat(filepath.Join(dir, "testdata")); err == nil {
			t.Errorf("%s: something was written to testdata\n%s", fail, r)
		}
	}
}

// TestTestMainFailsInWorkers: a TestMain that fails in the worker
// processes (a fixed port, as go-tarantool's helpers listen on) is named
// with the fuzz test's setup as what failed: it runs in each worker too (the
// report blamed the fuzz test's code before f.Fuzz alone, which had none).
func TestTestMainFailsInWorkers(t *testing.T) {
	dir := t.TempDir()
	writeTestFiles(t, dir, map[string]string{
		"go.mod": "module example.com/tm\n\ngo 1.26\n",
		"tm_test.go": `package tm

import (
	"fmt"
	"net"
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err == nil {
		ln.Close()
		ln, err = net.Listen("tcp", os.Getenv("TM_ADDR"))
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "TestMain:", err)
		os.Exit(1)
	}
	code := m.Run()
	ln.Close()
	os.Exit(code)
}

func FuzzParse(f *testing.F) {
	f.Add("x")
	f.Fuzz(func(t *testing.T, s string) {})
}
`})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skip(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	t.Setenv("TM_ADDR", addr)
	r := fuzzIn(t, dir, Config{Fuzz: "^FuzzParse$", FuzzTime: "5s", Fuzzbox: testFuzzbox(t)}, ".")
	var why string
	for _, e := range r.events {
		if e.Type == event.Done && e.StartFailed != "" {
			why = e.StartFailed
		}
	}
	if r.res.ExitCode != ExitFailure || !strings.Contains(why, "TestMain, or FuzzParse's code before f.Fuzz, failed in a fuzzing worker process") || !strings.Contains(why, "address already in use") {
		t.Errorf("want exit 1 and start_failed naming TestMain, got %q\n%s", why, r)
	}
}

// TestFuzzSeedNameWithSpace: a failing seed file whose name has a space
// is the user's failure, as under go test: the driver's check with go test
// ran -run='^FuzzX$/^bad seed$', which the testing package rewrites (the
// space to an underscore) so that it matched nothing and passed; the seed
// was called fuzzbox's bug and the fuzz test not fuzzed (exit 2).
func TestFuzzSeedNameWithSpace(t *testing.T) {
	dir := t.TempDir()
	writeTestFiles(t, dir, map[string]string{
		"go.mod":                       "module example.com/ss\n\ngo 1.26\n",
		"testdata/fuzz/FuzzX/bad seed": "go test fuzz v1\nstring(\"bad\")\n",
		"ss_test.go": `package ss

import "testing"

func FuzzX(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		if s == "bad" {
			panic("bad seed")
		}
	})
}
`})
	r := fuzzIn(t, dir, Config{Fuzz: "^FuzzX$", FuzzTime: "100x", Fuzzbox: testFuzzbox(t)}, ".")
	if r.res.ExitCode != ExitFailure || len(r.internal) > 0 || len(r.failures) != 1 {
		t.Errorf("want exit 1 and the seed's failure, no internal error\n%s", r)
	}
}

// TestFuzzSkipsItself: a fuzz test that calls f.Skip passes without fuzzing
// under go test -fuzz; the driver says so and exits 0, unlike a binary that
// never ran (TestFuzzTestMainWithoutRun).
func TestFuzzSkipsItself(t *testing.T) {
	r := fuzzFixture(t, "exit0", Config{Fuzz: "^FuzzSkipped$", FuzzTime: "100x"}, "./skipped")
	if r.res.ExitCode != ExitOK || !strings.Contains(r.text, "FuzzSkipped was not fuzzed: it skipped itself (f.Skip)") {
		t.Errorf("want exit 0 and the reason\n%s", r)
	}
	// One that -skip leaves out passes too, and is said so.
	r = fuzzFixture(t, "exit0", Config{Fuzz: "^FuzzSkipped$", Skip: "^FuzzSkipped$", FuzzTime: "100x"}, "./skipped")
	if r.res.ExitCode != ExitOK || !strings.Contains(r.text, "FuzzSkipped was not fuzzed: -skip leaves it out") {
		t.Errorf("-skip: want exit 0 and the reason\n%s", r)
	}
}

// TestFuzzTestsFailBeforeFuzzing: when the package's tests fail before the
// engine starts (here a seed of another fuzz test exits the process, which
// prints nothing), the driver checks with go test, which fails too, and says
// so instead of exiting 1 in silence.
func TestFuzzTestsFailBeforeFuzzing(t *testing.T) {
	dir := targetsModule(t)
	seeds := filepath.Join(dir, "testdata", "fuzz", "FuzzExit")
	if err := os.MkdirAll(seeds, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(seeds, "exits"), []byte("go test fuzz v1\n[]byte(\"E\")\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	cfg := Config{Fuzz: "^FuzzNever$", FuzzTime: "5s", Fuzzbox: testFuzzbox(t)}
	r := fuzzIn(t, dir, cfg, ".")
	if r.res.ExitCode != ExitFailure || !strings.Contains(r.text, "(exit status 3) before fuzzing FuzzNever started") ||
		!strings.Contains(r.text, "the package's tests failed under go test too (go test -run='' in ") {
		t.Errorf("want exit 1 and the reason, checked with go test\n%s", r)
	}
	if len(r.internal) > 0 || strings.Contains(r.text, "internal error") {
		t.Errorf("a failure go test has too was called fuzzbox's\n%s", r)
	}
	cfg.Run, cfg.FuzzTime = "^$", "2s"
	if r = fuzzIn(t, dir, cfg, "."); r.res.ExitCode != ExitOK {
		t.Errorf("with Run ^$ the other fuzz test's seeds do not run: want exit 0\n%s", r)
	}
}

// TestResumeTime: the turn after one set aside gets what is left of
// -fuzztime, counting fuzzing up to the failure's catch, not its timeout's
// wait, minimization and re-runs after it (levenshtein's slow input was
// caught at 11.8 s of a 20-s run, and the turn ended at 32 s); after a turn
// that left out inputs before fuzzing, all of it.
func TestResumeTime(t *testing.T) {
	caught := &TargetResult{next: resume, startedAt: 1023, caughtAt: 12833, fuzzedFor: 32 * time.Second, turnExecs: 800}
	for _, c := range []struct {
		r        *TargetResult
		fuzztime string
		want     string
		ok       bool
	}{
		{caught, "20s", "8.19s", true},
		{caught, "12s", "", false}, // under a second left
		{&TargetResult{next: resume, startedAt: 900, fuzzedFor: 5 * time.Second}, "20s", "15s", true},
		// Inputs left out before fuzzing started: the baseline's executions
		// and time are not fuzzing (image/gif's at -fuzztime=1x).
		{&TargetResult{next: restartWithout, turnExecs: 2}, "1x", "1x", true},
		{&TargetResult{next: restartWithout, turnExecs: 2}, "20s", "20s", true},
		{caught, "1000x", "200x", true},
		{caught, "800x", "", false},
		{caught, "", "", true},                                    // until stopped
		{&TargetResult{fuzzedFor: time.Second}, "20s", "", false}, // not set aside: a finding, or the budget's end
	} {
		got, ok := resumeTime(c.fuzztime, c.r)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("resumeTime(%q, %+v) = %q, %v; want %q, %v", c.fuzztime, *c.r, got, ok, c.want, c.ok)
		}
	}
}

// TestStateAcrossCalls: a fuzz function whose second call in a process
// hangs (a lock it leaves held, as buf.build/go/hyperpb's FuzzScalars
// leaves its arena's) fails every input of the baseline, and no re-run
// alone in a fresh worker: the run's warning says what that points to, not
// to give it a longer -fuzztime, which helps nothing there.
func TestStateAcrossCalls(t *testing.T) {
	dir := t.TempDir()
	writeTestFiles(t, dir, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.26\n",
		"m_test.go": "package m\n\nimport (\n\t\"sync\"\n\t\"testing\"\n)\n\nvar mu sync.Mutex\n\n" +
			"func FuzzSecondCall(f *testing.F) {\n\tf.Add([]byte(\"a\"))\n\tf.Add([]byte(\"bb\"))\n\tf.Fuzz(func(t *testing.T, b []byte) { mu.Lock() })\n}\n",
	})
	r := fuzzIn(t, dir, Config{Fuzz: "^FuzzSecondCall$", FuzzTime: "1500ms", Timeout: time.Second, Fuzzbox: testFuzzbox(t)}, ".")
	if r.res.ExitCode != ExitOK || len(r.failures) > 0 {
		t.Fatalf("want the hangs flaky, nothing reported:\n%s", r)
	}
	if !slices.ContainsFunc(r.warnings, func(w string) bool {
		return strings.Contains(w, "nothing was fuzzed") && strings.Contains(w, "does the fuzz function keep state from one call to the next") && !strings.Contains(w, "longer -fuzztime")
	}) {
		t.Errorf("warnings %q: want the unfuzzed run's to point to state kept across calls", r.warnings)
	}
}
