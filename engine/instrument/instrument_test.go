package instrument

import (
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// The hook functions (hooks.go) exist only in "fuzzbox"-tagged fuzzing
// binaries and only forward to recordInt/recordStr while tracing is on;
// these tests drive the recording directly. Counters are empty in a test
// binary: nothing is built with -d=libfuzzer here.

func collect() (ints []IntCmp, strs []StrCmp) {
	StopTrace(func(c IntCmp) { ints = append(ints, c) }, func(c *StrCmp) { strs = append(strs, *c) })
	return ints, strs
}

func TestTraceRecords(t *testing.T) {
	StartTrace()
	recordInt(1, 2, 4, true, 77)
	recordInt(5, 5, 8, false, 1) // equal: nothing to learn
	recordInt(0xff, 0x100, 2, false, 78)
	recordStr("tomato", "tomatos", false, 79)
	recordStr("same", "same", true, 80)
	recordStr("ABC", "abd", true, 81)
	ints, strs := collect()
	wantInts := []IntCmp{{A: 1, B: 2, Size: 4, Const: true, Site: 77}, {A: 0xff, B: 0x100, Size: 2, Site: 78}}
	if len(ints) != len(wantInts) || ints[0] != wantInts[0] || ints[1] != wantInts[1] {
		t.Errorf("ints = %+v, want %+v", ints, wantInts)
	}
	if len(strs) != 2 {
		t.Fatalf("recorded %d string comparisons, want 2", len(strs))
	}
	if a, b := string(strs[0].A[:strs[0].LenA]), string(strs[0].B[:strs[0].LenB]); a != "tomato" || b != "tomatos" || strs[0].Fold || strs[0].Site != 79 {
		t.Errorf("first string comparison = %q %q fold %v site %d", a, b, strs[0].Fold, strs[0].Site)
	}
	if !strs[1].Fold {
		t.Error("EqualFold comparison not marked Fold")
	}
}

func TestTraceOffRecordsNothing(t *testing.T) {
	StartTrace()
	recordInt(1, 2, 1, false, 0)
	collect()
	// Tracing is off now: the hooks check the flag before recording.
	if atomic.LoadUint32(&tracing) != 0 {
		t.Fatal("StopTrace left tracing on")
	}
	StartTrace() // clears the tables
	ints, strs := collect()
	if len(ints)+len(strs) != 0 {
		t.Errorf("StartTrace did not clear earlier entries: %v %v", ints, strs)
	}
}

func TestTraceLimits(t *testing.T) {
	StartTrace()
	for i := range MaxIntCmps + 10 {
		recordInt(uint64(i), uint64(i)+1, 8, false, 0)
	}
	for i := range MaxStrCmps + 10 {
		recordStr("a", strconv.Itoa(i), false, 0)
	}
	if got := atomic.LoadUint32(&tracing); got != 0 {
		t.Errorf("tracing = %b with both tables full, want 0: the hooks would go on calling for nothing", got)
	}
	long := strings.Repeat("x", MaxStrLen+1)
	ints, strs := collect()
	if len(ints) != MaxIntCmps || len(strs) != MaxStrCmps {
		t.Errorf("recorded %d ints and %d strings, want the caps %d and %d", len(ints), len(strs), MaxIntCmps, MaxStrCmps)
	}
	if ints[MaxIntCmps-1].A != MaxIntCmps-1 {
		t.Errorf("the first comparisons should be kept, got last A=%d", ints[MaxIntCmps-1].A)
	}
	StartTrace()
	recordStr(long, "b", false, 0)
	recordStr("a", long, false, 0)
	recordStr(long[:MaxStrLen], "b", false, 0) // exactly the limit is kept
	_, strs = collect()
	if len(strs) != 1 || strs[0].LenA != MaxStrLen {
		t.Errorf("long operands: recorded %d, want only the %d-byte one", len(strs), MaxStrLen)
	}
}

// TestTraceFullTable: a full table turns off its kind of comparison only;
// the other goes on, and the next trace records both again.
func TestTraceFullTable(t *testing.T) {
	StartTrace()
	for i := range MaxIntCmps - 1 {
		recordInt(uint64(i), 1<<20, 8, true, 1)
	}
	if atomic.LoadUint32(&tracing)&traceInts == 0 {
		t.Fatal("int tracing stopped before the table was full")
	}
	recordInt(1, 2, 4, false, 2)
	if got := atomic.LoadUint32(&tracing); got != traceStrs {
		t.Fatalf("tracing = %b once the int table is full, want only traceStrs", got)
	}
	recordStr("a", "b", false, 3)
	ints, strs := collect()
	if len(ints) != MaxIntCmps || ints[MaxIntCmps-1].Site != 2 || len(strs) != 1 {
		t.Errorf("recorded %d ints (last %+v) and %d strings, want %d (the last at site 2) and 1", len(ints), ints[len(ints)-1], len(strs), MaxIntCmps)
	}
	StartTrace()
	if got := atomic.LoadUint32(&tracing); got != traceInts|traceStrs {
		t.Errorf("the next trace starts with tracing = %b, want both kinds", got)
	}
	recordInt(5, 6, 8, false, 2)
	if ints, _ := collect(); len(ints) != 1 {
		t.Errorf("the next trace recorded %d comparisons, want 1", len(ints))
	}
}

// TestTraceBound: a trace looks at MaxTracedCmps unequal comparisons at
// most, then stops (repeats cost a hash each: a matcher comparing billions
// of times ran twice as long traced); the next trace starts again.
func TestTraceBound(t *testing.T) {
	StartTrace()
	for i := range MaxTracedCmps {
		recordInt(';', 'x'-uint64(i%2)*('x'-';'), 1, true, 1) // equal ones count too
	}
	if atomic.LoadUint32(&tracing) == 0 {
		t.Fatal("tracing stopped at the bound, before it was passed")
	}
	recordInt(';', 'x', 1, true, 1)
	if atomic.LoadUint32(&tracing) != 0 {
		t.Fatal("tracing goes on past MaxTracedCmps comparisons")
	}
	recordInt(5, 6, 8, false, 2) // what a hook would not call with tracing off
	if ints, _ := collect(); len(ints) != 1 {
		t.Errorf("recorded %d comparisons, want the one before the bound", len(ints))
	}
	StartTrace()
	recordInt(5, 6, 8, false, 2)
	if ints, _ := collect(); len(ints) != 1 {
		t.Errorf("the next trace recorded %d comparisons, want 1", len(ints))
	}
}

// TestTraceRepeats: a comparison repeated with the same operands (a parser's
// character tests, a loop bound) is recorded once per trace, so that it
// cannot crowd out the distinct comparisons that follow it; the next trace
// records it again.
func TestTraceRepeats(t *testing.T) {
	StartTrace()
	for range 10 * MaxIntCmps {
		recordInt(';', 'x', 1, true, 1)
		recordInt(7, 8, 4, false, 2)
		recordStr("key", "kex", false, 3)
	}
	recordInt(7, 8, 4, true, 4)  // same operands, but a constant: distinct
	recordInt(7, 8, 2, false, 5) // another width: distinct
	recordStr("kex", "key", false, 6)
	recordStr("key", "kex", true, 7) // EqualFold: distinct
	for i := range 100 {
		recordInt(uint64(i), 1000, 8, true, 8)
	}
	ints, strs := collect()
	if len(ints) != 2+2+100 || len(strs) != 3 {
		t.Fatalf("recorded %d ints and %d strings, want 104 and 3:\n%+v\n%+v", len(ints), len(strs), ints[:min(len(ints), 6)], strs)
	}
	if ints[103].A != 99 {
		t.Errorf("last comparison %+v, want A=99: distinct comparisons after the repeats must be kept", ints[103])
	}
	StartTrace()
	recordInt(';', 'x', 1, true, 1)
	recordStr("key", "kex", false, 3)
	ints, strs = collect()
	if len(ints) != 1 || len(strs) != 1 {
		t.Errorf("the next trace recorded %d ints and %d strings, want 1 and 1: it must forget the previous trace's operands", len(ints), len(strs))
	}
}

func TestTraceConcurrent(t *testing.T) {
	// Hooks run on any goroutine of the target; with -race this checks the
	// recording is free of data races on the counters.
	StartTrace()
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				recordInt(uint64(g), uint64(i)+1000, 4, false, 0)
			}
		}()
	}
	wg.Wait()
	ints, _ := collect()
	if len(ints) != 400 {
		t.Errorf("recorded %d of 400 concurrent comparisons", len(ints))
	}
}

// BenchmarkRecordInt is the cost of one traced comparison: while the table
// has room (each distinct pair is hashed and looked up in seen), and once
// it is full (a hook's check of tracing drops the rest: code that compares
// billions of times, such as a compressor's baseline, pays what an untraced
// run does).
func BenchmarkRecordInt(b *testing.B) {
	b.Run("room", func(b *testing.B) {
		StartTrace()
		defer collect()
		n := uint64(0)
		for b.Loop() {
			if atomic.LoadUint32(&nInts) >= MaxIntCmps-1 {
				atomic.StoreUint32(&nInts, 0)
			}
			n++
			recordInt(n, n+1, 8, false, 1)
		}
	})
	b.Run("full", func(b *testing.B) {
		StartTrace()
		defer collect()
		for i := range uint64(MaxIntCmps) {
			recordInt(i, i+1, 8, false, 1)
		}
		n := uint64(1 << 40)
		for b.Loop() {
			n++
			if atomic.LoadUint32(&tracing)&traceInts != 0 { // as the hooks do
				recordInt(n, n+1, 8, false, 1)
			}
		}
	})
}
