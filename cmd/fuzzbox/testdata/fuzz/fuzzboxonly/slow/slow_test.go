package slow

import (
	"bytes"
	"crypto/sha256"
	"flag"
	"testing"
	"time"
)

func inFuzzbox() bool { return flag.Lookup("fuzzbox.timeout") != nil }

// slowSeeds are FuzzSlowOnlyInFuzzbox's slow seeds, made without a literal
// the fuzzer's dictionary would take from the package and recognised by
// their SHA-256, which comparison guidance does not lead the fuzzer to: only
// the seeds themselves are slow, not their mutants. An input that starts
// with slowPrefix is slow too (a test puts one in the generated corpus):
// minimized, it is that prefix, another input than the entry's.
var (
	slowSeeds  = [][]byte{bytes.Repeat([]byte{'s'}, 40), bytes.Repeat([]byte{'w'}, 41)}
	slowPrefix = bytes.Repeat([]byte{'c'}, 42)
)

func slowSeed(b []byte) bool {
	sum := sha256.Sum256(b)
	for _, s := range slowSeeds {
		if sum == sha256.Sum256(s) {
			return true
		}
	}
	return len(b) >= len(slowPrefix) && sha256.Sum256(b[:len(slowPrefix)]) == sha256.Sum256(slowPrefix)
}

// FuzzSlowOnlyInFuzzbox's first and third seeds run for 3 s in fuzzbox's
// binary and at once under go test, standing for code the instrumentation
// makes several times slower (image/gif's seeds): with -timeout=1s
// fuzzbox's workers see a hang that go test does not, so it must not be
// reported as one, and the fuzz test is fuzzed without them.
func FuzzSlowOnlyInFuzzbox(f *testing.F) {
	f.Add(slowSeeds[0])
	f.Add([]byte("fast"))
	f.Add(slowSeeds[1])
	f.Fuzz(func(t *testing.T, b []byte) {
		if inFuzzbox() && slowSeed(b) {
			time.Sleep(3 * time.Second)
		}
	})
}

// FuzzSlowWhileFuzzing's seed is fast; an input the fuzzer makes that starts
// with "SL" runs for 3 s in fuzzbox's binary and at once under go test: set
// aside while fuzzing, after which fuzzing goes on, as go test -fuzz's does.
func FuzzSlowWhileFuzzing(f *testing.F) {
	f.Add([]byte("fast"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if inFuzzbox() && len(b) > 1 && b[0] == 'S' && b[1] == 'L' {
			time.Sleep(3 * time.Second)
		}
	})
}
