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
