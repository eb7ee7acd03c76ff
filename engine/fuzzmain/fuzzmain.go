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
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/fuzzbox/fuzzbox/engine/basedeps"
	"github.com/fuzzbox/fuzzbox/engine/ipc"
)

// MainStart returns the testing.M of a test binary whose fuzz targets run on
// the fuzzbox engine. importPath and modulePath are what the go command's
// generated main assigns to testdeps.ImportPath and testdeps.ModulePath.
// The package registers fuzzbox's own -fuzzbox.* flags on flag.CommandLine,
// which M.Run parses with the testing flags.
func MainStart(importPath, modulePath string, tests []testing.InternalTest, benchmarks []testing.InternalBenchmark, fuzzTargets []testing.InternalFuzzTarget, examples []testing.InternalExample) *testing.M {
	d := &deps{Deps: basedeps.Deps{Import: importPath, Module: modulePath}}
	eventsCloseOnExec(os.Args[1:])
	return testing.MainStart(d, tests, benchmarks, fuzzTargets, examples)
}

// eventsCloseOnExec marks the event pipe the driver passes (-fuzzbox.events_fd,
// read from args before the flags are parsed) close-on-exec before any test
// runs: a process a test starts and leaves running would otherwise hold it
// open, and the driver wait for that process to end (ipc.Inherited).
func eventsCloseOnExec(args []string) {
	for _, a := range args {
		if a == "--" || a == "-args" {
			return
		}
		v, ok := strings.CutPrefix(strings.TrimLeft(a, "-"), ipc.FlagEventsFD+"=")
		if fd, err := strconv.Atoi(v); ok && err == nil && fd >= 0 {
			ipc.CloseOnExec(uintptr(fd))
		}
	}
}
