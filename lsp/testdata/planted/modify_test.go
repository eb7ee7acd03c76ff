package planted

import "testing"

// FuzzModify writes into its input, which the testing package forbids:
// fuzzing it reports a warning, not a failure.
func FuzzModify(f *testing.F) {
	f.Add([]byte("abc"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 0 {
			b[0] = 'x'
		}
	})
}
