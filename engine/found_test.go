package engine

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/fuzzbox/fuzzbox/engine/ipc"
)

// fakeCoverage stands in for the instrumentation in a fuzz call: fn's
// counters are the input's byte values (one counter per value), plus
// counter 0 the first time an input is run (state the first execution
// changes, as a cache it fills). It then does what SnapshotCoverage does.
type fakeCoverage struct {
	ran   map[string]int
	fail  func(in []byte, runs int) error // nil: no failures
	edges func(in []byte, c []byte)       // nil: as above
}

func newFakeWorker(t *testing.T, fc *fakeCoverage) *workerServer {
	t.Helper()
	mem, err := ipc.CreateMem(1<<16, 256)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mem.Close() })
	fc.ran = map[string]int{}
	w := &workerServer{mem: mem, fn: func(vals []any) error {
		in := vals[0].([]byte)
		fc.ran[string(in)]++
		counters := make([]byte, 256)
		switch {
		case fc.edges != nil:
			fc.edges(in, counters)
		default:
			for _, b := range in {
				counters[1+int(b)%255] = 1
			}
			if fc.ran[string(in)] == 1 {
				counters[0] = 1
			}
		}
		if execState.seen != nil {
			execState.newBits = hasNewBits(counters, execState.seen)
			if execState.newBits {
				copy(execState.snap, counters)
			}
		} else {
			copy(execState.snap, counters)
		}
		if fc.fail != nil {
			return fc.fail(in, fc.ran[string(in)])
		}
		return nil
	}}
	w.seen, w.first, w.again = make([]byte, 256), make([]byte, 256), make([]byte, 256)
	execState.snap = make([]byte, 256)
	t.Cleanup(func() { execState.snap = nil })
	return w
}

// startCall writes the base input and the coverage given into w's shared
// memory, as the coordinator does before a fuzz call.
func startCall(w *workerServer, base []byte, given []byte) {
	w.mem.SetValue(appendValues(nil, []any{base}))
	copy(w.mem.Coverage(), given)
}

// TestFuzzCallFinds: a call lists each input whose second execution adds
// bits to the coverage given and to the inputs before it, with that
// execution's coverage; the bit only first executions reach is reported
// unstable, not as coverage.
func TestFuzzCallFinds(t *testing.T) {
	fc := &fakeCoverage{}
	w := newFakeWorker(t, fc)
	given := make([]byte, 256)
	for _, b := range []byte("abc") {
		given[1+b] = 1
	}
	startCall(w, []byte("abc"), given)
	resp := w.fuzzLoop(&ipc.FuzzArgs{Limit: 100, Seed: 1, Keep: time.Hour})
	if resp.Err != "" || resp.InternalErr != "" {
		t.Fatalf("fuzz call failed: %+v", resp)
	}
	if len(resp.Found) < 2 {
		t.Fatalf("a call kept going for an hour found %d inputs in 100 executions, want several", len(resp.Found))
	}
	if resp.Execs < 100 {
		t.Errorf("the call ended after %d executions, before its limit (%d finds)", resp.Execs, len(resp.Found))
	}
	seen := append([]byte(nil), given...)
	for i, f := range resp.Found {
		cov, err := expandSparse(f.Coverage, 256)
		if err != nil {
			t.Fatalf("find %d: %v", i, err)
		}
		vals, err := decodeValues(f.Input)
		if err != nil {
			t.Fatalf("find %d: %v", i, err)
		}
		for j := range cov {
			want := byte(0)
			if j != 0 && (bytes.IndexByte(vals[0].([]byte), byte(j-1)) >= 0 || j == 1 && bytes.IndexByte(vals[0].([]byte), 255) >= 0) {
				want = 1
			}
			if cov[j] != want {
				t.Fatalf("find %d (%q): counter %d has %d, want %d (the second execution's)", i, vals[0], j, cov[j], want)
			}
		}
		if covers(seen, cov) {
			t.Errorf("find %d (%q) adds nothing to the coverage given and the finds before it", i, vals[0])
		}
		mergeBits(seen, cov)
	}
	u, err := expandSparse(resp.Unstable, 256)
	if err != nil || u[0] != 1 {
		t.Errorf("unstable bits %v (%v), want counter 0's", resp.Unstable, err)
	}
}

