package driver

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/fuzzbox/fuzzbox/corpus"
	"github.com/fuzzbox/fuzzbox/driver/build"
	"github.com/fuzzbox/fuzzbox/event"
)

// What Fuzz makes of each kind of failure, end to end on the fuzz command's
// fixture modules (../cmd/fuzzbox/testdata/fuzz, README.md there): the
// failure's kind and message in its events, the reproducer it writes
// (minimized), that stock go test replays it, and flaky failures, the event
// types, -keepgoing, execution limits and prebuilt binaries. The command's
// own tests (cmd/fuzzbox/fuzz_test.go) check only what it adds: its flags,
// its text and -json output, its exit codes and signals.
//
// fixtureRun.out is what fuzzbox fuzz prints of one fuzz test's run on
// standard output (event.Printer): the status lines and the binary's output.

// fuzzTarget fuzzes the fuzz test name of the targets fixture with cfg, as
// fuzzbox fuzz -fuzz=^name$ does with its defaults: cfg.FuzzTime "" means
// 60 s, cfg.RSSLimitMB 0 the command's default limit.
func fuzzTarget(t *testing.T, name string, cfg Config) *fixtureRun {
	t.Helper()
	cfg.Fuzz, cfg.FuzzTime = "^"+name+"$", cmp.Or(cfg.FuzzTime, "60s")
	cfg.RSSLimitMB = cmp.Or(cfg.RSSLimitMB, DefaultRSSLimitMB)
	return fuzzFixture(t, "targets", cfg, ".")
}

// reproducerNames returns the file names in dir/testdata/fuzz/target.
func reproducerNames(t *testing.T, dir, target string) []string {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(dir, "testdata", "fuzz", target))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// readReproducer decodes a reproducer with the corpus package.
func readReproducer(t *testing.T, dir, target, name string) []any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "testdata", "fuzz", target, name))
	if err != nil {
		t.Fatal(err)
	}
	vals, err := corpus.Unmarshal(data)
	if err != nil {
		t.Fatalf("reproducer %s: %v\n%s", name, err, data)
	}
	return vals
}

// onlyReproducer checks that the run wrote exactly one reproducer and told
// how to re-run it, and returns its name.
func onlyReproducer(t *testing.T, r *fixtureRun, target string) string {
	t.Helper()
	names := reproducerNames(t, r.dir, target)
	if len(names) != 1 {
		t.Fatalf("want one reproducer in testdata/fuzz/%s, have %q\n%s", target, names, r)
	}
	for _, want := range []string{
		"Failing input written to testdata/fuzz/" + target + "/" + names[0],
		"To re-run:\n",
		"go test -run=" + target + "/" + names[0],
	} {
		if !strings.Contains(r.out, want) {
			t.Errorf("output lacks %q\n%s", want, r)
		}
	}
	return names[0]
}

// stockPasses runs the reproducer with stock go test (without -race), which
// must pass it.
func stockPasses(t *testing.T, dir, target, name string) {
	t.Helper()
	cmd := exec.Command("go", "test", "-count=1", "-run=^"+target+"$/^"+name+"$", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("stock go test fails on the reproducer %s (%v):\n%s", name, err, out)
	}
}

// stockReplay runs the reproducer with stock go test and returns its
// output; the run must fail.
func stockReplay(t *testing.T, dir, target, name string, flags ...string) string {
	t.Helper()
	args := append([]string{"test", "-count=1"}, flags...)
	args = append(args, "-run=^"+target+"$/^"+name+"$", ".")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("go %s passed; the reproducer should fail:\n%s", strings.Join(args, " "), out)
	}
	if !strings.Contains(string(out), "--- FAIL: "+target) && !strings.Contains(string(out), "FAIL") {
		t.Errorf("go %s failed without a FAIL line:\n%s", strings.Join(args, " "), out)
	}
	return string(out)
}

// clip keeps test logs readable.
func clip(s string) string {
	if len(s) > 6000 {
		return "[...]\n" + s[len(s)-6000:]
	}
	return s
}

// firstOfType returns the index of the first event of type typ, or -1.
func firstOfType(evs []event.Event, typ string) int {
	for i, e := range evs {
		if e.Type == typ {
			return i
		}
	}
	return -1
}

// TestFuzzFailures fuzzes one target per kind of failure, checks the report
// and the reproducer, and replays it with stock go test.
func TestFuzzFailures(t *testing.T) {
	tests := []struct {
		target string
		cfg    Config
		kind   string
		msg    string   // in the output
		input  []any    // the minimized reproducer; nil: not checked
		replay []string // go test flags; nil: no replay
		again  string   // in the replay's output
	}{
		{target: "FuzzPanic", kind: "panic", msg: "panic: fuzzbox-e2e: boom",
			input: []any{[]byte("P")}, replay: []string{}, again: "panic: fuzzbox-e2e: boom"},
		{target: "FuzzTFatal", kind: "fail", msg: "fuzzbox-e2e: t.Fatal reached",
			input: []any{"F"}, replay: []string{}, again: "fuzzbox-e2e: t.Fatal reached"},
		// Not checked minimized: the map race crashes only some runs, so a
		// shrunk candidate may pass by chance and minimization stop early.
		{target: "FuzzMapWrites", kind: "fatal", msg: "fatal error: concurrent map writes",
			replay: []string{}, again: "fatal error: concurrent map writes"},
		// Timeout 60 s: under load growing a 256 MB stack can take more than
		// the default 10 s, which would be reported as a hang.
		{target: "FuzzStackOverflow", cfg: Config{Timeout: 60 * time.Second}, kind: "fatal", msg: "fatal error: stack overflow",
			input: []any{[]byte("S")}, replay: []string{}, again: "fatal error: stack overflow"},
		{target: "FuzzExit", kind: "exit", msg: "exit status 3",
			input: []any{[]byte("E")}, replay: []string{}, again: "exit status 3"},
		{target: "FuzzHang", cfg: Config{Timeout: 2 * time.Second}, kind: "hang", msg: "example.com/targets.FuzzHang.func1",
			input: []any{[]byte("H")}, replay: []string{"-timeout=5s"}, again: "test timed out after 5s"},
		// A hang whose goroutine waits on another: said to be a deadlock.
		{target: "FuzzDeadlock", cfg: Config{Timeout: 2 * time.Second}, kind: "hang", msg: "the fuzz function's goroutine was blocked (chan receive), not running: a deadlock",
			input: []any{[]byte("D")}, replay: []string{"-timeout=5s"}, again: "test timed out after 5s"},
		{target: "FuzzBlockedRun", cfg: Config{Timeout: 2 * time.Second}, kind: "hang", msg: "the fuzz function was blocked in t.Run (chan receive), waiting for a subtest",
			input: []any{[]byte("R")}},
		{target: "FuzzOOM", cfg: Config{RSSLimitMB: 1024}, kind: "oom", msg: "out of memory"},
		// Not a failure under stock go test (TestFuzzLeakReproducer).
		{target: "FuzzLeak", kind: "leak", msg: "fuzzbox: goroutine leak: 1 goroutine started by the input still blocked (chan send)",
			input: []any{[]byte("L")}},
		// Comparison guidance: native fuzzing finds neither in minutes.
		{target: "FuzzMagic", cfg: Config{FuzzTime: "30s"}, kind: "panic", msg: "fuzzbox-e2e: magic found",
			replay: []string{}, again: "fuzzbox-e2e: magic found"},
		{target: "FuzzTomatos", cfg: Config{FuzzTime: "30s"}, kind: "panic", msg: "fuzzbox-e2e: tomatos found",
			input: []any{"tomatos"}, replay: []string{}, again: "fuzzbox-e2e: tomatos found"},
	}
	for _, tt := range tests {
		t.Run(tt.target, func(t *testing.T) {
			r := fuzzTarget(t, tt.target, tt.cfg)
			if r.res.ExitCode != ExitFailure {
				t.Fatalf("want exit 1 (a failure)\n%s", r)
			}
			if i := firstOfType(r.events, event.Failure); i < 0 || r.events[i].Kind != tt.kind {
				t.Errorf("no failure event of kind %s\n%s", tt.kind, r)
			}
			if want := "found " + tt.kind + " failure"; !strings.Contains(r.out, want) {
				t.Errorf("output lacks %q\n%s", want, r)
			}
			if !strings.Contains(r.out, tt.msg) {
				t.Errorf("output lacks %q\n%s", tt.msg, r)
			}
			name := onlyReproducer(t, r, tt.target)
			if tt.input != nil {
				if got := readReproducer(t, r.dir, tt.target, name); fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", tt.input) {
					t.Errorf("reproducer = %#v, want the minimized %#v\n%s", got, tt.input, r)
				}
			}
			if tt.replay == nil {
				return
			}
			out := stockReplay(t, r.dir, tt.target, name, tt.replay...)
			if !strings.Contains(out, tt.again) {
				t.Errorf("the replay does not fail the same way: lacks %q:\n%s", tt.again, clip(out))
			}
		})
	}
}

// TestAutoDictConstants: the automatic dictionary saved beside the cache
// holds the constant a word of the input was compared with, in the order
// the target reads it, and not the seed's word.
func TestAutoDictConstants(t *testing.T) {
	r := fuzzTarget(t, "FuzzConstCmp", Config{FuzzTime: "3000x"})
	if r.res.ExitCode != ExitOK {
		t.Fatalf("want a clean run\n%s", r)
	}
	var paths []string
	filepath.WalkDir(filepath.Join(r.dir, ".cache"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == "FuzzConstCmp.dict" {
			paths = append(paths, path)
		}
		return nil
	})
	if len(paths) != 1 {
		t.Fatalf("automatic dictionaries under the cache: %q, want one FuzzConstCmp.dict\n%s", paths, r)
	}
	data, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	toks, err := corpus.ParseDict(data)
	if err != nil {
		t.Fatalf("%s: %v", paths[0], err)
	}
	var hasConst bool
	for _, tok := range toks {
		hasConst = hasConst || string(tok) == "\x34\x12\xed\x5e"
		if string(tok) == "abcd" {
			t.Errorf("the seed's word %q is a token: the input's operand was taken for the constant", tok)
		}
	}
	if !hasConst {
		t.Errorf("tokens %q lack the constant 0x5eed1234 as little-endian bytes", toks)
	}
}

