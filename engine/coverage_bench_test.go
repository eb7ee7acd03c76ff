package engine

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkHasNewBits measures the check every execution makes: counters of
// a small target's binary (16 K edges, as nobug's: the standard library is
// instrumented too) of which an execution sets a few hundred, none new.
func BenchmarkHasNewBits(b *testing.B) {
	snap, seen := make([]byte, 16<<10), make([]byte, 16<<10)
	rng := rand.New(rand.NewPCG(1, 2))
	for range 40 { // runs of hit edges, as one function's blocks are
		at := rng.IntN(len(snap) - 16)
		for j := range rng.IntN(16) {
			snap[at+j] = byte(1 + rng.IntN(20))
			seen[at+j] = bucketBit[snap[at+j]]
		}
	}
	b.SetBytes(int64(len(snap)))
	for b.Loop() {
		if hasNewBits(snap, seen) {
			b.Fatal("new bits in a covered snapshot")
		}
	}
}
