package targets

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"testing"
)

// FuzzMagic needs a 4-byte little-endian magic number: out of reach of
// random mutation, found with comparison guidance.
func FuzzMagic(f *testing.F) {
	f.Add([]byte("0123456789"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) >= 8 && binary.LittleEndian.Uint32(b[4:]) == 0x1badf00d {
			panic("fuzzbox-e2e: magic found")
		}
	})
}

// FuzzTomatos is golang/go#50231: native fuzzing does not find it.
func FuzzTomatos(f *testing.F) {
	f.Add("potato")
	f.Fuzz(func(t *testing.T, s string) {
		if s == "tomatos" {
			panic("fuzzbox-e2e: tomatos found")
		}
	})
}

// FuzzMulti fails on a combination of arguments; minimization must shrink
// every argument.
func FuzzMulti(f *testing.F) {
	f.Add(int(1), "s", []byte("b"), 1.5, true, uint8(3), int16(-4))
	f.Fuzz(func(t *testing.T, n int, s string, b []byte, x float64, ok bool, u uint8, m int16) {
		if n >= 1000 && len(s) >= 3 {
			t.Fatalf("fuzzbox-e2e: multi n=%d", n)
		}
	})
}

var constCmpSink int

// FuzzConstCmp compares a 4-byte little-endian word with a constant and
// fails on nothing: the run's automatic dictionary must hold the constant
// (the compiler's operand), not the input's word.
func FuzzConstCmp(f *testing.F) {
	f.Add([]byte("abcdefgh"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) >= 4 && binary.LittleEndian.Uint32(b) == 0x5eed1234 {
			constCmpSink++
		}
	})
}

// firstSeen holds the long strings FuzzFirstSeen has run in this process.
var firstSeen = map[string]bool{}

// FuzzFirstSeen has coverage an input reaches only the first time it runs
// in a process (a cache miss, as net/netip's interning of IPv6 zones has):
// every new long string takes the miss branch, and its re-run does not.
// The engine must count that branch as unstable, never as new coverage.
func FuzzFirstSeen(f *testing.F) {
	f.Add("a")
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 3 && !firstSeen[s] {
			firstSeen[s] = true
		}
	})
}

// syncedSum is the SHA-256 of the one input FuzzSynced's branch takes (the
// input itself is not in the source, whose literals go to the dictionary).
var syncedSum, _ = hex.DecodeString("686911ef4907886b923fed4aae05153db9e3f62a94438789dec3565eada1deed")

var syncedHits int

// FuzzSynced has a branch no mutation finds (a SHA-256 match): only an input
// read from another instance's sync directory reaches it.
func FuzzSynced(f *testing.F) {
	f.Add([]byte("seed"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if sum := sha256.Sum256(b); bytes.Equal(sum[:], syncedSum) {
			syncedHit(b)
		}
	})
}

//go:noinline
func syncedHit(b []byte) {
	for range b {
		syncedHits++
	}
}
