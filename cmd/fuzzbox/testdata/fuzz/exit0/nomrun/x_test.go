package nomrun

import "testing"

// TestMain never calls m.Run: no test runs and nothing is fuzzed.
func TestMain(m *testing.M) {}

func FuzzNeverRuns(f *testing.F) {
	f.Fuzz(func(t *testing.T, n int) {})
}
