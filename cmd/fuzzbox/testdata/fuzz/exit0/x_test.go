package exit0

import (
	"os"
	"testing"
)

// TestExitsZero ends the process with status 0 halfway through the tests:
// go test reports "unexpected call to os.Exit(0) during test" and fails.
func TestExitsZero(t *testing.T) { os.Exit(0) }

func FuzzAfterExit(f *testing.F) {
	f.Add(1)
	f.Fuzz(func(t *testing.T, n int) {})
}
