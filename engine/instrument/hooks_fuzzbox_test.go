//go:build fuzzbox

package instrument

import (
	"strconv"
	"testing"
)

// This file runs only in a fuzzbox test binary, where the hooks exist:
//
//	go build -o /tmp/fuzzbox ./cmd/fuzzbox
//	go test -tags fuzzbox -toolexec="/tmp/fuzzbox toolexec" ./engine/instrument

func TestHooksRecordWhileTracing(t *testing.T) {
	libfuzzerTraceCmp4(1, 2, 0) // tracing off: dropped
	StartTrace()
	want := callIntHooks(intHooks{
		libfuzzerTraceCmp1, libfuzzerTraceConstCmp1, libfuzzerTraceCmp2, libfuzzerTraceConstCmp2,
		libfuzzerTraceCmp4, libfuzzerTraceConstCmp4, libfuzzerTraceCmp8, libfuzzerTraceConstCmp8,
	})
	libfuzzerHookStrCmp("a", "b", 20)
	libfuzzerHookEqualFold("c", "d", 21)
	ints, strs := collect()
	libfuzzerHookStrCmp("x", "y", 22) // stopped: dropped
	checkInts(t, ints, want)
	if len(strs) != 2 || strs[0].Fold || !strs[1].Fold || strs[0].A[0] != 'a' || strs[1].B[0] != 'd' {
		t.Errorf("string comparisons = %+v", strs)
	}
	if ints, strs := collect(); len(ints)+len(strs) != 2+len(want) {
		// StopTrace does not clear; StartTrace does. Nothing was added.
		t.Errorf("a hook recorded while tracing was off: %d entries", len(ints)+len(strs))
	}
}

// intHooks are the eight integer comparison hooks: hooks.go's, or the
// runtime's assembly ones (rthooks_fuzzbox_test.go).
type intHooks struct {
	cmp1, constCmp1 func(a, b uint8, pc uint)
	cmp2, constCmp2 func(a, b uint16, pc uint)
	cmp4, constCmp4 func(a, b uint32, pc uint)
	cmp8, constCmp8 func(a, b uint64, pc uint)
}

// callIntHooks calls each of h once, and one with equal operands, and
// returns what a trace must then hold: the operands (the high bits set,
// so that a narrow operand widened wrongly shows), sizes, kinds and sites.
func callIntHooks(h intHooks) []IntCmp {
	h.cmp1(0xf1, 2, 11)
	h.cmp2(0xf003, 4, 12)
	h.cmp4(0xf0000005, 6, 13)
	h.cmp8(0xf000000000000007, 8, 14)
	h.constCmp1(9, 10, 15)
	h.constCmp2(11, 12, 16)
	h.constCmp4(13, 14, 17)
	h.constCmp8(15, 16, 18)
	h.cmp8(99, 99, 19) // equal: dropped
	return []IntCmp{
		{A: 0xf1, B: 2, Size: 1, Site: 11}, {A: 0xf003, B: 4, Size: 2, Site: 12}, {A: 0xf0000005, B: 6, Size: 4, Site: 13},
		{A: 0xf000000000000007, B: 8, Size: 8, Site: 14},
		{A: 9, B: 10, Size: 1, Const: true, Site: 15}, {A: 11, B: 12, Size: 2, Const: true, Site: 16},
		{A: 13, B: 14, Size: 4, Const: true, Site: 17}, {A: 15, B: 16, Size: 8, Const: true, Site: 18},
	}
}

func checkInts(t *testing.T, ints, want []IntCmp) {
	t.Helper()
	if len(ints) != len(want) {
		t.Fatalf("recorded %+v, want %+v", ints, want)
	}
	for i := range want {
		if ints[i] != want[i] {
			t.Errorf("comparison %d = %+v, want %+v", i, ints[i], want[i])
		}
	}
}

// TestCountersLive: in a fuzzbox binary the packages fuzzbox toolexec
// instruments (strconv among them) have edge counters; Reset zeroes them
// and running instrumented code sets some again.
func TestCountersLive(t *testing.T) {
	c := Counters()
	if len(c) == 0 {
		t.Fatal("no edge counters in a fuzzbox test binary")
	}
	Reset()
	for i, b := range c {
		if b != 0 {
			t.Fatalf("counter %d = %d after Reset", i, b)
		}
	}
	_ = strconv.Quote("instrumented \x00 code")
	n := 0
	for _, b := range c {
		if b != 0 {
			n++
		}
	}
	if n == 0 {
		t.Error("no counter moved while running instrumented code")
	}
}
