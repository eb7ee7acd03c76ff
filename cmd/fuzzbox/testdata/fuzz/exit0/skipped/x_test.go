package skipped

import "testing"

// FuzzSkipped skips itself: go test -fuzz passes without fuzzing.
func FuzzSkipped(f *testing.F) {
	f.Skip("not on this machine")
	f.Fuzz(func(t *testing.T, b []byte) {})
}