// TestFuzzLeakReproducer: a leak's message shows the leaked goroutine's
// stack and creation site; stock go test passes its reproducer, and the next
// fuzzbox run reports it again, as a failing seed, as docs/engine.md says.
func TestFuzzLeakReproducer(t *testing.T) {
	r := fuzzTarget(t, "FuzzLeak", Config{})
	i := firstOfType(r.events, event.Failure)
	if r.res.ExitCode != ExitFailure || i < 0 || r.events[i].Kind != event.KindLeak {
		t.Fatalf("want a leak failure\n%s", r)
	}
	msg := r.events[i].Message
	for _, want := range []string{"goroutine ", "[chan send]", "example.com/targets.FuzzLeak.func1.1()", "created by example.com/targets.FuzzLeak.func1 in goroutine", "crash_test.go:"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the message lacks %q:\n%s", want, msg)
		}
	}
	name := onlyReproducer(t, r, "FuzzLeak")
	stockPasses(t, r.dir, "FuzzLeak", name)
	if want := "go test does not check for goroutine leaks, so go test '-run=^FuzzLeak$/^" + name + "$' . passes this input; fuzzbox fuzz '-fuzz=^FuzzLeak$' -fuzztime=1x . replays it"; !strings.Contains(r.out, want) {
		t.Errorf("the output does not say how to replay the leak: lacks %q\n%s", want, r)
	}
	again := fuzzIn(t, r.dir, Config{Fuzz: "^FuzzLeak$", FuzzTime: "1x", RSSLimitMB: DefaultRSSLimitMB, Fuzzbox: testFuzzbox(t)}, ".")
	j := firstOfType(again.events, event.Failure)
	if again.res.ExitCode != ExitFailure || j < 0 || again.events[j].Kind != event.KindLeak ||
		!strings.HasSuffix(again.events[j].Reproducer, filepath.Join("testdata", "fuzz", "FuzzLeak", name)) {
		t.Errorf("the next run does not report the reproducer's leak as its failure\n%s", again)
	}
	if off := fuzzIn(t, r.dir, Config{Fuzz: "^FuzzLeak$", FuzzTime: "1x", RSSLimitMB: DefaultRSSLimitMB, NoLeaks: true, Fuzzbox: testFuzzbox(t)}, "."); off.res.ExitCode != ExitOK {
		t.Errorf("with -leaks=false the reproducer is not a failure; the run exits %d\n%s", off.res.ExitCode, off)
	}
}

func TestFuzzOOMReproducer(t *testing.T) {
	r := fuzzTarget(t, "FuzzOOM", Config{RSSLimitMB: 1024})
	if r.res.ExitCode != ExitFailure || !strings.Contains(r.out, "found oom failure") {
		t.Fatalf("want an oom failure\n%s", r)
	}
	// Stock go test has no memory limit: check the reproducer instead of
	// replaying it. FuzzOOM allocates 4*n bytes, n from bytes 1..4.
	vals := readReproducer(t, r.dir, "FuzzOOM", onlyReproducer(t, r, "FuzzOOM"))
	b, ok := vals[0].([]byte)
	// Minimization usually gets it to 5 bytes, but stops when a candidate
	// dies another way (the kernel's OOM killer on a loaded machine).
	if !ok || len(b) < 5 || b[0] != 'A' {
		t.Fatalf("reproducer %#v does not reach the allocation", vals)
	}
	if n := uint64(b[1]) | uint64(b[2])<<8 | uint64(b[3])<<16 | uint64(b[4])<<24; n < 1<<30 {
		t.Errorf("reproducer allocates only 4*%d bytes", n)
	}
	if !strings.Contains(r.out, "-rss_limit_mb=1024") {
		t.Errorf("the message does not name the limit\n%s", r)
	}
	// The output says go test may pass it, and the fuzzbox command that
	// replays it under the limit, which does.
	name := onlyReproducer(t, r, "FuzzOOM")
	if want := "go test sets no memory limit, so go test '-run=^FuzzOOM$/^" + name + "$' . may pass this input"; !strings.Contains(r.out, want) {
		t.Errorf("the output lacks %q\n%s", want, r)
	}
	if want := "fuzzbox fuzz -rss_limit_mb=1024 '-fuzz=^FuzzOOM$' -fuzztime=1x . replays it"; !strings.Contains(r.out, want) {
		t.Errorf("the output lacks %q\n%s", want, r)
	}
	again := fuzzIn(t, r.dir, Config{Fuzz: "^FuzzOOM$", FuzzTime: "1x", RSSLimitMB: 1024, Fuzzbox: testFuzzbox(t)}, ".")
	j := firstOfType(again.events, event.Failure)
	if again.res.ExitCode != ExitFailure || j < 0 || again.events[j].Kind != event.KindOOM ||
		!strings.HasSuffix(again.events[j].Reproducer, filepath.Join("testdata", "fuzz", "FuzzOOM", name)) {
		t.Errorf("the replay command does not report the reproducer's oom as its failure\n%s", again)
	}
}

func TestFuzzRace(t *testing.T) {
	r := raceFixture(t, "FuzzRace", Config{Race: true})
	if r.res.ExitCode != ExitFailure || !strings.Contains(r.out, "found race failure") {
		t.Fatalf("want a race failure\n%s", r)
	}
	name := onlyReproducer(t, r, "FuzzRace")
	// Not checked: that it is minimized to "R". The race detector reports
	// each racing pair of stacks once per process, so while minimizing no
	// candidate fails again and the input stays as found.
	if got := readReproducer(t, r.dir, "FuzzRace", name); len(got) != 1 || !bytes.HasPrefix(got[0].([]byte), []byte("R")) {
		t.Errorf("reproducer = %#v, want an input starting with R", got)
	}
	raceReplays(t, r.dir, "FuzzRace", name)
}

// raceFixture fuzzes the fuzz test name of the race fixture for 60 s with
// cfg; a -race build is slow, so not in -short.
func raceFixture(t *testing.T, name string, cfg Config) *fixtureRun {
	t.Helper()
	if testing.Short() {
		t.Skip("the -race build of the instrumented standard library is slow")
	}
	cfg.Fuzz, cfg.FuzzTime, cfg.RSSLimitMB = "^"+name+"$", "60s", DefaultRSSLimitMB
	return fuzzFixture(t, "race", cfg, ".")
}

// raceReplays checks that go test -race fails the reproducer with a data race.
func raceReplays(t *testing.T, dir, target, name string) {
	t.Helper()
	if out := stockReplay(t, dir, target, name, "-race"); !strings.Contains(out, "WARNING: DATA RACE") {
		t.Errorf("go test -race reports no data race:\n%s", clip(out))
	}
}

// TestFuzzRaceTwin: with the race twin, a race that no plain execution
// shows is found in the background, reported as kind race with both
// goroutines' stacks, and its reproducer passes under stock go test and
// fails under go test -race.
func TestFuzzRaceTwin(t *testing.T) {
	r := raceFixture(t, "FuzzTwinRace", Config{RaceTwin: true})
	i := firstOfType(r.events, event.Failure)
	if r.res.ExitCode != ExitFailure || i < 0 || r.events[i].Kind != event.KindRace {
		t.Fatalf("want a race failure\n%s", r)
	}
	e := r.events[i]
	for _, want := range []string{"WARNING: DATA RACE", "Previous write at", "by goroutine", "example.com/race.FuzzTwinRace.func1.1()", "twin_test.go:", "race_test.go:", "created at:"} {
		if !strings.Contains(e.Message, want) {
			t.Errorf("the message lacks %q:\n%s", want, e.Message)
		}
	}
	if e.Reruns == 0 || e.Reproduced != 1 {
		t.Errorf("reruns %d, reproduced %d: want the race confirmed in a fresh race-built worker", e.Reruns, e.Reproduced)
	}
	name := onlyReproducer(t, r, "FuzzTwinRace")
	if got := readReproducer(t, r.dir, "FuzzTwinRace", name); len(got) != 1 || !strings.HasPrefix(got[0].(string), "TW") {
		t.Errorf("reproducer = %#v, want an input starting with TW", got)
	}
	stockPasses(t, r.dir, "FuzzTwinRace", name)
	raceReplays(t, r.dir, "FuzzTwinRace", name)
}

// TestFuzzRaceTwinUnreproduced: a race the twin finds that go test -race
// does not see again is a warning, not a failure: nothing stays in
// testdata/ and the run exits 0.
func TestFuzzRaceTwinUnreproduced(t *testing.T) {
	r := raceFixture(t, "FuzzFuzzboxOnlyRace", Config{RaceTwin: true})
	if r.res.ExitCode != ExitOK || firstOfType(r.events, event.Failure) >= 0 || firstOfType(r.events, event.InternalError) >= 0 {
		t.Fatalf("want exit 0, no failure and no internal error\n%s", r)
	}
	if !strings.Contains(r.out, "did not happen under go test -race") {
		t.Errorf("no warning about the race go test -race does not see\n%s", r)
	}
	if names := reproducerNames(t, r.dir, "FuzzFuzzboxOnlyRace"); len(names) != 0 {
		t.Errorf("reproducers left in testdata: %q", names)
	}
}

// TestFuzzMinimizesEveryArgument: a failure needing n >= 1000 and a string
// of 3 bytes is minimized to exactly n == 1000, a 3-byte printable string
// and zero values elsewhere.
func TestFuzzMinimizesEveryArgument(t *testing.T) {
	r := fuzzTarget(t, "FuzzMulti", Config{})
	if r.res.ExitCode != ExitFailure || !strings.Contains(r.out, "found fail failure") {
		t.Fatalf("want a fail failure\n%s", r)
	}
	name := onlyReproducer(t, r, "FuzzMulti")
	vals := readReproducer(t, r.dir, "FuzzMulti", name)
	if len(vals) != 7 {
		t.Fatalf("reproducer has %d values, want 7: %#v", len(vals), vals)
	}
	s, _ := vals[1].(string)
	if len(s) != 3 || strings.IndexFunc(s, func(r rune) bool { return r < 0x20 || r >= 0x7f }) >= 0 {
		t.Errorf("string argument %q, want 3 printable bytes", s)
	}
	want := []any{int(1000), s, []byte{}, float64(0), false, uint8(0), int16(0)}
	if fmt.Sprintf("%#v", vals) != fmt.Sprintf("%#v", want) {
		t.Errorf("reproducer = %#v, want %#v", vals, want)
	}
	out := stockReplay(t, r.dir, "FuzzMulti", name)
	if !strings.Contains(out, "fuzzbox-e2e: multi n=1000") {
		t.Errorf("the replay does not fail the same way:\n%s", clip(out))
	}
}

