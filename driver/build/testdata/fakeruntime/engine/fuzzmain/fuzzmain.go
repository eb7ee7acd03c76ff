// Package fuzzmain is a stand-in for fuzzbox's engine/fuzzmain in the tests
// of driver/build: MainStart runs the tests with the standard testing package
// and reports what the build must have wired up.
package fuzzmain

import (
	"fmt"
	"io"
	"os"
	"reflect"
	"regexp"
	"testing"
	"time"
	"unsafe"
)

// MainStart has the signature of the real fuzzmain.MainStart. It prints the
// paths it got and the number of edge counters in the binary (nonzero only
// when something was compiled with -d=libfuzzer).
func MainStart(importPath, modulePath string, tests []testing.InternalTest, benchmarks []testing.InternalBenchmark, fuzzTargets []testing.InternalFuzzTarget, examples []testing.InternalExample) *testing.M {
	n := uintptr(unsafe.Pointer(&ecounters)) - uintptr(unsafe.Pointer(&counters))
	fmt.Fprintf(os.Stderr, "fakefuzzmain: importPath=%s modulePath=%s counters=%d\n", importPath, modulePath, n)
	return testing.MainStart(deps{importPath, modulePath}, tests, benchmarks, fuzzTargets, examples)
}

//go:linkname counters internal/fuzz._counters
var counters [0]byte

//go:linkname ecounters internal/fuzz._ecounters
var ecounters [0]byte

// corpusEntry is identical to testing's, which makes deps satisfy testing's
// unexported testDeps interface.
type corpusEntry = struct {
	Parent     string
	Path       string
	Data       []byte
	Values     []interface{}
	Generation int
	IsSeed     bool
}

type deps struct{ importPath, modulePath string }

var errNoFuzzing = fmt.Errorf("fake fuzzmain cannot fuzz")

func (d deps) ImportPath() string { return d.importPath }
func (d deps) ModulePath() string { return d.modulePath }
func (deps) MatchString(pat, str string) (bool, error) {
	return regexp.MatchString(pat, str)
}
func (deps) SetPanicOnExit0(bool)                        {}
func (deps) StartCPUProfile(io.Writer) error             { return nil }
func (deps) StopCPUProfile()                             {}
func (deps) StartTestLog(io.Writer)                      {}
func (deps) StopTestLog() error                          { return nil }
func (deps) WriteProfileTo(string, io.Writer, int) error { return nil }
func (deps) CoordinateFuzzing(time.Duration, int64, time.Duration, int64, int, []corpusEntry, []reflect.Type, string, string) error {
	return errNoFuzzing
}
func (deps) RunFuzzWorker(func(corpusEntry) error) error { return errNoFuzzing }
func (deps) ReadCorpus(string, []reflect.Type) ([]corpusEntry, error) {
	return nil, nil
}
func (deps) CheckCorpus([]interface{}, []reflect.Type) error { return nil }
func (deps) ResetCoverage()                                  {}
func (deps) SnapshotCoverage()                               {}
func (deps) InitRuntimeCoverage() (string, func(string, string) (string, error), func() float64) {
	return "", nil, nil
}
