// Package shparse fuzzes the shell parser of mvdan.cc/sh/v3/syntax
// (syntax.NewParser().Parse), as shfmt, an editor's shell formatter or a CI
// linter reading scripts would, and as the fuzz test of the upstream report
// does.
//
// Module mvdan.cc/sh/v3 v3.8.0 (also v3.9.0); fixed in v3.10.0 (commit
// 0068634 "syntax: include skipped backslashes in backticks for column
// numbers").
// Upstream: https://github.com/mvdan/sh/issues/1098 (found by fuzzing).
// Bug: inside a backquoted command substitution, the lexer drops the extra
// backslash that escapes a character for the backquotes but still counts it
// in the width of the current rune; when a literal then ends at such an
// escaped character, Parser.endLit cuts the literal's bytes by that width and
// slices before their start: "slice bounds out of range [:-1]" in
// syntax.(*Parser).endLit. The input needs a backquote, then an escaped
// character inside it, then an escaped backslash ending a literal: the
// nesting and quoting of shell text, not one magic byte. The same miscount
// makes Parser.getAssign slice past the end of an assignment's literal that
// ends at such a character ("slice bounds out of range [2:1]"); the same
// commit fixes both (checked at 0068634 and its parent), so the signature
// names both functions. (This target first named endLit alone; fuzzbox and
// libFuzzer met the getAssign panic in the first runs.)
//
// Signature: syntax\.\(\*Parser\)\.(endLit|getAssign)
package shparse
