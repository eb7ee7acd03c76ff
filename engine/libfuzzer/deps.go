package libfuzzer

import (
	"errors"
	"io"
	"os"
	"reflect"
	"regexp"
	"runtime/pprof"
	"sync"
	"testing"
	"time"

	"github.com/fuzzbox/fuzzbox/corpus"
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

// deps implements the testing package's testDeps interface for both phases
// of setup. t is set by coordinate before the worker phase starts.
type deps struct {
	importPath, modulePath string
	targets                []testing.InternalFuzzTarget
	t                      *target

	matchMu  sync.Mutex
	matchPat string
	matchRE  *regexp.Regexp
}

func (d *deps) ImportPath() string { return d.importPath }
func (d *deps) ModulePath() string { return d.modulePath }

// MatchString implements testDeps.
func (d *deps) MatchString(pat, str string) (bool, error) {
	d.matchMu.Lock()
	defer d.matchMu.Unlock()
	if pat != d.matchPat || d.matchRE == nil {
		re, err := regexp.Compile(pat)
		if err != nil {
			return false, err
		}
		d.matchPat, d.matchRE = pat, re
	}
	return d.matchRE.MatchString(str), nil
}

// SetPanicOnExit0 implements testDeps (as in engine/fuzzmain, not supported).
func (d *deps) SetPanicOnExit0(bool) {}

func (d *deps) StartCPUProfile(w io.Writer) error { return pprof.StartCPUProfile(w) }
func (d *deps) StopCPUProfile()                   { pprof.StopCPUProfile() }
func (d *deps) WriteProfileTo(name string, w io.Writer, debug int) error {
	return pprof.Lookup(name).WriteTo(w, debug)
}

// StartTestLog and StopTestLog implement testDeps; no test log is kept.
func (d *deps) StartTestLog(io.Writer) {}
func (d *deps) StopTestLog() error     { return nil }

// InitRuntimeCoverage implements testDeps: -cover is not supported.
func (d *deps) InitRuntimeCoverage() (string, func(string, string) (string, error), func() float64) {
	return "", nil, nil
}

// ResetCoverage and SnapshotCoverage implement testDeps: the engine reads
// and clears the edge counters itself.
func (d *deps) ResetCoverage()    {}
func (d *deps) SnapshotCoverage() {}

// CheckCorpus implements testDeps.
func (d *deps) CheckCorpus(vals []any, types []reflect.Type) error {
	return corpus.CheckTypes(vals, types)
}

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

// CoordinateFuzzing implements testDeps: the first phase of setup.
func (d *deps) CoordinateFuzzing(_ time.Duration, _ int64, _ time.Duration, _ int64, _ int, seeds []corpusEntry, types []reflect.Type, corpusDir, _ string) error {
	d.coordinate(seeds, types, corpusDir)
	return nil // not reached
}

// RunFuzzWorker implements testDeps: the second phase of setup.
func (d *deps) RunFuzzWorker(fn func(corpusEntry) error) error {
	d.work(fn)
	return nil // not reached
}
