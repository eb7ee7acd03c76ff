// Package jqrun fuzzes the jq query language of github.com/itchyny/gojq
// (gojq.Parse, gojq.Compile, then running the code on a null input and
// reading every result, errors included), as gojq's own fuzz test does
// (FuzzQueryRun in query_test.go; in v0.12.13 and later, not in v0.12.8) and
// as a program evaluating user-supplied jq filters through the library does.
//
// Module github.com/itchyny/gojq v0.12.14 (the bug is in every release on
// the module proxy from v0.12.8 to v0.12.19); fixed in v0.12.20 (CHANGELOG:
// "fix panic on continuing iteration after an invalid path error").
// Upstream: https://github.com/itchyny/gojq/pull/297 (the report is the pull
// request; it does not say how the bug was found, but gojq's own fuzz test,
// which reads every result, reaches it).
// Bug: inside path(...), iterating (a ".[]" suffix) a value that is not a
// path of the input, such as the literal array of "path([][])", makes the
// iteration instruction pop that value and return "invalid path on iterating
// against: array ([])" as a result. With nothing left to backtrack into, the
// program counter stays on that instruction and the value is gone from the
// stack; the library lets its caller go on after an error result, and the
// next Next runs the instruction again and pops an empty stack: "index out
// of range [-1]" in (*stack).pop, inlined into (*env).Next. "path({}[])",
// "path([1]|.[])" and "1,path([][])" panic too; an alternative left after
// the error ("path([][]),1", "[path([][])]") hides it. The input needs a
// path expression around an iteration of a constructed array or object: jq
// syntax, not one magic byte.
//
// Signature: (?s)index out of range \[-1\].*gojq\.\(\*env\)\.Next
package jqrun
