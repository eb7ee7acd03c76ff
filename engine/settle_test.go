package engine

import (
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