// TestFuzzMinimizeKeepsTheBug: minimization writes the bug that was caught.
// FuzzNearBugs's mutants meet its odd-length index out of range first;
// shrinking that input by a byte meets a nil dereference elsewhere, which a
// minimizer keeping only the kind (panic) would write instead.
func TestFuzzMinimizeKeepsTheBug(t *testing.T) {
	r := fuzzTarget(t, "FuzzNearBugs", Config{})
	m, f := firstOfType(r.events, event.Minimizing), firstOfType(r.events, event.Failure)
	if r.res.ExitCode != ExitFailure || m < 0 || f < 0 {
		t.Fatalf("want a failure that was minimized\n%s", r)
	}
	caught, written := r.events[m].Message, r.events[f].Message
	bug, size := "targets.parseOdd", 5
	if strings.Contains(caught, "targets.parseEven") { // the 4-byte bug first: nothing smaller fails
		bug, size = "targets.parseEven", 4
	}
	if !strings.Contains(caught, bug) || !strings.Contains(written, bug) {
		t.Errorf("caught failure in %s, written failure is another:\ncaught: %s\nwritten: %s", bug, clip(caught), clip(written))
	}
	names := reproducerNames(t, r.dir, "FuzzNearBugs")
	if len(names) != 1 {
		t.Fatalf("reproducers %q, want one\n%s", names, r)
	}
	name := names[0]
	if vals := readReproducer(t, r.dir, "FuzzNearBugs", name); len(vals) != 1 || len(vals[0].([]byte)) != size {
		t.Errorf("reproducer %#v, want %d bytes (the smallest input of %s)", vals, size, bug)
	}
	if out := stockReplay(t, r.dir, "FuzzNearBugs", name); !strings.Contains(out, bug) {
		t.Errorf("the replay does not fail in %s:\n%s", bug, clip(out))
	}
}

// TestFuzzMinimizePastHangs: shrinking FuzzShrinkMeetsHang's panic meets
// inputs that hang, each killing its worker; minimization goes on past them
// in fresh workers and writes the smallest input that panics.
func TestFuzzMinimizePastHangs(t *testing.T) {
	r := fuzzTarget(t, "FuzzShrinkMeetsHang", Config{Timeout: time.Second})
	f := firstOfType(r.events, event.Failure)
	if r.res.ExitCode != ExitFailure || f < 0 {
		t.Fatalf("want a failure\n%s", r)
	}
	if r.events[f].Kind == "hang" {
		t.Skipf("the fuzzer met the hang before the panic: nothing to shrink past\n%s", r)
	}
	if r.events[f].Kind != "panic" || !strings.Contains(r.events[f].Message, "an X input of 6 bytes or more") {
		t.Fatalf("failure %+v, want the panic", r.events[f])
	}
	names := reproducerNames(t, r.dir, "FuzzShrinkMeetsHang")
	if len(names) != 1 {
		t.Fatalf("reproducers %q, want one\n%s", names, r)
	}
	if vals := readReproducer(t, r.dir, "FuzzShrinkMeetsHang", names[0]); len(vals) != 1 || len(vals[0].([]byte)) != 6 {
		t.Errorf("reproducer %#v, want 6 bytes (the smallest that panics)\n%s", vals, r)
	}
	for _, e := range r.events {
		if e.Type == event.InternalError {
			t.Errorf("internal error: %s", e.Message)
		}
	}
	if out := stockReplay(t, r.dir, "FuzzShrinkMeetsHang", names[0]); !strings.Contains(out, "an X input of 6 bytes or more") {
		t.Errorf("the replay does not panic:\n%s", clip(out))
	}
}

// TestFuzzExecLimit: a FuzzTime of Nx counts executions over all workers.
func TestFuzzExecLimit(t *testing.T) {
	const n = 3000
	r := fuzzTarget(t, "FuzzNever", Config{FuzzTime: fmt.Sprintf("%dx", n)})
	if r.res.ExitCode != ExitOK {
		t.Fatalf("want exit 0\n%s", r)
	}
	i := firstOfType(r.events, event.Done)
	if i < 0 {
		t.Fatalf("no done event\n%s", r)
	}
	// Baseline runs and re-runs of interesting inputs count too: a little
	// more than n, never less, never much more.
	if got := r.events[i].Execs; got < n || got > n+n/10 {
		t.Errorf("done after %d executions, want %d (up to 10%% more)", got, n)
	}
	if r.events[i].Found || r.events[i].Failures != 0 {
		t.Errorf("done event reports failures: %+v", r.events[i])
	}
}

// TestFuzzUnstableCoverage: coverage that an input reaches the first time
// it runs in a process and not when re-run is reported as unstable, apart
// from the edges.
func TestFuzzUnstableCoverage(t *testing.T) {
	r := fuzzTarget(t, "FuzzFirstSeen", Config{FuzzTime: "5000x", Parallel: 1})
	if r.res.ExitCode != ExitOK {
		t.Fatalf("want exit 0\n%s", r)
	}
	i := firstOfType(r.events, event.Done)
	if i < 0 {
		t.Fatalf("no done event\n%s", r)
	}
	if d := r.events[i]; d.Unstable == 0 {
		t.Errorf("done event: no unstable edges; want the miss branch, which no input reaches twice\n%s", r)
	}
}

// TestFuzzPlateau: a fuzz test whose coverage stops growing stops after the
// plateau time instead of the whole -fuzztime, exit 0, its done event saying
// why.
func TestFuzzPlateau(t *testing.T) {
	r := fuzzTarget(t, "FuzzNever", Config{FuzzTime: "10m", Plateau: 2 * time.Second, Parallel: 1})
	if r.res.ExitCode != ExitOK {
		t.Fatalf("want exit 0\n%s", r)
	}
	i := firstOfType(r.events, event.Done)
	if i < 0 {
		t.Fatalf("no done event\n%s", r)
	}
	if !r.events[i].Plateau || !r.res.Targets[0].Plateau {
		t.Errorf("done event %+v, result %+v: want Plateau\n%s", r.events[i], r.res.Targets[0], r)
	}
	if !strings.Contains(r.out, "no new coverage for the -plateau time") {
		t.Errorf("no plateau status line in the output:\n%s", r.out)
	}
}

// TestFuzzCrashBuckets: a failure's crash bucket is written beside the
// generated corpus; a later run on the same cache directory finds the same
// bug "known", in the same bucket.
func TestFuzzCrashBuckets(t *testing.T) {
	first := fuzzTarget(t, "FuzzPanic", Config{})
	i := firstOfType(first.events, event.Failure)
	if i < 0 {
		t.Fatalf("no failure\n%s", first)
	}
	f1 := first.events[i]
	if f1.Bucket == "" || f1.Known {
		t.Fatalf("first run's failure: bucket %q, known %v; want a new bucket\n%s", f1.Bucket, f1.Known, first)
	}
	files, _ := filepath.Glob(filepath.Join(first.dir, ".cache", "*", "FuzzPanic.buckets", f1.Bucket))
	if len(files) != 1 {
		files, _ = filepath.Glob(filepath.Join(first.dir, ".cache", "FuzzPanic.buckets", f1.Bucket))
	}
	if len(files) != 1 {
		t.Fatalf("bucket file %s not found under %s/.cache", f1.Bucket, first.dir)
	}
	if !strings.Contains(first.out, "new bucket "+f1.Bucket) {
		t.Errorf("no 'new bucket' in the status line:\n%s", first.out)
	}

	// A fresh copy of the module (no reproducer in testdata), the same cache.
	dir := filepath.Join(t.TempDir(), "targets")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "cmd", "fuzzbox", "testdata", "fuzz", "targets"))); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(filepath.Join(dir, ".cache"), os.DirFS(filepath.Join(first.dir, ".cache"))); err != nil {
		t.Fatal(err)
	}
	second := fuzzIn(t, dir, Config{Fuzz: "^FuzzPanic$", FuzzTime: "60s", RSSLimitMB: DefaultRSSLimitMB, Fuzzbox: testFuzzbox(t)}, ".")
	j := firstOfType(second.events, event.Failure)
	if j < 0 {
		t.Fatalf("no failure in the second run\n%s", second)
	}
	if f2 := second.events[j]; f2.Bucket != f1.Bucket || !f2.Known {
		t.Errorf("second run's failure: bucket %q, known %v; want bucket %q, known", f2.Bucket, f2.Known, f1.Bucket)
	}
}

