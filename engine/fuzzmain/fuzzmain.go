// Package fuzzmain connects the standard testing package to the fuzzbox
// engine. A test binary built by fuzzbox calls MainStart where a stock one
// calls testing.MainStart(testdeps.TestDeps{}, ...): the test main generated
// by "fuzzbox testmain" (and by "fuzzbox fuzz" through -toolexec) and, later,
// the Bazel rules' fuzzing binaries.
//
// Tests, benchmarks and examples behave as with go test. Fuzz targets run
// their seed corpus as usual; with -test.fuzz the process becomes the fuzzbox
// coordinator (engine.Coordinate), and with -test.fuzzworker a worker
// (engine.RunWorker).
//
// The package never imports testing/internal/testdeps: that would link
// internal/fuzz, whose empty comparison hooks clash with engine/instrument's.
package fuzzmain

import (
	"testing"

	"github.com/fuzzbox/fuzzbox/engine/basedeps"
)

// MainStart returns the testing.M of a test binary whose fuzz targets run on
// the fuzzbox engine. importPath and modulePath are what the go command's
// generated main assigns to testdeps.ImportPath and testdeps.ModulePath.
// The package registers fuzzbox's own -fuzzbox.* flags on flag.CommandLine,
// which M.Run parses with the testing flags.
func MainStart(importPath, modulePath string, tests []testing.InternalTest, benchmarks []testing.InternalBenchmark, fuzzTargets []testing.InternalFuzzTarget, examples []testing.InternalExample) *testing.M {
	d := &deps{Deps: basedeps.Deps{Import: importPath, Module: modulePath}}
	return testing.MainStart(d, tests, benchmarks, fuzzTargets, examples)
}
