package fuzzvet_test

import (
	"testing"
)

// TestTypedSilent runs every fuzzvet analyzer on correct fuzz tests written
// with fuzzbox's typed package (testdata/src/typedok, with a stub of typed):
// typed.Fuzz(f, fn) is the test's fuzz call, so none may report anything.
func TestTypedSilent(t *testing.T) {
	_, ours := run(t, "testdata", "typedok")
	for line, msgs := range ours {
		t.Errorf("%s: %q", line, msgs)
	}
}