// TestFuzzSync: with a sync directory, an instance imports another's input
// that adds coverage here, skips each file that is no whole entry of its
// types (garbage, a truncated entry, an empty file, another fuzz test's
// entry) with one warning, fuzzes on, and publishes its own finds there.
func TestFuzzSync(t *testing.T) {
	sync := t.TempDir()
	dir := filepath.Join(sync, "FuzzSynced")
	if err := os.MkdirAll(filepath.Join(dir, ".tmp-123"), 0o755); err != nil { // a killed instance's leftover
		t.Fatal(err)
	}
	bad := map[string]string{
		"garbage":   "not a corpus entry\n",
		"truncated": syncedInput[:len(syncedInput)-10],
		"empty":     "",
		"foreign":   "go test fuzz v1\nstring(\"a string\")\nint(1)\n",
	}
	for name, data := range bad {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := corpus.Write(dir, []byte(syncedInput)); err != nil { // the branch fuzzing never finds
		t.Fatal(err)
	}
	r := fuzzTarget(t, "FuzzSynced", Config{FuzzTime: "8s", Parallel: 1, Sync: sync})
	if r.res.ExitCode != ExitOK || r.execs == 0 {
		t.Fatalf("want exit 0 after fuzzing\n%s", r)
	}
	if !importedAs(r, corpus.Name([]byte(syncedInput))) {
		t.Errorf("the other instance's input was not imported\n%s", r)
	}
	for name := range bad {
		n := 0
		for _, w := range r.warnings {
			if strings.Contains(w, "skipping "+name+":") {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%d warnings about the %s file, want 1\n%s", n, name, r)
		}
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) <= len(bad)+2 {
		t.Errorf("%d entries in the sync directory, want the run's own finds besides the %d written before", len(ents), len(bad)+2)
	}
}

// TestFuzzSyncRecorded: an instance of the same test binary takes another
// instance's input on the coverage that one recorded for it (its cache's
// input, published when its fuzzing started), without running it, and says
// so in the input's coverage event. The sync directory then merges into a
// corpus without errors.
func TestFuzzSyncRecorded(t *testing.T) {
	shared := t.TempDir()
	first := t.TempDir()
	path, err := corpus.Write(filepath.Join(first, ".cache", "FuzzSynced"), []byte(syncedInput))
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Base(path)
	a := fuzzIn(t, first, syncConfig(t, "FuzzSynced", "2s", shared), targetsModule(t))
	if a.res.ExitCode != ExitOK {
		t.Fatalf("first instance: want exit 0\n%s", a)
	}
	logs, _ := filepath.Glob(filepath.Join(shared, "FuzzSynced", ".cov-*"))
	if len(logs) != 1 {
		t.Fatalf("coverage logs %q, want the first instance's", logs)
	}
	b := fuzzIn(t, t.TempDir(), syncConfig(t, "FuzzSynced", "2s", shared), targetsModule(t))
	recorded := false
	for _, e := range b.events {
		if e.Type == event.Coverage && e.Imported && filepath.Base(e.Reproducer) == name {
			recorded = e.Recorded
		}
	}
	if b.res.ExitCode != ExitOK || !importedAs(b, name) || !recorded {
		t.Errorf("second instance: exit %d, imported %v, on the recorded coverage %v; want all\n%s", b.res.ExitCode, importedAs(b, name), recorded, b)
	}
	// docs/scale.md's last CI job merges the sync directory: its logs and
	// peer files are no inputs, and no error.
	m, err := MergeCorpus(Config{Fuzz: "FuzzSynced", CacheDir: t.TempDir()}, targetsModule(t), []string{filepath.Join(shared, "FuzzSynced")}, "", false)
	if err != nil || len(m.Errs) != 0 || m.Added == 0 {
		t.Errorf("merging the sync directory: %v, %d added, errors %q", err, m.Added, m.Errs)
	}
}

// TestFuzzKeepGoing: KeepGoing writes one reproducer per distinct bug.
func TestFuzzKeepGoing(t *testing.T) {
	r := fuzzTarget(t, "FuzzTwoBugs", Config{KeepGoing: true, FuzzTime: "10s"})
	if r.res.ExitCode != ExitFailure {
		t.Fatalf("want exit 1\n%s", r)
	}
	names := reproducerNames(t, r.dir, "FuzzTwoBugs")
	if len(names) != 2 {
		t.Fatalf("want 2 reproducers, have %q\n%s", names, r)
	}
	bugs := map[string]bool{}
	for _, name := range names {
		out := stockReplay(t, r.dir, "FuzzTwoBugs", name)
		for _, bug := range []string{"fuzzbox-e2e: bug A", "fuzzbox-e2e: bug B"} {
			if strings.Contains(out, bug) {
				bugs[bug] = true
			}
		}
	}
	if len(bugs) != 2 {
		t.Errorf("the two reproducers replay %v, want both bugs", bugs)
	}
	for _, want := range []string{"found panic failure", "found fail failure"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("output lacks %q\n%s", want, r)
		}
	}
}

// TestOOMBuckets: three out-of-memory bugs of one fuzz test get three
// crash buckets, known to the next run. An oom's bucket had no stack frames
// (the watchdog's kill left none, the worker's sampler panicked on a
// goroutine of fuzzbox's own), so every oom after the first was "known" and
// fuzzbox ci passed a new one.
func TestOOMBuckets(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates hundreds of MiB per failure")
	}
	dir := t.TempDir()
	seed := func(b string) string { return "go test fuzz v1\n[]byte(\"" + b + "\\xff\")\n" }
	writeTestFiles(t, dir, map[string]string{
		"go.mod": "module example.com/ooms\n\ngo 1.26\n",
		"ooms.go": `package ooms

type node struct {
	next *node
	pad  [4096]byte
}

// AllocA makes one big slice, GrowB a list and GrowC a map: three bugs.
func AllocA(n int) []byte {
	b := make([]byte, n<<20)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	return b
}

func GrowB(n int) *node {
	var head *node
	for i := 0; i < n*256; i++ {
		head = &node{next: head}
		head.pad[0] = 1
	}
	return head
}

func GrowC(n int) map[int]*[4096]byte {
	m := map[int]*[4096]byte{}
	for i := 0; i < n*256; i++ {
		m[i] = new([4096]byte)
		m[i][1] = 1
	}
	return m
}
`,
		"ooms_test.go": `package ooms

import "testing"

func FuzzOOMs(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		switch data[0] {
		case 'A':
			AllocA(int(data[1]) * 8)
		case 'B':
			GrowB(int(data[1]) * 8)
		case 'C':
			GrowC(int(data[1]) * 8)
		}
	})
}
`,
		"testdata/fuzz/FuzzOOMs/a": seed("A"),
		"testdata/fuzz/FuzzOOMs/b": seed("B"),
		"testdata/fuzz/FuzzOOMs/c": seed("C"),
	})
	cfg := Config{Fuzz: "^FuzzOOMs$", FuzzTime: "1x", KeepGoing: true, RSSLimitMB: 256, Parallel: 1, Fuzzbox: testFuzzbox(t)}
	buckets := func(r *fixtureRun) map[string]bool {
		got := map[string]bool{}
		for _, e := range r.events {
			if e.Type == event.Failure && e.Kind == event.KindOOM && !e.Duplicate {
				got[e.Bucket] = e.Known
			}
		}
		return got
	}
	first := fuzzIn(t, dir, cfg, ".")
	b1 := buckets(first)
	if _, empty := b1[""]; len(b1) != 3 || empty || slices.Contains(slices.Collect(maps.Values(b1)), true) {
		t.Fatalf("the seeds' three oom bugs have buckets %v (id: known), want three new ones\n%s", b1, first)
	}
	again := fuzzIn(t, dir, cfg, ".")
	b2 := buckets(again)
	for id, known := range b2 {
		if _, ok := b1[id]; !ok || !known {
			t.Errorf("the next run's bucket %s: known %v, want one of the first run's, known\n%s", id, known, again)
		}
	}
	if len(b2) != 3 {
		t.Errorf("the next run has buckets %v, want the three\n%s", b2, again)
	}
}

// TestExitZero: an input on which the code ends the process with status 0
// (syscall.Exit; a C library's exit(0)) is the code's failure, as go test
// -fuzz reports it, though go test -run passes it (it sees only the exit
// status): it was called fuzzbox's internal error, nothing was written and
// the run exited 0.
func TestExitZero(t *testing.T) {
	dir := t.TempDir()
	writeTestFiles(t, dir, map[string]string{
		"go.mod": "module example.com/exit0\n\ngo 1.26\n",
		"e_test.go": `package exit0

import (
	"syscall"
	"testing"
)

func FuzzExit0(f *testing.F) {
	f.Add([]byte("hello"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) == 2 && b[0] == 'E' && b[1] == 'X' {
			syscall.Exit(0)
		}
	})
}
`,
		"testdata/fuzz/FuzzExit0/ex": "go test fuzz v1\n[]byte(\"EX\")\n",
	})
	r := fuzzIn(t, dir, Config{Fuzz: "^FuzzExit0$", FuzzTime: "1x", RSSLimitMB: DefaultRSSLimitMB, Fuzzbox: testFuzzbox(t)}, ".")
	j := firstOfType(r.events, event.Failure)
	if r.res.ExitCode != ExitFailure || j < 0 || r.events[j].Kind != event.KindExit || !r.events[j].ExitZero || firstOfType(r.events, event.InternalError) >= 0 {
		t.Fatalf("want the seed's exit failure marked exit_zero, exit 1, no internal error\n%s", r)
	}
	if want := "but go test '-run=^FuzzExit0$/^ex$' . passes it"; !strings.Contains(r.out, want) {
		t.Errorf("the output does not say why go test -run passes it: lacks %q\n%s", want, r)
	}
}

// fuzzSeed fuzzes fuzz test target of a module of one test file, src,
// once (-fuzztime=1x, no tests), with a testdata seed of the []byte input
// seed: the tests of failures found on a seed.
func fuzzSeed(t *testing.T, target, src, seed string, cfg Config) *fixtureRun {
	t.Helper()
	dir := t.TempDir()
	writeTestFiles(t, dir, map[string]string{
		"go.mod":    "module example.com/" + strings.ToLower(target) + "\n\ngo 1.26\n",
		"x_test.go": src,
		filepath.Join("testdata", "fuzz", target, "f"): "go test fuzz v1\n[]byte(" + strconv.Quote(seed) + ")\n",
	})
	cfg.Fuzz, cfg.FuzzTime, cfg.Run, cfg.Fuzzbox = "^"+target+"$", "1x", "^$", testFuzzbox(t)
	return fuzzIn(t, dir, cfg, ".")
}

// TestFlakyUnderGoTest: a failure fuzzbox's fresh worker confirmed that go
// test fails only now and then (here: its third run) is the code's flaky
// failure, reported, not fuzzbox's internal error (go test passed a 1-in-3
// failure twice almost half the time, and the driver called it a fuzzbox
// bug).
func TestFlakyUnderGoTest(t *testing.T) {
	t.Setenv("FLAKY_DIR", t.TempDir())
	r := fuzzSeed(t, "FuzzFlaky", `package flaky

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// failing reports whether this run fails: fuzzbox's workers always, a
// go test run only the third time.
func failing() bool {
	if f := flag.Lookup("test.fuzzworker"); f != nil && f.Value.String() == "true" {
		return true
	}
	runs := filepath.Join(os.Getenv("FLAKY_DIR"), "runs")
	b, _ := os.ReadFile(runs)
	b = append(b, 'x')
	os.WriteFile(runs, b, 0o644)
	return len(b) == 3
}

func FuzzFlaky(f *testing.F) {
	f.Add([]byte("seed"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 0 && b[0] == 'F' && failing() {
			panic("flaky failure")
		}
	})
}
`, "F", Config{})
	if firstOfType(r.events, event.InternalError) >= 0 || r.res.ExitCode != ExitFailure {
		t.Fatalf("want the code's failure, exit 1, no internal error\n%s", r)
	}
	if want := "failed it in run 3 only, after 2 passes: a flaky failure of your code"; !strings.Contains(r.out, want) {
		t.Errorf("the output lacks %q\n%s", want, r)
	}
}

