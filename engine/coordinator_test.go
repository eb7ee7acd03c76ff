package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/fuzzbox/fuzzbox/corpus"
	"github.com/fuzzbox/fuzzbox/engine/ipc"
	"github.com/fuzzbox/fuzzbox/event"
)

// These tests run the real coordinator against fake worker processes: this
// test binary re-executed with fakeModeEnv set serves engine.RunWorker with
// a fuzz function chosen by the mode, so no fuzzing binary is built. The
// binary has no coverage instrumentation, so the coordinator fuzzes blind;
// what is tested is process policy and failure handling.

const (
	fakeModeEnv = "FUZZBOX_TEST_FAKE_WORKER" // the fake worker's mode
	fakeDirEnv  = "FUZZBOX_TEST_FAKE_DIR"    // a directory for once-per-test markers
)

func TestMain(m *testing.M) {
	if os.Getenv(stackProbeEnv) != "" {
		stackProbe()
		os.Exit(0)
	}
	if mode := os.Getenv(procsProbeEnv); mode != "" {
		procsProbe(mode)
		os.Exit(0)
	}
	if mode := os.Getenv(fakeModeEnv); mode != "" {
		os.Exit(fakeWorker(mode, os.Getenv(fakeDirEnv)))
	}
	if mb := os.Getenv(peakProbeEnv); mb != "" {
		peakProbe(mb)
	}
	os.Exit(m.Run())
}

// once reports true the first time it is called with name in any process
// of one test (it creates a marker file in dir).
func once(dir, name string) bool {
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return false
	}
	f.Close()
	return true
}

var fakeSpin int

// fakeLateLoop is mode latehang's hang: an input of 3 or 4 bytes sleeps
// past a probe's time before it loops, as on a slow machine's way in.
//
//go:noinline
func fakeLateLoop(n int) {
	if n < 5 {
		time.Sleep(600 * time.Millisecond)
	}
	for {
		fakeSpin++
	}
}

