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
	libfuzzerTraceCmp1(1, 2, 11)
	libfuzzerTraceCmp2(3, 4, 12)
	libfuzzerTraceCmp4(5, 6, 13)
	libfuzzerTraceCmp8(7, 8, 14)
	libfuzzerTraceConstCmp1(9, 10, 15)
	libfuzzerTraceConstCmp2(11, 12, 16)
	libfuzzerTraceConstCmp4(13, 14, 17)
	libfuzzerTraceConstCmp8(15, 16, 18)
	libfuzzerTraceCmp8(99, 99, 19) // equal: dropped
	libfuzzerHookStrCmp("a", "b", 20)
	libfuzzerHookEqualFold("c", "d", 21)
	ints, strs := collect()
	libfuzzerHookStrCmp("x", "y", 22) // stopped: dropped
	want := []IntCmp{
		{A: 1, B: 2, Size: 1, Site: 11}, {A: 3, B: 4, Size: 2, Site: 12}, {A: 5, B: 6, Size: 4, Site: 13}, {A: 7, B: 8, Size: 8, Site: 14},
		{A: 9, B: 10, Size: 1, Const: true, Site: 15}, {A: 11, B: 12, Size: 2, Const: true, Site: 16},
		{A: 13, B: 14, Size: 4, Const: true, Site: 17}, {A: 15, B: 16, Size: 8, Const: true, Site: 18},
	}
	if len(ints) != len(want) {
		t.Fatalf("recorded %+v, want %+v", ints, want)
	}
	for i := range want {
		if ints[i] != want[i] {
			t.Errorf("comparison %d = %+v, want %+v", i, ints[i], want[i])
		}
	}
	if len(strs) != 2 || strs[0].Fold || !strs[1].Fold || strs[0].A[0] != 'a' || strs[1].B[0] != 'd' {
		t.Errorf("string comparisons = %+v", strs)
	}
	if ints, strs := collect(); len(ints)+len(strs) != 2+len(want) {
		// StopTrace does not clear; StartTrace does. Nothing was added.
		t.Errorf("a hook recorded while tracing was off: %d entries", len(ints)+len(strs))
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
