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
	"flag"
	"fmt"
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
// which M.Run parses with the testing flags; the driver passes them in the
// environment (ipc.FlagsEnv), which MainStart reads.
func MainStart(importPath, modulePath string, tests []testing.InternalTest, benchmarks []testing.InternalBenchmark, fuzzTargets []testing.InternalFuzzTarget, examples []testing.InternalExample) *testing.M {
	d := &deps{Deps: basedeps.Deps{Import: importPath, Module: modulePath}}
	own.VisitAll(func(f *flag.Flag) {
		if flag.CommandLine.Lookup(f.Name) == nil {
			flag.CommandLine.Var(f.Value, f.Name, f.Usage)
		}
	})
	if err := setFlagsFromEnv(); err != nil {
		flagsErr = err
		fmt.Fprintln(os.Stderr, err)
	}
	moveEvents(os.Args[1:])
	return testing.MainStart(d, tests, benchmarks, fuzzTargets, examples)
}

// flagsErr is setFlagsFromEnv's error, returned by CoordinateFuzzing: the
// driver never passes a flag the binary does not know, unless the binary
// was built by another version of fuzzbox.
var flagsErr error

// setFlagsFromEnv sets the flags the driver passed in ipc.FlagsEnv, one
// "-name=value" per line, and removes the variable from the environment,
// which every process a test starts would otherwise inherit. Flags given
// on the command line too are parsed after, by M.Run, and win.
func setFlagsFromEnv() error {
	v, ok := os.LookupEnv(ipc.FlagsEnv)
	if !ok {
		return nil
	}
	os.Unsetenv(ipc.FlagsEnv)
	for _, line := range strings.Split(v, "\n") {
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		name, value, _ := strings.Cut(strings.TrimLeft(line, "-"), "=")
		if !strings.HasPrefix(name, "fuzzbox.") {
			return fmt.Errorf("fuzzbox: %s: %q is not one of fuzzbox's flags", ipc.FlagsEnv, line)
		}
		if err := own.Set(name, value); err != nil {
			return fmt.Errorf("fuzzbox: %s: %s: %w (was the binary built by another version of fuzzbox?)", ipc.FlagsEnv, line, err)
		}
	}
	return nil
}

// moveEvents moves the event pipe the driver passes (-fuzzbox.events_fd,
// from the environment or read from args before the flags are parsed) to a
// high descriptor, close-on-exec, before any test runs (ipc.MoveHigh): a
// process a test starts and leaves running would otherwise hold it open,
// and the driver wait for that process to end; a test that uses descriptor
// 3 itself would cut it.
func moveEvents(args []string) {
	fd := *flagEventsFD
	for _, a := range args {
		if a == "--" || a == "-args" {
			break
		}
		v, ok := strings.CutPrefix(strings.TrimLeft(a, "-"), ipc.FlagEventsFD+"=")
		if n, err := strconv.Atoi(v); ok && err == nil {
			fd = n
		}
	}
	if fd >= 0 {
		events.from, events.to = fd, int(ipc.MoveHigh(uintptr(fd)))
		*flagEventsFD = events.to
	}
}

// events is where moveEvents moved the event pipe: the command line's
// -fuzzbox.events_fd, parsed after the move, still names the old one.
var events struct{ from, to int }

// eventsFD returns the event pipe's descriptor, -1 for none.
func eventsFD() int {
	if fd := *flagEventsFD; fd >= 0 && fd == events.from {
		return events.to
	}
	return *flagEventsFD
}
