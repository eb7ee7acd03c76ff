package main

import (
	"slices"
	"strings"
)

// stockUnset are the variables of Bazel's test runner that make a stock
// rules_go test binary run something else than the replay the driver asks
// for: TEST_WORKSPACE (with TEST_SRCDIR, bzltestutil changes directory to
// the package's runfiles, not the copy in TEST_TMPDIR where the reproducer
// is), TESTBRIDGE_TEST_ONLY (--test_filter replaces -test.run),
// TEST_TOTAL_SHARDS and TEST_SHARD_INDEX (the tests of another shard are
// skipped), XML_OUTPUT_FILE (the test wrapper re-runs the binary and writes
// the fuzzing test's own XML report), and the files the test runner reads
// after the fuzzing test.
var stockUnset = []string{
	"TEST_WORKSPACE", "TESTBRIDGE_TEST_ONLY", "TESTBRIDGE_TEST_RUNNER_FAIL_FAST",
	"TEST_TOTAL_SHARDS", "TEST_SHARD_INDEX", "TEST_SHARD_STATUS_FILE",
	"XML_OUTPUT_FILE", "TEST_PREMATURE_EXIT_FILE", "COVERAGE_OUTPUT_FILE",
}

// stockEnv returns env (the runner's environment) for the replay test's
// binary: without stockUnset, and GO_TEST_WRAP=0 (no test wrapper).
func stockEnv(env []string) []string {
	env = slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return name == "GO_TEST_WRAP" || slices.Contains(stockUnset, name)
	})
	return append(env, "GO_TEST_WRAP=0")
}