// TestEditedWhileFuzzing: a failure go test does not replay because the
// package's code changed after the fuzzing binary was built (the user fixed
// the bug meanwhile) is the built code's failure, as go test -fuzz reports
// it, not fuzzbox's internal error. Here the fuzzing worker fails on "F"
// and edits its own source, which go test's run passes; a worker that
// rewrites the file unchanged and touches it edits nothing: that failure
// stays one go test does not have, fuzzbox's internal error.
func TestEditedWhileFuzzing(t *testing.T) {
	const src = `package edited

import (
	"flag"
	"os"
	"testing"
	"time"
)

func FuzzEdited(f *testing.F) {
	f.Add([]byte("seed"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if w := flag.Lookup("test.fuzzworker"); w != nil && w.Value.String() == "true" && len(b) > 0 && b[0] == 'F' {
			src, _ := os.ReadFile("x_test.go")
			os.WriteFile("x_test.go", append(src, EDIT...), 0o644)
			later := time.Now().Add(time.Second)
			os.Chtimes("x_test.go", later, later)
			panic("the built code's bug")
		}
	})
}
`
	for _, tc := range []struct{ name, edit string }{{"edited", `"// edited\n"`}, {"touched", `""`}} {
		t.Run(tc.name, func(t *testing.T) {
			r := fuzzSeed(t, "FuzzEdited", strings.Replace(src, "EDIT", tc.edit, 1), "F", Config{})
			internal := firstOfType(r.events, event.InternalError) >= 0
			if tc.name == "touched" {
				if !internal || r.res.ExitCode == ExitFailure {
					t.Fatalf("want fuzzbox's internal error for a file touched unchanged\n%s", r)
				}
				return
			}
			if internal || r.res.ExitCode != ExitFailure {
				t.Fatalf("want the built code's failure, exit 1, no internal error\n%s", r)
			}
			if want := "x_test.go changed after this run's fuzzing binary was built"; !strings.Contains(r.out, want) {
				t.Errorf("the output lacks %q\n%s", want, r)
			}
		})
	}
}

// TestRefutedBucketForgotten: the crash buckets of a failure go test does
// not have (here one only fuzzbox's workers fail) are not kept, neither
// that of its minimized failure nor the one it was caught as (its message
// changes as it shrinks), beside the cache or the -sync directory: a later
// real failure of either would be called known, and fuzzbox ci would pass
// it.
func TestRefutedBucketForgotten(t *testing.T) {
	dir, sync := t.TempDir(), t.TempDir()
	writeTestFiles(t, dir, map[string]string{
		"go.mod": "module example.com/refuted\n\ngo 1.26\n",
		"x_test.go": `package refuted

import (
	"flag"
	"strings"
	"testing"
)

func FuzzRefuted(f *testing.F) {
	f.Add([]byte("Eaaaaaaaaaaaaaaa"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if w := flag.Lookup("test.fuzzworker"); w != nil && w.Value.String() == "true" && len(b) >= 4 && b[0] == 'F' {
			panic("only in fuzzbox's workers: " + strings.Repeat("x", len(b)))
		}
	})
}
`})
	r := fuzzIn(t, dir, Config{Fuzz: "^FuzzRefuted$", FuzzTime: "1s", Run: "^$", Sync: sync, Fuzzbox: testFuzzbox(t)}, ".")
	if firstOfType(r.events, event.InternalError) < 0 {
		t.Fatalf("want the failure go test does not have as an internal error\n%s", r)
	}
	for _, d := range []string{filepath.Join(dir, ".cache"), sync} { // fuzzIn's cache
		if left, _ := filepath.Glob(filepath.Join(d, "FuzzRefuted.buckets", "*")); len(left) > 0 {
			t.Errorf("its buckets are kept: %v", left)
		}
	}
}

// TestLeakCheckedByPackage: a leak that the package's own check fails
// under go test too (a TestMain that counts goroutines, as
// goleak.VerifyTestMain does) is not said to pass under go test.
func TestLeakCheckedByPackage(t *testing.T) {
	r := fuzzSeed(t, "FuzzLeakMain", `package leakmain

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	code := m.Run()
	if w := flag.Lookup("test.fuzzworker"); w != nil && w.Value.String() == "true" {
		os.Exit(code)
	}
	time.Sleep(100 * time.Millisecond)
	if code == 0 && runtime.NumGoroutine() > 1 {
		fmt.Println("leaked goroutines")
		code = 1
	}
	os.Exit(code)
}

func FuzzLeakMain(f *testing.F) {
	f.Add([]byte("seed"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 0 && b[0] == 'L' {
			go func() { select {} }()
		}
	})
}
`, "L", Config{RSSLimitMB: DefaultRSSLimitMB})
	if i := firstOfType(r.events, event.Failure); i < 0 || r.events[i].Kind != event.KindLeak {
		t.Fatalf("want a leak failure\n%s", r)
	}
	if strings.Contains(r.out, "go test does not check for goroutine leaks") || !strings.Contains(r.out, "the package checks for goroutine leaks itself") {
		t.Errorf("the output does not say go test fails the leak too\n%s", r)
	}
}

// TestFuzzVerbose: with -v, a failure only on a testing.Verbose path is
// the code's: go test -v's replay reproduces it (before, the replay and the
// re-run of the tests lacked -v, so it was called fuzzbox's internal error
// and nothing was written).
func TestFuzzVerbose(t *testing.T) {
	dir := t.TempDir()
	writeTestFiles(t, dir, map[string]string{
		"go.mod": "module example.com/v\n\ngo 1.26\n",
		"v_test.go": `package v

import "testing"

func FuzzVerbose(f *testing.F) {
	f.Add([]byte("a"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if testing.Verbose() && len(b) > 1 && b[0] == 'v' {
			panic("fuzzbox-e2e: verbose path")
		}
	})
}
`})
	r := fuzzIn(t, dir, Config{Fuzz: "^FuzzVerbose$", FuzzTime: "60s", Verbose: true, RSSLimitMB: DefaultRSSLimitMB, Fuzzbox: testFuzzbox(t)}, ".")
	if r.res.ExitCode != ExitFailure || len(r.internal) > 0 || len(r.failures) != 1 || !strings.Contains(r.failures[0], "fuzzbox-e2e: verbose path") {
		t.Fatalf("want the verbose path's panic reported, no internal error\n%s", r)
	}
	if names := reproducerNames(t, dir, "FuzzVerbose"); len(names) != 1 {
		t.Errorf("reproducers %q, want one", names)
	}
}

