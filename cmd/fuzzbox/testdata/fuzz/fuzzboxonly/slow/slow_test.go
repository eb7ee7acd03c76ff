package slow

import (
	"flag"
	"testing"
	"time"
)

func inFuzzbox() bool { return flag.Lookup("fuzzbox.timeout") != nil }

// FuzzSlowOnlyInFuzzbox's seed runs for 3 s in fuzzbox's binary and at once
// under go test, standing for code the instrumentation makes several times
// slower: with -timeout=1s fuzzbox's workers see a hang that go test does
// not, so it must not be reported as one.
func FuzzSlowOnlyInFuzzbox(f *testing.F) {
	f.Add([]byte("Slow"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if inFuzzbox() && len(b) > 0 && b[0] == 'S' {
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
