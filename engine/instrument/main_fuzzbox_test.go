//go:build fuzzbox

package instrument_test

import (
	"testing"

	"github.com/fuzzbox/fuzzbox/engine/fuzzmain"
)

// FuzzboxMainStart is called by the test main as rewritten by fuzzbox
// toolexec: a fuzzbox binary must not link testing/internal/testdeps.
func FuzzboxMainStart(importPath, modulePath string, tests []testing.InternalTest, benchmarks []testing.InternalBenchmark, fuzzTargets []testing.InternalFuzzTarget, examples []testing.InternalExample) *testing.M {
	return fuzzmain.MainStart(importPath, modulePath, tests, benchmarks, fuzzTargets, examples)
}
