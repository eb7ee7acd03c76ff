package slowseed

import (
	"bytes"
	"crypto/sha256"
	"flag"
	"testing"
	"time"
)

// inFuzzbox reports whether this is fuzzbox's fuzzing binary (it defines
// -fuzzbox.timeout): the stand-in for instrumentation's cost.
func inFuzzbox() bool { return flag.Lookup("fuzzbox.timeout") != nil }

// slow is FuzzSum's first seed, recognised by its SHA-256 so that the
// fuzzer's comparison guidance does not make it again.
var slow = bytes.Repeat([]byte{'s'}, 40)

// FuzzSum's first seed runs for 3 s in fuzzbox's binary and at once in the
// replay test's: with -timeout=1s the fuzzing binary sees a hang the replay
// test does not have, so slowseed_fuzz_fuzz must pass, fuzzing without it.
func FuzzSum(f *testing.F) {
	f.Add(slow)
	f.Add([]byte("fast"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if inFuzzbox() && sha256.Sum256(b) == sha256.Sum256(slow) {
			time.Sleep(3 * time.Second)
		}
		Sum(b)
	})
}
