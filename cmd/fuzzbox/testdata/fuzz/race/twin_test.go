package race

import (
	"os"
	"strings"
	"sync"
	"testing"
)

// tally is shared by the goroutines of FuzzTwinRace's inputs.
var tally int

// FuzzTwinRace races only on inputs that start with "TW": two goroutines
// add to tally without a lock. Nothing fails in a plain build, so only the
// race twin (-racetwin) or a -race build reports it.
func FuzzTwinRace(f *testing.F) {
	f.Add("seed")
	f.Fuzz(func(t *testing.T, s string) {
		if !strings.HasPrefix(s, "TW") {
			return
		}
		var wg sync.WaitGroup
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				tally += len(s) // unsynchronized: a data race
			}()
		}
		wg.Wait()
	})
}

// FuzzFuzzboxOnlyRace races only in fuzzbox's worker processes (whose
// GODEBUG has adaptivestackstart, engine/stack.go), never under stock go
// test -race: the race twin finds it, and the driver must not report it.
func FuzzFuzzboxOnlyRace(f *testing.F) {
	f.Add("seed")
	f.Fuzz(func(t *testing.T, s string) {
		if !strings.HasPrefix(s, "TW") || !strings.Contains(os.Getenv("GODEBUG"), "adaptivestackstart") {
			return
		}
		var wg sync.WaitGroup
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				tally++ // unsynchronized, in fuzzbox's workers only
			}()
		}
		wg.Wait()
	})
}
