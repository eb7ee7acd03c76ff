// The engine's tests cannot link with stock "go test": package engine
// imports engine/instrument, which defines the runtime's comparison hooks that
// testing/internal/testdeps (through internal/fuzz) defines too. Run them
// with fuzzbox's test main instead:
//
//	go build -o /tmp/fuzzbox ./cmd/fuzzbox
//	go test -toolexec="/tmp/fuzzbox toolexec" ./engine/...
//
// The toolexec rewrites the generated test main to call FuzzboxMainStart.

package engine_test

import (
	"testing"

	"github.com/fuzzbox/fuzzbox/engine/fuzzmain"
)

// FuzzboxMainStart is called by the test main as rewritten by fuzzbox toolexec.
func FuzzboxMainStart(importPath, modulePath string, tests []testing.InternalTest, benchmarks []testing.InternalBenchmark, fuzzTargets []testing.InternalFuzzTarget, examples []testing.InternalExample) *testing.M {
	return fuzzmain.MainStart(importPath, modulePath, tests, benchmarks, fuzzTargets, examples)
}
