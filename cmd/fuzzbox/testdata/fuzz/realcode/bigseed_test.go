package realcode

import "testing"

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
