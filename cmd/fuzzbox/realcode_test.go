package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Real code must run in fuzzbox's fuzzing binary as it runs under go test.
// testdata/fuzz/realcode holds patterns from public modules' own tests that
// fuzzbox's binary once broke.

// TestRealCodeRangeAcrossStackGrowth: comparison hooks that could grow the
// stack, called by a range loop's condition while the loop's element pointer
// lives as a uintptr, left go-toml's TestDecodeError reading a freed stack
// (a fault, blamed on the user's tests). The fixture fails before the fix.
func TestRealCodeRangeAcrossStackGrowth(t *testing.T) {
	dir := e2eModule(t, "realcode")
	r := e2eFuzz(t, dir, "-run=^TestRangeAcrossStackGrowth$", "-fuzz=^FuzzRealCode$", "-fuzztime=200x", ".")
	if r.code != 0 || !strings.Contains(r.stdout, "PASS") {
		t.Fatalf("want the test to pass and fuzzing to end with nothing found, as under go test\n%s", r)
	}
}

// TestFuzzboxOnlyFailureIsNotBlamed: a test that fails (t.Fatal) and one that
// crashes (a fatal error) only in fuzzbox's binary, as go-toml's did, and
// then another fuzz test's seed that panics only there, are checked with
// stock go test, which passes them: fuzzbox reports its own internal errors,
// writes nothing, and fuzzes without them.
func TestFuzzboxOnlyFailureIsNotBlamed(t *testing.T) {
	dir := e2eModule(t, "fuzzboxonly")
	r := e2eFuzz(t, dir, "-json", "-fuzz=^FuzzFine$", "-fuzztime=300x", ".")
	if r.code != 0 {
		t.Errorf("want exit 0: the package's tests pass under go test and fuzzing found nothing\n%s", r)
	}
	tally := e2eTallyEvents(t, r.stdout)
	internal, blamed, fuzzed := tally.internal, tally.failures, tally.execs
	// The first start fails the two tests; the second, without them, the
	// seeds of the package's other fuzz test, which fail only in fuzzbox's
	// binary too; the third fuzzes.
	if len(internal) != 2 || !strings.Contains(internal[0], "TestFailsOnlyInFuzzbox, TestCrashesOnlyInFuzzbox") ||
		!strings.Contains(internal[0], "not in your code") || !strings.Contains(internal[0], "fatal error: sync: unlock of unlocked mutex") ||
		!strings.Contains(internal[1], "failed FuzzPanicsOnlyInFuzzbox before fuzzing") || !strings.Contains(internal[1], "panic: only in fuzzbox's binary") {
		t.Errorf("want two internal errors, naming the two tests and quoting the crash, then the other fuzz test; got %q\n%s", internal, r)
	}
	if len(blamed) > 0 || strings.Contains(r.stdout, "a test or seed input of the package failed") {
		t.Errorf("the package was blamed: %q\n%s", blamed, r)
	}
	if fuzzed < 300 {
		t.Errorf("fuzzing did not go on without the two tests: %d executions\n%s", fuzzed, r)
	}
	if names := e2eReproducers(t, dir, "FuzzFine"); len(names) != 0 {
		t.Errorf("reproducers written: %q", names)
	}
}

// TestFuzzboxOnlyFindingIsNotWritten: an input that fails in fuzzbox's binary
// (in its fresh workers too) but not under stock go test is not reported as
// the code's failure: the reproducer is moved out of testdata/ to the cache,
// an internal error says so, and the run exits 0.
func TestFuzzboxOnlyFindingIsNotWritten(t *testing.T) {
	dir := e2eModule(t, "fuzzboxonly")
	r := e2eFuzz(t, dir, "-json", "-run=^$", "-fuzz=^FuzzPanicsOnlyInFuzzbox$", "-fuzztime=20s", ".")
	if r.code != 0 {
		t.Errorf("want exit 0: go test passes every input\n%s", r)
	}
	tally := e2eTallyEvents(t, r.stdout)
	internal := tally.internal
	for _, m := range tally.failures {
		t.Errorf("reported as a failure of the code: %s", m)
	}
	if len(internal) != 1 || !strings.Contains(internal[0], "go test -run='^FuzzPanicsOnlyInFuzzbox$/^") || !strings.Contains(internal[0], "passes it") {
		t.Fatalf("want one internal error saying go test passes the input, got %q\n%s", internal, r)
	}
	if names := e2eReproducers(t, dir, "FuzzPanicsOnlyInFuzzbox"); len(names) != 0 {
		t.Errorf("reproducers left in testdata: %q", names)
	}
	if _, err := os.Stat(filepath.Join(dir, "testdata")); err == nil {
		t.Errorf("testdata/ made by the engine for the reproducer was left behind")
	}
	kept, _ := filepath.Glob(filepath.Join(dir, ".cache", "unreproduced", "FuzzPanicsOnlyInFuzzbox", "*"))
	if len(kept) != 1 {
		t.Errorf("want the input kept under the cache's unreproduced/, found %q", kept)
	}
}

