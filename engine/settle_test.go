package engine

import (
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/fuzzbox/fuzzbox/corpus"
	"github.com/fuzzbox/fuzzbox/event"
)

// TestStrayGoroutineFailure: an input starting with 'S' starts a goroutine
// that panics 20 ms after the fuzz function returned. Its first death comes
// while a later input runs, whose re-runs pass: flaky, with a warning that
// fuzzing now waits for an input's goroutines. Then such an input kills its
// worker while the worker waits for it: a failure of that input, confirmed
// in a fresh worker that waits too, said to come after the fuzz function
// returned, and written. Without the wait, every death stays flaky.
func TestStrayGoroutineFailure(t *testing.T) {
	// Without leak detection, whose re-runs and wait, in this package's
	// tests, can catch the goroutine with its input.
	r := runFake(t, "stray", 20*time.Second, func(o *Options) {
		o.Package, o.NoLeaks, o.MinimizeDuration = "github.com/fuzzbox/fuzzbox/engine", true, 5*time.Second
	})
	if r.err == nil {
		t.Fatalf("run ended without a failure")
	}
	fails := r.ofType(event.Failure)
	if len(fails) != 1 {
		t.Fatalf("failures %+v, flaky %+v: want one failure", fails, r.ofType(event.Flaky))
	}
	f := fails[0]
	if f.Kind != KindPanic || !f.AfterReturn || f.Reproduced != 1 || !strings.Contains(f.Message, settledNote) || !strings.Contains(f.Message, "stray goroutine of an input") {
		t.Errorf("failure %+v: want a confirmed panic of the stray goroutine, after the fuzz function returned", f)
	}
	data, err := os.ReadFile(f.Reproducer)
	if err != nil {
		t.Fatal(err)
	}
	if vals, err := corpus.Unmarshal(data); err != nil || len(vals) != 1 || !strings.HasPrefix(string(vals[0].([]byte)), "S") || len(vals[0].([]byte)) < 3 {
		t.Errorf("reproducer %q: want the input that started the goroutine (S and at least 2 more bytes)", data)
	}
	if flaky := r.ofType(event.Flaky); len(flaky) > 0 {
		var warned bool
		for _, w := range r.ofType(event.Warning) {
			warned = warned || strings.Contains(w.Message, "fuzzing goes on waiting")
		}
		if !warned {
			t.Errorf("flaky %+v but no warning that fuzzing waits for an input's goroutines: %+v", flaky, r.ofType(event.Warning))
		}
	}
}

// TestDiedAfterReturn: the note of a death while settling is found on the
// first line (an exit) or the second (a panic's dump), not elsewhere.
func TestDiedAfterReturn(t *testing.T) {
	for msg, want := range map[string]bool{
		"panic: x\n(fuzzbox: the worker process died: exit status 2, " + settledNote + ")\n\ngoroutine 7": true,
		"fuzzbox: the process exited (exit status 3) " + settledNote + "\nlast lines":                     true,
		"panic: x\n(fuzzbox: the worker process died: exit status 2)\n\ngoroutine 7":                      false,
		"t.Log line\nsecond\nthird: " + settledNote:                                                       false,
	} {
		if got := diedAfterReturn(msg); got != want {
			t.Errorf("diedAfterReturn(%q) = %v, want %v", msg, got, want)
		}
	}
}

// TestMayRun: states a goroutine leaves on its own, and those it does not.
func TestMayRun(t *testing.T) {
	for _, s := range []string{"running", "runnable", "sleep", "syscall"} {
		if !mayRun(s) {
			t.Errorf("mayRun(%q) = false", s)
		}
	}
	for _, s := range []string{"chan receive", "select", "sync.Mutex.Lock", "IO wait", "semacquire"} {
		if mayRun(s) {
			t.Errorf("mayRun(%q) = true", s)
		}
	}
}

// TestTailBufferKeepsCrashStart: a dump longer than the tail kept (a worker
// with thousands of goroutines) still shows its first line and failing
// goroutine, so that a panic is not taken for an exit; the last report's,
// not an earlier one's.
func TestTailBufferKeepsCrashStart(t *testing.T) {
	tb := newTailBuffer(1 << 10)
	io.WriteString(tb, "fatal error: printed by a test, long before\n")
	io.WriteString(tb, strings.Repeat("output of the code under test\n", 100))
	io.WriteString(tb, "pan")
	io.WriteString(tb, "ic: late\n\ngoroutine 9 [running]:\nexample.com/m.f()\n")
	for i := range 5000 { // over headMax
		fmt.Fprintf(tb, "\ngoroutine %d [sleep]:\ntime.Sleep(0x1)\n", 100+i)
	}
	out := tb.String()
	if deathKind(out) != KindPanic || !strings.HasPrefix(out, "panic: late\n\ngoroutine 9 [running]:\nexample.com/m.f()") ||
		!strings.Contains(out, "bytes of the worker's output left out]") || !strings.HasSuffix(out, "goroutine 5099 [sleep]:\ntime.Sleep(0x1)\n") {
		t.Errorf("want the panic's start, a line saying what was left out, and the tail:\n%s", out)
	}
	short := newTailBuffer(1 << 10)
	io.WriteString(short, "x\npanic: p\n\ngoroutine 1 [running]:\n")
	if got := short.String(); got != "x\npanic: p\n\ngoroutine 1 [running]:\n" {
		t.Errorf("short output %q: want it as written", got)
	}
}

// TestStrayWarnings: the first flaky failure on a goroutine the code
// started turns settling on and says so; the signature's last flaky report
// says it stayed flaky even so; the reports between say nothing more.
func TestStrayWarnings(t *testing.T) {
	c, events := fakeCoordinator(t, "idle", nil)
	msg := "panic: late\n(fuzzbox: the worker process died: exit status 2)\npanic: late\n\ngoroutine 9 [running]:\nexample.com/m.arm.func1()\n\t/m/p.go:9 +0x1\n" +
		"created by time.goFunc\n\t/go/src/time/sleep.go:215 +0x2d\n"
	f := &failure{kind: KindPanic, msg: msg, reruns: 3}
	for range maxFlakyReports {
		c.unclaim(f, signature(f.kind, f.msg))
	}
	var warns []string
	for _, e := range decodeEvents(t, events) {
		if e.Type == event.Warning {
			warns = append(warns, e.Message)
		}
	}
	if !c.settle || len(warns) != 2 || !strings.Contains(warns[0], "fuzzing goes on waiting") ||
		!strings.Contains(warns[0], "time.goFunc started, running example.com/m.arm.func1") || !strings.Contains(warns[1], "stayed flaky") {
		t.Errorf("settle %v, warnings %q: want settling on, then two warnings, the last saying it stayed flaky", c.settle, warns)
	}
}

// BenchmarkTailBufferLines: a worker's output of 300 KB per input in lines
// of 100 bytes, as a logging fuzz test prints it (the tail kept is 256 KB).
func BenchmarkTailBufferLines(b *testing.B) {
	tb := newTailBuffer(256 << 10)
	line := []byte(strings.Repeat("l", 99) + "\n")
	b.SetBytes(300 << 10)
	for b.Loop() {
		for range 3072 {
			tb.Write(line)
		}
	}
}
