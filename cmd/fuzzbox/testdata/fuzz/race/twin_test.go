package race

import (
	"flag"
	"strings"
	"testing"
)

// tally is shared by the goroutines of the inputs below.
var tally int

// FuzzTwinRace races only on inputs that start with "TW": two goroutines
// add to tally without a lock. Nothing fails in a plain build, so only the
// race twin (-racetwin) or a -race build reports it.
func FuzzTwinRace(f *testing.F) {
	f.Add("seed")
	f.Fuzz(func(t *testing.T, s string) {
		if strings.HasPrefix(s, "TW") {
			inTwo(func() { tally += len(s) }) // unsynchronized: a data race
		}
	})
}

// FuzzFuzzboxOnlyRace races only in fuzzbox's worker processes (which have
// fuzzbox's flags), never under stock go test -race: the race twin finds
// it, and the driver must not report it.
func FuzzFuzzboxOnlyRace(f *testing.F) {
	f.Add("seed")
	f.Fuzz(func(t *testing.T, s string) {
		if strings.HasPrefix(s, "TW") && flag.Lookup("fuzzbox.timeout") != nil {
			inTwo(func() { tally++ }) // unsynchronized, in fuzzbox's workers only
		}
	})
}