// TestFuzzTestCallsExit0: go test runs a test binary with -test.paniconexit0,
// so a test calling os.Exit(0) fails instead of ending the run as a pass.
// fuzzbox's binary once exited 0 there: nothing fuzzed, nothing said.
func TestFuzzTestCallsExit0(t *testing.T) {
	dir := e2eModule(t, "exit0")
	r := e2eFuzz(t, dir, "-fuzz=^FuzzAfterExit$", "-fuzztime=100x", ".")
	if r.code != 1 || !strings.Contains(r.stdout+r.stderr, "unexpected call to os.Exit(0) during test") ||
		!strings.Contains(r.stdout, "TestExitsZero failed under go test too") {
		t.Errorf("want exit 1, the panic go test reports, and the failure checked with go test\n%s", r)
	}
}

// TestFuzzTestMainWithoutRun: a TestMain that never calls m.Run lists no
// test and fuzzes nothing; fuzzbox says why (exit 2) instead of reporting a
// clean run or that -fuzz matches nothing.
func TestFuzzTestMainWithoutRun(t *testing.T) {
	dir := e2eModule(t, "exit0")
	r := e2eFuzz(t, dir, "-fuzz=^FuzzNeverRuns$", "-fuzztime=100x", "./nomrun")
	if r.code != 2 || !strings.Contains(r.stdout+r.stderr, "lists no fuzz test matching -fuzz=^FuzzNeverRuns$, though its source declares FuzzNeverRuns: does a TestMain return without calling m.Run?") {
		t.Errorf("want exit 2 and the reason\n%s", r)
	}
}

// TestFuzzSkipsItself: a fuzz test that calls f.Skip passes without fuzzing
// under go test -fuzz; fuzzbox says so and exits 0, unlike a binary that
// never ran (TestFuzzTestMainWithoutRun).
func TestFuzzSkipsItself(t *testing.T) {
	dir := e2eModule(t, "exit0")
	r := e2eFuzz(t, dir, "-fuzz=^FuzzSkipped$", "-fuzztime=100x", "./skipped")
	if r.code != 0 || !strings.Contains(r.stdout, "FuzzSkipped was not fuzzed: it skipped itself (f.Skip)") {
		t.Errorf("want exit 0 and the reason\n%s", r)
	}
}

// TestFlakyTestBeforeFuzzing: a test that fails once in fuzzbox's binary,
// then passes under go test and again in fuzzbox's binary, is flaky: a
// warning, not an internal error, and fuzzing goes on without it.
func TestFlakyTestBeforeFuzzing(t *testing.T) {
	dir := e2eModule(t, "fuzzboxonly")
	r := e2eFuzz(t, dir, "-json", "-fuzz=^FuzzAfterFlaky$", "-fuzztime=200x", "./flaky")
	if r.code != 0 {
		t.Errorf("want exit 0\n%s", r)
	}
	tally := e2eTallyEvents(t, r.stdout)
	for _, m := range append(tally.internal, tally.failures...) {
		t.Errorf("an internal error or failure for a flaky test: %s", m)
	}
	warned, execs := false, tally.execs
	for _, m := range tally.warnings {
		warned = warned || strings.Contains(m, "TestFailsOnce failed before fuzzing") && strings.Contains(m, "a flaky test")
	}
	if !warned || execs < 200 {
		t.Errorf("want a flaky-test warning and fuzzing after it (%d executions)\n%s", execs, r)
	}
}

// e2eTally is what a -json run reported: the messages of its internal_error,
// failure and warning events, and the executions of its done events.
type e2eTally struct {
	internal, failures, warnings []string
	execs                        int64
}

func e2eTallyEvents(t *testing.T, stdout string) e2eTally {
	t.Helper()
	var tl e2eTally
	for _, e := range e2eEvents(t, stdout) {
		switch e.Type {
		case "internal_error":
			tl.internal = append(tl.internal, e.Message)
		case "failure":
			tl.failures = append(tl.failures, e.Message)
		case "warning":
			tl.warnings = append(tl.warnings, e.Message)
		case "done":
			tl.execs += e.Execs
		}
	}
	return tl
}

// TestRealCodeNosplitDependency: a dependency's go:nosplit function whose
// frame nearly fills the nosplit budget (github.com/pjbgf/sha1cd/ubc's, which
// go-git's tests link) left no room for fuzzbox's nosplit comparison hooks:
// the link failed. fuzzbox compiles that package without instrumentation,
// says so, and fuzzes.
func TestRealCodeNosplitDependency(t *testing.T) {
	dir := e2eModule(t, "realcode")
	r := e2eFuzz(t, dir, "-fuzz=^FuzzMask$", "-fuzztime=200x", "./nosplit")
	if r.code != 0 || !strings.Contains(r.stdout+r.stderr, "compiling example.com/realcode/nosplit/mask without coverage instrumentation: its go:nosplit function example.com/realcode/nosplit/mask.Mask") {
		t.Errorf("want the dependency left uninstrumented, said so, and a clean run\n%s", r)
	}
}

// TestRealCodeTaggedFuzzTest: a fuzz test in a file behind a build tag is
// found with -tags (fuzzbox listed the package's files without the tags and
// said "no fuzz tests").
func TestRealCodeTaggedFuzzTest(t *testing.T) {
	dir := e2eModule(t, "realcode")
	r := e2eFuzz(t, dir, "-tags=fuzztag", "-fuzz=^FuzzHalf$", "-fuzztime=100x", "./tagged")
	if r.code != 0 || !strings.Contains(r.stdout, "PASS") {
		t.Errorf("want a clean run of the tagged fuzz test\n%s", r)
	}
}