// TestFuzzFailingSeed: a testdata seed that already fails is a finding
// (exit 1) reported with its own path; no new reproducer is written; so is
// a failing f.Add seed.
func TestFuzzFailingSeed(t *testing.T) {
	dir := targetsModule(t)
	seedDir := filepath.Join(dir, "testdata", "fuzz", "FuzzPanic")
	if err := os.MkdirAll(seedDir, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(seedDir, "known"), []byte("go test fuzz v1\n[]byte(\"P\")\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	cfg := Config{Fuzz: "^FuzzPanic$", FuzzTime: "20s", RSSLimitMB: DefaultRSSLimitMB, Fuzzbox: testFuzzbox(t)}
	r := fuzzIn(t, dir, cfg, ".")
	if r.res.ExitCode != ExitFailure {
		t.Errorf("want exit 1 (a failing seed is a finding)\n%s", r)
	}
	if !strings.Contains(r.text, "FuzzPanic/known") || !strings.Contains(r.text, "fuzzbox-e2e: boom") {
		t.Errorf("the failing seed is not reported with its path and message\n%s", r)
	}
	if names := reproducerNames(t, dir, "FuzzPanic"); len(names) != 1 {
		t.Errorf("reproducers %q, want only the seed", names)
	}

	// With -run leaving the tests out, the seeds first run while fuzzing
	// starts: a failing one is reported as go test -fuzz reports it (the
	// entry, not minimized, nothing written), confirmed by go test's
	// replay of that entry, f.Add's seed#1 too.
	added := "package targets\n\nimport \"testing\"\n\nfunc FuzzAddSeed(f *testing.F) {\n\tf.Add([]byte(\"ok\"))\n\tf.Add([]byte(\"P\"))\n" +
		"\tf.Fuzz(func(t *testing.T, b []byte) {\n\t\tif string(b) == \"P\" {\n\t\t\tt.Fatal(\"fuzzbox-e2e: the second seed\")\n\t\t}\n\t})\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "addseed_test.go"), []byte(added), 0o666); err != nil {
		t.Fatal(err)
	}
	cfg.Fuzz, cfg.Run, cfg.KeepGoing = "^FuzzPanic$|^FuzzAddSeed$", "^$", true
	r = fuzzIn(t, dir, cfg, ".")
	if r.res.ExitCode != ExitFailure || len(r.internal) > 0 {
		t.Fatalf("want exit 1 and no internal error (go test's replay confirms both seeds)\n%s", r)
	}
	want := map[string]string{"known": filepath.Join("testdata", "fuzz", "FuzzPanic", "known"), "seed#1": ""}
	for _, e := range r.events {
		if e.Type != event.Failure || e.Duplicate {
			continue
		}
		repro, ok := want[e.Seed]
		if !ok || e.Reproducer != repro || e.Minimized != "" {
			t.Errorf("failure of seed %q, reproducer %q, minimized %q: want seeds %q, not minimized", e.Seed, e.Reproducer, e.Minimized, want)
		}
		delete(want, e.Seed)
	}
	if len(want) > 0 {
		t.Errorf("no failure of seeds %q\n%s", want, r)
	}
	var sum strings.Builder
	r.res.WriteSummary(&sum)
	if line := "failure while testing seed corpus entry: FuzzAddSeed/seed#1"; !strings.Contains(r.text, line) {
		t.Errorf("output lacks %q\n%s", line, r)
	}
	if part := "fail -> seed corpus entry FuzzAddSeed/seed#1"; !strings.Contains(sum.String(), part) {
		t.Errorf("summary lacks %q:\n%s", part, sum.String())
	}
	if names := reproducerNames(t, dir, "FuzzAddSeed"); len(names) > 0 {
		t.Errorf("wrote %q for a failing f.Add seed", names)
	}
}

// TestFuzzWorkerProcessors: a real worker runs code that starts no
// goroutines on one processor (FuzzOneProcessor fails there, and only
// there; the re-runs in fresh workers, on every processor, pass it: flaky,
// nothing written), and keeps the default
// GOMAXPROCS for code whose goroutine, started at init, serves every input
// and for code that calls runtime.GOMAXPROCS (FuzzPool and FuzzReads fail
// on one processor: nothing may be reported).
func TestFuzzWorkerProcessors(t *testing.T) {
	if runtime.NumCPU() < 2 || os.Getenv("GOMAXPROCS") != "" {
		t.Skip("workers run on one processor only with more than one and no GOMAXPROCS set")
	}
	r := fuzzFixture(t, "procs", Config{Fuzz: "^FuzzOneProcessor$", FuzzTime: "2000x", Parallel: 1, RSSLimitMB: DefaultRSSLimitMB}, ".")
	i := firstOfType(r.events, event.Flaky)
	if i < 0 || !strings.Contains(r.events[i].Message, "fuzzbox-e2e: on one processor") || r.res.ExitCode != ExitOK {
		t.Errorf("FuzzOneProcessor: no flaky event saying the worker ran it on one processor, exit 0\n%s", r)
	}
	if firstOfType(r.events, event.Failure) >= 0 || len(reproducerNames(t, r.dir, "FuzzOneProcessor")) > 0 {
		t.Errorf("FuzzOneProcessor: a failure only fuzzbox's worker has was reported or written\n%s", r)
	}

	for _, name := range []string{"pool", "reads"} {
		target := "Fuzz" + strings.ToUpper(name[:1]) + name[1:]
		r = fuzzFixture(t, "procs", Config{Fuzz: "^" + target + "$", FuzzTime: "20000x", Parallel: 1, RSSLimitMB: DefaultRSSLimitMB}, "./"+name)
		if r.res.ExitCode != ExitOK {
			t.Fatalf("%s: want exit 0\n%s", target, r)
		}
		for _, typ := range []string{event.InternalError, event.Failure, event.Flaky} {
			if i := firstOfType(r.events, typ); i >= 0 {
				t.Errorf("%s: %s event: it ran on one processor: %s\n%s", target, typ, r.events[i].Message, r)
			}
		}
	}
}

// TestFuzzFlaky: a failure that does not fail again in a fresh worker is
// reported as flaky and not written; KeepFlaky writes it, marked FLAKY.
func TestFuzzFlaky(t *testing.T) {
	r := fuzzTarget(t, "FuzzFlaky", Config{FuzzTime: "3s"})
	if r.res.ExitCode != ExitOK {
		t.Fatalf("want exit 0: a flaky failure is not a finding\n%s", r)
	}
	i := firstOfType(r.events, event.Flaky)
	if i < 0 || r.events[i].Kind != "fail" || !strings.Contains(r.events[i].Message, "fuzzbox-e2e: flaky") {
		t.Fatalf("no flaky event of kind fail\n%s", r)
	}
	if firstOfType(r.events, event.Failure) >= 0 || len(reproducerNames(t, r.dir, "FuzzFlaky")) > 0 {
		t.Errorf("a flaky failure was reported or written\n%s", r)
	}

	cfg := Config{Fuzz: "^FuzzFlaky$", FuzzTime: "60s", KeepFlaky: true, RSSLimitMB: DefaultRSSLimitMB, Fuzzbox: testFuzzbox(t)}
	r = fuzzIn(t, r.dir, cfg, ".")
	if r.res.ExitCode != ExitFailure || !strings.Contains(r.out, "FLAKY: it did not fail again in 3 re-runs") {
		t.Fatalf("KeepFlaky: want exit 1 and a failure line marked FLAKY\n%s", r)
	}
	if n := len(reproducerNames(t, r.dir, "FuzzFlaky")); n != 1 {
		t.Errorf("KeepFlaky wrote %d reproducers, want 1", n)
	}
}

// TestFuzzEveryEventType: the event types docs/engine.md lists are all
// produced by real runs (internal_error, which no correct fuzzbox produces
// on its own, is produced by engine/coordinator_test.go's fake workers).
func TestFuzzEveryEventType(t *testing.T) {
	dir := targetsModule(t)
	seen := map[string]bool{}
	for _, cfg := range []Config{
		{Fuzz: "^FuzzNever$", FuzzTime: "4s"},  // stats every 3 s, coverage
		{Fuzz: "^FuzzFlaky$", FuzzTime: "2s"},  // flaky
		{Fuzz: "^FuzzModify$", FuzzTime: "2s"}, // warning
		{Fuzz: "^FuzzPanic$", FuzzTime: "60s"}, // minimizing, failure
	} {
		cfg.RSSLimitMB, cfg.Fuzzbox = DefaultRSSLimitMB, testFuzzbox(t)
		for _, e := range fuzzIn(t, dir, cfg, ".").events {
			seen[e.Type] = true
		}
	}
	for _, typ := range event.Types {
		// No internal error is to be had; the targets module's tests take
		// less than the second before a tests event (TestTestsEvent's).
		if !seen[typ] && typ != event.InternalError && typ != event.Tests {
			t.Errorf("no %s event in the runs (seen: %v)", typ, seen)
		}
	}
}

// buildFuzzingBinary builds the package in dir into a fuzzing binary
// elsewhere, as the Bazel rules build theirs.
func buildFuzzingBinary(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), filepath.Base(dir)+".fuzz")
	res, err := build.Build(context.Background(), build.Options{Dir: dir, Out: bin, Toolexec: []string{testFuzzbox(t), "toolexec"}})
	if err != nil {
		t.Fatal(err)
	}
	return res.Binary
}

// TestFuzzPrebuiltBinary: Config.Binary fuzzes a fuzzing binary built
// elsewhere with the same events, and writes the reproducer into the
// package directory given.
func TestFuzzPrebuiltBinary(t *testing.T) {
	dir := targetsModule(t)
	cfg := Config{Binary: buildFuzzingBinary(t, dir), Fuzz: "^FuzzPanic$", FuzzTime: "60s", RSSLimitMB: DefaultRSSLimitMB}
	r := fuzzIn(t, t.TempDir(), cfg, dir) // the driver runs elsewhere: the pattern names the package directory
	if r.res.ExitCode != ExitFailure {
		t.Fatalf("want exit 1\n%s", r)
	}
	i := firstOfType(r.events, event.Failure)
	if i < 0 || r.events[i].Kind != "panic" || r.events[i].Package != "example.com/targets" {
		t.Fatalf("want a panic failure of example.com/targets\n%s", r)
	}
	names := reproducerNames(t, dir, "FuzzPanic")
	if len(names) != 1 || !strings.HasSuffix(r.events[i].Reproducer, names[0]) {
		t.Fatalf("reproducers %v, failure event names %s", names, r.events[i].Reproducer)
	}
	if out := stockReplay(t, dir, "FuzzPanic", names[0]); !strings.Contains(out, "fuzzbox-e2e: boom") {
		t.Errorf("stock go test replay does not fail with the panic:\n%s", out)
	}
	// Without Config.StockBinary nothing replayed it: the output says so.
	if !strings.Contains(r.out, "fuzzbox: not checked with go test: without -stockbin") {
		t.Errorf("no line says the failure was not checked\n%s", r)
	}
}

// TestPrebuiltBinaryNoFuzzTests: a prebuilt binary whose package has no
// fuzz test is ErrNoFuzzTests (the Bazel runner passes it, as go test -fuzz
// does), and a -fuzz matching none of those a package has is not.
func TestPrebuiltBinaryNoFuzzTests(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a fuzzing binary")
	}
	dir := t.TempDir()
	writeTestFiles(t, dir, map[string]string{
		"go.mod":    "module example.com/nofuzz\n\ngo 1.26\n",
		"p_test.go": "package nofuzz\n\nimport \"testing\"\n\nfunc TestP(t *testing.T) {}\n",
	})
	_, err := Resolve(context.Background(), Config{Fuzz: ".", Binary: buildFuzzingBinary(t, dir)}, []string{dir})
	if !errors.Is(err, ErrNoFuzzTests) {
		t.Errorf("Resolve of a binary without fuzz tests: %v, want ErrNoFuzzTests", err)
	}
	targets := targetsModule(t)
	_, err = Resolve(context.Background(), Config{Fuzz: "^FuzzNope$", Binary: buildFuzzingBinary(t, targets)}, []string{targets})
	if err == nil || errors.Is(err, ErrNoFuzzTests) || !strings.Contains(err.Error(), "matches no fuzz test") {
		t.Errorf("Resolve of a -fuzz matching none: %v, want the match error", err)
	}
}

// TestFuzzPrebuiltBinaryTestsFail: with a prebuilt binary there may be no go
// command able to build the package (Bazel), so a test failing before
// fuzzing is not checked with go test: the driver says which failed and
// where to look, exit 1.
func TestFuzzPrebuiltBinaryTestsFail(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "fuzzboxonly")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "cmd", "fuzzbox", "testdata", "fuzz", "fuzzboxonly"))); err != nil {
		t.Fatal(err)
	}
	cfg := Config{Binary: buildFuzzingBinary(t, dir), Fuzz: "^FuzzFine$", FuzzTime: "100x", RSSLimitMB: DefaultRSSLimitMB}
	r := fuzzIn(t, t.TempDir(), cfg, dir)
	if r.res.ExitCode != ExitFailure || !strings.Contains(r.out, "TestFailsOnlyInFuzzbox, TestCrashesOnlyInFuzzbox failed in it; run the package's tests with your build system") ||
		strings.Contains(r.out, "checking with go test") {
		t.Errorf("want exit 1 and the failing tests named, without a go test check\n%s", r)
	}
}

// buildStockBinary builds the package in dir into a stock test binary (go
// test -c), as the Bazel rules' replay target is one.
func buildStockBinary(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), filepath.Base(dir)+".test")
	cmd := exec.Command("go", "test", "-c", "-o", bin, ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test -c: %v\n%s", err, out)
	}
	return bin
}

