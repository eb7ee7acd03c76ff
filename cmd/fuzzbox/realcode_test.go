package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Real code must run in fuzzbox's fuzzing binary as it runs under go test.
// testdata/fuzz/realcode holds patterns from public modules' own tests that
// fuzzbox's binary once broke. (The driver's checks of failures with stock go
// test, on the fuzzboxonly and exit0 fixtures, are driver/checks_test.go.)

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
	// go test -fuzz's last line, which scripts look for.
	if !regexp.MustCompile(`\nok  \texample\.com/realcode\t\d+\.\d{3}s\n$`).MatchString(r.stdout) {
		t.Errorf("want go test's \"ok  \\texample.com/realcode\\t<seconds>s\" as the last line\n%s", r)
	}
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

// TestRealCodeBigSeed: a seed of 5 MiB, over the 4 MiB a worker's shared
// memory once held, was never run while fuzzing (the worker ran the input
// before it, or reported an "empty input" internal error), so with -run
// leaving the fuzz test out of the tests, its failure was missed where go
// test -fuzz reports it. It is reported as go test reports a failing seed:
// against the entry, not minimized (which took the whole
// -fuzzminimizetime), nothing written.
func TestRealCodeBigSeed(t *testing.T) {
	dir := e2eModule(t, "realcode")
	r := e2eFuzz(t, dir, "-run=^$", "-fuzz=^FuzzBigSeed$", "-fuzztime=100x", ".")
	if r.code != 1 || !strings.Contains(r.stdout, "failure while testing seed corpus entry: FuzzBigSeed/seed#1") ||
		!strings.Contains(r.stdout, "big input: 5242880 bytes") || strings.Contains(r.stdout+r.stderr, "internal error") {
		t.Errorf("want the big seed's failure reported as go test -fuzz reports it\n%s", r)
	}
	if !regexp.MustCompile(`\nFAIL\nFAIL\texample\.com/realcode\t\d+\.\d{3}s\n$`).MatchString(r.stdout) {
		t.Errorf("want go test's \"FAIL\\texample.com/realcode\\t<seconds>s\" as the last line\n%s", r)
	}
	if _, err := os.Stat(filepath.Join(dir, "testdata", "fuzz", "FuzzBigSeed")); err == nil {
		t.Errorf("a reproducer was written for a failing seed\n%s", r)
	}
	// A failure fuzzing finds on a big input is minimized; 4 s of it hold a
	// statistics tick (every 3 s): go test's line, not executions that do
	// not move.
	r = e2eFuzz(t, dir, "-run=^$", "-fuzz=^FuzzBigFound$", "-fuzztime=20s", "-fuzzminimizetime=4s", ".")
	if r.code != 1 || !strings.Contains(r.stdout, "big input that is not all zeros") {
		t.Errorf("want FuzzBigFound's failure found\n%s", r)
	}
	if !regexp.MustCompile(`(?m)^fuzz: elapsed: \d+s, minimizing$`).MatchString(r.stdout) {
		t.Errorf("no \"minimizing\" status line while the failure was minimized\n%s", r)
	}
}

// TestRealCodeStrayGoroutine: a goroutine an input starts panics after the
// fuzz function returned. fuzzbox reports it with that input (go test -fuzz
// writes the input running at the death), says so, and exits 1 without
// calling the failure its own, whether go test's replay, whose process may
// end first, fails or passes.
func TestRealCodeStrayGoroutine(t *testing.T) {
	dir := e2eModule(t, "realcode")
	r := e2eFuzz(t, dir, "-run=^$", "-fuzz=^FuzzStray$", "-fuzztime=60s", ".")
	if r.code != 1 || !strings.Contains(r.stdout, "after the fuzz function returned, on a goroutine the input started") ||
		strings.Contains(r.stdout+r.stderr, "internal error") {
		t.Fatalf("want the late panic reported as a failure after the fuzz function returned\n%s", r)
	}
	ents, err := os.ReadDir(filepath.Join(dir, "testdata", "fuzz", "FuzzStray"))
	if err != nil || len(ents) != 1 {
		t.Fatalf("reproducers %v (%v): want one\n%s", ents, err, r)
	}
	data, err := os.ReadFile(filepath.Join(dir, "testdata", "fuzz", "FuzzStray", ents[0].Name()))
	if err != nil || !strings.HasPrefix(strings.SplitN(string(data), "\n", 3)[1], `[]byte("xy`) {
		t.Errorf("reproducer %q (%v): want the input that starts the goroutine, beginning with xy", data, err)
	}
}
