// Package basedeps holds what fuzzbox's two implementations of the testing
// package's deps interface share: the fuzzing test main (engine/fuzzmain)
// and the libFuzzer binary's (engine/libfuzzer). Each embeds Deps and adds
// the fuzzing methods (CoordinateFuzzing, RunFuzzWorker, ReadCorpus, the
// coverage hooks). Like them it is linked into every fuzzing binary, so it
// imports only the standard library and corpus.
package basedeps

import (
	"io"
	"reflect"
	"regexp"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync"
	"sync/atomic"
	_ "unsafe" // for go:linkname

	"github.com/fuzzbox/fuzzbox/corpus"
)

// Deps implements the testing package's deps methods that have nothing to
// do with fuzzing. Its exported fields are set once, before testing.MainStart.
type Deps struct {
	Import, Module string // what the go command's test main assigns to testdeps.ImportPath and ModulePath

	matchMu  sync.Mutex
	matchPat string
	matchRE  *regexp.Regexp
}

// ImportPath implements testDeps.
func (d *Deps) ImportPath() string { return d.Import }

// ModulePath implements testDeps.
func (d *Deps) ModulePath() string { return d.Module }

// MatchString implements testDeps, caching the last pattern compiled.
func (d *Deps) MatchString(pat, str string) (bool, error) {
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

// SetPanicOnExit0 implements testDeps as testdeps does: with
// -test.paniconexit0 (go test sets it; so does fuzzbox's driver), a test
// that calls os.Exit(0) panics instead of ending the binary as if all passed.
//
// testing's M.Run calls it first: whether M.Run was called from a TestMain
// is recorded (InTestMain).
func (d *Deps) SetPanicOnExit0(v bool) {
	setPanicOnExit0(v)
	pcs := make([]uintptr, 16)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
	for {
		f, more := frames.Next()
		if strings.HasSuffix(f.Function, ".TestMain") && !strings.HasPrefix(f.Function, "testing.") {
			inTestMain.Store(true)
		}
		if !more {
			break
		}
	}
}

var inTestMain atomic.Bool

// InTestMain reports whether testing's M.Run was called from the
// package's TestMain: the code before it runs in each fuzzing process too.
func InTestMain() bool { return inTestMain.Load() }

// internal/testlog marks SetPanicOnExit0 for linkname by "alternate
// implementations of go test in other build systems" (go.dev/issue/67401).
//
//go:linkname setPanicOnExit0 internal/testlog.SetPanicOnExit0
func setPanicOnExit0(v bool)

// StartCPUProfile implements testDeps.
func (d *Deps) StartCPUProfile(w io.Writer) error { return pprof.StartCPUProfile(w) }

// StopCPUProfile implements testDeps.
func (d *Deps) StopCPUProfile() { pprof.StopCPUProfile() }

// WriteProfileTo implements testDeps.
func (d *Deps) WriteProfileTo(name string, w io.Writer, debug int) error {
	return pprof.Lookup(name).WriteTo(w, debug)
}

// StartTestLog implements testDeps; test logs only serve go test's result
// cache, which does not apply to fuzzing binaries.
func (d *Deps) StartTestLog(io.Writer) {}

// StopTestLog implements testDeps.
func (d *Deps) StopTestLog() error { return nil }

// InitRuntimeCoverage implements testDeps: -cover is not supported.
func (d *Deps) InitRuntimeCoverage() (string, func(string, string) (string, error), func() float64) {
	return "", nil, nil
}

// CheckCorpus implements testDeps.
func (d *Deps) CheckCorpus(vals []any, types []reflect.Type) error {
	return corpus.CheckTypes(vals, types)
}