// TestFuzzPrebuiltBinaryStock: given the package's stock test binary too
// (Config.StockBinary: the Bazel rules' replay target), a prebuilt fuzzing
// binary's failures are checked with it as fuzzbox's own builds' are with
// go test: seeds slow only in the fuzzing binary are left out and the fuzz
// test is fuzzed, where without it the first is reported as the code's
// hang; tests that fail only in the fuzzing binary are fuzzbox's, and
// fuzzing goes on without them (TestFuzzPrebuiltBinaryTestsFail: without
// it, they are the package's failure). Its environment is StockEnv.
func TestFuzzPrebuiltBinaryStock(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "fuzzboxonly")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "cmd", "fuzzbox", "testdata", "fuzz", "fuzzboxonly"))); err != nil {
		t.Fatal(err)
	}
	slow := filepath.Join(dir, "slow")
	cfg := Config{Binary: buildFuzzingBinary(t, slow), StockBinary: buildStockBinary(t, slow), Fuzz: "^FuzzSlowOnlyInFuzzbox$", Run: "^$",
		FuzzTime: "2s", Timeout: time.Second, MinimizeTime: "0x", RSSLimitMB: DefaultRSSLimitMB}
	r := fuzzIn(t, t.TempDir(), cfg, slow)
	r.slowInputsOnly(t)
	if !strings.Contains(r.out, "FuzzSlowOnlyInFuzzbox starts again without") || r.execs == 0 {
		t.Errorf("want the slow seeds left out and the fuzz test fuzzed (%d execs)\n%s", r.execs, r)
	}
	// What replayed them is named: the stock binary, not go test.
	for _, w := range r.warnings {
		if strings.Contains(w, "a slow input") && (!strings.Contains(w, "but the package's test binary (slow.test) with -test.run='^FuzzSlowOnlyInFuzzbox$/^") || strings.Contains(w, "go test")) {
			t.Errorf("want the warning to name the stock binary that replayed the input, got %q", w)
		}
	}
	cfg.StockBinary = ""
	if r := fuzzIn(t, t.TempDir(), cfg, slow); r.res.ExitCode != ExitFailure || len(r.failures) == 0 {
		t.Errorf("without the stock binary, want the slow seed reported unchecked, as fuzzbox's binary saw it (the test's premise)\n%s", r)
	}

	cfg = Config{Binary: buildFuzzingBinary(t, dir), StockBinary: buildStockBinary(t, dir), Fuzz: "^FuzzFine$", FuzzTime: "100x", RSSLimitMB: DefaultRSSLimitMB,
		StockEnv: append(os.Environ(), "FUZZBOX_STOCK_TEST=fail")}
	r = fuzzIn(t, t.TempDir(), cfg, dir)
	// No go command runs: the output names the test binary, and no
	// directory of the test action, which is gone after it.
	if r.res.ExitCode != ExitFailure || !strings.Contains(r.out, "failed in the package's test binary too (the package's test binary (") ||
		strings.Contains(r.out, "under go test") || strings.Contains(r.out, "' in /") {
		t.Errorf("with a StockEnv in which the tests fail, want them the package's failure, found by its test binary\n%s", r)
	}
	cfg.StockEnv = nil
	r = fuzzIn(t, t.TempDir(), cfg, dir)
	if len(r.failures) > 0 || !strings.Contains(r.out, "checking with the package's test binary") || r.execs < 100 || len(r.internal) == 0 ||
		!strings.Contains(r.internal[0], "TestFailsOnlyInFuzzbox, TestCrashesOnlyInFuzzbox") {
		t.Errorf("want the tests that fail only in the fuzzing binary checked with the stock one, reported as fuzzbox's, and fuzzing gone on (%d execs)\n%s", r.execs, r)
	}
}

// TestFuzzBinaryNamedAsGoTest: the code under test sees the test binary
// named as go test names it (os.Args[0], os.Executable: nm.test) in the
// tests, the workers and go test's replays, where fuzzbox's were pkg0.test
// and replay.test; and the tests before fuzzing have go test's deadline
// (t.Deadline), where fuzzbox's had none (-test.timeout=0).
func TestFuzzBinaryNamedAsGoTest(t *testing.T) {
	dir := t.TempDir()
	writeTestFiles(t, dir, map[string]string{
		"go.mod": "module example.com/nm\n\ngo 1.26\n",
		"nm_test.go": `package nm

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func named(t *testing.T) {
	if got := strings.TrimSuffix(filepath.Base(os.Args[0]), ".exe"); got != "nm.test" {
		t.Fatalf("fuzzbox-e2e: the test binary is %s, go test's is nm.test", got)
	}
}

func TestNamed(t *testing.T) {
	named(t)
	if d, ok := t.Deadline(); !ok || time.Until(d) < 9*time.Minute {
		t.Fatalf("fuzzbox-e2e: deadline %v (%v), go test's is 10 minutes away", d, ok)
	}
}

func FuzzNamed(f *testing.F) {
	f.Add([]byte("a"))
	f.Fuzz(func(t *testing.T, b []byte) { named(t) })
}
`})
	var order []string // the done event and the binary's PASS line, as they came
	r := fuzzWatched(t, dir, Config{Fuzz: "^FuzzNamed$", FuzzTime: "200x", RSSLimitMB: DefaultRSSLimitMB, Fuzzbox: testFuzzbox(t)}, ".", func(e event.Event) {
		if e.Type == event.Done || e.Type == event.Output && e.Output == "PASS\n" {
			order = append(order, e.Type)
		}
	})
	if r.res.ExitCode != ExitOK || len(r.internal) > 0 || len(r.failures) > 0 || strings.Contains(r.String(), "fuzzbox-e2e") {
		t.Fatalf("want no failure: the binary named as go test names it\n%s", r)
	}
	// As under go test, the last statistics line comes before PASS (the
	// events and the output come through two pipes: TestCopyOutput).
	if !slices.Equal(order, []string{event.Done, event.Output}) {
		t.Errorf("done event and PASS came in the order %q, want done first", order)
	}
}

// TestCopyOutput: the fuzzing binary's output is shown as it comes, but
// for the fuzz test's failure report, held for go test's replay, and a
// passing binary's last lines from PASS on, shown after its events (the
// done event's statistics line came after PASS in one run of four).
func TestCopyOutput(t *testing.T) {
	var shown []string
	s := newStream(func(e event.Event) { shown = append(shown, e.Output) })
	tg := Target{Name: "FuzzX"}
	held, trailer := copyOutput(strings.NewReader("=== RUN\nlog\nPASS\ngoleak: ok\n"), tg, s, func(string) {})
	if !slices.Equal(shown, []string{"=== RUN\n", "log\n"}) || held != nil || !slices.Equal(trailer, []string{"PASS", "goleak: ok"}) {
		t.Errorf("shown %q, held %q, trailer %q: want PASS and after it held back as the trailer", shown, held, trailer)
	}
	shown = nil
	held, trailer = copyOutput(strings.NewReader("x\n--- FAIL: FuzzX (0.01s)\n    boom\nFAIL\n"), tg, s, func(string) {})
	if !slices.Equal(shown, []string{"x\n"}) || !slices.Equal(held, []string{"--- FAIL: FuzzX (0.01s)", "    boom", "FAIL"}) || trailer != nil {
		t.Errorf("shown %q, held %q, trailer %q: want the failure report held", shown, held, trailer)
	}
	// -v: the fuzz test's own "--- PASS" line, and go test's "=== NAME"
	// after it, come after its last statistics line too.
	shown = nil
	held, trailer = copyOutput(strings.NewReader("=== RUN   FuzzX\n--- PASS: FuzzX (1.00s)\n=== NAME  \nPASS\n"), tg, s, func(string) {})
	if !slices.Equal(shown, []string{"=== RUN   FuzzX\n"}) || held != nil || !slices.Equal(trailer, []string{"--- PASS: FuzzX (1.00s)", "=== NAME  ", "PASS"}) {
		t.Errorf("shown %q, held %q, trailer %q: want the fuzz test's --- PASS line and after it held back as the trailer", shown, held, trailer)
	}
}

// TestSplitFraming: text a test printed without a newline does not hide go
// test's framing after it (jd's TestExampleJsonNode_Patch prints
// `["foo","bar"]` with fmt.Print: the binary's PASS came after the last
// statistics line in one run of three, and a failing fuzz test's report
// was shown before its failure event, not held).
func TestSplitFraming(t *testing.T) {
	for _, c := range []struct {
		line string
		want []string
	}{
		{`["foo","bar"]PASS`, []string{`["foo","bar"]`, "PASS"}},
		{"42FAIL", []string{"42", "FAIL"}},
		{"PASS", []string{"PASS"}},
		{"BYPASS", []string{"BYPASS"}},
		{"status: PASS", []string{"status: PASS"}},
		{"x--- FAIL: FuzzX (0.01s)", []string{"x", "--- FAIL: FuzzX (0.01s)"}},
		{"x    --- PASS: FuzzX/seed#0 (0.00s)", []string{"x", "    --- PASS: FuzzX/seed#0 (0.00s)"}},
		{"    --- PASS: FuzzX/seed#0 (0.00s)", []string{"    --- PASS: FuzzX/seed#0 (0.00s)"}},
		{"x=== RUN   FuzzX/seed#1", []string{"x", "=== RUN   FuzzX/seed#1"}},
		{"    tool_test.go:12: --- FAIL: TestFoo (0.00s)", []string{"    tool_test.go:12: --- FAIL: TestFoo (0.00s)"}},
		{"        x_test.go:7: result=PASS", []string{"        x_test.go:7: result=PASS"}},
		{"", []string{""}},
	} {
		if got := splitFraming(c.line); !slices.Equal(got, c.want) {
			t.Errorf("splitFraming(%q) = %q, want %q", c.line, got, c.want)
		}
	}
	var shown []string
	s := newStream(func(e event.Event) { shown = append(shown, e.Output) })
	tg := Target{Name: "FuzzX"}
	var watched []string
	held, trailer := copyOutput(strings.NewReader("a\n[1]PASS\n"), tg, s, func(l string) { watched = append(watched, l) })
	if !slices.Equal(shown, []string{"a\n", "[1]\n"}) || held != nil || !slices.Equal(trailer, []string{"PASS"}) || !slices.Equal(watched, []string{"a", "[1]", "PASS"}) {
		t.Errorf("shown %q, held %q, trailer %q, watched %q: want the glued PASS held back as the trailer and seen on its own", shown, held, trailer, watched)
	}
	shown = nil
	held, trailer = copyOutput(strings.NewReader("[1]--- FAIL: FuzzX (0.01s)\n    boom\nFAIL\n"), tg, s, func(string) {})
	if !slices.Equal(shown, []string{"[1]\n"}) || !slices.Equal(held, []string{"--- FAIL: FuzzX (0.01s)", "    boom", "FAIL"}) || trailer != nil {
		t.Errorf("shown %q, held %q, trailer %q: want the glued failure report held", shown, held, trailer)
	}
}

