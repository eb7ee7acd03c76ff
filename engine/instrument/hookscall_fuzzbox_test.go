//go:build fuzzbox

package instrument

import (
	"strconv"
	"testing"
)

// TestInstrumentedCodeRecords: comparisons in code fuzzbox toolexec
// instruments (strconv) reach the runtime's hooks, whichever they are
// (the assembly of driver/build/rthooks.go on amd64 and arm64, hooks.go's
// elsewhere), and are recorded while tracing and not otherwise.
func TestInstrumentedCodeRecords(t *testing.T) {
	StartTrace()
	const s = "x234567890123" // 13 bytes
	_, err := strconv.Atoi(s)
	ints, _ := collect()
	if err == nil {
		t.Fatalf("strconv.Atoi(%q) succeeded", s)
	}
	found := false
	for _, c := range ints {
		// Atoi compares the length with 0 and with its fast path's bound.
		found = found || (c.A == uint64(len(s)) || c.B == uint64(len(s))) && c.Size == 8
	}
	if !found {
		t.Errorf("no comparison of the length, %d, recorded in strconv.Atoi(%q): %+v", len(s), s, ints)
	}
	strconv.Atoi("y8")
	if again, _ := collect(); len(again) != len(ints) {
		t.Errorf("recorded while tracing was off: %d entries, then %d", len(ints), len(again))
	}
}
