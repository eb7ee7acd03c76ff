// Package jsparse fuzzes the JavaScript parser of
// github.com/tdewolff/parse/v2/js (js.Parse) and prints the tree it returns
// back as JavaScript, as a minifier or a bundler does, and as the fuzz test of
// the upstream change does (parse, then write the AST out with JS()).
//
// Module github.com/tdewolff/parse/v2 v2.6.8; fixed in v2.7.3 (commit 9b8eaa4
// "JS: fail if throw statement is not followed (without line terminator) by
// an expression").
// Upstream: https://github.com/tdewolff/parse/pull/109 ("Newlines following
// throw would not error during parsing [...] which would crash on
// stringification"), found by fuzzing Parse and JS().
// Bug: "throw" followed by a line terminator is accepted as a throw statement
// without an expression (automatic semicolon insertion does not apply after
// throw); writing the tree out dereferences the missing expression: "invalid
// memory address or nil pointer dereference" in js.ThrowStmt.String (or
// ThrowStmt.JS). The keyword is looked up in a map, not compared, so an
// engine has to make up "throw" in a statement position.
//
// Signature: ThrowStmt\)?\.(String|JS)
package jsparse
