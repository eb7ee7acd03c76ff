// Package suite parses "key=value" lines. Its tests use a test-suite package
// beside it, suitetest, which imports suite itself, as go-toml's and
// BurntSushi/toml's test suites do: the fuzzing binary links suitetest
// compiled against the package with its test files (rules/private/relink.bzl).
package suite

import "strings"

// Parse returns the pairs of text's "key=value" lines; lines without "="
// are skipped. The planted bug: a key "depth" must have a value.
func Parse(text string) map[string]string {
	m := make(map[string]string)
	for _, line := range strings.Split(text, "\n") {
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		if k == "depth" {
			_ = v[0] // index out of range on "depth="
		}
		m[k] = v
	}
	return m
}
