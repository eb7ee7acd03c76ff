// Package frametest helps the tests of package magic. It imports package frame
// too, so the fuzzing binary must link it against the instrumented frame (a test
// dependency between the package under test and an instrumented package).
package frametest

import "example.com/fuzzbox-bazel-example/magic/frame"

// Short returns an input one byte too short for a frame header.
func Short() []byte { return make([]byte, frame.HeaderLen-1) }
