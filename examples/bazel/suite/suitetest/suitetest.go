// Package suitetest is suite's test suite: checks the tests of suite share.
// It imports suite, the package under test.
package suitetest

import (
	"testing"

	"example.com/fuzzbox-bazel-example/suite"
)

// CheckParse parses text and checks that every key it returns is in text.
func CheckParse(t *testing.T, text string) {
	t.Helper()
	for k := range suite.Parse(text) {
		if len(k) > len(text) {
			t.Fatalf("key %q longer than the input", k)
		}
	}
}
