package engine

import (
	"errors"
	"testing"
	"time"

	"github.com/fuzzbox/fuzzbox/engine/ipc"
)

func TestClockStride(t *testing.T) {
	const d = 200 * time.Millisecond
	for _, tc := range []struct {
		elapsed time.Duration
		iters   int
		want    int
	}{
		{10 * time.Microsecond, 1, 64}, // fast: the most
		{50 * time.Millisecond, 1, 1},  // an input slower than d/16: every iteration
		{10 * time.Millisecond, 4, 5},  // 2.5 ms each: 12.5 ms / 2.5 ms
		{0, 1, 64},                     // a clock that did not move
		{time.Second, 100000, 64},      // a long call's average
		{199 * time.Millisecond, 2, 1}, // nearly done
	} {
		if got := clockStride(tc.elapsed, tc.iters, d); got != tc.want {
			t.Errorf("clockStride(%v, %d, %v) = %d, want %d", tc.elapsed, tc.iters, d, got, tc.want)
		}
	}
}

// TestFuzzCallOnSlowInput: a fuzz call on an input that takes 10 ms ends
// after about its duration's worth of executions, not 64 of them. (The
// count only falls on a slow machine, down to 1: no timing assertion.)
func TestFuzzCallOnSlowInput(t *testing.T) {
	mem, err := ipc.CreateMem(1<<16, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	w := &workerServer{mem: mem, fn: func([]any) error { time.Sleep(10 * time.Millisecond); return nil }}
	mem.SetValue(appendValues(nil, []any{[]byte("slow")}))
	resp := w.fuzzLoop(&ipc.FuzzArgs{Duration: 100 * time.Millisecond, Seed: 1})
	if resp.InternalErr != "" || resp.Err != "" {
		t.Fatalf("fuzz call failed: %+v", resp)
	}
	if resp.Execs < 1 || resp.Execs > 20 { // 1: a sleep that overran the whole call on a loaded machine
		t.Errorf("a 100-ms call on a 10-ms input ran %d executions, want about 10", resp.Execs)
	}
}

// TestFuzzCallNeverPassesNilBytes: a []byte argument is never nil, as under
// go test, whose mutator and corpus files ([]byte(s)) both give a non-nil
// slice. A mutant of the empty input was nil (cloneValues' append to nil), and
// so was a splice that kept nothing of either input,
// so a fuzz function that panics on nil (FerretDB/wire's wirebson
// FuzzDocument: "raw is nil") failed while fuzzing and passed in the fresh
// worker's re-run: a flaky report of a failure go test cannot have.
func TestFuzzCallNeverPassesNilBytes(t *testing.T) {
	mem, err := ipc.CreateMem(1<<16, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	w := &workerServer{mem: mem, fn: func(vals []any) error {
		if vals[0].([]byte) == nil {
			return errors.New("the []byte argument is nil")
		}
		return nil
	}}
	// Both ways to an empty mutant: the empty input cloned, and a splice
	// that keeps nothing of either input.
	for _, base := range []string{"", "ab"} {
		mem.SetValue(appendValues(nil, []any{[]byte(base)}))
		splice := [][]byte{appendValues(nil, []any{[]byte("xy")})}
		resp := w.fuzzLoop(&ipc.FuzzArgs{Limit: 5000, Seed: 1, Splice: splice})
		if resp.InternalErr != "" || resp.Err != "" {
			t.Fatalf("fuzzing from %q: %+v", base, resp)
		}
		if resp.Execs != 5000 {
			t.Errorf("fuzzing from %q ran %d executions, want 5000", base, resp.Execs)
		}
	}
}
