package planted

import "testing"

// FuzzLength has no bug: fuzzing it runs until stopped.
func FuzzLength(f *testing.F) {
	f.Add("a")
	f.Fuzz(func(t *testing.T, s string) {
		if Parse(s[:min(len(s), 3)]) > 3 {
			t.Fatal("a prefix of three bytes is longer than three")
		}
	})
}
