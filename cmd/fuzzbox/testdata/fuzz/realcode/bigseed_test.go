package realcode

import (
	"bytes"
	"testing"
)

// FuzzBigSeed has a seed larger than fuzzbox's workers once took (4 MiB; a
// pattern of ipfs/boxo's chunker test, f.Add(make([]byte, 16<<20))): go test
// -fuzz runs it and fails; fuzzbox's workers ran the previous input instead.
func FuzzBigSeed(f *testing.F) {
	f.Add([]byte("small"))
	f.Add(make([]byte, 5<<20))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 4<<20 {
			t.Fatalf("big input: %d bytes", len(b))
		}
	})
}

// FuzzBigFound fails on a big input that fuzzing makes of its big seed:
// minimizing it takes a while.
func FuzzBigFound(f *testing.F) {
	f.Add(make([]byte, 5<<20))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 4<<20 && bytes.Count(b, []byte{0}) != len(b) {
			t.Fatalf("big input that is not all zeros: %d bytes", len(b))
		}
	})
}