// TestFuzzCallFindsEnd: Keep 0 ends the call at its first find; a full list
// ends it too; a second execution that fails ends it with the input in
// shared memory and the finds before it kept.
func TestFuzzCallFindsEnd(t *testing.T) {
	fc := &fakeCoverage{}
	w := newFakeWorker(t, fc)
	startCall(w, []byte("abc"), make([]byte, 256))
	resp := w.fuzzLoop(&ipc.FuzzArgs{Limit: 100000, Seed: 1})
	if len(resp.Found) != 1 || resp.Execs != 2 {
		t.Errorf("with Keep 0: %d finds in %d executions, want the base's first mutant and its second run", len(resp.Found), resp.Execs)
	}

	// From here a find is a new length, so that the list fills whatever
	// the mutator draws: with a find per new byte value, a chain of finds
	// grows inputs that hold most values, and whether 64 finds came before
	// the memory ran out depended on the seed (half of 20 seeds did not).
	fc.edges = func(in []byte, c []byte) { c[1+len(in)%255] = 1 }
	startCall(w, []byte("abc"), make([]byte, 256))
	resp = w.fuzzLoop(&ipc.FuzzArgs{Limit: 1 << 30, Seed: 2, Keep: time.Hour})
	if len(resp.Found) != ipc.MaxFound {
		t.Errorf("kept going for an hour: %d finds, want the list full (%d)", len(resp.Found), ipc.MaxFound)
	}

	fc.fail = func(in []byte, runs int) error {
		if runs == 2 && len(fc.ran) > 3 {
			return errors.New("failed on its second run")
		}
		return nil
	}
	startCall(w, []byte("abc"), make([]byte, 256))
	resp = w.fuzzLoop(&ipc.FuzzArgs{Limit: 1 << 30, Seed: 3, Keep: time.Hour})
	if resp.Err == "" {
		t.Fatalf("the call did not end on the failing second run: %d finds, %d executions", len(resp.Found), resp.Execs)
	}
	vals, err := decodeValues(w.mem.Value())
	if err != nil || fc.ran[string(vals[0].([]byte))] != 2 {
		t.Errorf("shared memory holds %v (%v), want the input that failed on its second run", vals, err)
	}
	for _, f := range resp.Found {
		v, _ := decodeValues(f.Input)
		if string(v[0].([]byte)) == string(vals[0].([]byte)) {
			t.Errorf("the failing input is listed as a find")
		}
	}
}

// TestFuzzCallClimbs: after a find, the call's mutants come from it, so one
// call climbs a chain of finds (counter k for a prefix of k bytes of a
// word): from the empty input, eight bytes at one random byte in 256 each.
func TestFuzzCallClimbs(t *testing.T) {
	const word = "fuzzbox!"
	fc := &fakeCoverage{edges: func(in []byte, c []byte) {
		k := 0
		for k < len(in) && k < len(word) && in[k] == word[k] {
			k++
		}
		c[k] = 1
	}}
	w := newFakeWorker(t, fc)
	given := make([]byte, 256)
	given[0] = 1
	startCall(w, []byte{}, given)
	resp := w.fuzzLoop(&ipc.FuzzArgs{Limit: 1 << 20, Seed: 1, Keep: time.Hour, MaxLen: 64})
	if resp.Err != "" || resp.InternalErr != "" {
		t.Fatalf("fuzz call failed: %+v", resp)
	}
	if len(resp.Found) != len(word) {
		t.Fatalf("the call found %d of the chain's %d steps in %d executions", len(resp.Found), len(word), resp.Execs)
	}
	last, _ := decodeValues(resp.Found[len(word)-1].Input)
	if !bytes.HasPrefix(last[0].([]byte), []byte(word)) {
		t.Errorf("the last find is %q, want the whole word first", last[0])
	}
}

// TestFuzzCallUnstableOnly: an input whose new bits its second execution
// does not reach again is not listed; the bits are reported unstable.
func TestFuzzCallUnstableOnly(t *testing.T) {
	fc := &fakeCoverage{}
	w := newFakeWorker(t, fc)
	given := make([]byte, 256)
	for i := 1; i < len(given); i++ {
		given[i] = 1 // every input's stable bits: only counter 0, the first execution's, is new
	}
	startCall(w, []byte("abc"), given)
	resp := w.fuzzLoop(&ipc.FuzzArgs{Limit: 50, Seed: 1, Keep: time.Hour})
	if resp.Err != "" || resp.InternalErr != "" {
		t.Fatalf("fuzz call failed: %+v", resp)
	}
	if len(resp.Found) != 0 {
		t.Errorf("%d inputs listed whose only new bit their second execution did not reach", len(resp.Found))
	}
	u, err := expandSparse(resp.Unstable, 256)
	if err != nil || u[0] != 1 {
		t.Errorf("unstable bits %v (%v), want counter 0's", resp.Unstable, err)
	}
}
