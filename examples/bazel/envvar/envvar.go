// Package envvar is the Bazel example of a fuzz test that needs its test's
// environment: go_fuzz_test's env (rules_go's go_test attribute) must reach
// the fuzzing binary and the replay of failures, as it reaches the replay
// test; so must its args, x_defs, gc_goopts and gc_linkopts.
package envvar

// Greeting is set at link time (go_fuzz_test's x_defs).
var Greeting string

// Linked is set at link time by go_fuzz_test's gc_linkopts (-X).
var Linked string

// Label prefixes s with prefix.
func Label(prefix, s string) string { return prefix + s }
