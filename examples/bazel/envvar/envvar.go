// Package envvar is the Bazel example of a fuzz test that needs its test's
// environment: go_fuzz_test's env (rules_go's go_test attribute) must reach
// the fuzzing binary and the replay of failures, as it reaches the replay
// test; so must its args and x_defs.
package envvar

// Greeting is set at link time (go_fuzz_test's x_defs).
var Greeting string

// Label prefixes s with prefix.
func Label(prefix, s string) string { return prefix + s }
