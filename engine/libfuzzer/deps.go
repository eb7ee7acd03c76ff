package libfuzzer

import (
	"errors"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/fuzzbox/fuzzbox/corpus"
	"github.com/fuzzbox/fuzzbox/engine/basedeps"
)

// corpusEntry must be identical to testing's unexported corpusEntry alias
// (testing/fuzz.go) for deps to implement the testing package's testDeps.
type corpusEntry = struct {
	Parent     string
	Path       string
	Data       []byte
	Values     []any
	Generation int
	IsSeed     bool
}

// deps implements the testing package's testDeps interface, for the
// coordinator and the worker modes of setup.
type deps struct {
	basedeps.Deps
	targets []testing.InternalFuzzTarget
}

// ResetCoverage and SnapshotCoverage implement testDeps; testing calls them
// right before and right after the fuzz function. The engine reads and
// clears the edge counters itself; the comparisons it hears of and the
// counters it reads are the fuzz function's only (shim.go).
func (d *deps) ResetCoverage()    { fuzzStart() }
func (d *deps) SnapshotCoverage() { fuzzEnd() }

// ReadCorpus implements testDeps. A missing directory (a binary run away
// from its package, as in the cloud) is an empty corpus.
func (d *deps) ReadCorpus(dir string, types []reflect.Type) ([]corpusEntry, error) {
	entries, err := corpus.ReadDir(dir, types)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	out := make([]corpusEntry, len(entries))
	for i, e := range entries {
		out[i] = corpusEntry{Path: e.Path, Data: e.Data, Values: e.Values}
	}
	return out, err
}

// CoordinateFuzzing implements testDeps: the coordinator modes of setup.
func (d *deps) CoordinateFuzzing(_ time.Duration, _ int64, _ time.Duration, _ int64, _ int, seeds []corpusEntry, types []reflect.Type, corpusDir, _ string) error {
	d.coordinate(seeds, types, corpusDir)
	return nil // not reached
}

// RunFuzzWorker implements testDeps: the worker mode of setup.
func (d *deps) RunFuzzWorker(fn func(corpusEntry) error) error {
	d.work(fn)
	return nil // not reached
}