// fakeWorker serves the coordinator as a worker in the given mode. Inputs
// are one []byte; the seed is empty, mutants rarely are.
func fakeWorker(mode, dir string) int {
	execs := 0
	if strings.Contains(mode, "panic") {
		testHookFuzzCall = func() {
			if once(dir, "panic") {
				panic("deliberate panic in the worker's own code")
			}
		}
	}
	fn := func(vals []any) error {
		execs++
		b := vals[0].([]byte)
		switch {
		case len(b) == 0:
			return nil // the seed, and the warm-up run
		case strings.Contains(mode, "twin") && len(b) >= 3 && filepath.Base(os.Args[0]) == fakeTwinName:
			return fakeTwin(mode, dir)
		case mode == "long" && len(b) >= 12:
			return errors.New("a long input") // nothing guides the way there (TestStallGrowsShortInputs)
		case mode == "exitseventy" && len(b) >= 3:
			os.Exit(ipc.WorkerExitCode) // the code under test's own exit 70 (EX_SOFTWARE)
		case strings.Contains(mode, "exit70") && once(dir, "exit70"):
			fmt.Fprintf(os.Stderr, "%s (a fuzzbox bug): deliberate\n", ipc.WorkerErrorPrefix) // as engine/fuzzmain exits
			os.Exit(ipc.WorkerExitCode)
		case strings.Contains(mode, "garbage") && once(dir, "garbage"):
			os.NewFile(ipc.FdOut, "out").Write([]byte("}{ not a response\n"))
		case strings.Contains(mode, "flaky") && execs > 10:
			return errors.New("flaky failure: this process has run many inputs")
		case mode == "childsignals" && len(b) >= 3:
			// A process the code starts gets go test's signal dispositions.
			out, err := exec.Command("sh", "-c", "grep SigIgn /proc/self/status").Output()
			if err != nil {
				return err
			}
			var ign uint64
			fmt.Sscanf(strings.TrimPrefix(strings.TrimSpace(string(out)), "SigIgn:"), "%x", &ign)
			if ign&(1<<(syscall.SIGINT-1)) != 0 {
				return fmt.Errorf("a child of the code under test ignores SIGINT (%s)", out)
			}
		case mode == "heldoutput" && len(b) >= 3:
			// A process left running that holds the worker's output.
			cmd := exec.Command("sleep", "120")
			cmd.Stdout = os.Stdout
			if cmd.Start() == nil {
				f, _ := os.OpenFile(filepath.Join(dir, "pids"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
				fmt.Fprintln(f, cmd.Process.Pid)
				f.Close()
			}
			return errors.New("real failure: an input of 3 bytes or more")
		case mode == "stopconfirmed" && len(b) >= 3:
			// Found, then confirmed by a re-run that fails only once the
			// run is stopping; every later execution fails slowly.
			if !once(dir, "found") {
				if once(dir, "rerun") {
					waitForFile(dir, "stopped")
					time.Sleep(time.Second) // past the stop's kill of busy workers
				}
				time.Sleep(100 * time.Millisecond)
			}
			return errors.New("real failure: an input of 3 bytes or more")
		case strings.Contains(mode, "stopconfirm") && len(b) >= 3:
			if once(dir, "found") {
				return errors.New("real failure: an input of 3 bytes or more")
			}
			stoppedWhileConfirming(dir)
		case strings.Contains(mode, "oomkilled") && len(b) >= 3:
			self, _ := os.FindProcess(os.Getpid())
			self.Signal(os.Kill) // every time
			select {}
		case mode == "slowbug" && len(b) >= 2:
			time.Sleep(700 * time.Millisecond) // each candidate of its minimization too
			if len(b) >= 3 {
				return errors.New("real failure: a slow input of 3 bytes or more")
			}
		case mode == "slowseedbug" && len(b) >= 3 && b[0] == 'S':
			time.Sleep(300 * time.Millisecond)
			return errors.New("real failure: the slow seed")
		case strings.Contains(mode, "bug") && len(b) >= 3:
			return errors.New("real failure: an input of 3 bytes or more")
		case strings.Contains(mode, "modify") && len(b) >= 2:
			b[1]++ // the testing package forbids it
		case strings.Contains(mode, "exit3") && len(b) >= 3:
			os.Exit(3)
		case mode == "exit0" && len(b) >= 3:
			os.Exit(0)
		case strings.Contains(mode, "twopanics") && len(b) >= 4:
			return errors.New(twoBugs(len(b), recoveredPanic("runtime error: index out of range [-1]", "example.com/m.parseA", "5"),
				recoveredPanic("runtime error: invalid memory address or nil pointer dereference", "example.com/m.parseB", "5")))
		case strings.Contains(mode, "twofatals") && len(b) >= 4:
			os.Stderr.WriteString(twoBugs(len(b), mapWrites("example.com/m.parseA", "5"), stackOverflow))
			os.Exit(2)
		case strings.Contains(mode, "lateexit") && len(b) >= 5:
			os.Stderr.WriteString("exiting on a long input\n")
			os.Exit(3)
		case strings.Contains(mode, "lateexit") && len(b) >= 3 && execs > 3:
			// Only a process that has run several inputs: a fresh re-run
			// of the short input does not exit.
			os.Stderr.WriteString("exiting on a short input after many\n")
			os.Exit(3)
		case strings.Contains(mode, "failorexit") && len(b) >= 3 && b[0] == '1':
			return errors.New("real failure: 3 bytes or more starting with 1")
		case strings.Contains(mode, "failorexit") && len(b) >= 3:
			os.Exit(3)
		case strings.Contains(mode, "exitorfatal") && len(b) >= 3 && b[0] == '1':
			os.Exit(3)
		case strings.Contains(mode, "exitorfatal") && len(b) >= 3:
			os.Stderr.WriteString(stackOverflow)
			os.Exit(2)
		case mode == "envcheck" && (os.Getenv(leaksEnv) != "" || os.Getenv(rssLimitMBEnv) != ""):
			return fmt.Errorf("the fuzz function sees fuzzbox's environment: %s=%q %s=%q", leaksEnv, os.Getenv(leaksEnv), rssLimitMBEnv, os.Getenv(rssLimitMBEnv))
		case strings.Contains(mode, "stray") && len(b) >= 3 && b[0] == 'S':
			// A goroutine that outlives its input, then fails: while a
			// later input runs, unless the worker waits. The context
			// package starts it, so that it is the code under test's for
			// the engine (a go statement here would be fuzzbox's own).
			ctx, cancel := context.WithCancel(context.Background())
			context.AfterFunc(ctx, func() {
				time.Sleep(20 * time.Millisecond)
				panic(fmt.Sprintf("stray goroutine of an input of %d bytes", len(b)))
			})
			cancel()
		case strings.Contains(mode, "leak") && len(b) >= 3:
			c := make(chan int)
			go func() { c <- len(b) }() // nobody receives: a goroutine leak
		case mode == "grow" && len(b) >= 3:
			// A slow input that keeps building a result: 64 MiB more every
			// 100 ms, resident (grownBytes), for ever. Each step is growth
			// on its own (rssProgressMB): with 20 MiB, a worker given little
			// CPU under load grew less than that in a timeout and was a
			// plain hang. A re-run with the heap check's shorter wait says
			// so in a file.
			if memCheck.confirming.Load() {
				once(dir, "confirming")
			}
			for {
				fakeHeld = append(fakeHeld, grownBytes(64<<20))
				time.Sleep(100 * time.Millisecond)
			}
		case mode == "printpanic":
			fmt.Fprintf(os.Stderr, "panic: recovered in handler: bad header %q\n", b) // logged, not a crash
			if len(b) >= 3 {
				os.Exit(1)
			}
		case mode == "exitlong" && len(b) >= 3:
			os.Exit(3)
		case mode == "reserve" && len(b) >= 3:
			reserveAddressSpace()
		case mode == "bigdrop" && len(b) >= 3:
			// A buffer sized from the input, never touched, dropped
			// before returning; held for 30 ms, 20 ms after the
			// execution starts: the memory check sees it mapped.
			time.Sleep(20 * time.Millisecond)
			fakeBig = make([]byte, 3<<30)
			time.Sleep(30 * time.Millisecond)
			fakeBig = nil
		case strings.HasPrefix(mode, "doubling") && len(b) >= 3:
			// Buffers that double for ever, each kept while the next is
			// made and none touched, as golang.org/x/text's UTF-16
			// decoder does on one byte (CVE-2020-14040): no resident
			// growth, and no return to be judged at. Up to 4 GiB, then
			// held, so that a worker the check misses hangs, not the
			// machine. A re-run with the heap check's shorter wait says
			// so in a file.
			if memCheck.confirming.Load() {
				once(dir, "confirming")
			}
			fakeBig = make([]byte, 64<<20)
			for len(fakeBig) < 4<<30 {
				fakeBig = append(make([]byte, 0, 2*len(fakeBig)), fakeBig[:1]...)[:2*len(fakeBig)]
			}
			fakeDoubled.Store(true)
			for {
				time.Sleep(time.Second)
			}
		case mode == "creep" && len(b) >= 3 && len(b) < 5:
			time.Sleep(500 * time.Millisecond) // past a probe, within the timeout: slow, not hanging
		case mode == "latehang" && len(b) >= 3:
			// Through reflect, as testing calls a fuzz function: a hang's
			// way in is read from the frames inside reflect.Value.call.
			reflect.ValueOf(fakeLateLoop).Call([]reflect.Value{reflect.ValueOf(len(b))})
		case (strings.Contains(mode, "hang") || mode == "creep") && len(b) >= 3:
			for {
				fakeSpin++
			}
		case mode == "slowseeds" && len(b) == 1:
			time.Sleep(200 * time.Millisecond) // the seeds: the run's time ends while they run
		case strings.Contains(mode, "slow") && !strings.Contains(mode, "slowstart") && len(b) >= 3:
			time.Sleep(300 * time.Millisecond) // slow (past a tenth of TestHangConfirmedEarly's timeout), not hanging
		}
		return nil
	}
	switch {
	case mode == "stuckserving":
		testHookStarting = func() { select {} } // fuzzbox's worker stuck before it serves
	case mode == "doublinglate":
		// The memory sampler's goroutine first runs once the input has
		// made its buffers, as it may on one processor.
		testHookSampling = func() {
			for end := time.Now().Add(10 * time.Second); !fakeDoubled.Load() && time.Now().Before(end); {
				time.Sleep(time.Millisecond)
			}
		}
	case mode == "slowstart":
		// Longer than TestSlowStartIsNoHang's 1-s timeout, which leaves
		// a loaded machine's stalls of a normal input room.
		time.Sleep(2500 * time.Millisecond)
	case strings.Contains(mode, "slowstart"):
		time.Sleep(time.Second) // a loaded machine, a slow package init
	}
	if err := RunWorker(context.Background(), fn); err != nil {
		return ipc.WorkerExitCode
	}
	return 0
}

// twoBugs returns a, the bug of odd lengths (5 and more), or b, the bug of
// even lengths (4 and more): a minimizer that kept only the failure's kind
// would turn an input that fails with a into one that fails with b.
func twoBugs(n int, a, b string) string {
	if n%2 == 1 {
		return a
	}
	return b
}

type fakeRun struct {
	events    []event.Event
	err       error
	corpusDir string
}

// dir returns the path of name in the fake run's directory, where the
// fake worker's files go (fakeDirEnv).
func (r *fakeRun) dir(name string) string {
	return filepath.Join(r.corpusDir, "..", "..", "..", name)
}

func (r *fakeRun) ofType(typ string) []event.Event {
	var out []event.Event
	for _, e := range r.events {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

// written returns the files in the run's corpus directory (testdata).
func (r *fakeRun) written(t *testing.T) []string {
	ents, err := os.ReadDir(r.corpusDir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// fakeCoordinator returns a coordinator whose workers are fake ones in
// mode, and the buffer its events go to.
func fakeCoordinator(t testing.TB, mode string, edit func(*Options)) (*coordinator, *bytes.Buffer) {
	t.Helper()
	dir := t.TempDir()
	events := new(bytes.Buffer)
	opts := Options{
		Target: "FuzzFake", Package: "example.com/fake", Parallel: 2,
		Types:            []reflect.Type{reflect.TypeOf([]byte(nil))},
		Seeds:            []Seed{{Path: "seed#0", Values: []any{[]byte{}}}},
		CorpusDir:        filepath.Join(dir, "testdata", "fuzz", "FuzzFake"),
		MinimizeDuration: time.Second,
		Log:              io.Discard, Events: events,
	}
	if edit != nil {
		edit(&opts)
	}
	c, err := newCoordinator(opts)
	if err != nil {
		t.Fatal(err)
	}
	c.command = func() (string, []string, []string) {
		return os.Args[0], []string{"-test.run=^$"}, []string{fakeModeEnv + "=" + mode, fakeDirEnv + "=" + dir}
	}
	return c, events
}

// recordCaught has a coordinator with fake workers in mode, KeepGoing and
// the options edit sets record f, caught on a live worker (inWorker) or on
// one it killed, and returns what it reported.
func recordCaught(t *testing.T, mode string, inWorker bool, f *failure, edit func(*Options)) *fakeRun {
	t.Helper()
	c, events := fakeCoordinator(t, mode, func(o *Options) {
		o.KeepGoing = true
		edit(o)
	})
	c.hard, c.cancel = context.WithCancel(context.Background())
	defer c.cancel()
	msgs := make(chan message)
	looped := make(chan struct{})
	go func() {
		c.loop(context.Background(), msgs, 1)
		close(looped)
	}()
	w := newWorker(c.setup, 0, msgs)
	var p *proc
	if inWorker {
		var err error
		if p, err = w.startRawProc(false); err != nil {
			t.Fatal(err)
		}
	}
	if p = w.recordFailure(p, f); p != nil {
		p.stop(time.Second)
	}
	w.send(gone{})
	<-looped
	return &fakeRun{corpusDir: c.opts.CorpusDir, events: decodeEvents(t, events)}
}

// runFake runs the coordinator with fake workers in mode for at most d.
func runFake(t *testing.T, mode string, d time.Duration, edit func(*Options)) *fakeRun {
	t.Helper()
	c, events := fakeCoordinator(t, mode, func(o *Options) {
		o.Duration = d
		if edit != nil {
			edit(o)
		}
	})
	err := c.run(context.Background())
	return &fakeRun{err: err, corpusDir: c.opts.CorpusDir, events: decodeEvents(t, events)}
}

// decodeEvents decodes the events in buf.
func decodeEvents(t *testing.T, buf *bytes.Buffer) []event.Event {
	t.Helper()
	var evs []event.Event
	dec := event.NewDecoder(buf)
	for {
		e, err := dec.Next()
		if err == io.EOF {
			return evs
		}
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, e)
	}
}

// TestInternalErrorsAreNotFailures makes the worker fail in each way that
// is fuzzbox's fault; each must be one internal_error event, with the run
// going on and nothing written under testdata.
func TestInternalErrorsAreNotFailures(t *testing.T) {
	for _, tc := range []struct{ mode, want string }{
		{"panic", "deliberate panic in the worker's own code"},
		{"exit70", "exit code 70"},
		{"garbage", "broke the protocol"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			// 5 s: under qemu-user (.ci/arm64.sh) on a loaded machine,
			// the restarted worker may take seconds to serve again.
			r := runFake(t, tc.mode, 5*time.Second, nil)
			if r.err != nil {
				t.Fatalf("run failed: %v", r.err)
			}
			internal := r.ofType(event.InternalError)
			if len(internal) != 1 || !strings.Contains(internal[0].Message, tc.want) {
				t.Fatalf("internal_error events = %+v, want one mentioning %q", internal, tc.want)
			}
			if f := r.ofType(event.Failure); len(f) > 0 {
				t.Errorf("failure reported for an internal error: %+v", f)
			}
			if w := r.written(t); len(w) > 0 {
				t.Errorf("files written under testdata: %v", w)
			}
			done := r.ofType(event.Done)
			if len(done) != 1 || done[0].Internal != 1 || done[0].Execs < 20 {
				t.Errorf("done = %+v, want internal 1 and the run going on (execs >= 20)", done)
			}
		})
	}
}

// TestUserExit70IsAFailure: the code under test exiting with fuzzbox's
// worker exit code (70, EX_SOFTWARE, which command-line code uses) without
// the line fuzzbox's worker prints first is the input's failure, as under
// go test -fuzz: it was 21 internal errors and the bug lost.
func TestUserExit70IsAFailure(t *testing.T) {
	r := runFake(t, "exitseventy", 20*time.Second, nil)
	if e := r.ofType(event.InternalError); len(e) > 0 {
		t.Errorf("internal errors for the code's own exit: %+v", e)
	}
	fails := r.ofType(event.Failure)
	if len(fails) != 1 || fails[0].Kind != KindExit || !strings.Contains(fails[0].Message, "exit status 70") {
		t.Fatalf("failures = %+v, want one of kind exit, exit status 70", fails)
	}
}

// TestPrintedPanicThenExit: a fuzz function that logs a line looking like
// a panic's on every input, then exits with status 1, fails with kind exit,
// as under go test -fuzz: it was a panic, its message an earlier input's
// line.
func TestPrintedPanicThenExit(t *testing.T) {
	r := runFake(t, "printpanic", 20*time.Second, nil)
	fails := r.ofType(event.Failure)
	if len(fails) != 1 || fails[0].Kind != KindExit || !strings.Contains(fails[0].Message, "exit status 1") {
		t.Fatalf("failures = %+v, want one of kind exit, exit status 1", fails)
	}
}

// TestRunContinuesAfterInternalError shows a real bug still found, and
// only it written, after the worker's own code panicked.
func TestRunContinuesAfterInternalError(t *testing.T) {
	r := runFake(t, "panic+bug", 20*time.Second, nil)
	if len(r.ofType(event.InternalError)) != 1 {
		t.Fatalf("want one internal_error, got events %+v", r.events)
	}
	fails := r.ofType(event.Failure)
	if len(fails) != 1 || !strings.Contains(fails[0].Message, "real failure") {
		t.Fatalf("failures = %+v, want the real one", fails)
	}
	if fails[0].Reruns != 1 || fails[0].Reproduced != 1 {
		t.Errorf("failure confirmed by %d of %d re-runs, want 1 of 1", fails[0].Reproduced, fails[0].Reruns)
	}
	if w := r.written(t); len(w) != 1 || filepath.Base(fails[0].Reproducer) != w[0] {
		t.Errorf("written %v, want only the reproducer %s", w, fails[0].Reproducer)
	}
	var ce interface{ CrashPath() string }
	if !errors.As(r.err, &ce) || ce.CrashPath() != fails[0].Reproducer {
		t.Errorf("run returned %v, want the crash error of %s", r.err, fails[0].Reproducer)
	}
}

// TestEndedInBaseline: a run whose time ends while it runs the seed
// corpus says so (the done event's progress and a warning): nothing was
// fuzzed. One that fuzzed says nothing of the kind.
func TestEndedInBaseline(t *testing.T) {
	seeds := make([]Seed, 40)
	for i := range seeds {
		seeds[i] = Seed{Path: fmt.Sprintf("seed#%d", i), Values: []any{[]byte{byte(i)}}}
	}
	r := runFake(t, "slowseeds", time.Second, func(o *Options) { o.Seeds = seeds })
	if r.err != nil {
		t.Fatalf("run failed: %v", r.err)
	}
	done, warns := r.ofType(event.Done), r.ofType(event.Warning)
	var ran, total int
	if len(done) != 1 || len(r.ofType(event.Start)) != 0 {
		t.Fatalf("done events %+v, start events %d: want one done, no start", done, len(r.ofType(event.Start)))
	}
	if _, err := fmt.Sscanf(done[0].Progress, "%d/%d", &ran, &total); err != nil || total < len(seeds) || ran >= total {
		t.Errorf("done event's progress %q: want fewer run than the %d seeds and more", done[0].Progress, len(seeds))
	}
	if len(warns) != 1 || warns[0].Progress != done[0].Progress || !strings.Contains(warns[0].Message, "nothing was fuzzed") {
		t.Errorf("warnings %+v: want one saying nothing was fuzzed, with progress %q", warns, done[0].Progress)
	}

	r = runFake(t, "idle", time.Second, nil)
	if done := r.ofType(event.Done); len(done) != 1 || done[0].Progress != "" || len(r.ofType(event.Warning)) != 0 {
		t.Errorf("a run that fuzzed: done events %+v, warnings %+v; want no progress, no warning", done, r.ofType(event.Warning))
	}
}

// TestFlakyFailureNotWritten: an input that fails only in a worker that has
// run many inputs does not fail again in a fresh worker.
func TestFlakyFailureNotWritten(t *testing.T) {
	r := runFake(t, "flaky", 2*time.Second, nil)
	if r.err != nil {
		t.Fatalf("run failed: %v", r.err)
	}
	flaky := r.ofType(event.Flaky)
	if len(flaky) == 0 || len(flaky) > maxFlakyReports {
		t.Fatalf("flaky events = %d, want 1..%d", len(flaky), maxFlakyReports)
	}
	if f := flaky[0]; f.Reruns != confirmRuns || f.Reproduced != 0 || f.Kind != KindFail || f.Reproducer != "" {
		t.Errorf("flaky event = %+v, want %d re-runs, none failing, kind fail, nothing written", f, confirmRuns)
	}
	if f := r.ofType(event.Failure); len(f) > 0 {
		t.Errorf("flaky input reported as a failure: %+v", f)
	}
	if w := r.written(t); len(w) > 0 {
		t.Errorf("files written under testdata: %v", w)
	}
}

// TestKeepFlakyWrites: with KeepFlaky the flaky input is written and
// reported as a failure that says so.
func TestKeepFlakyWrites(t *testing.T) {
	r := runFake(t, "flaky", 20*time.Second, func(o *Options) { o.KeepFlaky = true })
	fails := r.ofType(event.Failure)
	if len(fails) != 1 || fails[0].Reruns != confirmRuns || fails[0].Reproduced != 0 {
		t.Fatalf("failures = %+v, want one with %d re-runs and none failing", fails, confirmRuns)
	}
	if w := r.written(t); len(w) != 1 {
		t.Errorf("written %v, want the flaky reproducer", w)
	}
	if !strings.Contains(event.Format(fails[0]), "did not fail again in 3 re-runs") {
		t.Errorf("failure line %q does not say the failure is flaky", event.Format(fails[0]))
	}
}

// stoppedWhileConfirming is the confirming re-run of mode stopconfirm: it
// says it runs (a marker the test waits for before it stops the run), waits
// until the run is stopping, and dies of SIGTERM, as every process of a
// process group does when a CI job is cancelled.
func stoppedWhileConfirming(dir string) {
	once(dir, "rerun")
	waitForFile(dir, "stopped")
	self, _ := os.FindProcess(os.Getpid())
	self.Signal(syscall.SIGTERM)
	select {}
}

// waitForFile waits until dir has a file of that name.
func waitForFile(dir, name string) {
	for {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// stopWhen stops the run of c (cancel) once the fake workers' marker
// directory has a file named marker, and then writes "stopped" there.
func stopWhen(ctx context.Context, cancel context.CancelFunc, c *coordinator, marker string) {
	dir := filepath.Dir(filepath.Dir(filepath.Dir(c.opts.CorpusDir))) // the fake workers' marker directory
	// Until the marker is there, or the test ends.
	for ctx.Err() == nil {
		if _, err := os.Stat(filepath.Join(dir, marker)); err == nil {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel() // the coordinator's SIGINT
	os.WriteFile(filepath.Join(dir, "stopped"), nil, 0o644)
}

// TestStopAfterConfirmingKeepsTheBug: a failure confirmed as the run is
// being stopped (Ctrl-C while its re-run ran) is written at once, not
// minimized: minimizing it after the stop took its time, the driver
// killed the coordinator, and the bug was lost with nothing written, exit
// 0 (go test -fuzz writes it).
func TestStopAfterConfirmingKeepsTheBug(t *testing.T) {
	c, events := fakeCoordinator(t, "stopconfirmed", func(o *Options) {
		o.Parallel, o.Duration, o.MinimizeDuration = 1, 30*time.Second, 30*time.Second
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go stopWhen(ctx, cancel, c, "rerun")
	err := c.run(ctx)
	r := &fakeRun{err: err, corpusDir: c.opts.CorpusDir, events: decodeEvents(t, events)}
	fails := r.ofType(event.Failure)
	if len(fails) != 1 || fails[0].Reproduced != 1 || fails[0].Minimized != minimizedStopped {
		t.Fatalf("failures = %+v, want one, confirmed, its minimization stopped", fails)
	}
	if w := r.written(t); len(w) != 1 {
		t.Errorf("files written under testdata: %v, want its reproducer", w)
	}
}

// TestStopCutsConfirmation: a failure whose confirming re-run is killed by
// the SIGTERM that stops the run is neither flaky nor written: it is
// unconfirmed, with a warning, and its input goes to the cache, from which
// the next run reports it.
func TestStopCutsConfirmation(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGTERM")
	}
	cache := t.TempDir()
	c, events := fakeCoordinator(t, "stopconfirm", func(o *Options) {
		o.Parallel, o.CacheDir, o.Duration = 1, cache, 30*time.Second
	})
	dir := filepath.Dir(filepath.Dir(filepath.Dir(c.opts.CorpusDir))) // the fake workers' marker directory
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for ctx.Err() == nil { // until the re-run runs, or the test ends
			if _, err := os.Stat(filepath.Join(dir, "rerun")); err == nil {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		cancel() // the coordinator's SIGTERM
		os.WriteFile(filepath.Join(dir, "stopped"), nil, 0o644)
	}()
	err := c.run(ctx)
	r := &fakeRun{err: err, corpusDir: c.opts.CorpusDir, events: decodeEvents(t, events)}
	if err != nil {
		t.Fatalf("run returned %v, want no failure", err)
	}
	if f := append(r.ofType(event.Failure), r.ofType(event.Flaky)...); len(f) > 0 {
		t.Fatalf("an unconfirmed failure was reported: %+v", f)
	}
	if w := r.written(t); len(w) > 0 {
		t.Errorf("files written under testdata: %v", w)
	}
	warns := r.ofType(event.Warning)
	if len(warns) != 1 || warns[0].Kind != KindFail || !strings.Contains(warns[0].Message, "unconfirmed fail failure: real failure") ||
		!strings.Contains(warns[0].Message, "the run was stopped") || filepath.Dir(warns[0].Reproducer) != cache {
		t.Fatalf("warnings = %+v, want one for the unconfirmed failure, its input in %s", warns, cache)
	}
	kept, err := os.ReadFile(warns[0].Reproducer)
	if err != nil {
		t.Fatal(err)
	}

	// The next run reports it from the cache, confirmed.
	r = runFake(t, "bug", 20*time.Second, func(o *Options) { o.Parallel, o.CacheDir, o.MinimizeDuration = 1, cache, 0 })
	fails := r.ofType(event.Failure)
	if len(fails) != 1 || fails[0].Reproduced != 1 {
		t.Fatalf("failures of the next run = %+v, want one, confirmed", fails)
	}
	if got, err := os.ReadFile(fails[0].Reproducer); err != nil || !bytes.Equal(got, kept) {
		t.Errorf("next run's reproducer = %q (%v), want the kept input %q", got, err, kept)
	}
}

// TestKilledFromOutsideEveryTime: an input whose worker is killed by
// SIGKILL every time (here the fake worker kills itself, as code that
// kills its own process would) is reported once the fresh worker's re-run
// is killed too: as an exit, since the kernel's count of OOM kills did not
// change, or as a likely oom where that count cannot be read. (It once
// re-ran the input without end: this test then hangs.) The kernel's own
// OOM killer: cmd/fuzzbox's TestCgroupOOM.
func TestKilledFromOutsideEveryTime(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no signals")
	}
	r := runFake(t, "oomkilled", 5*time.Second, func(o *Options) { o.Parallel = 1 })
	fails := r.ofType(event.Failure)
	wantKind, wantMsg := KindExit, "neither fuzzbox nor the kernel's OOM killer"
	if _, ok := oomKills(); !ok {
		wantKind, wantMsg = KindOOM, "most likely the kernel's OOM killer"
	}
	if len(fails) != 1 || fails[0].Kind != wantKind || fails[0].Reproduced != 1 || !strings.Contains(fails[0].Message, wantMsg) {
		t.Fatalf("failures = %+v, want one %s, confirmed, saying %q", fails, wantKind, wantMsg)
	}
	data, err := os.ReadFile(fails[0].Reproducer)
	if err != nil {
		t.Fatal(err)
	}
	if vals, err := corpus.Unmarshal(data); err != nil || len(vals[0].([]byte)) < 3 {
		t.Errorf("reproducer %q: want an input of 3 bytes or more (%v)", data, err)
	}
}

// TestMinimizeDeath: a failure that kills its worker is minimized in fresh
// workers, keeping its kind.
func TestMinimizeDeath(t *testing.T) {
	r := runFake(t, "exit3", 20*time.Second, func(o *Options) { o.MinimizeDuration = 10 * time.Second })
	fails := r.ofType(event.Failure)
	if len(fails) != 1 || fails[0].Kind != KindExit {
		t.Fatalf("failures = %+v, want one of kind exit", fails)
	}
	data, err := os.ReadFile(fails[0].Reproducer)
	if err != nil {
		t.Fatal(err)
	}
	vals, err := corpus.Unmarshal(data)
	if err != nil || len(vals) != 1 || len(vals[0].([]byte)) != 3 {
		t.Errorf("reproducer %q: want an input of exactly 3 bytes (%v)", data, err)
	}
	// The failure's minimizing event has its kind; a statistics tick while
	// minimization runs (under qemu-user it can take over 3 s) is a
	// minimizing event without one.
	var minimizing int
	for _, e := range r.ofType(event.Minimizing) {
		if e.Kind != "" {
			minimizing++
		}
	}
	if m := fails[0].Minimized; m != minimizedYes && !(m == minimizedNo && minimizing == 1) {
		t.Errorf("minimized = %q", m)
	}
	if minimizing != 1 {
		t.Errorf("want one minimizing event of the failure: %+v", r.events)
	}
}

// TestExitZeroMarked: an input that ends the process with exit status 0
// while the fuzz function runs is an exit failure marked exit_zero (go test
// -run passes its reproducer: the driver does not replay it); one of
// another status is not marked.
func TestExitZeroMarked(t *testing.T) {
	for _, tc := range []struct {
		mode string
		zero bool
	}{{"exit0", true}, {"exit3", false}} {
		r := runFake(t, tc.mode, 20*time.Second, func(o *Options) { o.MinimizeDuration = 0 })
		fails := r.ofType(event.Failure)
		if len(fails) != 1 || fails[0].Kind != KindExit || fails[0].ExitZero != tc.zero {
			t.Errorf("%s: failures %+v, want one exit failure with exit_zero %v", tc.mode, fails, tc.zero)
		}
	}
}

// TestMinimizingPastEnd: a minimization that goes on after the run's time
// is up (it has -fuzzminimizetime of its own) is not silent: the
// statistics interval's minimizing events go on, saying why.
func TestMinimizingPastEnd(t *testing.T) {
	r := runFake(t, "slowbug", time.Second, func(o *Options) { o.MinimizeDuration = 20 * time.Second })
	fails := r.ofType(event.Failure)
	if len(fails) != 1 {
		t.Fatalf("failures = %+v, want one", fails)
	}
	var past []event.Event
	for _, e := range r.ofType(event.Minimizing) {
		if e.Message == minimizingPastEnd {
			past = append(past, e)
		}
	}
	if len(past) == 0 || past[0].Elapsed < 1000 {
		t.Fatalf("no minimizing event after the run's second saying it goes on (failure at %d ms): %+v", fails[0].Elapsed, r.events)
	}
	if line := event.Format(past[0]); !strings.Contains(line, "minimizing (the run's time is up; a failure found is being minimized, for up to -fuzzminimizetime)") {
		t.Errorf("its line: %s", line)
	}
}

// TestStopDuringMinimization: a failure whose minimization the run's stop
// (Ctrl-C) cut is written as far as it got, and says it was stopped, not
// that nothing smaller was found.
func TestStopDuringMinimization(t *testing.T) {
	started := make(chan struct{})
	c, events := fakeCoordinator(t, "slowbug", func(o *Options) {
		o.Duration, o.MinimizeDuration = 30*time.Second, 30*time.Second
		o.Events = &signalWriter{w: o.Events, want: [][]byte{[]byte(`"type":"minimizing"`), []byte(`"kind":"fail"`)}, c: started}
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-started:
		case <-time.After(time.Minute):
		}
		cancel() // the coordinator's SIGINT
	}()
	c.run(ctx)
	r := &fakeRun{corpusDir: c.opts.CorpusDir, events: decodeEvents(t, events)}
	fails := r.ofType(event.Failure)
	if len(fails) != 1 || fails[0].Minimized != minimizedStopped || fails[0].Reproducer == "" {
		t.Fatalf("failures = %+v, want one, written, its minimization stopped", fails)
	}
	if line := event.Format(fails[0]); !strings.Contains(line, "minimization was stopped with the run") {
		t.Errorf("the failure line does not say so: %s", line)
	}
}

// A signalWriter closes c once a write holds every one of want.
type signalWriter struct {
	w    io.Writer
	want [][]byte
	c    chan struct{}
	once sync.Once
}

func (s *signalWriter) Write(p []byte) (int, error) {
	n, err := s.w.Write(p)
	for _, w := range s.want {
		if !bytes.Contains(p, w) {
			return n, err
		}
	}
	s.once.Do(func() { close(s.c) })
	return n, err
}

// TestMinimizeCutShort: a minimization whose budget is spent says so.
func TestMinimizeCutShort(t *testing.T) {
	r := runFake(t, "hang", 20*time.Second, func(o *Options) {
		o.Timeout, o.MinimizeDuration = 300*time.Millisecond, time.Nanosecond
	})
	fails := r.ofType(event.Failure)
	if len(fails) != 1 || fails[0].Kind != KindHang || fails[0].Minimized != minimizedCutShort {
		t.Fatalf("failures = %+v, want one hang whose minimization was cut short; events %+v", fails, r.events)
	}
	if !strings.Contains(event.Format(fails[0]), "minimization was cut short") {
		t.Errorf("the failure line does not say so: %s", event.Format(fails[0]))
	}
}

// TestHangStacks: a hang's report has the stack of the goroutine that hangs.
// With GODEBUG=dontfreezetheworld=1 the runtime's own SIGQUIT report never
// has it (a goroutine running on another thread is "stack unavailable"), as
// happens on a loaded machine when the thread does not run within the few
// milliseconds the runtime waits; the worker's report (quit.go) stops the
// world.
func TestHangStacks(t *testing.T) {
	t.Setenv("GODEBUG", "dontfreezetheworld=1")
	r := runFake(t, "hang", 20*time.Second, func(o *Options) {
		o.Timeout, o.MinimizeDuration = 300*time.Millisecond, time.Nanosecond
	})
	fails := r.ofType(event.Failure)
	if len(fails) != 1 || fails[0].Kind != KindHang {
		t.Fatalf("failures = %+v, want one hang; events %+v", fails, r.events)
	}
	msg := fails[0].Message
	if !strings.Contains(msg, "engine.fakeWorker.func") || strings.Contains(msg, stackUnavailable) || !strings.Contains(msg, quitHeader) {
		t.Errorf("the hang's report lacks the stack of the spinning goroutine:\n%s", msg)
	}
}

// TestHangConfirmedEarly: a hang is confirmed by the re-run started when
// its execution had run a tenth of the timeout, not by one started after
// the watchdog's kill; slow inputs that end start such re-runs and are
// never reported. One worker leaves a processor for them (GOMAXPROCS 2 or
// more, as on CI).
func TestHangConfirmedEarly(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one processor: no early confirmation beside a worker")
	}
	confirmed := earlyCounts.confirmed.Load()
	r := runFake(t, "hang", 30*time.Second, func(o *Options) {
		o.Timeout, o.MinimizeDuration, o.Parallel = time.Second, time.Nanosecond, 1
	})
	fails := r.ofType(event.Failure)
	if len(fails) != 1 || fails[0].Kind != KindHang || fails[0].Reruns != 1 || fails[0].Reproduced != 1 {
		t.Fatalf("failures = %+v, want one hang confirmed by one re-run", fails)
	}
	if n := earlyCounts.confirmed.Load() - confirmed; n != 1 {
		t.Errorf("%d hangs confirmed early, want 1", n)
	}
	started := earlyCounts.started.Load()
	// A stall of the loaded machine may still make one look hung (a flaky
	// event: its re-runs end); none is a failure.
	r = runFake(t, "slow", 4*time.Second, func(o *Options) { o.Timeout, o.Parallel = 2*time.Second, 1 })
	for _, typ := range []string{event.Failure, event.InternalError} {
		if e := r.ofType(typ); len(e) > 0 {
			t.Errorf("%s events for slow inputs: %+v", typ, e)
		}
	}
	if earlyCounts.started.Load() == started {
		t.Error("no slow input started an early confirmation")
	}
}

// TestGrowingConfirmedEarly: an execution whose memory grows by a tenth of
// the limit starts its early confirmation, long before a tenth of the
// timeout, and growth is no end: the early run goes on and confirms the oom
// it ends in (cancelled at each step of growth, it confirmed nothing, and
// the re-run began only after the first worker reached the limit).
func TestGrowingConfirmedEarly(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one processor: no early confirmation beside a worker")
	}
	confirmed := earlyCounts.confirmed.Load()
	r := runFake(t, "grow", 30*time.Second, func(o *Options) {
		o.Timeout, o.MinimizeDuration, o.RSSLimitMB, o.Parallel = 20*time.Second, time.Nanosecond, 768, 1
	})
	fails := r.ofType(event.Failure)
	// Under qemu, the input may grow too slowly to reach the limit within
	// the timeout's bound: a hang that grew, which the early run confirms
	// as well.
	if len(fails) != 1 || fails[0].Kind != KindOOM && !grewHang(fails[0].Kind, fails[0].Message) || fails[0].Reruns != 1 || fails[0].Reproduced != 1 {
		t.Fatalf("failures = %+v, want one oom (or a hang that grew) confirmed by one re-run", fails)
	}
	if n := earlyCounts.confirmed.Load() - confirmed; n != 1 {
		t.Errorf("%d failures confirmed early, want 1", n)
	}
}

// TestNoEarlyBesideBusyWorkers: with a worker on every processor, a slow
// input starts no early confirmation (it would take processor time from
// the execution it confirms); a hang is still confirmed, by the re-run
// after the watchdog's kill.
func TestNoEarlyBesideBusyWorkers(t *testing.T) {
	started, confirmed := earlyCounts.started.Load(), earlyCounts.confirmed.Load()
	r := runFake(t, "slow", 4*time.Second, func(o *Options) { o.Timeout, o.Parallel = 2*time.Second, runtime.GOMAXPROCS(0) })
	if n := earlyCounts.started.Load() - started; n != 0 {
		t.Errorf("%d early confirmations started beside %d busy workers, want none", n, runtime.GOMAXPROCS(0))
	}
	for _, typ := range []string{event.Failure, event.InternalError} {
		if e := r.ofType(typ); len(e) > 0 {
			t.Errorf("%s events for slow inputs: %+v", typ, e)
		}
	}
	r = runFake(t, "hang", 30*time.Second, func(o *Options) {
		o.Timeout, o.MinimizeDuration, o.Parallel = time.Second, time.Nanosecond, runtime.GOMAXPROCS(0)
	})
	fails := r.ofType(event.Failure)
	if len(fails) != 1 || fails[0].Kind != KindHang || fails[0].Reproduced != 1 {
		t.Fatalf("failures = %+v, want one hang confirmed by a re-run", fails)
	}
	if n := earlyCounts.confirmed.Load() - confirmed; n != 0 {
		t.Errorf("%d hangs confirmed early beside busy workers, want 0", n)
	}
}

// TestTakeCPU: an early run takes a processor only while one is left
// beside the workers and the early runs already running.
func TestTakeCPU(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	if !takeCPU(procs - 1) {
		t.Fatalf("takeCPU(%d) with %d processors = false, want one left", procs-1, procs)
	}
	if takeCPU(procs - 1) {
		t.Error("a second early run took the processor the first has")
	}
	earlyCounts.running.Add(-1) // the first ends
	if takeCPU(procs) {
		t.Errorf("takeCPU(%d) with %d processors = true, want none left", procs, procs)
	}
	if !takeCPU(procs - 1) {
		t.Error("the processor was not given back")
	}
	earlyCounts.running.Add(-1)
}

// fakeHeld keeps the "grow" mode's allocations.
var fakeHeld [][]byte

// fakeBig holds the "bigdrop" mode's buffer while its execution runs.
var fakeBig []byte

// fakeDoubled is set once the "doubling" modes' buffers are made.
var fakeDoubled atomic.Bool

// TestHeldInHeapIsOOM: an execution that keeps more than -rss_limit_mb in
// the heap, untouched and without returning, is an oom within a second or
// so, confirmed. With the memory check as it was, its resident memory
// never grew and it was a hang at the timeout; x/text's UTF-16 decoder,
// whose pages are touched slowly, took 17–25 s to reach the limit.
func TestHeldInHeapIsOOM(t *testing.T) {
	r := runFake(t, "doubling", 2*time.Second, func(o *Options) {
		o.Timeout, o.MinimizeDuration, o.RSSLimitMB, o.Parallel = 20*time.Second, time.Nanosecond, 512, 1
	})
	fails := r.ofType(event.Failure)
	if len(fails) != 1 || fails[0].Kind != KindOOM || fails[0].Reproduced != 1 {
		t.Fatalf("failures = %+v, want one oom confirmed by a re-run", fails)
	}
	// Under the race detector the buffers' shadow memory is resident, and
	// the watchdog's check of it may come first: an oom all the same.
	if msg := fails[0].Message; !raceEnabled && (!strings.Contains(msg, "in the heap for") || !strings.Contains(msg, "coordinator_test.go")) {
		t.Errorf("message = %q, want the heap held and the allocating stack", msg)
	}
	if _, err := os.Stat(r.dir("confirming")); strings.Contains(fails[0].Message, "in the heap for") && err != nil {
		t.Errorf("the re-run of an oom of the heap check did not have the shorter wait (ipc.RunArgs.HeldOOM): %v", err)
	}
}

// TestHeldInHeapConfirmedEarly: an early run of an input whose oom the
// first worker's heap check reported is told so, while it runs, and its
// check then waits confirmHeld, as a re-run started after the oom would
// (ipc.Mem.SetHeld): under the full wait, the early run confirmed x/text's
// UTF-16 decoder later than a re-run begun after the oom.
func TestHeldInHeapConfirmedEarly(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 || raceEnabled {
		t.Skip("one processor, or the race detector's resident shadow memory: no early confirmation of the heap check")
	}
	confirmed, short := earlyCounts.confirmed.Load(), earlyCounts.heldShort.Load()
	r := runFake(t, "doubling", 10*time.Second, func(o *Options) {
		o.Timeout, o.MinimizeDuration, o.RSSLimitMB, o.Parallel = 2*time.Second, time.Nanosecond, 512, 1
	})
	fails := r.ofType(event.Failure)
	if len(fails) != 1 || fails[0].Kind != KindOOM || fails[0].Reproduced != 1 {
		t.Fatalf("failures = %+v, want one oom confirmed by a re-run", fails)
	}
	if !strings.Contains(fails[0].Message, heldInHeap) {
		t.Skipf("the oom was not the heap check's: %.80q", fails[0].Message)
	}
	if n := earlyCounts.confirmed.Load() - confirmed; n != 1 {
		t.Fatalf("%d failures confirmed early, want 1", n)
	}
	if n := earlyCounts.heldShort.Load() - short; n != 1 {
		t.Errorf("%d early runs confirmed the heap check's oom after the shorter wait, want 1", n)
	}
}

// TestHeldInHeapSamplerLate: the memory sampler measures an input from
// the heap before it, even when the sampler's goroutine first runs after
// the input made its buffers. When the goroutine took its bases itself, an
// input that ran before it was measured from its own buffers, never over
// the limit: a hang at the timeout, in one run of TestHeldInHeapIsOOM in
// 12 on Go 1.27 (none in 60 of a build that logged its first samples).
func TestHeldInHeapSamplerLate(t *testing.T) {
	r := runFake(t, "doublinglate", 2*time.Second, func(o *Options) {
		o.Timeout, o.MinimizeDuration, o.RSSLimitMB, o.Parallel = 20*time.Second, time.Nanosecond, 512, 1
	})
	if fails := r.ofType(event.Failure); len(fails) != 1 || fails[0].Kind != KindOOM || fails[0].Reproduced != 1 {
		t.Fatalf("failures = %+v, want one oom confirmed by a re-run", fails)
	}
}

// TestResidentOOMConfirmWait: an oom of resident memory is confirmed
// under the heap check's full wait: the shorter one is for ooms of the heap
// check alone, whose first worker waited it out (ipc.RunArgs.HeldOOM).
func TestResidentOOMConfirmWait(t *testing.T) {
	r := runFake(t, "grow", 2*time.Second, func(o *Options) {
		o.Timeout, o.MinimizeDuration, o.RSSLimitMB, o.Parallel = 20*time.Second, time.Nanosecond, 256, 1
	})
	fails := r.ofType(event.Failure)
	if len(fails) != 1 || fails[0].Kind != KindOOM || fails[0].Reproduced != 1 || strings.Contains(fails[0].Message, "in the heap for") {
		t.Fatalf("failures = %+v, want one oom of resident memory confirmed by a re-run", fails)
	}
	if _, err := os.Stat(r.dir("confirming")); err == nil {
		t.Errorf("the re-run of an oom of resident memory had the heap check's shorter wait")
	}
}

// TestGrowingSlowInputIsHang: an execution whose memory keeps growing, but
// too slowly to reach -rss_limit_mb within growthTimeouts timeouts, is a
// hang at the timeout, confirmed, and the run ends then, not when the input
// would have reached the limit (an oom) or ended. Without a bound, this
// input ran on until its worker passed the 3-GiB limit (15 s); with the
// bound alone, to twice the timeout.
func TestGrowingSlowInputIsHang(t *testing.T) {
	start := time.Now()
	r := runFake(t, "grow", 2*time.Second, func(o *Options) {
		o.Timeout, o.MinimizeDuration, o.RSSLimitMB, o.Parallel = 500*time.Millisecond, time.Nanosecond, 3072, 1
	})
	fails := r.ofType(event.Failure)
	if len(fails) != 1 || fails[0].Kind != KindHang || fails[0].Reproduced != 1 {
		t.Fatalf("failures = %+v, want one hang confirmed by a re-run (after %v)", fails, time.Since(start))
	}
	// The message says why an input whose memory grew is a hang, not
	// "longer than the timeout": at 64 MiB per 100 ms, it would reach the
	// limit after 4 s (or, on a machine too loaded to grow it, had not
	// grown for a second).
	msg := event.FirstLine(fails[0].Message)
	if !strings.Contains(msg, whileGrew) || !strings.Contains(msg, "past the timeout of 500ms") {
		t.Errorf("message = %q, want it to say the input's memory grew past the timeout", msg)
	}
}

// TestSlowStartIsNoHang: a worker that takes longer than the per-input
// timeout to start is not hanging; a real hang is still found, confirmed and
// minimized by such workers.
func TestSlowStartIsNoHang(t *testing.T) {
	r := runFake(t, "slowstart", 6*time.Second, func(o *Options) { o.Timeout = time.Second })
	if r.err != nil {
		t.Fatalf("run failed: %v", r.err)
	}
	for _, typ := range []string{event.Failure, event.Flaky, event.InternalError} {
		if e := r.ofType(typ); len(e) > 0 {
			t.Errorf("%s events for a slow start: %+v", typ, e)
		}
	}
	r = runFake(t, "slowstart+hang", 60*time.Second, func(o *Options) {
		o.Timeout, o.MinimizeDuration = 300*time.Millisecond, 30*time.Second
	})
	fails := r.ofType(event.Failure)
	if len(fails) != 1 || fails[0].Kind != KindHang || fails[0].Reproduced != 1 {
		t.Fatalf("failures = %+v, want one confirmed hang", fails)
	}
	// The hang caught may already be of 3 bytes: then nothing is smaller.
	checkHang3(t, fails[0], minimizedYes, minimizedNo)

	// From a 5-byte hang, slow-starting workers minimize for sure.
	fails = recordCaught(t, "slowstart+hang", false, &failure{kind: KindHang, msg: "hang", vals: []any{[]byte("12345")}},
		func(o *Options) { o.Timeout, o.MinimizeDuration = 300*time.Millisecond, 30*time.Second }).ofType(event.Failure)
	if len(fails) != 1 || fails[0].Kind != KindHang || fails[0].Reproduced != 1 {
		t.Fatalf("failures = %+v, want one confirmed hang", fails)
	}
	checkHang3(t, fails[0], minimizedYes)
}

// TestHangMinimizedByProbes: a hang's candidates count as hanging once they
// have run a tenth of the timeout, and the smallest is adopted when a fresh
// worker runs it past the whole timeout.
func TestHangMinimizedByProbes(t *testing.T) {
	probes := probeKills.Load()
	fails := recordCaught(t, "hang", false, &failure{kind: KindHang, msg: "hang", vals: []any{[]byte("123456789")}},
		func(o *Options) { o.Timeout, o.MinimizeDuration = 2*time.Second, time.Minute }).ofType(event.Failure)
	if len(fails) != 1 || fails[0].Kind != KindHang || fails[0].Reproduced != 1 {
		t.Fatalf("failures = %+v, want one confirmed hang", fails)
	}
	checkHang3(t, fails[0], minimizedYes)
	if probeKills.Load() == probes {
		t.Error("no smaller input was found by a probe: every round waited for the whole timeout")
	}
}

// TestHangProbeTakesNoSlowInput: inputs of 3 and 4 bytes run past a probe
// but end within the timeout, longer ones hang. The probes' 3-byte input
// does not hang in a fresh worker, so minimization goes on at the whole
// timeout and ends at 5 bytes.
func TestHangProbeTakesNoSlowInput(t *testing.T) {
	probes := probeKills.Load()
	fails := recordCaught(t, "creep", false, &failure{kind: KindHang, msg: "hang", vals: []any{[]byte("123456789")}},
		func(o *Options) { o.Timeout, o.MinimizeDuration = time.Second, time.Minute }).ofType(event.Failure)
	if len(fails) != 1 || fails[0].Kind != KindHang || fails[0].Minimized != minimizedYes {
		t.Fatalf("failures = %+v, want one minimized hang", fails)
	}
	data, err := os.ReadFile(fails[0].Reproducer)
	if err != nil {
		t.Fatal(err)
	}
	if vals, err := corpus.Unmarshal(data); err != nil || len(vals[0].([]byte)) != 5 {
		t.Errorf("reproducer %q: want the 5-byte hang, not a slow input (%v)", data, err)
	}
	if probeKills.Load() == probes {
		t.Error("the probes took no input")
	}
}

// TestHangLateLoopMinimized: inputs of 3 and 4 bytes hang only after a
// warm-up longer than a probe (a slow machine's way to the loop), longer
// ones at once. The probes refuse the short ones for their way in; the
// whole timeout takes them, and minimization ends at 3 bytes.
func TestHangLateLoopMinimized(t *testing.T) {
	msg := "fuzzbox: hang: the input ran longer than the timeout of 2s; goroutine stacks:\ngoroutine 9 [running]:\n" +
		"github.com/fuzzbox/fuzzbox/engine.fakeLateLoop(0x9)\n\t/x/coordinator_test.go:1 +0x1\n" +
		"reflect.Value.call({0x1, 0x2, 0x13}, {0x3, 0x4}, {0x5, 0x1, 0x1})\n\t/go/src/reflect/value.go:586 +0xf0c\n"
	if way := hangFrames(msg); len(way) != 1 {
		t.Fatalf("hangFrames of the failure = %q, want fakeLateLoop", way)
	}
	fails := recordCaught(t, "latehang", false, &failure{kind: KindHang, msg: msg, vals: []any{[]byte("123456789")}},
		func(o *Options) { o.Timeout, o.MinimizeDuration = 2*time.Second, time.Minute }).ofType(event.Failure)
	if len(fails) != 1 || fails[0].Kind != KindHang || fails[0].Reproduced != 1 {
		t.Fatalf("failures = %+v, want one confirmed hang", fails)
	}
	checkHang3(t, fails[0], minimizedYes)
}

// checkHang3 checks that f's reproducer is an input of exactly 3 bytes and
// that its minimization ended one of the ways given.
func checkHang3(t *testing.T, f event.Event, minimized ...string) {
	t.Helper()
	data, err := os.ReadFile(f.Reproducer)
	if err != nil {
		t.Fatal(err)
	}
	if vals, err := corpus.Unmarshal(data); err != nil || len(vals[0].([]byte)) != 3 {
		t.Errorf("reproducer %q: want an input of exactly 3 bytes (%v)", data, err)
	}
	if !slices.Contains(minimized, f.Minimized) {
		t.Errorf("minimized = %q, want one of %q", f.Minimized, minimized)
	}
}

// TestWorkerNeverStarts: a worker that does not start within its
// startLimit is never the input's failure. Still in the test's code before
// f.Fuzz (here a sleep: a lock the first process holds), it is the fuzz
// test's, which stops the run saying where the worker was; stuck in
// fuzzbox's worker, an internal error. The limit grows with how long the
// first process took to reach fuzzing.
func TestWorkerNeverStarts(t *testing.T) {
	defer func(d time.Duration) { startTimeout = d }(startTimeout)
	startTimeout = 200 * time.Millisecond
	// The fake worker waits in its TestMain, the engine package's: the
	// code under test's when that is the package fuzzed.
	r := runFake(t, "slowstart", 3*time.Second, func(o *Options) { o.Parallel, o.Package = 1, "github.com/fuzzbox/fuzzbox/engine" })
	if f := r.ofType(event.Failure); len(f) > 0 {
		t.Errorf("failure reported for a worker that did not start: %+v", f)
	}
	if e := r.ofType(event.InternalError); len(e) > 0 {
		t.Errorf("internal error for a worker stuck in the test's code: %+v", e)
	}
	done := r.ofType(event.Done)
	if len(done) != 1 || !strings.Contains(done[0].StartFailed, "did not finish within 0s in a fuzzing worker process") || !strings.Contains(done[0].StartFailed, "time.Sleep") {
		t.Errorf("done events = %+v, want the start failed, saying where the worker was", done)
	}

	// Stuck in fuzzbox's serving, or in fuzzbox's code before it serves
	// (the same wait, in a package that is not the one fuzzed): fuzzbox's.
	for _, mode := range []string{"stuckserving", "slowstart"} {
		r = runFake(t, mode, 3*time.Second, func(o *Options) { o.Parallel = 1 })
		internal := r.ofType(event.InternalError)
		if len(internal) == 0 || !strings.Contains(internal[0].Message, "did not start within 0s") {
			t.Errorf("%s: internal_error events = %+v, want one saying the worker did not start", mode, internal)
		}
		if done := r.ofType(event.Done); len(done) != 1 || done[0].StartFailed != "" {
			t.Errorf("%s: done events = %+v, want no start failure of the fuzz test", mode, done)
		}
	}

	s := &setup{opts: Options{Parallel: 1, Setup: time.Second}}
	if got := s.startLimit(); got != 3*time.Second {
		t.Errorf("startLimit after a 1-s set-up = %v, want 3s", got)
	}
}

// TestInputModifiedWarning: a fuzz function that changes its []byte input
// gets one warning per run, with the input saved to the cache, and no
// failure.
func TestInputModifiedWarning(t *testing.T) {
	cache := t.TempDir()
	r := runFake(t, "modify", 2*time.Second, func(o *Options) { o.CacheDir = cache })
	if r.err != nil {
		t.Fatalf("run failed: %v", r.err)
	}
	w := r.ofType(event.Warning)
	if len(w) != 1 || !strings.Contains(w[0].Message, "changed its []byte argument 1") || filepath.Dir(w[0].Reproducer) != cache {
		t.Fatalf("warnings = %+v, want one naming argument 1 with the input in %s", w, cache)
	}
	data, err := os.ReadFile(w[0].Reproducer)
	if err != nil {
		t.Fatal(err)
	}
	if vals, err := corpus.Unmarshal(data); err != nil || len(vals[0].([]byte)) < 2 {
		t.Errorf("saved input %q: want the input as it was before the change (%v)", data, err)
	}
	if len(r.ofType(event.Failure))+len(r.ofType(event.Flaky)) > 0 || len(r.written(t)) > 0 {
		t.Errorf("the change was reported as a failure: %+v", r.events)
	}
}

// TestMinimizeKeepsTheBug: minimization keeps where a failure happens, not
// only its kind, both in the worker (a recovered panic) and in fresh
// workers (a runtime fatal error that kills each). Both start from a
// 9-byte input caught failing with the odd-length bug: shrinking keeps it
// at 5 bytes, where keeping only the kind would end at the 4-byte input of
// the other bug.
func TestMinimizeKeepsTheBug(t *testing.T) {
	nine := []any{[]byte("123456789")}
	for _, tc := range []struct {
		mode, kind, caught string
		inWorker           bool // the failure leaves its worker alive
		want, other        string
	}{
		{"twopanics", KindPanic, twoBugs(9, recoveredPanic("runtime error: index out of range [-1]", "example.com/m.parseA", "5"), ""),
			true, "example.com/m.parseA", "nil pointer dereference"},
		{"twofatals", KindFatal, twoBugs(9, mapWrites("example.com/m.parseA", "5"), ""),
			false, "concurrent map writes", "stack overflow"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			r := recordCaught(t, tc.mode, tc.inWorker, &failure{kind: tc.kind, msg: cleanMessage(tc.caught), vals: nine},
				func(o *Options) { o.MinimizeDuration = 10 * time.Second })
			fails := r.ofType(event.Failure)
			if len(fails) != 1 || fails[0].Kind != tc.kind || fails[0].Minimized != minimizedYes {
				t.Fatalf("failures = %+v, want one minimized %s; events %+v", fails, tc.kind, r.events)
			}
			if m := fails[0].Message; !strings.Contains(m, tc.want) || strings.Contains(m, tc.other) {
				t.Errorf("written failure is not the one caught (want %q, not %q):\n%s", tc.want, tc.other, m)
			}
			data, err := os.ReadFile(fails[0].Reproducer)
			if err != nil {
				t.Fatal(err)
			}
			if vals, err := corpus.Unmarshal(data); err != nil || len(vals[0].([]byte)) != 5 {
				t.Errorf("reproducer %q: want the 5-byte input (%v)", data, err)
			}
		})
	}
}

// TestMinimizeDeathRefused: when the fresh re-run refuses what death
// minimization shrank to, the report keeps the caught input and its own
// message, not the message of the refused candidate.
func TestMinimizeDeathRefused(t *testing.T) {
	r := recordCaught(t, "lateexit", false, &failure{kind: KindExit, msg: "exiting on a long input (as caught)", vals: []any{[]byte("123456789")}},
		func(o *Options) { o.MinimizeDuration = 10 * time.Second })
	fails := r.ofType(event.Failure)
	if len(fails) != 1 || fails[0].Kind != KindExit || fails[0].Minimized != minimizedNo {
		t.Fatalf("failures = %+v, want one exit, not minimized; events %+v", fails, r.events)
	}
	if m := fails[0].Message; !strings.Contains(m, "exiting on a long input") || strings.Contains(m, "short input") {
		t.Errorf("the message is not the written input's own:\n%s", m)
	}
	data, err := os.ReadFile(fails[0].Reproducer)
	if err != nil {
		t.Fatal(err)
	}
	if vals, err := corpus.Unmarshal(data); err != nil || string(vals[0].([]byte)) != "123456789" {
		t.Errorf("reproducer %q: want the caught input (%v)", data, err)
	}
}

// TestMinimizeRefusesKillers: a candidate that kills the worker another
// way does not end a minimization; a fresh worker goes on past it. From
// "123456789", failing (inputs of 3 bytes or more starting with '1'), the
// first smaller candidate, "56789", kills the worker; the minimization
// still ends at 3 bytes, both for a failure that kills the worker (exit,
// the candidate dies of a stack overflow) and for one that does not (a
// returned error, the candidate exits).
func TestMinimizeRefusesKillers(t *testing.T) {
	for _, tc := range []struct {
		mode, kind string
		inWorker   bool
	}{
		{"exitorfatal", KindExit, false},
		{"failorexit", KindFail, true},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			r := recordCaught(t, tc.mode, tc.inWorker, &failure{kind: tc.kind, msg: "caught", vals: []any{[]byte("123456789")}},
				func(o *Options) { o.MinimizeDuration = 20 * time.Second })
			fails := r.ofType(event.Failure)
			if len(fails) != 1 || fails[0].Kind != tc.kind || fails[0].Minimized != minimizedYes {
				t.Fatalf("failures = %+v, want one minimized %s; events %+v", fails, tc.kind, r.events)
			}
			data, err := os.ReadFile(fails[0].Reproducer)
			if err != nil {
				t.Fatal(err)
			}
			if vals, err := corpus.Unmarshal(data); err != nil || len(vals[0].([]byte)) != 3 || vals[0].([]byte)[0] != '1' {
				t.Errorf("reproducer %q: want 3 bytes starting with '1' (%v)", data, err)
			}
			if e := r.ofType(event.InternalError); len(e) > 0 {
				t.Errorf("internal errors: %+v", e)
			}
		})
	}
}

// TestRefuseKiller: the killer is the n-th candidate a worker ran, counting
// past those it refused.
func TestRefuseKiller(t *testing.T) {
	for _, tc := range []struct {
		refuse []int64
		n      int64
		want   []int64
	}{
		{nil, 1, []int64{0}},
		{nil, 5, []int64{4}},
		{[]int64{2}, 2, []int64{1, 2}},
		{[]int64{2}, 3, []int64{2, 3}},
		{[]int64{0, 1}, 1, []int64{0, 1, 2}},
		{[]int64{1, 4}, 4, []int64{1, 4, 5}},
		{[]int64{1, 4}, 3, []int64{1, 3, 4}},
	} {
		if got := refuseKiller(slices.Clone(tc.refuse), tc.n); !slices.Equal(got, tc.want) {
			t.Errorf("refuseKiller(%v, %d) = %v, want %v", tc.refuse, tc.n, got, tc.want)
		}
	}
}

// TestRunStopsWhenEventsReaderIsGone: a run whose events go to a pipe
// nobody reads any more (the driver was killed: kill -9, an editor's crash)
// stops at its next event, rather than fuzz for nobody until its time is
// up, or for ever without -fuzztime.
func TestRunStopsWhenEventsReaderIsGone(t *testing.T) {
	rd, wr, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	rd.Close()
	defer wr.Close()
	c, _ := fakeCoordinator(t, "idle", func(o *Options) {
		o.Duration = time.Hour
		o.Events = wr
	})
	done := make(chan error, 1)
	go func() { done <- c.run(context.Background()) }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run: %v, want the stop of a run nobody watches", err)
		}
	case <-time.After(2 * time.Minute):
		c.cancel()
		<-done
		t.Fatal("the run went on with its events' reader gone")
	}
}

// TestReporterLostOnlyOnWrite: only a failed write means the events'
// reader is gone; an event that does not encode (a NaN rate, the engine's
// fault) does not stop the run, and lost is called once.
func TestReporterLostOnlyOnWrite(t *testing.T) {
	rd, wr, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer wr.Close()
	calls := 0
	r := &reporter{events: wr}
	r.onLost(func() { calls++ })
	r.emit(event.Event{Type: event.Stats, ExecsPerSec: math.NaN()})
	if calls != 0 {
		t.Fatalf("an event that does not encode called lost")
	}
	rd.Close()
	r.emit(event.Event{Type: event.Stats})
	r.emit(event.Event{Type: event.Stats})
	if calls != 1 {
		t.Errorf("lost called %d times after the reader closed, want once", calls)
	}
}

// TestStaleTempRemoved: a run removes the temporary directories a killed
// run left in the cache (a Batch keeps one between flushes).
func TestStaleTempRemoved(t *testing.T) {
	cache := t.TempDir()
	stale := filepath.Join(cache, ".tmp-123")
	if err := os.Mkdir(stale, 0o755); err != nil {
		t.Fatal(err)
	}
	long := time.Now().Add(-time.Hour)
	os.Chtimes(stale, long, long)
	runFake(t, "", time.Second, func(o *Options) { o.CacheDir, o.Parallel = cache, 1 })
	if _, err := os.Stat(stale); err == nil {
		t.Errorf("%s is still there", stale)
	}
}

// TestHeldOutputNotWaitedFor: a worker whose code left a process running
// that holds its output ends when it exits: the failure is confirmed and
// minimized while those processes still run (each re-run waited for them).
func TestHeldOutputNotWaitedFor(t *testing.T) {
	c, events := fakeCoordinator(t, "heldoutput", func(o *Options) { o.Parallel, o.Duration = 1, 60*time.Second })
	dir := filepath.Dir(filepath.Dir(filepath.Dir(c.opts.CorpusDir))) // the fake workers' marker directory
	err := c.run(context.Background())
	r := &fakeRun{err: err, corpusDir: c.opts.CorpusDir, events: decodeEvents(t, events)}
	data, _ := os.ReadFile(filepath.Join(dir, "pids"))
	alive := 0
	for _, p := range strings.Fields(string(data)) {
		pid, _ := strconv.Atoi(p)
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if _, state, _ := strings.Cut(string(stat), ") "); err == nil && !strings.HasPrefix(state, "Z") {
			alive++
		}
		syscall.Kill(pid, syscall.SIGKILL)
	}
	if fails := r.ofType(event.Failure); len(fails) != 1 || fails[0].Reproduced != 1 {
		t.Fatalf("failures = %+v, want one, confirmed", fails)
	}
	if n := len(strings.Fields(string(data))); n < 2 || alive < n {
		t.Errorf("%d of the %d processes left running still run when the run ended: it waited for them", alive, n)
	}
}

// TestChildSignals: a process the code under test starts does not ignore
// SIGINT: the worker ignored it, and the disposition outlives exec (a
// server a fuzz test stops with SIGINT never stopped: a hang).
func TestChildSignals(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	r := runFake(t, "childsignals", 2*time.Second, func(o *Options) { o.Parallel = 1 })
	if f := r.ofType(event.Failure); len(f) > 0 {
		t.Errorf("failures: %+v", f)
	}
}
