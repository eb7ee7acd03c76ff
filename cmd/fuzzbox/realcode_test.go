package main

import (
	"strings"
	"testing"
)

// Real code must run in fuzzbox's fuzzing binary as it runs under go test.
// testdata/fuzz/realcode holds patterns from public modules' own tests that
// fuzzbox's binary once broke.

// TestRealCodeRangeAcrossStackGrowth: comparison hooks that could grow the
// stack, called by a range loop's condition while the loop's element pointer
// lives as a uintptr, left go-toml's TestDecodeError reading a freed stack
// (a fault, blamed on the user's tests). The fixture fails before the fix.
func TestRealCodeRangeAcrossStackGrowth(t *testing.T) {
	dir := e2eModule(t, "realcode")
	r := e2eFuzz(t, dir, "-run=^TestRangeAcrossStackGrowth$", "-fuzz=^FuzzRealCode$", "-fuzztime=200x", ".")
	if r.code != 0 || !strings.Contains(r.stdout, "PASS") {
		t.Fatalf("want the test to pass and fuzzing to end with nothing found, as under go test\n%s", r)
	}
}
