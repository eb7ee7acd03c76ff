//go:build cgo

package libfuzzer

import (
	"os"
	"os/exec"
	"testing"
	"time"
)

// wakeAloneEnv runs TestWakeGate itself, in the process it starts: the gate
// counts the process's goroutines, which other tests move.
const wakeAloneEnv = "FUZZBOX_TEST_WAKE_GATE_ALONE"

// TestWakeGate: the gate holds the wake-ups back while the code has no
// goroutines of its own, lets them through while serve sleeps, and opens
// for good once goroutines of the code stay alive beside the inputs or
// more are started than inputs.
func TestWakeGate(t *testing.T) {
	if os.Getenv(wakeAloneEnv) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestWakeGate$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), wakeAloneEnv+"=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return
	}
	defer func() { openGate(&wakeGate{}) }()
	g := newWakeGate()
	if g.open.Load() {
		t.Fatal("the gate is open before any goroutine of the code")
	}
	g.hold()
	if !heldBack() {
		t.Fatal("hold left the wake-ups through")
	}
	g.release()
	if heldBack() {
		t.Fatal("release held the wake-ups back")
	}
	g.hold()
	// Inputs that start only their own goroutine keep it closed.
	for range 3 * startedEvery {
		g.begin()
		done := make(chan bool)
		go func() { close(done) }()
		<-done
	}
	if !heldBack() {
		t.Fatal("inputs with one goroutine each opened the gate")
	}
	// Goroutines of the code, alive beside the inputs: the watch opens it.
	block := make(chan bool)
	defer close(block)
	for range 2 {
		go func() { <-block }()
	}
	waitOpen(t, g, "goroutines alive beside the inputs")

	// Short-lived goroutines, more than one per input: the next look
	// between inputs opens a new gate.
	g = newWakeGate()
	g.hold()
	for i := range startedEvery + 1 {
		g.begin()
		for range 2 {
			done := make(chan bool)
			go func() { close(done) }()
			<-done
		}
		if i < startedEvery-1 && !heldBack() {
			t.Fatalf("the gate opened at input %d, before its first look", i)
		}
	}
	if heldBack() {
		t.Fatal("two goroutines an input did not open the gate")
	}
	g.hold()
	if heldBack() {
		t.Fatal("hold closed a gate open for good")
	}
}

// waitOpen waits up to ten seconds (a loaded machine's watch runs late) for
// g to open.
func waitOpen(t *testing.T, g *wakeGate, what string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); heldBack(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s did not open the gate", what)
		}
	}
}

// openGate opens g for good (the test's cleanup).
func openGate(g *wakeGate) { g.openForGood() }

func TestCodeGoroutine(t *testing.T) {
	own := "goroutine 1 [running]:\nmain.main()\n\nfoo\ngoroutine 5 [chan receive]:\nx()\ncreated by github.com/fuzzbox/fuzzbox/engine/libfuzzer.fuzzboxSetup in goroutine 1\n\t/x.go:1 +0x1\n" +
		"goroutine 6 [select]:\ncreated by testing.(*F).Fuzz.func1 in goroutine 5\n\t/x.go:1\n\ngoroutine 7 [select]:\ncreated by runtime.gcenable in goroutine 1\n\t/x.go:1\n"
	if fn := codeGoroutine([]byte(own)); fn != "" {
		t.Errorf("codeGoroutine of the binary's own goroutines = %q", fn)
	}
	code := own + "\ngoroutine 9 [chan receive]:\nexample.com/m.(*Pool).work()\ncreated by example.com/m.init.0 in goroutine 1\n\t/m.go:9 +0x1\n"
	if fn := codeGoroutine([]byte(code)); fn != "example.com/m.init.0" {
		t.Errorf("codeGoroutine with a pool of the code = %q, want example.com/m.init.0", fn)
	}
}

// TestNextSpin: the engine's thread's spin shrinks on a target whose inputs
// outlast it, and comes back at once when they end within what a spin
// allows again (not only after an input that ended within the shrunken
// spin, which inputs of tens of microseconds never do).
func TestNextSpin(t *testing.T) {
	const max, min = 200 * time.Microsecond, 2 * time.Microsecond
	spin := max
	for range 10 {
		spin = nextSpin(spin, false, time.Millisecond)
	}
	if spin != min {
		t.Fatalf("after ten inputs of 1 ms: spin %v, want %v", spin, min)
	}
	if got := nextSpin(spin, false, 30*time.Microsecond); got != max {
		t.Errorf("after an input of 30 µs slept for: spin %v, want %v", got, max)
	}
	if got := nextSpin(150*time.Microsecond, true, 0); got != max {
		t.Errorf("doubled from 150 µs: %v, want at most %v", got, max)
	}
	if got := nextSpin(10*time.Microsecond, true, 0); got != 20*time.Microsecond {
		t.Errorf("doubled from 10 µs: %v, want 20µs", got)
	}
}
