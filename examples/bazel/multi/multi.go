// Package multi has two functions without known bugs, for the sharded
// fuzzing target of the fuzzbox Bazel example.
package multi

import "strings"

// Reverse returns s with its bytes reversed.
func Reverse(s string) string {
	b := []byte(s)
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return string(b)
}

// Words splits s at spaces and drops empty words.
func Words(s string) []string { return strings.Fields(s) }