// TestOutputLines: the lines of a test binary's output, a line longer than
// the limit cut with a note, and the lines after it all there (a test's
// 100-MiB line once hid the failure that followed it).
func TestOutputLines(t *testing.T) {
	long := strings.Repeat("x", 300)
	in := "a\r\n" + long + "\n--- FAIL: TestLater (0.00s)\n\n" + strings.Repeat("y", 10) + "\nlast"
	var got []string
	for l := range outputLines(iotest.OneByteReader(strings.NewReader(in)), 100) {
		got = append(got, l)
	}
	want := []string{"a", strings.Repeat("x", 100) + " [fuzzbox: the 200 bytes after the first 100 of this line are left out]",
		"--- FAIL: TestLater (0.00s)", "", strings.Repeat("y", 10), "last"}
	if !slices.Equal(got, want) {
		t.Errorf("outputLines =\n%q\nwant\n%q", got, want)
	}
	got = nil
	for l := range outputLines(strings.NewReader(strings.Repeat("z", 200<<10)+"\nafter\n"), 150<<10) {
		got = append(got, l)
	}
	if len(got) != 2 || len(got[0]) <= 150<<10 || !strings.HasSuffix(got[0], "the 51200 bytes after the first 153600 of this line are left out]") || got[1] != "after" {
		t.Errorf("a line longer than the reader's buffer: got %d lines, the last %q", len(got), got[len(got)-1])
	}
}

// fakeCrashSource is a stand-in fuzzing binary: it lists FuzzCrash, starts
// fuzzing (a baseline event on the events descriptor), then crashes as a
// panic in fuzzbox's coordinator would, or, with -crash=user, in a
// goroutine of the user's test.
const fakeCrashSource = `package main

import (
	"fmt"
	"os"
	"strings"
)

const trace = "panic: runtime error: index out of range [5] with length 5\n\ngoroutine 21 [running]:\n" +
	"FRAME(0xc000010000)\n\t/x/queue.go:120 +0x2a\ncreated by github.com/fuzzbox/fuzzbox/engine.Coordinate in goroutine 1\n\t/x/coordinator.go:200 +0x1f\n"

// mark is what makes the binary a fuzzbox fuzzing binary for the driver
// (the name of a flag of fuzzbox's test main).
var mark = "fuzzbox.events_fd"

func main() {
	frame := "github.com/fuzzbox/fuzzbox/engine.(*coordinator).schedule"
	for _, a := range os.Args[1:] {
		if a == "-mark" {
			fmt.Println(mark)
		}
		if strings.HasPrefix(a, "-test.list") {
			fmt.Println("FuzzCrash")
			return
		}
		if a == "-test.crash=user" {
			frame = "example.com/p.TestServer.func2"
		}
	}
	events := os.NewFile(3, "events")
	fmt.Fprintln(events, ` + "`" + `{"type":"baseline","target":"FuzzCrash"}` + "`" + `)
	events.Close()
	fmt.Fprint(os.Stderr, strings.Replace(trace, "FRAME", frame, 1))
	os.Exit(2)
}
`

// TestFuzzEngineCrash: a fuzzing binary that crashes while fuzzing in
// fuzzbox's own code (its coordinator) is fuzzbox's internal error, exit
// 2, not the user's FAIL; one that crashes in the user's code is FAIL, as
// under go test -fuzz.
func TestFuzzEngineCrash(t *testing.T) {
	src := t.TempDir()
	writeTestFiles(t, src, map[string]string{"go.mod": "module fake\n\ngo 1.26\n", "main.go": fakeCrashSource})
	bin := filepath.Join(t.TempDir(), "fake.test")
	if out, err := exec.Command("go", "-C", src, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("building the fake binary: %v\n%s", err, out)
	}
	pkg := t.TempDir()
	writeTestFiles(t, pkg, map[string]string{"go.mod": "module example.com/p\n\ngo 1.26\n",
		"p_test.go": "package p\n\nimport \"testing\"\n\nfunc FuzzCrash(f *testing.F) { f.Fuzz(func(t *testing.T, b []byte) {}) }\n"})
	cfg := Config{Binary: bin, Fuzz: "^FuzzCrash$", FuzzTime: "2s", RSSLimitMB: DefaultRSSLimitMB}
	r := fuzzIn(t, t.TempDir(), cfg, pkg)
	if r.res.ExitCode != ExitError || len(r.internal) != 1 || !strings.Contains(r.internal[0], "crashed in fuzzbox's own code (panic: runtime error: index out of range [5] with length 5) while fuzzing FuzzCrash") {
		t.Errorf("a crash in fuzzbox's coordinator: want exit 2 and an internal error\n%s", r)
	}
	if strings.Contains(r.text, "FAIL, as under go test -fuzz") {
		t.Errorf("a crash in fuzzbox's coordinator reported as the user's FAIL\n%s", r)
	}

	cfg.TestArgs = []string{"-test.crash=user"}
	r = fuzzIn(t, t.TempDir(), cfg, pkg)
	if r.res.ExitCode != ExitFailure || len(r.internal) != 0 || !strings.Contains(r.text, "(a crash outside the fuzz function: panic: runtime error: index out of range [5] with length 5): FAIL, as under go test -fuzz") {
		t.Errorf("a crash in the user's goroutine: want exit 1, FAIL as under go test -fuzz\n%s", r)
	}
}

// TestReplayFailsAsAWhole: when go test fails the fuzz test as a whole
// rather than on the input (here a malformed file appears in testdata
// meanwhile, as a go test -fuzz killed while writing leaves one), the
// replay checked nothing: the output says so, where its failure counted as
// go test confirming the input's.
func TestReplayFailsAsAWhole(t *testing.T) {
	r := fuzzSeed(t, "FuzzWhole", `package whole

import (
	"flag"
	"os"
	"testing"
)

func FuzzWhole(f *testing.F) {
	f.Add([]byte("seed"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if w := flag.Lookup("test.fuzzworker"); w != nil && w.Value.String() == "true" && len(b) > 0 && b[0] == 'F' {
			os.WriteFile("testdata/fuzz/FuzzWhole/partial", nil, 0o644)
			panic("only in fuzzbox's workers")
		}
	})
}
`, "F", Config{})
	if want := "fails FuzzWhole before it runs the input"; !strings.Contains(r.out, want) {
		t.Errorf("the output lacks %q\n%s", want, r)
	}
}

// TestReplayKilledIsNoVerdict: a go test replay that a signal from outside
// ends (here the first one kills itself with SIGKILL, as the OOM killer or
// a user would) says nothing about the input: a failure only fuzzbox's
// workers have stays fuzzbox's internal error, where the killed run made
// it "a flaky failure of your code", written.
func TestReplayKilledIsNoVerdict(t *testing.T) {
	t.Setenv("KILLED_REPLAY_DIR", t.TempDir())
	r := fuzzSeed(t, "FuzzKilled", `package killed

import (
	"flag"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func FuzzKilled(f *testing.F) {
	f.Add([]byte("seed"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) == 0 || b[0] != 'F' {
			return
		}
		if w := flag.Lookup("test.fuzzworker"); w != nil && w.Value.String() == "true" {
			panic("only in fuzzbox's workers")
		}
		if _, err := os.Stat(filepath.Join(os.Getenv("KILLED_REPLAY_DIR"), "once")); err != nil && flag.Lookup("fuzzbox.timeout") == nil {
			os.WriteFile(filepath.Join(os.Getenv("KILLED_REPLAY_DIR"), "once"), nil, 0o644)
			syscall.Kill(os.Getpid(), syscall.SIGKILL) // go test's first replay
		}
	})
}
`, "F", Config{})
	if firstOfType(r.events, event.InternalError) < 0 || len(r.failures) > 0 {
		t.Fatalf("want the failure go test does not have as an internal error, not reported\n%s", r)
	}
	if want := "1 of them killed by a signal from outside"; !strings.Contains(r.text, want) {
		t.Errorf("the output lacks %q\n%s", want, r)
	}
}

// TestEditedDependencyWhileFuzzing: an edit of a package the fuzz test
// imports, in its module, is an edit too: the failure is the built code's,
// where it was fuzzbox's internal error (a probe fixed a bug in ./lib while
// ./fz was fuzzed).
func TestEditedDependencyWhileFuzzing(t *testing.T) {
	dir := t.TempDir()
	writeTestFiles(t, dir, map[string]string{
		"go.mod":     "module example.com/editeddep\n\ngo 1.26\n",
		"lib/lib.go": "package lib\n\nfunc Check(b []byte) bool { return len(b) > 0 && b[0] == 'F' }\n",
		"fz/x_test.go": `package fz

import (
	"flag"
	"os"
	"testing"

	"example.com/editeddep/lib"
)

func FuzzDep(f *testing.F) {
	f.Add([]byte("seed"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if w := flag.Lookup("test.fuzzworker"); w != nil && w.Value.String() == "true" && lib.Check(b) {
			src, _ := os.ReadFile("../lib/lib.go")
			os.WriteFile("../lib/lib.go", append(src, "// fixed\n"...), 0o644)
			panic("the built code's bug")
		}
	})
}
`,
		filepath.Join("fz", "testdata", "fuzz", "FuzzDep", "f"): "go test fuzz v1\n[]byte(\"F\")\n",
	})
	r := fuzzIn(t, dir, Config{Fuzz: "^FuzzDep$", FuzzTime: "1x", Run: "^$", Fuzzbox: testFuzzbox(t)}, "./fz")
	if firstOfType(r.events, event.InternalError) >= 0 || r.res.ExitCode != ExitFailure {
		t.Fatalf("want the built code's failure, exit 1, no internal error\n%s", r)
	}
	if want := filepath.Join("lib", "lib.go") + " changed after this run's fuzzing binary was built"; !strings.Contains(r.out, want) {
		t.Errorf("the output lacks %q\n%s", want, r)
	}
}

// TestCoordinatorKilledSaysHow: a fuzzing binary killed while it fuzzes
// (here by its own worker, as the OOM killer or a user would) is an error
// that says what ended it, where it said only "did not exit normally".
func TestCoordinatorKilledSaysHow(t *testing.T) {
	r := fuzzSeed(t, "FuzzKillParent", `package killparent

import (
	"flag"
	"os"
	"syscall"
	"testing"
)

func FuzzKillParent(f *testing.F) {
	f.Add([]byte("seed"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if w := flag.Lookup("test.fuzzworker"); w != nil && w.Value.String() == "true" && len(b) > 0 && b[0] == 'F' {
			syscall.Kill(os.Getppid(), syscall.SIGKILL)
		}
	})
}
`, "F", Config{})
	if r.res.ExitCode != ExitError || r.res.Err == nil || !strings.Contains(r.res.Err.Error(), "(signal: killed)") {
		t.Errorf("exit %d, error %v; want 2, saying it was killed\n%s", r.res.ExitCode, r.res.Err, r)
	}
}
